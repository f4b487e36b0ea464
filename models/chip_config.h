// ChipConfig: every size, clock and limit of the Beagle model in one place, with the evidence for
// each default. Models read their sizes from here at reset, so one elaborated chip can be
// reconfigured between runs (the SystemC kernel elaborates once per process).
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "models/timing_model.h"
#include "units/units.h"

namespace coralsim::hle {
class ProgramRegistry;  // models/hle/program_registry.h
}  // namespace coralsim::hle

namespace coralsim::traces {
class Tracer;  // traces/trace_event.h
}  // namespace coralsim::traces

namespace coralsim::lle {
class ComputeObserver;  // models/lle/compute_observer.h
}  // namespace coralsim::lle

namespace coralsim::models {

// The datapath ladder (docs/ARCHITECTURE.md §3). The control plane always runs exactly.
enum class ExecutionMode {
  kAuto,      // highest rung that covers the whole program
  kLle,       // tile packets executed from decoded fields
  kHle,       // registered CPU twin computes the numbers
  kProtocol,  // no numbers: outputs of the right size and timing, flagged invalid
};

[[nodiscard]] std::string_view executionModeName(ExecutionMode mode);
// Parses "auto", "lle", "hle", "protocol"; returns false on anything else.
[[nodiscard]] bool parseExecutionMode(std::string_view text, ExecutionMode& out);

// How the compute epilogue rounds float32(acc) x scale to an integer (docs/isa.md §5.5, open
// question Q1). The device evidence (RingCanary conv hash, rubensrech box conv) favours float32
// requantisation with round-to-nearest; the options exist so the corpus test can report every
// hypothesis's match rate against the golden data (models/lle/requantizer.h).
enum class RequantRounding {
  kFp32HalfEven,     // round(float32(acc) * scale), ties to even: the default, the device's (requantizer.h, "round18")
  kFp32HalfAway,     // the same, ties away from zero (std::round)
  kTfliteFixedPoint, // TFLite reference: Q31 multiplier, doubling high mul + rounding shift
};

[[nodiscard]] std::string_view requantRoundingName(RequantRounding rounding);
// Parses "fp32-half-even", "fp32-half-away", "tflite-fixed-point"; false on anything else.
[[nodiscard]] bool parseRequantRounding(std::string_view text, RequantRounding& out);

struct ChipConfig {
  // 500 MHz is the full-clock runtime (libedgetpu1-max); 250 MHz the reduced-clock "std" one
  // (scu_ctrl_3 rg_gcb_clkdiv, docs/usb-protocol.md §5.2).
  units::Frequency clockHz = 500'000'000;

  // 4 x 4 tiles (beagle_chip_structures.h: number_x_tiles = number_y_tiles = 4).
  unsigned tilesX = 4;
  unsigned tilesY = 4;
  // narrow_memory_capacity = 196608 bytes per tile (docs/isa.md §1).
  units::Bytes narrowMemoryBytesPerTile = 196'608;
  // Wide (parameter) memory per tile is not published. The compiler caches up to ~8 MB of weights
  // on chip (larger models become STAND_ALONE, docs/usb-protocol.md §6.2): 16 x 512 KiB. [choice]
  // Since supported by the corpus: the parameter receives (0x11) fill 256-byte rows up to row 2048
  // and never beyond (docs/decoding-log.md "decode4" §A).
  units::Bytes wideMemoryBytesPerTile = 512 * 1024;
  // Programs address scalar memory up to word 0xfff (docs/isa.md §3.1): at least 4096 words.
  uint32_t scalarMemoryWords = 4096;

  // Host data the bridge buffers ahead of the program before it NAKs, per record class
  // (measured stall points, docs/usb-protocol.md §3.2: ~28 KiB tag 0, ~32 KiB tag 1, ~48 KiB tag 2).
  units::Bytes instructionBufferBytes = 28 * 1024;
  units::Bytes inputBufferBytes = 32 * 1024;
  units::Bytes parameterBufferBytes = 48 * 1024;

  // Every constant of the cycle-approximate cost models, with its evidence (models/timing_model.h).
  TimingModel timing;

  // A runaway program is stopped after this many cycles and reported as a fatal hardware error.
  units::Cycles cycleLimit = 4'000'000'000;

  ExecutionMode mode = ExecutionMode::kAuto;
  // Rounding of the lle rung's requantisation epilogue (see RequantRounding).
  RequantRounding requantRounding = RequantRounding::kFp32HalfEven;

  // Programs the hle rung recognises by the hash of their instruction chunks, each with the CPU
  // twin that computes its outputs. Shared and immutable: many devices may serve the same set.
  std::shared_ptr<const hle::ProgramRegistry> hlePrograms;

  // Where the chip reports trace events and executed instructions (timeline, instruction trace,
  // VCD); null = tracing off, which costs a null check per packet. Owned by the caller.
  std::shared_ptr<const traces::Tracer> tracer;

  // Told what every compute packet the lle rung executes writes to tile memory (the layer checker,
  // sim/layer_check/); null = nobody listens. Owned by the caller.
  std::shared_ptr<lle::ComputeObserver> lleComputeObserver;

  [[nodiscard]] unsigned tileCount() const { return tilesX * tilesY; }
};

}  // namespace coralsim::models

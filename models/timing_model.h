// TimingModel: every constant of coralsim's cycle-approximate cost models in one struct, with the
// evidence for each value. ChipConfig carries one (ChipConfig::timing); the blocks read it at reset.
// The formulas that use these constants sit in models/chip/cost_model.h, one function per block.
//
// Evidence tags: [doc] a published figure or a fact of docs/isa.md / docs/usb-protocol.md;
// [calibrated] fitted by scripts/calibrate-timing.py against the published latencies in
// scripts/timing-references.json (the fit, its residuals and the leave-one-out error are in the
// report that script writes); [choice] a modelling decision with no direct evidence.
//
// The USB side of a run's predicted time (bytes on the link, per-transfer overheads, host
// turnaround) is modelled in sim/usb_link_model.h: the chip clock never waits for the host
// (models/chip/block_interfaces.h), so chip cycles only hold the device's own work.
#pragma once

#include <cstdint>
#include <variant>

#include "units/units.h"

namespace coralsim::models {

// The cost models count in typed units (units/units.h): a cycle count, a byte count and a bus
// width do not mix by accident. models:: code names them unqualified.
using units::Bytes;
using units::BytesPerCycle;
using units::Cycles;
using units::transferCycles;

// Scalar-core issue costs. They sit in the core's inner loop (models/scalar/scalar_engine.cc), so
// they are compile-time constants rather than fields: one 128-bit instruction word is fetched per
// cycle [choice: the scalar core is a single-issue VLIW fed one word per cycle, docs/isa.md §3.2].
//   scalar bundle (0x20), HALT, branch, loop word    1 cycle
//   any other packet of L words (tile, scalar-side)  L cycles (multi-word packet issue)
inline constexpr uint64_t kBundleIssueCycles = 1;
inline constexpr uint64_t kIssueCyclesPerPacketWord = 1;

// Issue cost of a packet of `lengthWords` words (bundles and control packets are one word long).
[[nodiscard]] constexpr uint64_t packetIssueCycles(uint64_t lengthWords) {
  // While both costs are equal the formula is one multiplication: no branch in the core's hot loop.
  if constexpr (kBundleIssueCycles == kIssueCyclesPerPacketWord) return lengthWords * kIssueCyclesPerPacketWord;
  return lengthWords <= 1 ? kBundleIssueCycles : lengthWords * kIssueCyclesPerPacketWord;
}

struct TimingModel {
  // ---- MAC array (compute packets 0x01-0x05) ---------------------------------------------------
  // Each tile's 64 MAC cells can take 4 input bytes per cycle (16 x 64 x 4 = 4096 MAC/cycle, the
  // 4 TOPS of the datasheet at 500 MHz) [doc: docs/isa.md §1]: at that peak one output position
  // times one 4-byte group of the reduction would cost one cycle. A compute packet's work is the
  // product of its decoded loop limits (models/chip/cost_model.cc kOuterA / kOuterB): the K
  // reduction (k_w0 + 1 groups, docs/isa.md §4.2) and the two output-position loops of word 5.
  // The compiler does not expect the peak: its own estimate (estimated_cycles_64bit) assumes
  // 630-1,020 MACs per cycle on the MobileNets, PoseNet, DeepLab and iwatake's 7 x 7 convolution,
  // 15-25 % of it (docs/timing.md §1). 8 cycles per iteration (512 MAC/cycle over 16 tiles):
  // [calibrated: against the compiler's estimates, not the latencies — of the candidates 1..16
  // (scripts/estimate-fit.py --sweep) 8 puts the MobileNet/PoseNet/DeepLab/voice executables at
  // 0.45-1.46x of the estimate (0.07-0.31x at 1 cycle; MobileNet v1 0.25, infeed-bound here, stays
  // at 2.9x), 2 of 33 executables within 0.8-1.25x (1 at
  // 1 cycle); tested on the 42 published latencies: mean absolute error 7.8 % and 39 of 42 within
  // +-30 % (9.8 % and 38 at 1 cycle)].
  // Known gap: where the compiler does not fold a k x k kernel into K (im2col, as in the RingCanary
  // 3 x 3 convolutions: k_w0 + 1 = 72 = 3 x 3 x 32 / 4), the tap loop is somewhere in the packet's
  // undecoded TTU words and not counted: iwatake's 10-layer 7 x 7 convolution's packets stand for
  // 306 M of its 7,476 M MACs (`coralsim profile`, docs/timing.md).
  Cycles macCyclesPerIteration = 8;  // [calibrated]
  // Fixed cost of a compute packet besides its loops: TTU set-up, pipeline fill and drain, the
  // requantisation epilogue. [calibrated: 300 of the grid 0..30000, fitted with 1 cycle per MAC
  // iteration; with 8, 300 and 0 give 7.8 % and 7.7 % on the latencies (docs/timing.md)]
  Cycles computePacketCycles = 300;

  // ---- NLU (0x19) ------------------------------------------------------------------------------
  // Loading the 13-word polynomial table into the tile's NLU: one word per cycle [choice]; using
  // it costs nothing extra (it runs in the compute epilogue the 0x01 packet already pays).
  Cycles nluTableCycles = 13;

  // ---- tile DMA engines and ring/mesh transfers ------------------------------------------------
  // 0x10-0x18 move data between narrow/wide memories, the ring bus and the mesh. Their byte
  // counts are not decoded (docs/isa.md §4.3), so each packet costs a fixed transfer time.
  // [calibrated: 0 of the grid 0..3000 — on the published latencies the DMA engines never set the
  // pace (they overlap the MAC array between fences); kept as a knob for when their byte counts
  // are decoded]
  Cycles tileDmaPacketCycles = 0;
  // Tile and scalar fences (0x1a, 0x24) cost their issue only; a tile fence makes the tile wait
  // until every unit of the tile is idle (models/chip/tile.h).

  // ---- infeed (tag 1/2 descriptors, 0x25/0x26 ring pops) ---------------------------------------
  // Host bytes requested by a descriptor land on chip over the ring bus at one 128-bit word per
  // cycle [choice: the ring's width is the instruction word's; docs/isa.md §4.1 0x26 offsets are
  // in 16-byte units].
  BytesPerCycle infeedBytesPerCycle = 16;

  // ---- outfeed (tag 3 windows towards EP 0x81) -------------------------------------------------
  // Output bytes leave the tiles over the ring bus towards the USB bridge, one 128-bit word per
  // cycle [choice, same width as the infeed]; the final HALT waits until the last byte has left.
  BytesPerCycle outfeedBytesPerCycle = 16;
};

// The table of TimingModel's fields, declared once: `coralsim run --timing-constant NAME=VALUE`
// and scripts/calibrate-timing.py address them by these names.
struct TimingConstant {
  const char* name;
  std::variant<Cycles TimingModel::*, BytesPerCycle TimingModel::*> field;  // in its own unit
  const char* evidence;

  // Sets the constant to `value`, a number in the constant's unit (cycles, bytes per cycle).
  void set(TimingModel& timing, uint64_t value) const {
    std::visit([&](auto member) { timing.*member = value; }, field);
  }
};
inline constexpr TimingConstant kTimingConstants[] = {
    {"mac_cycles_per_iteration", &TimingModel::macCyclesPerIteration, "calibrated"},
    {"compute_packet_cycles", &TimingModel::computePacketCycles, "calibrated"},
    {"nlu_table_cycles", &TimingModel::nluTableCycles, "choice"},
    {"tile_dma_packet_cycles", &TimingModel::tileDmaPacketCycles, "calibrated"},
    {"infeed_bytes_per_cycle", &TimingModel::infeedBytesPerCycle, "choice"},
    {"outfeed_bytes_per_cycle", &TimingModel::outfeedBytesPerCycle, "choice"},
};

}  // namespace coralsim::models

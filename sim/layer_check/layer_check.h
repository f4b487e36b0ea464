// The layer checker (issue #12 item 4; Dolphin checks its HLE with its LLE the same way): runs a
// compiled model on the lle rung with the CPU twin beside it and reports, per twin layer, whether
// the bytes its compute packets wrote to tile memory equal the twin's intermediate tensor — or
// the first position where they differ, both values, or that lle stopped before the layer and why.
//
// How (every step deterministic):
//   1. the mapping: the model runs once on the protocol rung (the control plane is exact on every
//      program, whatever the rung) and its compute packets, from the trace events, are assigned
//      to the twin's layers by cumulative MAC work (sim/profile/layer_mapping.h, the rule of
//      `coralsim profile`, with its mac-aligned / uncertain verdict);
//   2. the lle run: the same inputs on the lle rung (strict), every compute packet's lane results
//      captured as they reach narrow memory (compute_capture.h); the k-th packet lle executed is
//      the k-th of step 1 (checked by PC and tile count); a refusal stops it, and its text is the stop;
//   3. the twin: its graph on the same inputs, on the hle rung's 8-bit reference kernels,
//      keeping every intermediate tensor (hle::GraphExecutor::runKeepingTensors);
//   4. per layer, its packets' lanes against its first output tensor (tensor_comparison.h,
//      lane_layout.h: one-position packets by slices, several-position packets through the
//      executable's OutputLayout where the tensor is an output layer; identity copies, which stage
//      the layer's input, are counted, not compared).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "driver/model/model_file.h"
#include "models/chip_config.h"
#include "sim/layer_check/tensor_comparison.h"
#include "sim/profile/twin_layers.h"

namespace coralsim::sim {

enum class LayerVerdict {
  kMatched,          // every element of its tensor computed by its packets, all equal
  kDiffers,          // at least one element differs by more than the tolerance (TensorComparison::first)
  kWithinTolerance,  // every compared element within the tolerance, some not equal
  kPartlyComputed,   // what its packets wrote is equal, but they did not cover the whole tensor
                     // (lle stopped inside the layer, or fewer lanes than elements)
  kNotReached,       // lle stopped before its first compute packet
  kDoesNotFit,       // its packets wrote more lane slices than the tensor has: mapping or layout wrong
  kNotPlaced,        // its packets wrote several positions a tile and no rule places them
                     // (lane_layout.h rule 2: not an output layer with an OutputLayout, or positions
                     // the layout does not have)
  kNoComputePacket,  // an op without MACs (quantize, pooling, add, ...): no compute packet of its own
  kNoPacketMapped,   // an op with MACs that the mapping gave no compute packet (see its `mapping`)
  kOnCpu,            // the compiler left it on the CPU
};
[[nodiscard]] const char* layerVerdictName(LayerVerdict verdict);  // "matched", "differs", ...

struct LayerCheckRow {
  TwinLayer layer;
  std::string mapping;               // layer_mapping.h: "mac-aligned", "uncertain", ...
  double agreement = 0;
  std::vector<size_t> packets;       // its compute packets (indices in the inference, issue order)
  size_t packetsRun = 0;             // how many of them the lle rung executed
  TwinTensor tensor;                 // its first output in the twin (bytes empty when not compared)
  TensorComparison comparison;
  LayerVerdict verdict = LayerVerdict::kNoComputePacket;
};

struct LayerCheckReport {
  std::string model;
  std::string twin;                  // path of the CPU twin
  std::string twinNote;              // how it was found
  std::string rounding;              // the lle epilogue's rounding (ChipConfig::requantRounding)
  unsigned tolerance = 0;            // LayerCheckOptions::tolerance
  size_t computePackets = 0;         // compute packets of the inference (the mapping run)
  size_t lleComputePackets = 0;      // of them, executed by the lle rung
  bool lleCompleted = false;         // the lle run finished without a refusal
  std::string stop;                  // otherwise: the run's error, the device's refusal inside it
  std::string refusal;               // the device's part of `stop` (opcode, PC, word, field), or `stop`
  std::vector<LayerCheckRow> rows;   // every twin layer, operator order
  std::optional<size_t> firstDiffering;  // index into rows of the first kDiffers layer
  // When lle stopped: index into rows of the layer that owns the next compute packet it did not
  // execute (the stop lies in or before that layer); none when no packet was left unexecuted.
  std::optional<size_t> stoppedAt;

  [[nodiscard]] bool mismatch() const { return firstDiffering.has_value(); }
};

struct LayerCheckOptions {
  std::optional<std::filesystem::path> twin;  // default: X.tflite beside X_edgetpu.tflite
  // One per model input, TFLite encoding (driver::planRun order); default: driver::randomInputs(seed).
  std::optional<std::vector<std::vector<uint8_t>>> inputs;
  uint64_t seed = 1;
  // The lle epilogue's rounding. Default: the twin's (TFLite's fixed point), so that a difference
  // is a decoding matter, not the twin's rounding against the device's (float32, ties to even:
  // models/lle/requantizer.h, docs/decoding-log.md "round18"; the rung's own default).
  models::RequantRounding rounding = models::RequantRounding::kTfliteFixedPoint;
  unsigned tolerance = 0;  // LSB a byte may differ by and still not count as a difference
};

// `compiled` is checked as given (a test may alter its parameters); `modelPath` names it and is
// where the twin is looked for. Throws std::runtime_error for a model without Edge TPU executables,
// a missing or unrunnable twin, inputs that do not fit, or a mapping run that fails.
[[nodiscard]] LayerCheckReport checkLayers(const driver::ModelFile& compiled, const std::filesystem::path& modelPath,
                                           const LayerCheckOptions& options);

}  // namespace coralsim::sim

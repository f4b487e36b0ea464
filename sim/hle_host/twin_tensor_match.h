// Which tensor of a CPU twin stands for a compiled model's custom-op tensor.
//
// Compiles and twins usually agree on tensor names, but not always: older PoseNet compiles call
// their outputs `quant_heatmaps`, `quant_short_offsets`, ... while the published twin keeps the
// graph's names (`MobilenetV1/heatmap_2/BiasAdd`). So, in this order:
//   1. an explicit override (custom-op tensor name -> twin tensor name) wins;
//   2. the twin tensor of the same name;
//   3. the one twin tensor with the same shape, type and quantisation (scale and zero point per
//      channel), when exactly one has them. Several: an error listing them, so that the user can
//      pick one with an override; none: an error listing the tensors of the same shape and type.
// Every binding says which of the three chose it, so that the CLI can report it.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>

#include "driver/model/model_file.h"

namespace coralsim::sim {

enum class TwinBindingMethod : uint8_t { kOverride, kName, kShapeTypeQuant };
// "override", "name", "shape-type-quant"
[[nodiscard]] std::string_view twinBindingMethodName(TwinBindingMethod method);

struct TwinTensorMatch {
  int32_t index = -1;  // in the twin's tensors; -1: no binding, `error` says why and lists candidates
  TwinBindingMethod method = TwinBindingMethod::kName;
  std::string error;
  std::string note;  // a bound pair whose shape, type or quantisation differ (only an override can)
};

// Same shape, element type and quantisation (per-channel scales within 1e-6 relative, equal zero
// points and quantised dimension).
[[nodiscard]] bool sameShapeTypeQuant(const driver::TfliteTensor& a, const driver::TfliteTensor& b);
[[nodiscard]] bool sameQuantisation(const driver::TfliteTensor& a, const driver::TfliteTensor& b);

// "'name' UINT8 [1,23,31,17] q(0.0470588, 128)", for messages.
[[nodiscard]] std::string describeTensor(const driver::TfliteTensor& t);

[[nodiscard]] TwinTensorMatch matchTwinTensor(const driver::TfliteTensor& compiled,
                                              std::span<const driver::TfliteTensor> twinTensors,
                                              const std::map<std::string, std::string>& overrides);

}  // namespace coralsim::sim

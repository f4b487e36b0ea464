#include "sim/hle_host/twin_tensor_match.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <vector>

namespace coralsim::sim {

std::string_view twinBindingMethodName(TwinBindingMethod method) {
  switch (method) {
    case TwinBindingMethod::kOverride: return "override";
    case TwinBindingMethod::kName: return "name";
    case TwinBindingMethod::kShapeTypeQuant: return "shape-type-quant";
  }
  return "?";
}

bool sameQuantisation(const driver::TfliteTensor& a, const driver::TfliteTensor& b) {
  if (a.scale.size() != b.scale.size() || a.zeroPoint != b.zeroPoint) return false;
  if (a.scale.size() > 1 && a.quantizedDimension != b.quantizedDimension) return false;
  for (size_t i = 0; i < a.scale.size(); ++i) {
    // Both files store the compiler's float32; the tolerance only absorbs a re-serialisation.
    if (std::fabs(a.scale[i] - b.scale[i]) > 1e-6f * std::max(std::fabs(a.scale[i]), std::fabs(b.scale[i]))) return false;
  }
  return true;
}

bool sameShapeTypeQuant(const driver::TfliteTensor& a, const driver::TfliteTensor& b) {
  return a.shape == b.shape && a.type == b.type && sameQuantisation(a, b);
}

std::string describeTensor(const driver::TfliteTensor& t) {
  std::string s = "'" + t.name + "' " +
                  std::string(driver::tfliteTensorTypeName(t.type).value_or("type " + std::to_string(t.type))) + " [";
  for (size_t i = 0; i < t.shape.size(); ++i) s += (i ? "," : "") + std::to_string(t.shape[i]);
  s += "]";
  if (t.scale.size() == 1 && t.zeroPoint.size() == 1) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, " q(%g, %lld)", static_cast<double>(t.scale[0]),
                  static_cast<long long>(t.zeroPoint[0]));
    s += buffer;
  } else if (t.scale.size() > 1) {
    s += " q(per-channel, " + std::to_string(t.scale.size()) + " scales)";
  }
  return s;
}

namespace {

std::string listOf(std::span<const driver::TfliteTensor> twin, const std::vector<size_t>& indices) {
  std::string s;
  for (size_t i : indices) s += "\n    tensor " + std::to_string(i) + " " + describeTensor(twin[i]);
  return s;
}

TwinTensorMatch bound(std::span<const driver::TfliteTensor> twin, const driver::TfliteTensor& compiled, size_t index,
                      TwinBindingMethod method) {
  TwinTensorMatch m;
  m.index = static_cast<int32_t>(index);
  m.method = method;
  if (!sameShapeTypeQuant(compiled, twin[index])) {
    m.note = "compiled " + describeTensor(compiled) + " differs from twin " + describeTensor(twin[index]) +
             " (the twin computes in its own encoding)";
  }
  return m;
}

}  // namespace

TwinTensorMatch matchTwinTensor(const driver::TfliteTensor& compiled, std::span<const driver::TfliteTensor> twin,
                                const std::map<std::string, std::string>& overrides) {
  auto byName = [&](const std::string& name) -> std::optional<size_t> {
    for (size_t i = 0; i < twin.size(); ++i) {
      if (twin[i].name == name) return i;
    }
    return std::nullopt;
  };
  if (const auto o = overrides.find(compiled.name); o != overrides.end()) {
    if (const auto i = byName(o->second)) return bound(twin, compiled, *i, TwinBindingMethod::kOverride);
    TwinTensorMatch m;
    m.error = "the override binds custom-op tensor '" + compiled.name + "' to twin tensor '" + o->second +
              "', which the twin does not have";
    return m;
  }
  if (const auto i = byName(compiled.name)) return bound(twin, compiled, *i, TwinBindingMethod::kName);

  std::vector<size_t> exact, shapeAndType;
  for (size_t i = 0; i < twin.size(); ++i) {
    if (twin[i].shape != compiled.shape || twin[i].type != compiled.type) continue;
    shapeAndType.push_back(i);
    if (sameQuantisation(twin[i], compiled)) exact.push_back(i);
  }
  if (exact.size() == 1) return bound(twin, compiled, exact[0], TwinBindingMethod::kShapeTypeQuant);
  TwinTensorMatch m;
  const std::string what = "custom-op tensor " + describeTensor(compiled) + " has no tensor of that name in the CPU twin";
  const std::string hint = "pick one with an override (--hle-bind '" + compiled.name + "=TWIN_TENSOR')";
  if (exact.size() > 1) {
    m.error = what + ", and " + std::to_string(exact.size()) +
              " twin tensors have its shape, type and quantisation, so the match is ambiguous:" + listOf(twin, exact) + "\n  " + hint;
  } else if (!shapeAndType.empty()) {
    m.error = what + ", and none has its shape, type and quantisation; with its shape and type:" +
              listOf(twin, shapeAndType) + "\n  " + hint;
  } else {
    m.error = what + ", nor one of its shape and type (the twin must be the uncompiled model the custom op was "
              "compiled from; its subgraph 0 has " + std::to_string(twin.size()) + " tensors)";
  }
  return m;
}

}  // namespace coralsim::sim

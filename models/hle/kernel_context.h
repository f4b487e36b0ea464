// What a kernel sees of the graph: its op, the op's tensors (descriptions and current bytes), and
// one way to fail. Kernels read inputs through it and size their outputs through it, so bounds are
// checked in one place.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/hle/fixed_point.h"
#include "models/hle/graph.h"

namespace coralsim::hle {

// A graph that cannot be executed (unsupported op or type, inconsistent shapes, missing data).
class HleError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

size_t elementCount(const std::vector<int32_t>& shape);
size_t elementSize(ElementType type);
bool isQuantized8(ElementType type);  // uint8 or int8

class KernelContext {
 public:
  KernelContext(const Graph& graph, const Op& op, size_t opIndex, std::vector<std::vector<uint8_t>>& values)
      : graph_(graph), op_(op), opIndex_(opIndex), values_(values) {}

  const Op& op() const { return op_; }
  const OpOptions& options() const { return op_.options; }
  size_t inputCount() const { return op_.inputs.size(); }
  bool hasInput(size_t i) const { return i < op_.inputs.size() && op_.inputs[i] >= 0; }
  const Tensor& input(size_t i) const;
  std::span<const uint8_t> inputBytes(size_t i) const;
  const Tensor& output(size_t i = 0) const;
  // The output's storage, sized to its shape (zero-filled).
  std::span<uint8_t> allocateOutput(size_t i = 0);

  [[noreturn]] void fail(const std::string& what) const;
  void require(bool condition, const std::string& what) const {
    if (!condition) fail(what);
  }

  // Per-channel (or broadcast per-tensor) quantisation parameter c of a tensor.
  float scaleOf(const Tensor& t, size_t channel = 0) const;
  int32_t zeroPointOf(const Tensor& t, size_t channel = 0) const;

  // TFLite's CalculateActivationRangeQuantized for the op's fused activation on `out`.
  void activationRange(const Tensor& out, int32_t& lo, int32_t& hi) const;

 private:
  const Tensor& tensorAt(int32_t index, const char* role, size_t pos) const;

  const Graph& graph_;
  const Op& op_;
  size_t opIndex_;
  std::vector<std::vector<uint8_t>>& values_;
};

// Element access for the 8-bit kernels: the stored byte as its signed or unsigned value.
inline int32_t load8(ElementType type, const uint8_t* p, size_t i) {
  return type == ElementType::Int8 ? static_cast<int32_t>(static_cast<int8_t>(p[i])) : static_cast<int32_t>(p[i]);
}
inline void store8(uint8_t* p, size_t i, int32_t value) { p[i] = static_cast<uint8_t>(value & 0xFF); }
inline int32_t typeMin(ElementType type) { return type == ElementType::Int8 ? -128 : 0; }
inline int32_t typeMax(ElementType type) { return type == ElementType::Int8 ? 127 : 255; }

int32_t loadInt32(std::span<const uint8_t> bytes, size_t i);
float loadFloat(std::span<const uint8_t> bytes, size_t i);
void storeFloat(std::span<uint8_t> bytes, size_t i, float value);

// Kernel entry points (one file per op family).
void runConv2d(KernelContext& ctx);
void runDepthwiseConv2d(KernelContext& ctx);
void runFullyConnected(KernelContext& ctx);
void runAdd(KernelContext& ctx);
void runSub(KernelContext& ctx);
void runMul(KernelContext& ctx);
void runAveragePool2d(KernelContext& ctx);
void runMaxPool2d(KernelContext& ctx);
void runReshape(KernelContext& ctx);
void runConcatenation(KernelContext& ctx);
void runPad(KernelContext& ctx);
void runSoftmax(KernelContext& ctx);
void runLogistic(KernelContext& ctx);
void runTanh(KernelContext& ctx);
void runQuantize(KernelContext& ctx);
void runDequantize(KernelContext& ctx);
void runResizeBilinear(KernelContext& ctx);
void runResizeNearestNeighbor(KernelContext& ctx);
void runMean(KernelContext& ctx);
void runArgMax(KernelContext& ctx);
void runSplit(KernelContext& ctx);
void runSplitV(KernelContext& ctx);
void runTile(KernelContext& ctx);

}  // namespace coralsim::hle

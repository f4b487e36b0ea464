#include "models/hle/kernel_context.h"

#include <algorithm>
#include <cstring>

namespace coralsim::hle {

size_t elementCount(const std::vector<int32_t>& shape) {
  size_t n = 1;
  for (int32_t d : shape) n *= d > 0 ? static_cast<size_t>(d) : 0;
  return n;
}

size_t elementSize(ElementType type) {
  switch (type) {
    case ElementType::UInt8:
    case ElementType::Int8: return 1;
    case ElementType::Int16: return 2;
    case ElementType::Float32:
    case ElementType::Int32: return 4;
    case ElementType::Int64: return 8;
  }
  return 0;
}

bool isQuantized8(ElementType type) { return type == ElementType::UInt8 || type == ElementType::Int8; }

const Tensor& KernelContext::tensorAt(int32_t index, const char* role, size_t pos) const {
  if (index < 0 || static_cast<size_t>(index) >= graph_.tensors.size()) {
    fail(std::string(role) + " " + std::to_string(pos) + " is tensor " + std::to_string(index) +
         ", not one of the graph's " + std::to_string(graph_.tensors.size()) + " tensors");
  }
  return graph_.tensors[static_cast<size_t>(index)];
}

const Tensor& KernelContext::input(size_t i) const {
  if (!hasInput(i)) fail("needs input " + std::to_string(i) + ", which is absent");
  return tensorAt(op_.inputs[i], "input", i);
}

std::span<const uint8_t> KernelContext::inputBytes(size_t i) const {
  const Tensor& t = input(i);
  const auto& bytes = values_[static_cast<size_t>(op_.inputs[i])];
  const size_t need = elementCount(t.shape) * elementSize(t.type);
  if (bytes.size() != need) {
    fail("input " + std::to_string(i) + " (tensor '" + t.name + "') holds " + std::to_string(bytes.size()) +
         " bytes, its shape needs " + std::to_string(need));
  }
  return bytes;
}

const Tensor& KernelContext::output(size_t i) const {
  if (i >= op_.outputs.size()) fail("has no output " + std::to_string(i));
  return tensorAt(op_.outputs[i], "output", i);
}

std::span<uint8_t> KernelContext::allocateOutput(size_t i) {
  const Tensor& t = output(i);
  auto& bytes = values_[static_cast<size_t>(op_.outputs[i])];
  bytes.assign(elementCount(t.shape) * elementSize(t.type), 0);
  return bytes;
}

void KernelContext::fail(const std::string& what) const {
  throw HleError("op " + std::to_string(opIndex_) + " (" + op_.name + "): " + what);
}

float KernelContext::scaleOf(const Tensor& t, size_t channel) const {
  if (t.scale.empty()) fail("tensor '" + t.name + "' is not quantised");
  return t.scale.size() == 1 ? t.scale[0] : t.scale.at(std::min(channel, t.scale.size() - 1));
}

int32_t KernelContext::zeroPointOf(const Tensor& t, size_t channel) const {
  if (t.zeroPoint.empty()) return 0;
  const int64_t zp = t.zeroPoint.size() == 1 ? t.zeroPoint[0] : t.zeroPoint.at(std::min(channel, t.zeroPoint.size() - 1));
  return static_cast<int32_t>(zp);
}

void KernelContext::activationRange(const Tensor& out, int32_t& lo, int32_t& hi) const {
  lo = typeMin(out.type);
  hi = typeMax(out.type);
  const float scale = scaleOf(out);
  const int32_t zp = zeroPointOf(out);
  auto quantize = [&](float v) { return zp + roundToInt(v / scale); };
  switch (op_.options.activation) {
    case Activation::None: break;
    case Activation::Relu: lo = std::max(lo, quantize(0.0F)); break;
    case Activation::Relu6:
      lo = std::max(lo, quantize(0.0F));
      hi = std::min(hi, quantize(6.0F));
      break;
    case Activation::ReluN1To1:
      lo = std::max(lo, quantize(-1.0F));
      hi = std::min(hi, quantize(1.0F));
      break;
    default: fail("fused activation " + std::to_string(static_cast<int>(op_.options.activation)) + " is not supported");
  }
}

int32_t loadInt32(std::span<const uint8_t> bytes, size_t i) {
  int32_t v = 0;
  std::memcpy(&v, bytes.data() + i * 4, 4);
  return v;
}

float loadFloat(std::span<const uint8_t> bytes, size_t i) {
  float v = 0;
  std::memcpy(&v, bytes.data() + i * 4, 4);
  return v;
}

void storeFloat(std::span<uint8_t> bytes, size_t i, float value) { std::memcpy(bytes.data() + i * 4, &value, 4); }

}  // namespace coralsim::hle

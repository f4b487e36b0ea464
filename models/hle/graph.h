// The neutral graph description the high-level datapath executes: tensors with their
// quantisation and constant bytes, and builtin operators with their options. Plain structs, no
// dependency on any file format — driver/hle_graph.h builds one from a TFLite model; tests build
// small ones by hand. Header-only on purpose, so the driver can fill it without linking models/.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace coralsim::hle {

// Element types, numbered like TFLite's TensorType so an adapter converts by value.
enum class ElementType : int8_t {
  Float32 = 0,
  Int32 = 2,
  UInt8 = 3,
  Int64 = 4,
  Int16 = 7,
  Int8 = 9,
};

struct Tensor {
  std::string name;
  std::vector<int32_t> shape;
  ElementType type = ElementType::UInt8;
  // Affine quantisation real = scale * (q - zeroPoint); one entry per channel along
  // quantizedDimension, or one entry (per tensor); empty = not quantised.
  std::vector<float> scale;
  std::vector<int64_t> zeroPoint;
  int32_t quantizedDimension = 0;
  bool constant = false;      // data holds the tensor's constant bytes (weights, bias, shapes)
  std::vector<uint8_t> data;  // little-endian, row-major
};

enum class Padding : int8_t { Same = 0, Valid = 1 };
enum class Activation : int8_t { None = 0, Relu = 1, ReluN1To1 = 2, Relu6 = 3, Tanh = 4 };

// The union of the builtin option fields the kernels read; defaults are TFLite's.
struct OpOptions {
  Padding padding = Padding::Same;
  int32_t strideW = 1;
  int32_t strideH = 1;
  int32_t dilationW = 1;
  int32_t dilationH = 1;
  int32_t filterW = 0;
  int32_t filterH = 0;
  int32_t depthMultiplier = 0;
  Activation activation = Activation::None;
  int32_t axis = 0;
  float beta = 1.0F;
  bool keepDims = false;
  bool alignCorners = false;
  bool halfPixelCenters = false;
};

struct Op {
  int32_t builtinCode = 0;  // TFLite BuiltinOperator numbering (kernels.def names them)
  std::string name;         // for error messages ("CONV_2D", or the custom code)
  OpOptions options;
  std::vector<int32_t> inputs;  // tensor indices; -1 = optional input left out
  std::vector<int32_t> outputs;
};

struct Graph {
  std::vector<Tensor> tensors;
  std::vector<Op> ops;  // any order; the executor sorts them by data dependence
  std::vector<int32_t> inputs;
  std::vector<int32_t> outputs;
};

}  // namespace coralsim::hle

// coralsim's own declaration of the parts of TensorFlow Lite's C delegate ABI that a delegate
// library touches, as laid out by TFLite 2.9 (tensorflow/lite/c/common.h, c_api_types.h). The
// library never includes TFLite headers: applications load it with whatever TFLite they were built
// with, so what matters is the binary layout, which these structs reproduce field by field.
// tests/libedgetpu/abi_layout_check.cc compares every offset with the real 2.9 headers.
//
// Only pointers to Context, Tensor and Node cross the boundary (TFLite owns them), so those structs
// declare the prefix we read and nothing after it. Registration is passed BY VALUE to
// ReplaceNodeSubsetsWithDelegateKernels and Delegate is allocated by us, so both are complete.
#pragma once

#include <cstddef>
#include <cstdint>

namespace coralsim::tflite_abi {

// TfLiteStatus.
enum Status : int { kOk = 0, kError = 1, kDelegateError = 2 };

// TfLiteType values (not the .tflite schema's TensorType numbering: FLOAT32 differs).
enum Type : int {
  kNoType = 0,
  kFloat32 = 1,
  kInt32 = 2,
  kUInt8 = 3,
  kInt64 = 4,
  kString = 5,
  kBool = 6,
  kInt16 = 7,
  kComplex64 = 8,
  kInt8 = 9,
  kFloat16 = 10,
  kFloat64 = 11,
  kComplex128 = 12,
  kUInt64 = 13,
  kResource = 14,
  kVariant = 15,
  kUInt32 = 16,
};

// BuiltinOperator CUSTOM: the registration of every custom op carries it.
inline constexpr int32_t kBuiltinCustom = 32;

// TfLiteIntArray: an int count followed by that many ints (a flexible array member in C, which
// ISO C++ lacks, hence the accessor).
struct IntArray {
  int size;
  [[nodiscard]] const int* data() const { return reinterpret_cast<const int*>(reinterpret_cast<const char*>(this) + sizeof(int)); }
};

struct QuantizationParams {
  float scale;
  int32_t zeroPoint;
};

struct Quantization {
  int type;
  void* params;
};

struct Delegate;

struct Tensor {
  Type type;
  void* data;  // TfLitePtrUnion: one pointer
  IntArray* dims;
  QuantizationParams params;
  int allocationType;
  size_t bytes;
  const void* allocation;
  const char* name;
  Delegate* delegate;
  int bufferHandle;
  bool dataIsStale;
  bool isVariable;
  Quantization quantization;
  void* sparsity;
  const IntArray* dimsSignature;
};

struct Node {
  IntArray* inputs;
  IntArray* outputs;
  IntArray* intermediates;
  IntArray* temporaries;
  void* userData;
  void* builtinData;
  const void* customInitialData;
  int customInitialDataSize;
  Delegate* delegate;
  // (might_have_side_effect follows; not read)
};

struct Registration;
struct Context;

// TfLiteDelegateParams: what `init` receives for a delegate kernel.
struct DelegateParams {
  Delegate* delegate;
  IntArray* nodesToReplace;
  IntArray* inputTensors;
  IntArray* outputTensors;
};

struct Context {
  size_t tensorsSize;
  Status (*GetExecutionPlan)(Context* context, IntArray** executionPlan);
  Tensor* tensors;
  void* impl;
  Status (*ResizeTensor)(Context* context, Tensor* tensor, IntArray* newSize);
  void (*ReportError)(Context* context, const char* format, ...);
  Status (*AddTensors)(Context* context, int tensorsToAdd, int* firstNewTensorIndex);
  Status (*GetNodeAndRegistration)(Context* context, int nodeIndex, Node** node, Registration** registration);
  Status (*ReplaceNodeSubsetsWithDelegateKernels)(Context* context, Registration registration,
                                                  const IntArray* nodesToReplace, Delegate* delegate);
  // (more members follow; not used)
};

struct Registration {
  void* (*init)(Context* context, const char* buffer, size_t length);
  void (*free)(Context* context, void* buffer);
  Status (*prepare)(Context* context, Node* node);
  Status (*invoke)(Context* context, Node* node);
  const char* (*profilingString)(const Context* context, const Node* node);
  int32_t builtinCode;
  const char* customName;
  int version;
};

struct Delegate {
  void* data;
  Status (*Prepare)(Context* context, Delegate* delegate);
  Status (*CopyFromBufferHandle)(Context* context, Delegate* delegate, int bufferHandle, Tensor* tensor);
  Status (*CopyToBufferHandle)(Context* context, Delegate* delegate, int bufferHandle, Tensor* tensor);
  void (*FreeBufferHandle)(Context* context, Delegate* delegate, int* handle);
  int64_t flags;
};

}  // namespace coralsim::tflite_abi

// Compiled (never linked) by check-abi-layout.sh against Google's TFLite 2.9 headers from the
// npm package: every field of libedgetpu/tflite_abi.h must sit at the offset, and have the size,
// of the TFLite struct member it stands for. A failing static_assert names the field.
#include <cstddef>

#include "libedgetpu/tflite_abi.h"
#include "tensorflow/lite/c/common.h"

namespace abi = coralsim::tflite_abi;

#define SAME_FIELD(ours, theirs, ourField, theirField)                                     \
  static_assert(offsetof(ours, ourField) == offsetof(theirs, theirField), #ourField " offset"); \
  static_assert(sizeof(ours::ourField) == sizeof(theirs::theirField), #ourField " size")

SAME_FIELD(abi::IntArray, TfLiteIntArray, size, size);
static_assert(sizeof(abi::IntArray) == offsetof(TfLiteIntArray, data), "IntArray data follows size");

SAME_FIELD(abi::Tensor, TfLiteTensor, type, type);
SAME_FIELD(abi::Tensor, TfLiteTensor, data, data);
SAME_FIELD(abi::Tensor, TfLiteTensor, dims, dims);
SAME_FIELD(abi::Tensor, TfLiteTensor, params, params);
SAME_FIELD(abi::Tensor, TfLiteTensor, allocationType, allocation_type);
SAME_FIELD(abi::Tensor, TfLiteTensor, bytes, bytes);
SAME_FIELD(abi::Tensor, TfLiteTensor, allocation, allocation);
SAME_FIELD(abi::Tensor, TfLiteTensor, name, name);
SAME_FIELD(abi::Tensor, TfLiteTensor, delegate, delegate);
SAME_FIELD(abi::Tensor, TfLiteTensor, bufferHandle, buffer_handle);
SAME_FIELD(abi::Tensor, TfLiteTensor, dataIsStale, data_is_stale);
SAME_FIELD(abi::Tensor, TfLiteTensor, isVariable, is_variable);
SAME_FIELD(abi::Tensor, TfLiteTensor, quantization, quantization);
SAME_FIELD(abi::Tensor, TfLiteTensor, sparsity, sparsity);
SAME_FIELD(abi::Tensor, TfLiteTensor, dimsSignature, dims_signature);
// Context::tensors is indexed as an array of our Tensor: the sizes must agree too.
static_assert(sizeof(abi::Tensor) == sizeof(TfLiteTensor), "Tensor size");

SAME_FIELD(abi::Node, TfLiteNode, inputs, inputs);
SAME_FIELD(abi::Node, TfLiteNode, outputs, outputs);
SAME_FIELD(abi::Node, TfLiteNode, intermediates, intermediates);
SAME_FIELD(abi::Node, TfLiteNode, temporaries, temporaries);
SAME_FIELD(abi::Node, TfLiteNode, userData, user_data);
SAME_FIELD(abi::Node, TfLiteNode, builtinData, builtin_data);
SAME_FIELD(abi::Node, TfLiteNode, customInitialData, custom_initial_data);
SAME_FIELD(abi::Node, TfLiteNode, customInitialDataSize, custom_initial_data_size);
SAME_FIELD(abi::Node, TfLiteNode, delegate, delegate);

SAME_FIELD(abi::DelegateParams, TfLiteDelegateParams, delegate, delegate);
SAME_FIELD(abi::DelegateParams, TfLiteDelegateParams, nodesToReplace, nodes_to_replace);
SAME_FIELD(abi::DelegateParams, TfLiteDelegateParams, inputTensors, input_tensors);
SAME_FIELD(abi::DelegateParams, TfLiteDelegateParams, outputTensors, output_tensors);

SAME_FIELD(abi::Context, TfLiteContext, tensorsSize, tensors_size);
SAME_FIELD(abi::Context, TfLiteContext, GetExecutionPlan, GetExecutionPlan);
SAME_FIELD(abi::Context, TfLiteContext, tensors, tensors);
SAME_FIELD(abi::Context, TfLiteContext, impl, impl_);
SAME_FIELD(abi::Context, TfLiteContext, ResizeTensor, ResizeTensor);
SAME_FIELD(abi::Context, TfLiteContext, ReportError, ReportError);
SAME_FIELD(abi::Context, TfLiteContext, AddTensors, AddTensors);
SAME_FIELD(abi::Context, TfLiteContext, GetNodeAndRegistration, GetNodeAndRegistration);
SAME_FIELD(abi::Context, TfLiteContext, ReplaceNodeSubsetsWithDelegateKernels, ReplaceNodeSubsetsWithDelegateKernels);

// Passed by value: the whole struct must match.
SAME_FIELD(abi::Registration, TfLiteRegistration, init, init);
SAME_FIELD(abi::Registration, TfLiteRegistration, free, free);
SAME_FIELD(abi::Registration, TfLiteRegistration, prepare, prepare);
SAME_FIELD(abi::Registration, TfLiteRegistration, invoke, invoke);
SAME_FIELD(abi::Registration, TfLiteRegistration, profilingString, profiling_string);
SAME_FIELD(abi::Registration, TfLiteRegistration, builtinCode, builtin_code);
SAME_FIELD(abi::Registration, TfLiteRegistration, customName, custom_name);
SAME_FIELD(abi::Registration, TfLiteRegistration, version, version);
static_assert(sizeof(abi::Registration) == sizeof(TfLiteRegistration), "Registration size");

// Allocated by us, read by TFLite: the whole struct must match.
SAME_FIELD(abi::Delegate, TfLiteDelegate, data, data_);
SAME_FIELD(abi::Delegate, TfLiteDelegate, Prepare, Prepare);
SAME_FIELD(abi::Delegate, TfLiteDelegate, CopyFromBufferHandle, CopyFromBufferHandle);
SAME_FIELD(abi::Delegate, TfLiteDelegate, CopyToBufferHandle, CopyToBufferHandle);
SAME_FIELD(abi::Delegate, TfLiteDelegate, FreeBufferHandle, FreeBufferHandle);
SAME_FIELD(abi::Delegate, TfLiteDelegate, flags, flags);
static_assert(sizeof(abi::Delegate) == sizeof(TfLiteDelegate), "Delegate size");

// Enumerators compared as ints (the two enum types differ by design).
constexpr bool sameValue(int ours, int theirs) { return ours == theirs; }
static_assert(sameValue(abi::kUInt8, kTfLiteUInt8) && sameValue(abi::kInt8, kTfLiteInt8) &&
                  sameValue(abi::kFloat32, kTfLiteFloat32) && sameValue(abi::kInt64, kTfLiteInt64) &&
                  sameValue(abi::kFloat16, kTfLiteFloat16) && sameValue(abi::kUInt32, kTfLiteUInt32),
              "TfLiteType values");
static_assert(sameValue(abi::kOk, kTfLiteOk) && sameValue(abi::kError, kTfLiteError), "TfLiteStatus values");
static_assert(abi::kBuiltinCustom == 32, "BuiltinOperator CUSTOM");

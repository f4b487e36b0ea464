#include "tests/libedgetpu/tflite_c_api.h"

#include <dlfcn.h>

namespace coralsim::testing {
namespace {

template <typename F>
bool resolve(void* handle, const char* name, F& out, std::string& missing) {
  out = reinterpret_cast<F>(dlsym(handle, name));
  if (!out) missing += std::string(missing.empty() ? "" : ", ") + name;
  return out != nullptr;
}

}  // namespace

std::string TfliteCApi::load(const std::filesystem::path& library) {
  handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) return std::string("dlopen ") + library.string() + ": " + dlerror();
  std::string missing;
  resolve(handle, "TfLiteVersion", Version, missing);
  resolve(handle, "TfLiteModelCreateFromFile", ModelCreateFromFile, missing);
  resolve(handle, "TfLiteModelDelete", ModelDelete, missing);
  resolve(handle, "TfLiteInterpreterOptionsCreate", InterpreterOptionsCreate, missing);
  resolve(handle, "TfLiteInterpreterOptionsDelete", InterpreterOptionsDelete, missing);
  resolve(handle, "TfLiteInterpreterOptionsSetNumThreads", InterpreterOptionsSetNumThreads, missing);
  resolve(handle, "TfLiteInterpreterOptionsAddDelegate", InterpreterOptionsAddDelegate, missing);
  resolve(handle, "TfLiteInterpreterOptionsSetErrorReporter", InterpreterOptionsSetErrorReporter, missing);
  resolve(handle, "TfLiteInterpreterCreate", InterpreterCreate, missing);
  resolve(handle, "TfLiteInterpreterDelete", InterpreterDelete, missing);
  resolve(handle, "TfLiteInterpreterAllocateTensors", InterpreterAllocateTensors, missing);
  resolve(handle, "TfLiteInterpreterInvoke", InterpreterInvoke, missing);
  resolve(handle, "TfLiteInterpreterGetInputTensorCount", InterpreterGetInputTensorCount, missing);
  resolve(handle, "TfLiteInterpreterGetInputTensor", InterpreterGetInputTensor, missing);
  resolve(handle, "TfLiteInterpreterGetOutputTensorCount", InterpreterGetOutputTensorCount, missing);
  resolve(handle, "TfLiteInterpreterGetOutputTensor", InterpreterGetOutputTensor, missing);
  resolve(handle, "TfLiteTensorByteSize", TensorByteSize, missing);
  resolve(handle, "TfLiteTensorName", TensorName, missing);
  resolve(handle, "TfLiteTensorCopyFromBuffer", TensorCopyFromBuffer, missing);
  resolve(handle, "TfLiteTensorCopyToBuffer", TensorCopyToBuffer, missing);
  return missing.empty() ? "" : library.string() + " lacks " + missing;
}

std::string EdgeTpuPlugin::load(const std::filesystem::path& library) {
  handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) return std::string("dlopen ") + library.string() + ": " + dlerror();
  std::string missing;
  resolve(handle, "tflite_plugin_create_delegate", createDelegate, missing);
  resolve(handle, "tflite_plugin_destroy_delegate", destroyDelegate, missing);
  resolve(handle, "edgetpu_version", version, missing);
  resolve(handle, "edgetpu_list_devices", listDevices, missing);
  resolve(handle, "edgetpu_free_devices", freeDevices, missing);
  resolve(handle, "edgetpu_create_delegate", edgetpuCreateDelegate, missing);
  resolve(handle, "edgetpu_free_delegate", edgetpuFreeDelegate, missing);
  return missing.empty() ? "" : library.string() + " lacks " + missing;
}

}  // namespace coralsim::testing

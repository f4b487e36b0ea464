// The TensorFlow Lite C API (tensorflow/lite/c/c_api.h), resolved at run time from Google's own
// libtensorflowlite_c.so with dlopen/dlsym — the way an unmodified application reaches it, and
// without TFLite headers at build time. Every TFLite object is opaque here; only the functions
// the tests call are listed.
#pragma once

#include <cstdarg>
#include <cstddef>
#include <filesystem>
#include <string>

namespace coralsim::testing {

struct TfliteCApi {
  using Model = void;
  using Options = void;
  using Interpreter = void;
  using Tensor = void;
  using Delegate = void;
  using Reporter = void (*)(void* user, const char* format, va_list args);

  void* handle = nullptr;
  const char* (*Version)() = nullptr;
  Model* (*ModelCreateFromFile)(const char* path) = nullptr;
  void (*ModelDelete)(Model*) = nullptr;
  Options* (*InterpreterOptionsCreate)() = nullptr;
  void (*InterpreterOptionsDelete)(Options*) = nullptr;
  void (*InterpreterOptionsSetNumThreads)(Options*, int) = nullptr;
  void (*InterpreterOptionsAddDelegate)(Options*, Delegate*) = nullptr;
  void (*InterpreterOptionsSetErrorReporter)(Options*, Reporter, void*) = nullptr;
  Interpreter* (*InterpreterCreate)(const Model*, const Options*) = nullptr;
  void (*InterpreterDelete)(Interpreter*) = nullptr;
  int (*InterpreterAllocateTensors)(Interpreter*) = nullptr;
  int (*InterpreterInvoke)(Interpreter*) = nullptr;
  int (*InterpreterGetInputTensorCount)(const Interpreter*) = nullptr;
  Tensor* (*InterpreterGetInputTensor)(const Interpreter*, int) = nullptr;
  int (*InterpreterGetOutputTensorCount)(const Interpreter*) = nullptr;
  const Tensor* (*InterpreterGetOutputTensor)(const Interpreter*, int) = nullptr;
  size_t (*TensorByteSize)(const Tensor*) = nullptr;
  const char* (*TensorName)(const Tensor*) = nullptr;
  int (*TensorCopyFromBuffer)(Tensor*, const void*, size_t) = nullptr;
  int (*TensorCopyToBuffer)(const Tensor*, void*, size_t) = nullptr;

  // Loads `library` and resolves every function; returns "" or what failed.
  std::string load(const std::filesystem::path& library);
};

// The delegate plugin entry points of a libedgetpu.so.1, resolved the way TFLite's external
// delegate loader (and tflite_runtime.load_delegate) does.
struct EdgeTpuPlugin {
  void* handle = nullptr;
  void* (*createDelegate)(char** keys, char** values, size_t count, void (*reportError)(const char*)) = nullptr;
  void (*destroyDelegate)(void* delegate) = nullptr;
  const char* (*version)() = nullptr;
  // libedgetpu's C API (edgetpu_c.h): enum edgetpu_device_type {PCI = 0, USB = 1};
  // struct edgetpu_device {type; const char* path}; struct edgetpu_option {name; value}.
  struct Device {
    int type;
    const char* path;
  };
  struct Option {
    const char* name;
    const char* value;
  };
  Device* (*listDevices)(size_t* count) = nullptr;
  void (*freeDevices)(Device* devices) = nullptr;
  void* (*edgetpuCreateDelegate)(int type, const char* name, const Option* options, size_t count) = nullptr;
  void (*edgetpuFreeDelegate)(void* delegate) = nullptr;

  std::string load(const std::filesystem::path& library);
};

}  // namespace coralsim::testing

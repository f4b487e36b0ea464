// The exported C entry points (edgetpu_c_api.h). Nothing C++ escapes: every exception becomes an
// error message (report_error, stderr) and a null delegate.
#include "libedgetpu/edgetpu_c_api.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <new>
#include <string>
#include <vector>

#include "driver/transport/libusb_transport.h"

#include "libedgetpu/delegate_options.h"
#include "libedgetpu/edgetpu_delegate.h"
#include "libedgetpu/verbose_log.h"

#ifndef CORALSIM_VERSION
#define CORALSIM_VERSION "unknown"
#endif

namespace {

using coralsim::libedgetpu::EdgeTpuDelegate;

coralsim::tflite_abi::Delegate* createDelegate(const std::map<std::string, std::string>& keyValues,
                                              void (*reportError)(const char*)) {
  try {
    const auto options = coralsim::libedgetpu::parseDelegateOptions(keyValues);
    if (options.verbosity) coralsim::libedgetpu::setVerbosity(*options.verbosity);
    auto* delegate = new EdgeTpuDelegate(options);
    return delegate->abi();
  } catch (const std::exception& e) {
    const std::string message = std::string("coralsim libedgetpu: cannot create the Edge TPU delegate: ") + e.what();
    if (reportError) {
      reportError(message.c_str());
    } else {
      coralsim::libedgetpu::log(0, message);
    }
    return nullptr;
  }
}

void destroyDelegate(coralsim::tflite_abi::Delegate* delegate) { delete EdgeTpuDelegate::from(delegate); }

}  // namespace

extern "C" {

edgetpu_device* edgetpu_list_devices(size_t* num_devices) {
  // The USB accelerators in device order (usb:N): the Corals libusb sees, then the in-process
  // simulator, which is always present. One malloc'd block (edgetpu_free_devices frees it): the
  // array, then the paths it points into.
  std::vector<std::string> paths;
  try {
    for (const auto& coral : coralsim::driver::listCoralDevices()) {
      paths.push_back(std::string(coralsim::libedgetpu::kUsbDevicePathPrefix) + coral.path());
    }
  } catch (const std::exception& e) {
    coralsim::libedgetpu::log(1, std::string("edgetpu_list_devices: no USB bus to scan: ") + e.what());
  }
  paths.emplace_back(coralsim::libedgetpu::kSimulatorDevicePath);
  size_t bytes = paths.size() * sizeof(edgetpu_device);
  for (const std::string& path : paths) bytes += path.size() + 1;
  auto* devices = static_cast<edgetpu_device*>(std::malloc(bytes));
  if (!devices) {
    if (num_devices) *num_devices = 0;
    return nullptr;
  }
  char* text = reinterpret_cast<char*>(devices + paths.size());
  for (size_t i = 0; i < paths.size(); ++i) {
    std::memcpy(text, paths[i].c_str(), paths[i].size() + 1);
    devices[i].type = EDGETPU_APEX_USB;
    devices[i].path = text;
    text += paths[i].size() + 1;
  }
  if (num_devices) *num_devices = paths.size();
  return devices;
}

void edgetpu_free_devices(edgetpu_device* dev) { std::free(dev); }

coralsim::tflite_abi::Delegate* edgetpu_create_delegate(edgetpu_device_type type, const char* name,
                                                        const edgetpu_option* options, size_t num_options) {
  if (type != EDGETPU_APEX_USB) {
    coralsim::libedgetpu::log(0, "edgetpu_create_delegate: coralsim emulates the USB accelerator, not a PCIe Edge TPU");
    return nullptr;
  }
  std::map<std::string, std::string> keyValues;
  // A path from edgetpu_list_devices or one of libedgetpu's device forms (DelegateOptions' device).
  if (name && *name) keyValues["device"] = name;
  for (size_t i = 0; options && i < num_options; ++i) {
    if (options[i].name) keyValues[options[i].name] = options[i].value ? options[i].value : "";
  }
  return createDelegate(keyValues, nullptr);
}

void edgetpu_free_delegate(coralsim::tflite_abi::Delegate* delegate) { destroyDelegate(delegate); }

void edgetpu_verbosity(int verbosity) { coralsim::libedgetpu::setVerbosity(verbosity); }

const char* edgetpu_version() { return "coralsim " CORALSIM_VERSION " (libedgetpu C API, TFLite 2.9 delegate ABI)"; }

coralsim::tflite_abi::Delegate* tflite_plugin_create_delegate(char** options_keys, char** options_values,
                                                              size_t num_options,
                                                              void (*report_error)(const char*)) {
  std::map<std::string, std::string> keyValues;
  for (size_t i = 0; i < num_options; ++i) {
    if (options_keys && options_keys[i]) keyValues[options_keys[i]] = options_values && options_values[i] ? options_values[i] : "";
  }
  return createDelegate(keyValues, report_error);
}

void tflite_plugin_destroy_delegate(coralsim::tflite_abi::Delegate* delegate) { destroyDelegate(delegate); }

}  // extern "C"

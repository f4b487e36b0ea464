// The C entry points of libedgetpu.so.1 that applications and TFLite's external-delegate loader
// look up, with libedgetpu's signatures (its public edgetpu_c.h) and TFLite's plugin signatures
// (delegates/external). Declared here in coralsim's words; every one is exported by exports.map.
#pragma once

#include <cstddef>

#include "libedgetpu/tflite_abi.h"

// The library is built with hidden visibility; these are the symbols it exports (exports.map
// lists the same names).
#define CORALSIM_EDGETPU_EXPORT __attribute__((visibility("default")))

extern "C" {

// libedgetpu's device types: a PCIe Apex or a USB accelerator.
enum edgetpu_device_type { EDGETPU_APEX_PCI = 0, EDGETPU_APEX_USB = 1 };

struct edgetpu_device {
  enum edgetpu_device_type type;
  const char* path;
};

struct edgetpu_option {
  const char* name;
  const char* value;
};

CORALSIM_EDGETPU_EXPORT edgetpu_device* edgetpu_list_devices(size_t* num_devices);
CORALSIM_EDGETPU_EXPORT void edgetpu_free_devices(edgetpu_device* dev);
CORALSIM_EDGETPU_EXPORT coralsim::tflite_abi::Delegate* edgetpu_create_delegate(edgetpu_device_type type, const char* name,
                                                        const edgetpu_option* options, size_t num_options);
CORALSIM_EDGETPU_EXPORT void edgetpu_free_delegate(coralsim::tflite_abi::Delegate* delegate);
CORALSIM_EDGETPU_EXPORT void edgetpu_verbosity(int verbosity);
CORALSIM_EDGETPU_EXPORT const char* edgetpu_version();

// TFLite's external delegate plugin ABI (tflite_runtime.load_delegate, TfLiteExternalDelegateCreate).
CORALSIM_EDGETPU_EXPORT coralsim::tflite_abi::Delegate* tflite_plugin_create_delegate(char** options_keys, char** options_values,
                                                              size_t num_options,
                                                              void (*report_error)(const char*));
CORALSIM_EDGETPU_EXPORT void tflite_plugin_destroy_delegate(coralsim::tflite_abi::Delegate* delegate);

}  // extern "C"

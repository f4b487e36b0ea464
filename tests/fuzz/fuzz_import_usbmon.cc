// Fuzz target: any bytes through the usbmon reader (traces/). See usb_import_fuzz_harness.h.
#include <cstdio>
#include <cstdlib>

#include "tests/fuzz/usb_import_fuzz_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (const auto problem = coralsim::traces::fuzz::exerciseImport(coralsim::traces::CaptureFormat::kUsbmonText, data, size)) {
    std::fprintf(stderr, "fuzz_import_usbmon: %s\n", problem->c_str());
    std::abort();
  }
  return 0;
}

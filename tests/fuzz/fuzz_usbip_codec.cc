// Fuzz target: the USB/IP streaming decoders (both sides, both phases, any split of the bytes).
// Input layout and property: tests/fuzz/usbip_fuzz_harness.h. A broken property aborts.
#include <cstdio>
#include <cstdlib>

#include "tests/fuzz/usbip_fuzz_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto outcome = coralsim::usbip::fuzz::exerciseUsbipStream(std::span<const uint8_t>(data, size));
  if (outcome.violation) {
    std::fprintf(stderr, "fuzz_usbip_codec: %s\n", outcome.violation->c_str());
    std::abort();
  }
  return 0;
}

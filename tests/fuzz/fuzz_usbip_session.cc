// Fuzz target: arbitrary byte streams from one client to the real USB/IP server exporting two
// real emulated Corals, over loopback TCP (tests/fuzz/usbip_session_fuzz_harness.h). A broken
// property aborts.
#include <cstdio>
#include <cstdlib>

#include "tests/fuzz/usbip_session_fuzz_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (const auto violation = coralsim::usbip::fuzz::exerciseSession(std::span<const uint8_t>(data, size))) {
    std::fprintf(stderr, "fuzz_usbip_session: %s\n", violation->c_str());
    std::abort();
  }
  return 0;
}

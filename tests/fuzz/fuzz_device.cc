// Fuzz target: one sim::Device driven by a script of control transfers, bulk OUT chunks (the
// record parser), bulk IN requests, unlinks and bus resets (tests/fuzz/device_fuzz_harness.h).
// A broken property aborts.
#include <cstdio>
#include <cstdlib>

#include "tests/fuzz/device_fuzz_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (const auto violation = coralsim::sim::fuzz::exerciseDevice(std::span<const uint8_t>(data, size))) {
    std::fprintf(stderr, "fuzz_device: %s\n", violation->c_str());
    std::abort();
  }
  return 0;
}

// Fuzz target: the scalar executor on arbitrary program bodies (framed into START..END by the
// harness, tests/fuzz/scalar_fuzz_harness.h). A broken property aborts.
#include <cstdio>
#include <cstdlib>

#include "tests/fuzz/scalar_fuzz_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto result = coralsim::models::fuzz::exerciseScalarProgram(std::span<const uint8_t>(data, size));
  if (result.violation) {
    std::fprintf(stderr, "fuzz_scalar_engine: %s\n", result.violation->c_str());
    std::abort();
  }
  return 0;
}

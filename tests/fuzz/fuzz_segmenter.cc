// Fuzz target: any bytes as an instruction stream through the segmenter (lenient and strict), the
// tile-sequence check and the disassembler, whose listing must reassemble to the same words.
#include <cstdio>
#include <cstdlib>

#include "tests/fuzz/isa_fuzz_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (const auto problem = coralsim::isa::fuzz::exerciseBitstream({data, size})) {
    std::fprintf(stderr, "fuzz_segmenter: %s\n", problem->c_str());
    std::abort();
  }
  return 0;
}

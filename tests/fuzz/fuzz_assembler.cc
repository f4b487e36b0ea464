// Fuzz target: any text through the assembler; whatever assembles must survive
// disassemble -> assemble unchanged. Only AsmError/SegmentError are acceptable failures.
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "tests/fuzz/isa_fuzz_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (const auto problem = coralsim::isa::fuzz::exerciseAssembler(text)) {
    std::fprintf(stderr, "fuzz_assembler: %s\n", problem->c_str());
    std::abort();
  }
  return 0;
}

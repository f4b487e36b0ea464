// Placeholder: replaced by the real command implementation.
#include <cstdio>

#include "sim/cli/commands.h"

namespace coralsim::cli {

int runAsm(const CommandArgs&) {
  std::fprintf(stderr, "coralsim asm: not implemented yet\n");
  return 1;
}

}  // namespace coralsim::cli

// Placeholder: replaced by the real command implementation.
#include <cstdio>

#include "sim/cli/commands.h"

namespace coralsim::cli {

int runDemo(const CommandArgs&) {
  std::fprintf(stderr, "coralsim demo: not implemented yet\n");
  return 1;
}

}  // namespace coralsim::cli

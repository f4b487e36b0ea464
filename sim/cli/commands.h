// The `coralsim` subcommands. Each lives in its own cmd_*.cc file and is listed once in the
// command table in main.cc (run by dispatch.h). A command returns the process exit code: 0 success, 1 a failure of
// the work (bad model, mismatch), 2 a usage error.
#pragma once

#include "sim/cli/dispatch.h"

namespace coralsim::cli {

int runInspect(const CommandArgs& args);
int runDisasm(const CommandArgs& args);
int runAsm(const CommandArgs& args);
int runDemo(const CommandArgs& args);
int runRun(const CommandArgs& args);
int runServe(const CommandArgs& args);
int runTraceDiff(const CommandArgs& args);
int runTraceImport(const CommandArgs& args);
int runProfile(const CommandArgs& args);
int runCheckLayers(const CommandArgs& args);

}  // namespace coralsim::cli

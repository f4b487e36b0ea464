// Renderings of a RunResult: the one JSON object of `coralsim run --json` (format: docs/run-json.md,
// stable — fields are added, never renamed) and the human-readable text. Kept in driver/ so tests
// produce exactly what the command prints.
#pragma once

#include <ostream>
#include <string>

#include "driver/run_result.h"

namespace coralsim::driver {

struct RunReportContext {
  std::string coralsimVersion;
  std::string requestedMode;  // --mode as given ("auto", ...)
  std::string notComputedText = "NOT COMPUTED (protocol rung: the datapath is not simulated yet)";
};

void writeRunJson(const RunResult& result, const RunReportContext& context, std::ostream& out, int indent = 0);
void writeRunText(const RunResult& result, const RunReportContext& context, std::ostream& out);

// "IN 'input'+0x40", "PARAM+0x0", "SCRATCH+0x100"; "" without a target.
std::string describeTarget(const ObservedDescriptor& d);

}  // namespace coralsim::driver

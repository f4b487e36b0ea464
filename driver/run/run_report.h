// Renderings of a RunResult: the one JSON object of `coralsim run --json` (format: docs/run-json.md,
// stable — fields are added, never renamed) and the human-readable text. Kept in driver/ so tests
// produce exactly what the command prints.
#pragma once

#include <ostream>
#include <optional>
#include <string>
#include <vector>

#include "driver/run/run_result.h"

namespace coralsim::driver {

// A CPU twin the CLI registered for the hle rung, and how each custom-op tensor found its twin
// tensor (sim/hle_host/twin_tensor_match.h). Plain strings: driver/ does not know models/hle.
struct HleTwinReport {
  struct Binding {
    std::string role;        // "input" or "output"
    std::string tensor;      // the compiled model's custom-op tensor
    std::string twinTensor;  // the twin's tensor computing it
    std::string method;      // "name", "shape-type-quant" or "override"
    std::string note;        // what differs when an override paired different encodings
  };
  std::string compiled;
  std::string twin;
  std::string registeredBy;  // "--hle" or "--hle auto"
  std::vector<Binding> bindings;
};

struct RunReportContext {
  std::string coralsimVersion;
  std::string requestedMode;  // --mode as given ("auto", ...)
  std::vector<HleTwinReport> hleTwins;
  std::optional<std::string> hleAuto;  // with --hle auto: which twin was found, or why none
  std::string notComputedText = "NOT COMPUTED (protocol rung: the datapath is not simulated yet)";
};

void writeRunJson(const RunResult& result, const RunReportContext& context, std::ostream& out, int indent = 0);
void writeRunText(const RunResult& result, const RunReportContext& context, std::ostream& out);
// The twin lines writeRunText prints after its header (nothing without --hle).
void writeHleTwinsText(const RunReportContext& context, std::ostream& out);

// "1.234 ms = USB 0.500 ms (...) + compute 0.634 ms (317000 cycles at 500 MHz) + idle 0.100 ms".
std::string describeTiming(const RunTiming& timing);

// "IN 'input'+0x40", "PARAM+0x0", "SCRATCH+0x100"; "" without a target.
std::string describeTarget(const ObservedDescriptor& d);

}  // namespace coralsim::driver

#include "sim/cli/datapath_options.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "sim/hle_host/program_loader.h"
#include "sim/hle_host/twin_discovery.h"

namespace coralsim::cli {
namespace {

// --hle-bind COMPILED_TENSOR=TWIN_TENSOR, repeatable; applies to every registered pair.
std::map<std::string, std::string> parseBindings(const Args& args) {
  std::map<std::string, std::string> overrides;
  for (const std::string& text : args.values("--hle-bind")) {
    const size_t eq = text.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) {
      throw UsageError("--hle-bind expects COMPILED_TENSOR=TWIN_TENSOR, got '" + text + "'");
    }
    overrides[text.substr(0, eq)] = text.substr(eq + 1);
  }
  return overrides;
}

}  // namespace

driver::HleTwinReport hleTwinReport(const sim::HleProgramSpec& spec, const hle::Program& program, std::string registeredBy) {
  driver::HleTwinReport report{spec.compiled.string(), spec.cpu.string(), std::move(registeredBy), {}};
  std::set<std::pair<std::string, std::string>> seen;
  auto add = [&](const std::string& role, const std::vector<hle::LayerBinding>& layers) {
    for (const hle::LayerBinding& b : layers) {
      if (!seen.emplace(role, b.name).second) continue;
      report.bindings.push_back({role, b.name, b.twinName, b.bindingMethod, b.bindingNote});
    }
  };
  for (const hle::ProgramExecutable& e : program.executables) {
    add("input", e.inputs);
    add("output", e.outputs);
  }
  return report;
}

DatapathReport applyDatapathOptions(const Args& args, models::ChipConfig& chip,
                                    const std::optional<std::filesystem::path>& model) {
  if (const auto mode = args.value("--mode"); mode && !models::parseExecutionMode(*mode, chip.mode)) {
    throw UsageError("--mode expects auto, lle, hle or protocol, got '" + *mode + "'");
  }
  if (const auto rounding = args.value("--rounding");
      rounding && !models::parseRequantRounding(*rounding, chip.requantRounding)) {
    throw UsageError("--rounding expects fp32-half-even, fp32-half-away or tflite-fixed-point, got '" + *rounding +
                     "'");
  }
  DatapathReport report;
  const std::map<std::string, std::string> overrides = parseBindings(args);
  if (!args.has("--hle")) {
    if (!overrides.empty()) throw UsageError("--hle-bind applies to the pairs of --hle; give --hle too");
    return report;
  }
  std::vector<sim::HleProgramSpec> specs;
  std::vector<std::string> registeredBy;
  bool autoAsked = false;
  for (const std::string& text : args.values("--hle")) {
    if (text == "auto") {
      if (!model) throw UsageError("--hle auto looks beside the model a command runs; give COMPILED=CPU here");
      autoAsked = true;
      continue;
    }
    try {
      specs.push_back(sim::parseHleProgramSpec(text));
    } catch (const sim::HleProgramError& e) {
      throw UsageError(e.what());
    }
    registeredBy.push_back("--hle");
  }
  for (sim::HleProgramSpec& s : specs) s.overrides = overrides;
  std::vector<hle::Program> programs;
  for (const sim::HleProgramSpec& s : specs) programs.push_back(sim::registerHleProgram(s.compiled, s.cpu, s.overrides));
  if (autoAsked) {
    const sim::TwinSearch search = sim::findTwinBeside(*model);
    report.hleAuto = search.description;
    if (search.found) {
      sim::HleProgramSpec spec{*model, search.candidate, overrides, {}};
      try {
        programs.push_back(sim::registerHleProgram(spec.compiled, spec.cpu, spec.overrides));
        specs.push_back(std::move(spec));
        registeredBy.push_back("--hle auto");
      } catch (const std::exception& e) {
        // Found by convention, not asked for: say why it is not used and run without it.
        *report.hleAuto += ", but it does not pair with the compiled model, so it is not registered: " + std::string(e.what());
      }
    }
  }
  for (size_t i = 0; i < programs.size(); ++i) report.hleTwins.push_back(hleTwinReport(specs[i], programs[i], registeredBy[i]));
  // An override that bound nothing names a tensor no registered custom op has: a typo to report.
  for (const auto& [tensor, twin] : overrides) {
    bool used = false;
    for (const driver::HleTwinReport& t : report.hleTwins) {
      for (const auto& b : t.bindings) used = used || (b.method == "override" && b.tensor == tensor);
    }
    if (!used) {
      throw UsageError("--hle-bind " + tensor + "=" + twin + ": '" + tensor +
                       "' is not a custom-op tensor of any registered compiled model");
    }
  }
  // One registry, shared by every device of the process.
  chip.hlePrograms = std::make_shared<const hle::ProgramRegistry>(std::move(programs));
  return report;
}

}  // namespace coralsim::cli

// The datapath options `coralsim run` and `coralsim serve` share: --mode, --rounding, --hle and
// --hle-bind.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "driver/run/run_report.h"
#include "models/chip_config.h"
#include "sim/cli/args.h"
#include "sim/hle_host/program_loader.h"

namespace coralsim::cli {

// What --hle registered, for the run report: every twin with its tensor bindings, and with
// `--hle auto` which twin was found beside the model, or why none.
struct DatapathReport {
  std::vector<driver::HleTwinReport> hleTwins;
  std::optional<std::string> hleAuto;
};

// Applies the options present in `args` to `chip`; absent ones keep ChipConfig's defaults.
// --hle pairs are loaded here, before any device exists, so a bad pair is reported up front.
// `--hle auto` looks for the CPU twin of `model` beside it (sim/hle_host/twin_discovery.h); without
// a model (serve) it is a usage error. A twin found that way which does not pair is reported, not
// fatal: the run goes on without it. Throws UsageError for a malformed value, and the loader's
// errors for explicit pairs that do not pair.
DatapathReport applyDatapathOptions(const Args& args, models::ChipConfig& chip,
                                    const std::optional<std::filesystem::path>& model = std::nullopt);

// The report of one registered pair: the bindings of every input and output layer of `program`,
// each custom-op tensor once.
driver::HleTwinReport hleTwinReport(const sim::HleProgramSpec& spec, const hle::Program& program,
                                    std::string registeredBy);

}  // namespace coralsim::cli

#include "sim/cli/datapath_options.h"

#include <string>
#include <vector>

#include "sim/hle_host/program_loader.h"

namespace coralsim::cli {

void applyDatapathOptions(const Args& args, models::ChipConfig& chip) {
  if (const auto mode = args.value("--mode"); mode && !models::parseExecutionMode(*mode, chip.mode)) {
    throw UsageError("--mode expects auto, lle, hle or protocol, got '" + *mode + "'");
  }
  if (const auto rounding = args.value("--rounding");
      rounding && !models::parseRequantRounding(*rounding, chip.requantRounding)) {
    throw UsageError("--rounding expects fp32-half-even, fp32-half-away or tflite-fixed-point, got '" + *rounding +
                     "'");
  }
  if (!args.has("--hle")) return;
  std::vector<sim::HleProgramSpec> specs;
  for (const std::string& text : args.values("--hle")) {
    try {
      specs.push_back(sim::parseHleProgramSpec(text));
    } catch (const sim::HleProgramError& e) {
      throw UsageError(e.what());
    }
  }
  // One registry, shared by every device of the process.
  chip.hlePrograms = sim::buildHleRegistry(specs);
}

}  // namespace coralsim::cli

// `coralsim check-layers MODEL [--hle auto|TWIN] [--input FILE ... | --random SEED] [--rounding R]
// [--tolerance LSB] [--json [--pretty]]`: the lle rung checked by the CPU twin, layer by layer
// (sim/layer_check/layer_check.h).
#include <filesystem>
#include <iostream>

#include "driver/model/model_loader.h"
#include "driver/run/run_plan.h"
#include "sim/cli/args.h"
#include "sim/cli/commands.h"
#include "sim/cli/run_io.h"
#include "sim/layer_check/layer_check.h"
#include "sim/layer_check/layer_check_report.h"

namespace coralsim::cli {
namespace {

const std::vector<OptionSpec> kOptions = {
    {"--hle", true, "auto|TWIN", "the CPU twin: auto (default) = X.tflite beside X_edgetpu.tflite; also MODEL=TWIN as in run"},
    {"--input", true, "FILE", "one per model input, in TFLite encoding (int8 as int8)"},
    {"--random", true, "SEED", "seeded random inputs (the default, seed 1)"},
    {"--rounding", true, "R", "the lle epilogue's rounding: tflite-fixed-point (default: the twin's), fp32-half-even, fp32-half-away"},
    {"--tolerance", true, "LSB", "a byte within LSB of the twin's is no difference (default 0; see above)"},
    {"--json", false, "", "print one JSON object instead of the table"},
    {"--pretty", false, "", "with --json: indent the JSON"},
    {"--help", false, "", "show this help"},
};

void printHelp() {
  std::cout << "usage: coralsim check-layers MODEL [--hle auto|TWIN] [--input FILE ... | --random SEED]\n"
               "                             [--rounding R] [--tolerance LSB] [--json [--pretty]]\n\n"
               "Checks the low-level datapath against the CPU twin, layer by layer (as Dolphin checks its HLE\n"
               "with its LLE). The compiled model MODEL (X_edgetpu.tflite) runs one inference on an in-process\n"
               "emulated Coral on the lle rung; after every compute packet (every form: Dense, convolution,\n"
               "depthwise, element-wise, identity copy) what each of its tiles wrote to narrow memory is\n"
               "captured: each output position's decoded address and lanes. The packets are tied to the twin's\n"
               "layers as `coralsim profile` ties them (cumulative MAC work), the twin's graph runs on the same\n"
               "inputs on the hle rung's 8-bit kernels, and each layer's lanes are laid on its output tensor\n"
               "(one position a tile: channel slices as wide as the packet's lanes, tiles ascending; several\n"
               "positions a tile: through the executable's OutputLayout, by tile and offset from the tile's\n"
               "lowest written address; identity copies stage the input and are not compared; int8 compared\n"
               "as the device holds it, XOR 0x80). Per layer: 'matched', 'differs' (by more than --tolerance;\n"
               "the first differing element: layer, tensor, position, both values, compute packet, PC, tile,\n"
               "lane, narrow address), 'within tolerance', 'partly computed', 'does not fit' (more lanes than\n"
               "the tensor has), 'positions not placed' (several positions a tile, no OutputLayout for the\n"
               "layer), 'not reached' (lle stopped before it; the refusal naming opcode, PC, word and field\n"
               "is printed), 'no compute packet' (ops without MACs), 'cpu'. Deterministic.\n\n"
               "The twin rounds its requantisation as TFLite's fixed point, and so does the lle epilogue here by\n"
               "default (`run --mode lle` uses fp32-half-even, the device evidence). fp32 rounding differs from\n"
               "the twin's by 1 LSB where a product lies near .5: check the shipped rounding with\n"
               "--rounding fp32-half-even --tolerance 1.\n\n"
               "options:\n"
            << describeOptions(kOptions)
            << "\nexit status: 0 no layer differs (also when lle stopped early: see 'not reached'), 1 a layer\n"
               "differs, or the model, its twin or the mapping run failed, 2 usage error\n";
}

}  // namespace

int runCheckLayers(const CommandArgs& argv) {
  const Args args(argv, kOptions);
  if (args.has("--help")) {
    printHelp();
    return 0;
  }
  const std::string& modelPath = args.onlyFile("MODEL");
  args.requireJsonForPretty();
  sim::LayerCheckOptions options;
  if (const auto twin = args.value("--hle"); twin && *twin != "auto") {
    // Also the `run --hle COMPILED=CPU` form, whose COMPILED must be MODEL.
    const size_t eq = twin->find('=');
    if (eq != std::string::npos) {
      std::error_code ec;
      if (!std::filesystem::equivalent(twin->substr(0, eq), modelPath, ec)) {
        throw UsageError("--hle " + *twin + ": COMPILED is not MODEL " + modelPath);
      }
    }
    options.twin = eq == std::string::npos ? *twin : twin->substr(eq + 1);
  }
  if (const auto rounding = args.value("--rounding"); rounding && !models::parseRequantRounding(*rounding, options.rounding)) {
    throw UsageError("--rounding: unknown rounding '" + *rounding + "'");
  }
  if (const auto tolerance = args.number("--tolerance")) {
    if (*tolerance > 255) throw UsageError("--tolerance: at most 255 LSB");
    options.tolerance = static_cast<unsigned>(*tolerance);
  }
  const driver::ModelFile model = driver::loadModelFile(modelPath);
  if (args.has("--input") || args.has("--random")) options.inputs = gatherInputs(args, driver::planRun(model));
  const sim::LayerCheckReport report = sim::checkLayers(model, modelPath, options);
  if (args.has("--json")) {
    sim::writeLayerCheckJson(std::cout, report, args.has("--pretty") ? 2 : 0);
  } else {
    sim::writeLayerCheckText(std::cout, report);
  }
  return report.mismatch() ? 1 : 0;
}

}  // namespace coralsim::cli

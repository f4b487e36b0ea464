// `coralsim inspect MODEL [--json]`: what is inside a compiled model, bare package/executable or
// raw program. The text and JSON renderings live in driver/ (model_text.h, model_json.h) so that
// tests produce exactly what the command prints.
#include <iostream>

#include "driver/model/model_json.h"
#include "driver/model/model_loader.h"
#include "driver/model/model_text.h"
#include "sim/cli/args.h"
#include "sim/cli/commands.h"

namespace coralsim::cli {
namespace {

const std::vector<OptionSpec> kOptions = {
    {"--json", false, "", "print one JSON object (keys as tools/darwinn_dump.py --json; see driver/README.md)"},
    {"--pretty", false, "", "with --json: indent the JSON"},
    {"--help", false, "", "show this help"},
};

void printHelp() {
  std::cout << "usage: coralsim inspect MODEL [--json [--pretty]]\n\n"
               "Prints what is inside MODEL: a TFLite model (*.tflite, compiled for the Edge TPU or a CPU\n"
               "twin), a bare DarwiNN Package or serialized Executable, or a raw *.coral instruction\n"
               "stream. For every executable: type, parameter-caching token, instruction chunks and\n"
               "their field offsets (link points), parameter bytes, the DMA hints, input/output layers\n"
               "(shape, data type, zero point, scale, output layout); for TFLite models also the\n"
               "subgraphs and the operators left on the CPU.\n\n"
               "options:\n"
            << describeOptions(kOptions)
            << "\nexit status: 0 success, 1 the model could not be loaded, 2 usage error\n";
}

}  // namespace

int runInspect(const CommandArgs& argv) {
  const Args args(argv, kOptions);
  if (args.has("--help")) {
    printHelp();
    return 0;
  }
  const std::string& path = args.onlyFile("MODEL");
  args.requireJsonForPretty();
  const driver::ModelFile model = driver::loadModelFile(path);
  if (args.has("--json")) {
    driver::writeModelJson(model, std::cout, args.has("--pretty") ? 2 : 0);
    std::cout << '\n';
  } else {
    driver::writeModelText(model, std::cout);
  }
  return 0;
}

}  // namespace coralsim::cli

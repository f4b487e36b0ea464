// `coralsim profile MODEL [--json] [--hle auto|TWIN] [--usb high|super] [--trace-timeline FILE]`:
// the per-layer profile of one steady-state inference (sim/profile/layer_profile.h).
#include <fstream>
#include <iostream>
#include <memory>
#include <stdexcept>

#include "sim/cli/args.h"
#include "sim/cli/commands.h"
#include "sim/cli/device_options.h"
#include "sim/device.h"
#include "sim/profile/layer_profile.h"
#include "traces/timeline_writer.h"

namespace coralsim::cli {
namespace {

const std::vector<OptionSpec> kOptions = {
    {"--json", false, "", "print one JSON object instead of the table"},
    {"--pretty", false, "", "with --json: indent the JSON"},
    {"--hle", true, "auto|TWIN", "the CPU twin whose layers are profiled: auto (default) = X.tflite beside X_edgetpu.tflite"},
    {"--usb", true, "SPEED", "link speed for the predicted device time: super (default) or high"},
    {"--trace-timeline", true, "FILE", "write a Perfetto/Chrome JSON timeline with a 'layers' track above the tiles"},
    {"--help", false, "", "show this help"},
};

void printHelp() {
  std::cout << "usage: coralsim profile MODEL [--json [--pretty]] [--hle auto|TWIN] [--usb high|super]\n"
               "                        [--trace-timeline FILE]\n\n"
               "Runs the compiled model MODEL (X_edgetpu.tflite) twice on an in-process emulated Coral with\n"
               "seeded random inputs and profiles the second, steady-state inference (parameters cached):\n"
               "its compute packets, from the chip's trace events, are assigned to the layers of the CPU\n"
               "twin X.tflite in operator order by cumulative MACs. Per layer: op, input/filter/output\n"
               "shapes, MACs, compute packets, their cycles (cost model of `run --timing`), share of the\n"
               "inference's chip cycles, whether its parameters are cached on chip or streamed, and how it\n"
               "was mapped: 'mac-aligned' (its packets' share of the packet work is within 0.8-1.25x of its\n"
               "share of the MACs), 'uncertain' (outside; the ratio is printed), 'no compute packet' (an op\n"
               "without MACs), 'cpu' (left on the CPU by the compiler). Deterministic.\n\n"
               "options:\n"
            << describeOptions(kOptions)
            << "\nexit status: 0 success, 1 the model, its twin or the run failed, 2 usage error\n";
}

}  // namespace

int runProfile(const CommandArgs& argv) {
  const Args args(argv, kOptions);
  if (args.has("--help")) {
    printHelp();
    return 0;
  }
  const std::string& modelPath = args.onlyFile("MODEL");
  args.requireJsonForPretty();
  sim::ProfileOptions options;
  if (const auto twin = args.value("--hle"); twin && *twin != "auto") options.twin = *twin;
  options.speed = parseUsbSpeed(args, "--usb");
  std::ofstream timelineFile;
  std::unique_ptr<traces::TimelineWriter> timeline;
  if (const auto path = args.value("--trace-timeline")) {
    timelineFile.open(*path);
    if (!timelineFile) throw std::runtime_error("--trace-timeline: cannot write " + *path);
    timeline = std::make_unique<traces::TimelineWriter>(sim::DeviceOptions{}.chip.clockHz);
    options.timeline = timeline.get();
  }
  const sim::LayerProfile profile = sim::profileModel(modelPath, options);
  if (args.has("--json")) {
    sim::writeProfileJson(std::cout, profile, args.has("--pretty") ? 2 : 0);
  } else {
    sim::writeProfileText(std::cout, profile);
  }
  if (timeline) {
    timeline->write(timelineFile);
    if (!timelineFile.flush()) throw std::runtime_error("--trace-timeline: write failed");
  }
  return 0;
}

}  // namespace coralsim::cli

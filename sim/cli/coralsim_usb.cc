// `coralsim-usb`: the project's own host driver on a Coral USB Accelerator reached through libusb —
// a physical one, or the emulated one the kernel attached from `coralsim serve` over USB/IP (the
// real-kernel end-to-end test runs it inside a QEMU guest). Links the driver library and libusb
// only: no SystemC, no simulator.
//
//   coralsim-usb list
//   coralsim-usb run MODEL [--firmware FILE] [--input FILE ... | --random SEED] [--output FILE] [--json]
//
// `run` finds the device; a device in bootloader mode (1a6e:089a) gets the firmware image over DFU
// and is reset into the runtime personality (18d1:9302); then the libedgetpu open sequence, the
// model's executables, the close sequence — the same Runner `coralsim run` drives in process — and
// the same report (docs/run-json.md). Progress goes to standard error.
#include <chrono>
#include <cstdio>
#include <exception>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "driver/transport/dfu_download.h"
#include "driver/transport/libusb_transport.h"
#include "driver/transport/physical_coral.h"
#include "driver/transport/recording_transport.h"
#include "driver/model/model_loader.h"
#include "driver/run/run_plan.h"
#include "driver/run/run_report.h"
#include "driver/run/runner.h"
#include "sim/cli/args.h"
#include "sim/cli/dispatch.h"
#include "sim/cli/run_io.h"

#ifndef CORALSIM_VERSION
#define CORALSIM_VERSION "unknown"
#endif

namespace coralsim::cli {
namespace {

const std::vector<OptionSpec> kListOptions = {
    {"--help", false, "", "show this help"},
};

const std::vector<OptionSpec> kRunOptions = {
    {"--device", true, "PATH", "bus-port path of the Coral to use (\"1-1\"; default: the only one)"},
    {"--wait-ms", true, "MS", "wait up to MS for a Coral to appear (default 0)"},
    {"--firmware", true, "FILE", "firmware image for a device in bootloader mode (apex_latest_single_ep.bin)"},
    {"--no-verify", false, "", "skip the DFU_UPLOAD read-back after the download"},
    {"--always-dfu", false, "", "with --firmware: send a runtime device back to the bootloader (DFU_DETACH) and flash it"},
    {"--reenumeration-timeout-ms", true, "MS", "wait after the post-download USB reset (default 10000)"},
    {"--input", true, "FILE", "raw bytes of one model input, in TFLite encoding (repeat, in input order)"},
    {"--random", true, "SEED", "random inputs from SEED (the same bytes as `coralsim run --random SEED`)"},
    {"--output", true, "FILE", "write the output bytes to FILE (several outputs: FILE.0, FILE.1, ...)"},
    {"--json", false, "", "print one JSON object (format: docs/run-json.md)"},
    {"--pretty", false, "", "with --json: indent the JSON"},
    {"--service", true, "HOW", "hints (default: descr_ep 0xF0, follow the DMA hints) or events (0xFF)"},
    {"--iterations", true, "N", "run the model N times on one open device (default 1)"},
    {"--timeout-ms", true, "MS", "wall-clock limit per USB transfer (default 10000)"},
    {"--trace-usb", true, "FILE", "write every transfer of the session as a coralsim USB log (for coralsim trace-diff)"},
    {"--help", false, "", "show this help"},
};

void printRunHelp() {
  std::cout << "usage: coralsim-usb run MODEL|PROGRAM [--device PATH] [--wait-ms MS] [--firmware FILE]\n"
               "                        [--input FILE ... | --random SEED] [--output FILE] [--json [--pretty]]\n"
               "                        [--service hints|events] [--iterations N] [--timeout-ms MS]\n\n"
               "Finds a Coral USB Accelerator through libusb (a physical one, or an emulated one the kernel\n"
               "attached over USB/IP). A device in bootloader mode (1a6e:089a) first gets --firmware over DFU\n"
               "(256-byte blocks, GETSTATUS after each, the zero-length block, read-back by DFU_UPLOAD), then a\n"
               "USB reset and the wait for it to re-enumerate as 18d1:9302; a device already in runtime mode is\n"
               "not flashed again (libedgetpu's default) unless --always-dfu sends it back to the bootloader\n"
               "first (DFU_DETACH and a USB reset, libedgetpu's Usb.AlwaysDfu). Then, exactly as `coralsim run` does in process: the\n"
               "libedgetpu open sequence, PARAMETER_CACHING when its token is not cached, the EXECUTION_ONLY /\n"
               "STAND_ALONE executables, the close sequence. Prints the descriptors the device reported, the\n"
               "output sizes and SHA-256, or one JSON object in the `coralsim run --json` format (cycles are\n"
               "null: a USB device does not report them). Progress goes to standard error.\n\n"
               "options:\n"
            << describeOptions(kRunOptions)
            << "\nexit status: 0 success, 1 no device, DFU failure or run failure, 2 usage error\n";
}

void progress(const std::string& line) { std::cerr << "coralsim-usb: " << line << std::endl; }

int runList(const CommandArgs& argv) {
  const Args args(argv, kListOptions);
  if (args.has("--help")) {
    std::cout << "usage: coralsim-usb list\n\nLists every Coral USB Accelerator libusb sees, in either "
                 "personality.\n";
    return 0;
  }
  if (!args.positional().empty()) throw UsageError("list takes no arguments");
  const auto corals = driver::listCoralDevices();
  for (const auto& d : corals) std::cout << driver::describeCoral(d) << '\n';
  if (corals.empty()) {
    std::cerr << "coralsim-usb: no Coral USB Accelerator found\n";
    return 1;
  }
  return 0;
}

std::chrono::milliseconds millisecondsOption(const Args& args, std::string_view option, uint64_t fallback) {
  const uint64_t ms = args.number(option).value_or(fallback);
  if (ms > 3'600'000) throw UsageError(std::string(option) + " expects at most 3600000");
  return std::chrono::milliseconds(ms);
}

int runRunCommand(const CommandArgs& argv) {
  const Args args(argv, kRunOptions);
  if (args.has("--help")) {
    printRunHelp();
    return 0;
  }
  checkRunArguments(args);
  const driver::RunnerOptions runnerOptions = runnerOptionsFrom(args);
  const uint64_t iterations = iterationsFrom(args);
  driver::PhysicalCoralOptions coral;
  coral.usb.path = args.value("--device");
  coral.usb.timeout = millisecondsOption(args, "--timeout-ms", driver::LibusbTransport::kDefaultTimeout.count());
  if (coral.usb.timeout.count() == 0) throw UsageError("--timeout-ms expects a positive number");
  coral.wait = millisecondsOption(args, "--wait-ms", 0);
  coral.dfu.verify = !args.has("--no-verify");
  coral.dfu.reenumerationTimeout = millisecondsOption(args, "--reenumeration-timeout-ms", 10'000);
  coral.dfu.log = [](const std::string& line) { progress("DFU: " + line); };
  coral.alwaysDfu = args.has("--always-dfu");
  coral.progress = progress;

  // Everything that can be wrong with the files is found before the device is touched.
  const driver::ModelFile model = driver::loadModelFile(args.positional()[0]);
  const driver::RunPlan plan = driver::planRun(model);
  const std::vector<std::vector<uint8_t>> inputs = gatherInputs(args, plan);
  if (auto path = args.value("--firmware")) coral.firmware = driver::readFirmwareFile(*path);
  if (coral.alwaysDfu && !coral.firmware) throw UsageError("--always-dfu needs --firmware FILE");
  const std::unique_ptr<driver::LibusbTransport> transport = driver::openPhysicalCoral(coral);

  // --trace-usb: the session (open .. close) as the driver saw it, with host-clock times; compare
  // it with a simulated one: coralsim trace-diff REAL.jsonl SIM.jsonl.
  std::optional<std::ofstream> usbTraceFile;
  if (auto path = args.value("--trace-usb")) {
    usbTraceFile.emplace(*path, std::ios::binary | std::ios::trunc);
    if (!*usbTraceFile) throw UsageError("--trace-usb: cannot write '" + *path + "'");
  }
  traces::UsbLog usbLog;
  usbLog.origin = "driver";
  usbLog.source = plan.model + " on " + transport->name();
  driver::RecordingTransport recorder(*transport, usbLog);
  driver::Runner runner(usbTraceFile ? static_cast<driver::Transport&>(recorder) : *transport, runnerOptions);
  runner.open();
  progress("opened (libedgetpu open sequence, " +
           std::string(transport->linkSpeed() == usb::UsbSpeed::kSuper ? "SuperSpeed" : "high-speed") + " settings)");
  driver::RunResult result = runner.run(plan, inputs, static_cast<int>(iterations));
  try {
    runner.close();
    progress("closed");
  } catch (const std::exception& e) {
    if (result.ok()) result.error = std::string("close: ") + e.what();
  }

  if (usbTraceFile) {
    traces::writeUsbLog(usbLog, *usbTraceFile);
    if (!usbTraceFile->flush()) throw std::runtime_error("--trace-usb: write failed");
  }
  if (auto out = args.value("--output"); out && !result.outputs.empty()) writeOutputs(*out, result);
  driver::RunReportContext context;
  context.coralsimVersion = CORALSIM_VERSION;
  context.requestedMode = "auto";
  context.notComputedText = "NOT COMPUTED (the device says its datapath did not compute these bytes)";
  if (args.has("--json")) {
    driver::writeRunJson(result, context, std::cout, args.has("--pretty") ? 2 : 0);
    std::cout << std::endl;
  } else {
    driver::writeRunText(result, context, std::cout);
  }
  if (!result.ok()) {
    std::cerr << "coralsim-usb run: " << plan.model << ": " << *result.error << '\n';
    return 1;
  }
  return 0;
}

constexpr Command kCommands[] = {{"list", "", runList}, {"run", "", runRunCommand}};

constexpr Program kProgram{
    "coralsim-usb",
    "coralsim-usb — coralsim's host driver on a Coral USB Accelerator through libusb\n\n"
    "usage: coralsim-usb list\n"
    "       coralsim-usb run MODEL [--firmware FILE] [--input FILE ... | --random SEED] [--json]\n"
    "       (coralsim-usb COMMAND --help for details)\n",
    kCommands,
    "",  // no --version (as before the dispatcher was shared)
};

}  // namespace
}  // namespace coralsim::cli

int main(int argc, char** argv) { return coralsim::cli::dispatch(coralsim::cli::kProgram, argc, argv); }

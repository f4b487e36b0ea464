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

#include "driver/dfu_download.h"
#include "driver/libusb_transport.h"
#include "driver/recording_transport.h"
#include "driver/model_loader.h"
#include "driver/run_plan.h"
#include "driver/run_report.h"
#include "driver/runner.h"
#include "sim/cli/args.h"
#include "sim/cli/run_io.h"

namespace coralsim::cli {
using CommandArgs = std::vector<std::string>;
}

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

void printUsage(std::FILE* to) {
  std::fprintf(to,
               "coralsim-usb — coralsim's host driver on a Coral USB Accelerator through libusb\n\n"
               "usage: coralsim-usb list\n"
               "       coralsim-usb run MODEL [--firmware FILE] [--input FILE ... | --random SEED] [--json]\n"
               "       (coralsim-usb COMMAND --help for details)\n");
}

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

std::string describe(const driver::UsbDeviceLocation& d) {
  return d.path() + " " + usb::vidPidText(d.vendorId, d.productId) + " " +
         std::string(usb::coralUsbId(d.personality).name) + " (bus " + std::to_string(d.busNumber) + " address " +
         std::to_string(d.address) + ", " + d.speedName + " speed)";
}

int runList(const CommandArgs& argv) {
  const Args args(argv, kListOptions);
  if (args.has("--help")) {
    std::cout << "usage: coralsim-usb list\n\nLists every Coral USB Accelerator libusb sees, in either "
                 "personality.\n";
    return 0;
  }
  if (!args.positional().empty()) throw UsageError("list takes no arguments");
  const auto corals = driver::listCoralDevices();
  for (const auto& d : corals) std::cout << describe(d) << '\n';
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

// Opens the device, waiting up to `wait` for one to appear.
std::unique_ptr<driver::LibusbTransport> openDevice(const driver::LibusbOptions& options, std::chrono::milliseconds wait) {
  const auto deadline = std::chrono::steady_clock::now() + wait;
  while (true) {
    try {
      return std::make_unique<driver::LibusbTransport>(options);
    } catch (const driver::TransportError&) {
      if (std::chrono::steady_clock::now() >= deadline) throw;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

int runRunCommand(const CommandArgs& argv) {
  const Args args(argv, kRunOptions);
  if (args.has("--help")) {
    printRunHelp();
    return 0;
  }
  if (args.positional().size() != 1) throw UsageError("expects exactly one MODEL or PROGRAM file");
  if (args.has("--pretty") && !args.has("--json")) throw UsageError("--pretty only applies to --json");
  driver::RunnerOptions runnerOptions;
  const std::string serviceText = args.value("--service").value_or("hints");
  if (!driver::parseServiceMode(serviceText, runnerOptions.service)) {
    throw UsageError("--service expects hints or events, got '" + serviceText + "'");
  }
  const uint64_t iterations = args.number("--iterations").value_or(1);
  if (iterations == 0 || iterations > 1'000'000) throw UsageError("--iterations expects 1..1000000");
  driver::LibusbOptions usbOptions;
  usbOptions.path = args.value("--device");
  usbOptions.timeout = millisecondsOption(args, "--timeout-ms", driver::LibusbTransport::kDefaultTimeout.count());
  if (usbOptions.timeout.count() == 0) throw UsageError("--timeout-ms expects a positive number");
  const auto wait = millisecondsOption(args, "--wait-ms", 0);
  driver::DfuDownloadOptions dfuOptions;
  dfuOptions.verify = !args.has("--no-verify");
  dfuOptions.reenumerationTimeout = millisecondsOption(args, "--reenumeration-timeout-ms", 10'000);
  dfuOptions.log = [](const std::string& line) { progress("DFU: " + line); };

  // Everything that can be wrong with the files is found before the device is touched.
  const driver::ModelFile model = driver::loadModelFile(args.positional()[0]);
  const driver::RunPlan plan = driver::planRun(model);
  const std::vector<std::vector<uint8_t>> inputs = gatherInputs(args, plan);
  std::optional<std::vector<uint8_t>> firmware;
  if (auto path = args.value("--firmware")) firmware = driver::readFirmwareFile(*path);

  if (args.has("--always-dfu") && !firmware) throw UsageError("--always-dfu needs --firmware FILE");
  auto transport = openDevice(usbOptions, wait);
  progress("found " + describe(transport->device()));
  if (args.has("--always-dfu") && transport->personality() == usb::CoralPersonality::kRuntime) {
    driver::detachToBootloader(*transport, dfuOptions.reenumerationTimeout);
    progress("DFU_DETACH and USB reset: now " + describe(transport->device()));
  }
  if (transport->personality() == usb::CoralPersonality::kBootloader) {
    if (!firmware) {
      throw std::runtime_error(transport->name() + " is in bootloader mode (1a6e:089a): give --firmware FILE "
                               "(libedgetpu's apex_latest_single_ep.bin) to load the runtime firmware");
    }
    const auto t0 = std::chrono::steady_clock::now();
    const driver::DfuDownloadResult dfu = driver::downloadFirmware(*transport, *firmware, dfuOptions);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0);
    progress("DFU: downloaded " + std::to_string(dfu.imageBytes) + " bytes in " + std::to_string(dfu.dataBlocks) +
             " blocks" + (dfu.verified ? ", verified" : "") + ", " + std::to_string(ms.count()) + " ms; now " +
             describe(transport->device()));
  } else if (firmware) {
    progress("device already runs firmware (18d1:9302): not flashing it again (libedgetpu's default)");
  }

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

struct Command {
  std::string_view name;
  int (*run)(const CommandArgs&);
};
constexpr Command kCommands[] = {{"list", runList}, {"run", runRunCommand}};

}  // namespace
}  // namespace coralsim::cli

int main(int argc, char** argv) {
  using namespace coralsim::cli;
  if (argc < 2) {
    printUsage(stderr);
    return 2;
  }
  const std::string_view name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    printUsage(stdout);
    return 0;
  }
  for (const auto& c : kCommands) {
    if (c.name != name) continue;
    const CommandArgs args(argv + 2, argv + argc);
    try {
      return c.run(args);
    } catch (const UsageError& e) {
      std::fprintf(stderr, "coralsim-usb %s: %s (see 'coralsim-usb %s --help')\n", argv[1], e.what(), argv[1]);
      return 2;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "coralsim-usb %s: error: %s\n", argv[1], e.what());
      return 1;
    }
  }
  std::fprintf(stderr, "coralsim-usb: unknown command '%s'\n\n", argv[1]);
  printUsage(stderr);
  return 2;
}

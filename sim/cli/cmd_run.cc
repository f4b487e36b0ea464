// `coralsim run MODEL|PROGRAM`: runs a compiled model or a raw program on an in-process emulated
// Coral USB Accelerator through the same host driver a real device would get (driver/run/runner.h over
// hosting/in_process_transport.h): the libedgetpu open sequence, parameter caching, the executables
// served by DMA hints or by device events, the close sequence. Prints the simulated cycles, the
// descriptors each executable run pushed, the execution mode the device used and every output's
// size and SHA-256 — or one JSON object (docs/run-json.md).
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "hosting/in_process_transport.h"
#include "driver/model/model_loader.h"
#include "driver/run/run_plan.h"
#include "driver/run/run_report.h"
#include "driver/run/runner.h"
#include "sim/cli/args.h"
#include "sim/cli/commands.h"
#include "sim/cli/run_io.h"
#include "sim/cli/run_traces.h"
#include "sim/device.h"
#include "sim/cli/datapath_options.h"
#include "sim/cli/device_options.h"

#ifndef CORALSIM_VERSION
#define CORALSIM_VERSION "unknown"
#endif

namespace coralsim::cli {
namespace {

const std::vector<OptionSpec> kBaseOptions = {
    {"--input", true, "FILE", "raw bytes of one model input, in TFLite encoding (repeat, in input order)"},
    {"--random", true, "SEED", "random inputs from SEED (reproducible on every platform)"},
    {"--output", true, "FILE", "write the output bytes to FILE (several outputs: FILE.0, FILE.1, ...)"},
    {"--json", false, "", "print one JSON object (format: docs/run-json.md)"},
    {"--pretty", false, "", "with --json: indent the JSON"},
    {"--mode", true, "MODE", "datapath rung: auto (default), lle, hle or protocol"},
    {"--rounding", true, "HOW", "lle rounding: fp32-half-even (default), fp32-half-away, tflite-fixed-point"},
    {"--hle", true, "COMPILED=CPU|auto",
     "register a high-level program: a compiled model and its CPU twin (repeat); 'auto': the twin X.tflite "
     "beside MODEL X_edgetpu.tflite"},
    {"--hle-bind", true, "TENSOR=TWIN", "bind the custom-op tensor TENSOR to the twin's tensor TWIN (repeat)"},
    {"--service", true, "HOW", "hints (default: descr_ep 0xF0, follow the DMA hints) or events (0xFF)"},
    {"--iterations", true, "N", "run the model N times on one open device (default 1)"},
    {"--clock-mhz", true, "MHZ", "chip clock (default 500; 250 = the reduced-clock runtime)"},
    {"--usb", true, "SPEED", "link speed: super (default) or high"},
    {"--cycle-limit", true, "N", "stop a run after N simulated cycles with a fault (default 4e9)"},
    {"--timeout-ms", true, "MS", "per host transfer: wall time the simulated chip may sit idle waiting (default 10000)"},
    {"--timing", false, "", "predict the device time per run and per inference: USB transfer + compute + idle"},
    {"--timing-constant", true, "NAME=N", "override one cost-model constant of models/timing_model.h (repeat)"},
    {"--help", false, "", "show this help"},
};
const std::vector<OptionSpec> kOptions = [] {
  std::vector<OptionSpec> all = kBaseOptions;
  for (OptionSpec& o : RunTraces::options()) all.insert(all.end() - 1, o);  // before --help
  return all;
}();

void printHelp() {
  std::cout
      << "usage: coralsim run MODEL|PROGRAM [--input FILE ... | --random SEED] [--output FILE]\n"
         "                    [--json [--pretty]] [--mode auto|lle|hle|protocol] [--service hints|events]\n"
         "                    [--iterations N] [--clock-mhz MHZ] [--usb high|super] [--cycle-limit N]\n"
         "                    [--timeout-ms MS] [--hle COMPILED.tflite=CPU.tflite|auto ...]\n"
         "                    [--hle-bind TENSOR=TWIN_TENSOR ...] [--timing]\n"
         "                    [--trace-usb FILE] [--trace-timeline FILE] [--trace-instructions FILE]\n"
         "                    [--trace-vcd FILE]\n\n"
         "Runs MODEL (a compiled *_edgetpu.tflite, a bare DarwiNN package or executable) or PROGRAM (a\n"
         "raw *.coral instruction stream) on an emulated Coral USB Accelerator in this process, through\n"
         "the host driver a real device gets: the libedgetpu open sequence, then per package the\n"
         "PARAMETER_CACHING executable (only when its token is not already cached on the device) and\n"
         "the EXECUTION_ONLY / STAND_ALONE one, then the close sequence.\n\n"
         "Service: 'hints' walks each executable's DMA hints like libedgetpu; 'events' answers every\n"
         "descriptor the device announces on EP 0x82. Executables without fully deterministic hints,\n"
         "and raw programs, are always served by events.\n\n"
         "Inputs: one --input FILE per model input, in the order the model lists them, each exactly the\n"
         "tensor's size in its TFLite encoding (int8 tensors as int8: the driver flips the sign bit for\n"
         "the device). --random SEED fills them reproducibly; with neither, inputs are zeros. A raw\n"
         "program takes up to two files: its input stream and its parameter stream (descriptor\n"
         "addresses are offsets into them).\n\n"
         "Datapath rungs (--mode): 'lle' computes tile packets from their fields; 'hle' recognises the\n"
         "program by the hash of its instruction chunks (linked address fields masked) among the\n"
         "programs registered with --hle and computes the custom op's outputs with the CPU twin's graph\n"
         "on 8-bit reference kernels, sent in the device's byte order; 'protocol' sends outputs of the\n"
         "right size and timing marked NOT COMPUTED; 'auto' uses the highest rung that covers each run.\n"
         "Every run line names the rung it used and, in auto mode, why a higher one was dropped.\n\n"
         "CPU twins (--hle): '--hle auto' registers the twin the Edge TPU compiler's naming implies,\n"
         "X.tflite beside MODEL X_edgetpu.tflite, and says which it found, or that there was none (a\n"
         "twin found that does not pair is reported and not used). Each custom-op tensor is bound to the\n"
         "twin tensor of the same name; when the names differ (older PoseNet compiles), to the one twin\n"
         "tensor with the same shape, type and quantisation; several or none is an error listing the\n"
         "candidates. --hle-bind TENSOR=TWIN_TENSOR binds explicitly (every pair). The output lists\n"
         "every binding and how it was made (name, shape-type-quant, override).\n\n"
         "Prints the simulated cycles, per executable run the descriptors the device pushed (tag,\n"
         "address, length, and the host buffer the address names), the execution mode used, and for\n"
         "each output its size and SHA-256. Tile-major outputs are re-ordered into TFLite order by the\n"
         "driver, as libedgetpu does; outputs the datapath did not compute are marked NOT COMPUTED.\n\n"
         "Timing (--timing): the predicted device time of every executable run and of one inference\n"
         "(the runs of the last iteration: use --iterations 2 for the steady state with parameters\n"
         "cached), split into USB transfer (the link model of --usb: bytes and libedgetpu's transfers),\n"
         "compute (simulated chip cycles at --clock-mhz) and idle (host turnaround). Deterministic: it\n"
         "never reads a wall clock. --json carries the same figures under \"timing\".\n\n"
      << RunTraces::helpText() << "options:\n"
      << describeOptions(kOptions)
      << "\nexit status: 0 success, 1 the model could not be loaded or the run failed (fault, timeout,\n"
         "protocol violation), 2 usage error\n";
}

// "NAME=N" for one row of models::kTimingConstants; a usage error names the known constants.
void setTimingConstant(models::TimingModel& timing, const std::string& text) {
  const size_t eq = text.find('=');
  const std::string name = text.substr(0, eq);
  std::string known;
  for (const models::TimingConstant& c : models::kTimingConstants) {
    known += known.empty() ? c.name : std::string(", ") + c.name;
    if (name != c.name) continue;
    const std::string value = eq == std::string::npos ? "" : text.substr(eq + 1);
    if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos || value.size() > 12) {
      throw UsageError("--timing-constant " + name + " expects a whole number, got '" + value + "'");
    }
    c.set(timing, std::stoull(value));
    return;
  }
  throw UsageError("--timing-constant expects NAME=N with NAME one of " + known + ", got '" + text + "'");
}

}  // namespace

int runRun(const CommandArgs& argv) {
  const Args args(argv, kOptions);
  if (args.has("--help")) {
    printHelp();
    return 0;
  }
  checkRunArguments(args);
  if (args.has("--input") && args.has("--random")) throw UsageError("--input and --random exclude each other");
  if (args.has("--random")) (void)args.number("--random");  // a bad SEED is a usage error, before any work

  sim::DeviceOptions deviceOptions;
  // Registered before the model loads, so a bad pair fails early; the device only sees the registry.
  const DatapathReport datapath = applyDatapathOptions(args, deviceOptions.chip, args.positional()[0]);
  driver::RunnerOptions runnerOptions = runnerOptionsFrom(args);
  runnerOptions.deviceTime = args.has("--timing");  // read from the device's clock, run by run
  deviceOptions.speed = parseUsbSpeed(args, "--usb");
  if (auto mhz = args.number("--clock-mhz")) {
    if (*mhz == 0 || *mhz > 10'000) throw UsageError("--clock-mhz expects 1..10000");
    deviceOptions.chip.clockHz = *mhz * 1'000'000;
    runnerOptions.performance = driver::clockPerformanceForMhz(*mhz);
  }
  for (const std::string& text : args.values("--timing-constant")) setTimingConstant(deviceOptions.chip.timing, text);
  applyCycleLimit(args, deviceOptions.chip);
  const uint64_t iterations = iterationsFrom(args);
  const uint64_t timeoutMs = args.number("--timeout-ms").value_or(driver::InProcessTransport::kDefaultTimeout.count());
  if (timeoutMs == 0) throw UsageError("--timeout-ms expects a positive number");

  const driver::ModelFile model = driver::loadModelFile(args.positional()[0]);
  const driver::RunPlan plan = driver::planRun(model);
  const std::vector<std::vector<uint8_t>> inputs = gatherInputs(args, plan);

  RunTraces traces(args);  // before any work: an unwritable trace path is a usage error
  traces.configure(deviceOptions);
  sim::Device device(deviceOptions);
  driver::InProcessTransport transport(device, std::chrono::milliseconds(timeoutMs));
  driver::Runner runner(traces.wrap(transport), runnerOptions);
  runner.open();
  driver::RunResult result = runner.run(plan, inputs, static_cast<int>(iterations));
  try {
    runner.close();
  } catch (const std::exception& e) {
    if (result.ok()) result.error = std::string("close: ") + e.what();
  }

  traces.finish(plan.model);
  if (auto out = args.value("--output"); out && !result.outputs.empty()) writeOutputs(*out, result);

  driver::RunReportContext context;
  context.coralsimVersion = CORALSIM_VERSION;
  context.requestedMode = std::string(models::executionModeName(deviceOptions.chip.mode));
  context.hleTwins = datapath.hleTwins;
  context.hleAuto = datapath.hleAuto;
  if (args.has("--json")) {
    driver::writeRunJson(result, context, std::cout, args.has("--pretty") ? 2 : 0);
    std::cout << '\n';
  } else {
    driver::writeRunText(result, context, std::cout);
  }
  if (!result.ok()) {
    std::cerr << "coralsim run: " << plan.model << ": " << *result.error << '\n';
    return 1;
  }
  return 0;
}

}  // namespace coralsim::cli

// `coralsim trace-diff A B`: compares two USB sessions — coralsim USB logs (`run --trace-usb`) or
// captures of a real Coral (usbmon text, libusb call logs, tshark text exports) — and reports the
// protocol-relevant differences (traces/usb_diff.h). `coralsim trace-import CAPTURE -o LOG`
// converts a capture into a coralsim USB log.
#include <fstream>
#include <iostream>

#include "driver/transport/recording_transport.h"
#include "sim/cli/args.h"
#include "sim/cli/commands.h"
#include "traces/usb_diff.h"
#include "traces/usb_import.h"

namespace coralsim::cli {
namespace {

const std::vector<OptionSpec> kDiffOptions = {
    {"--json", false, "", "print one JSON object instead of text"},
    {"--pretty", false, "", "with --json: indent the JSON"},
    {"--format-a", true, "FORMAT", "format of A: auto (default), coralsim, usbmon, libusb, tshark, tshark-detail"},
    {"--format-b", true, "FORMAT", "format of B (as --format-a)"},
    {"--phase", true, "PHASE", "compare only open, run or close (repeat for several; default all)"},
    {"--compare-reads", false, "", "count differing values READ from CSRs as protocol-relevant"},
    {"--help", false, "", "show this help"},
};

const std::vector<OptionSpec> kImportOptions = {
    {"-o", true, "FILE", "write the coralsim USB log to FILE (default: standard output)"},
    {"--format", true, "FORMAT", "auto (default), usbmon, libusb, tshark, tshark-detail, coralsim"},
    {"--help", false, "", "show this help"},
};

traces::CaptureFormat formatOption(const Args& args, std::string_view option) {
  traces::CaptureFormat format = traces::CaptureFormat::kAuto;
  if (auto text = args.value(option); text && !traces::parseCaptureFormat(*text, format)) {
    throw UsageError(std::string(option) + " expects auto, coralsim, usbmon, libusb, tshark or tshark-detail, got '" +
                     *text + "'");
  }
  return format;
}

}  // namespace

int runTraceDiff(const CommandArgs& argv) {
  const Args args(argv, kDiffOptions);
  if (args.has("--help")) {
    std::cout << "usage: coralsim trace-diff A B [--json [--pretty]] [--format-a F] [--format-b F]\n"
                 "                           [--phase open|run|close ...] [--compare-reads]\n\n"
                 "Compares two USB sessions of a Coral: coralsim USB logs (coralsim run --trace-usb) or\n"
                 "captures of real devices (usbmon text, libusb call logs, tshark text exports; the format is\n"
                 "detected). Each session is split into open (control transfers before the first bulk\n"
                 "transfer), run and close phases; CSR accesses are aligned per phase.\n\n"
                 "Protocol-relevant: a CSR access on one side only, a different written value, different\n"
                 "record tags or sizes on EP 0x01, different event descriptors on EP 0x82, different output\n"
                 "sizes or bytes on EP 0x81 (when both sides show them). Reported but not relevant: values\n"
                 "read back (unless --compare-reads), standard and DFU control transfers, timing (durations\n"
                 "per phase and their ratio B/A). Comparisons a side cannot support are listed as 'not\n"
                 "compared'.\n\noptions:\n"
              << describeOptions(kDiffOptions)
              << "\nexit status: 0 no protocol-relevant difference, 1 differences (or a file could not be read),\n"
                 "2 usage error\n";
    return 0;
  }
  if (args.positional().size() != 2) throw UsageError("expects two sessions, A and B");
  args.requireJsonForPretty();
  traces::UsbDiffOptions options;
  options.compareReadValues = args.has("--compare-reads");
  for (const std::string& phase : args.values("--phase")) {
    if (phase != "open" && phase != "run" && phase != "close") {
      throw UsageError("--phase expects open, run or close, got '" + phase + "'");
    }
    options.phases.push_back(phase);
  }
  const traces::CaptureFormat formatA = formatOption(args, "--format-a");
  const traces::CaptureFormat formatB = formatOption(args, "--format-b");
  const traces::RegisterNamer namer = driver::csrRegisterNamer();
  const traces::ImportedCapture a = traces::loadUsbSession(args.positional()[0], namer, formatA);
  const traces::ImportedCapture b = traces::loadUsbSession(args.positional()[1], namer, formatB);
  const traces::UsbDiffReport report = traces::diffUsbLogs(a.log, b.log, options);
  if (args.has("--json")) {
    traces::writeUsbDiffJson(report, a.log, b.log, std::cout, args.has("--pretty") ? 2 : 0);
    std::cout << '\n';
  } else {
    traces::writeUsbDiffText(report, a.log, b.log, std::cout);
  }
  return report.hasRelevant() ? 1 : 0;
}

int runTraceImport(const CommandArgs& argv) {
  const Args args(argv, kImportOptions);
  if (args.has("--help")) {
    std::cout << "usage: coralsim trace-import CAPTURE [-o LOG.jsonl] [--format F]\n\n"
                 "Reads a capture of a Coral USB session (usbmon text, libusb call log, tshark text export)\n"
                 "and writes it as a coralsim USB log (JSONL, traces/README.md), the format of\n"
                 "coralsim run --trace-usb. Prints what was read on standard error.\n\noptions:\n"
              << describeOptions(kImportOptions) << "\nexit status: 0 success, 1 the capture could not be read, 2 usage error\n";
    return 0;
  }
  if (args.positional().size() != 1) throw UsageError("expects exactly one CAPTURE file");
  const traces::ImportedCapture c =
      traces::loadUsbSession(args.positional()[0], driver::csrRegisterNamer(), formatOption(args, "--format"));
  if (auto out = args.value("-o")) {
    std::ofstream file(*out, std::ios::binary);
    if (!file) throw std::runtime_error(*out + ": cannot write");
    traces::writeUsbLog(c.log, file);
    if (!file.flush()) throw std::runtime_error(*out + ": write failed");
  } else {
    traces::writeUsbLog(c.log, std::cout);
  }
  std::cerr << args.positional()[0] << ": " << traces::captureFormatName(c.format) << ", " << c.log.transactions.size()
            << " transactions (" << c.stats.lines << " lines, " << c.stats.skippedLines << " skipped, "
            << c.stats.otherDeviceTransfers << " transfers of other devices dropped, " << c.stats.unmatchedSubmissions
            << " never completed)\n";
  return 0;
}

}  // namespace coralsim::cli

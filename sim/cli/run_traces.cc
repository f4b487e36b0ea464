#include "sim/cli/run_traces.h"

#include <cmath>

#include "sim/simulation_kernel.h"

namespace coralsim::cli {
namespace {

std::ofstream openOrThrow(const std::string& option, const std::string& path) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) throw UsageError(option + ": cannot write '" + path + "'");
  return file;
}

}  // namespace

std::vector<OptionSpec> RunTraces::options() {
  return {
      {"--trace-usb", true, "FILE", "write the USB transaction log (JSONL, traces/README.md) for trace-diff"},
      {"--trace-timeline", true, "FILE", "write a Perfetto/Chrome JSON timeline: a track per unit"},
      {"--trace-instructions", true, "FILE", "write the instruction trace (JSONL: cycle, PC, packet, registers written)"},
      {"--trace-vcd", true, "FILE.vcd", "write a VCD of chip signals via sc_trace (scalar core run state, tile packets)"},
  };
}

const char* RunTraces::helpText() {
  return "Traces (each off unless asked for; identical on every run of the same command):\n"
         "  --trace-usb FILE           every USB transfer of the session as the driver saw it: control\n"
         "                             setup with the CSR name and value, bulk lengths, record tags and\n"
         "                             sizes, event descriptors, output SHA-256, simulated device time\n"
         "                             (t_us: compute + USB link + idle) and chip cycle. Compare\n"
         "                             with a real capture: coralsim trace-diff FILE CAPTURE.\n"
         "  --trace-timeline FILE      open in ui.perfetto.dev or chrome://tracing: tracks for the scalar\n"
         "                             core (runs, chunks), each tile and NLU (packet spans), each DMA\n"
         "                             engine (descriptors by tag: the device side of every bulk\n"
         "                             transfer) and each USB endpoint (control transfers with CSR\n"
         "                             names, bulk transfers with their device time).\n"
         "  --trace-instructions FILE  one JSON line per executed scalar-core packet.\n"
         "  --trace-vcd FILE.vcd       chip signals through SystemC's sc_trace: the scalar core's run state\n"
         "                             and chip cycle, each tile's accepted packets, last sequence number\n"
         "                             and fence; in SystemC time (ns), which also passes while the chip\n"
         "                             waits for the host, so this one file is not identical across runs.\n"
         "                             Written when the process exits.\n\n";
}

RunTraces::RunTraces(const Args& args)
    : usbPath_(args.value("--trace-usb")), timelinePath_(args.value("--trace-timeline")),
      instructionsPath_(args.value("--trace-instructions")), vcdPath_(args.value("--trace-vcd")) {
  if (usbPath_) usbFile_ = openOrThrow("--trace-usb", *usbPath_);
  if (timelinePath_) timelineFile_ = openOrThrow("--trace-timeline", *timelinePath_);
  if (instructionsPath_) instructionsFile_ = openOrThrow("--trace-instructions", *instructionsPath_);
  if (vcdPath_) {
    if (!vcdPath_->ends_with(".vcd")) throw UsageError("--trace-vcd expects a file name ending in .vcd (SystemC's rule)");
    (void)openOrThrow("--trace-vcd", *vcdPath_);  // fail now on an unwritable path
    if (!sim::SimulationKernel::requestVcdTrace(*vcdPath_)) {
      throw UsageError("--trace-vcd: the SystemC kernel is already running in this process");
    }
  }
}

void RunTraces::configure(sim::DeviceOptions& options) {
  clock_ = options.chip.clockHz;
  if (!timelinePath_ && !instructionsPath_) return;
  tracer_ = std::make_shared<traces::Tracer>();
  if (timelinePath_) {
    timeline_ = std::make_unique<traces::TimelineWriter>(clock_);
    tracer_->addEventSink(timeline_.get());
  }
  if (instructionsPath_) {
    instructions_ = std::make_unique<traces::InstructionTraceWriter>(instructionsFile_);
    tracer_->setInstructionSink(instructions_.get());
  }
  options.chip.tracer = tracer_;
}

driver::Transport& RunTraces::wrap(driver::Transport& inner) {
  if (!usbPath_ && !timelinePath_) return inner;
  usbLog_.origin = "driver";
  recorder_ = std::make_unique<driver::RecordingTransport>(inner, usbLog_);
  return *recorder_;
}

void RunTraces::finish(const std::string& source) {
  usbLog_.source = source;
  if (usbPath_) {
    traces::writeUsbLog(usbLog_, usbFile_);
    if (!usbFile_.flush()) throw std::runtime_error(*usbPath_ + ": write failed");
  }
  if (timeline_) {
    // The USB transfers join the timeline on their endpoints' tracks at the chip cycle the device
    // stamped on each (driver/transport/recording_transport.h): control transfers when answered,
    // bulk transfers when their last byte crossed the link. The timeline's axis is chip cycles;
    // each transfer's device time (compute + link + idle, sim/device_clock.h) is an argument.
    for (const traces::UsbTransaction& t : usbLog_.transactions) {
      if (!t.cycle) continue;
      traces::TraceEvent e;
      e.kind = traces::TraceEventKind::kInstant;
      e.unit = {traces::TraceUnitKind::kUsbEndpoint,
                static_cast<uint16_t>(t.type == traces::UsbTransferType::kControl ? 0 : t.endpoint)};
      e.cycle = *t.cycle;
      if (t.csr) e.name = (t.in() ? "read " : "write ") + (t.csr->name.empty() ? std::to_string(t.csr->address) : t.csr->name);
      else if (!t.records.empty()) e.name = "record tag " + std::to_string(t.records.front().tag);
      else if (t.event) e.name = "event tag " + std::to_string(t.event->tag);
      else e.name = std::string(traces::usbTransferTypeName(t.type)) + (t.in() ? " in" : " out");
      e.args = {{"length", t.length}, {"seq", t.seq}};
      if (t.timeUs) e.args.push_back({"device_ns", static_cast<uint64_t>(std::llround(*t.timeUs * 1000.0))});
      if (t.csr && t.csr->value) e.args.push_back({"value", *t.csr->value});
      timeline_->record(e);
    }
    timeline_->write(timelineFile_);
    if (!timelineFile_.flush()) throw std::runtime_error(*timelinePath_ + ": write failed");
  }
  if (instructionsPath_ && !instructionsFile_.flush()) throw std::runtime_error(*instructionsPath_ + ": write failed");
}

}  // namespace coralsim::cli

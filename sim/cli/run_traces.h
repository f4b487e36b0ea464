// The trace outputs of `coralsim run` (--trace-usb, --trace-timeline, --trace-instructions,
// --trace-vcd): each off unless asked for. Files are opened before any work, so a bad path is an
// error before the simulation starts, and written when the session is over.
#pragma once

#include <cstdint>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "driver/transport/recording_transport.h"
#include "sim/cli/args.h"
#include "sim/device.h"
#include "traces/timeline_writer.h"
#include "traces/trace_event.h"
#include "traces/usb_log.h"
#include "units/units.h"

namespace coralsim::cli {

class RunTraces {
 public:
  // The four options, for a command's option table.
  static std::vector<OptionSpec> options();
  static const char* helpText();

  // Reads the options; throws UsageError for an unwritable path.
  explicit RunTraces(const Args& args);

  // Gives the chip its tracer (timeline events, instruction trace) and, for --trace-vcd, the
  // signals to trace. Call before the Device is created.
  void configure(sim::DeviceOptions& options);
  // The transport the runner should use: `inner`, recorded when a USB log or a timeline is wanted.
  driver::Transport& wrap(driver::Transport& inner);
  // Writes the files. `source` names the session (the model).
  void finish(const std::string& source);

 private:
  std::optional<std::string> usbPath_, timelinePath_, instructionsPath_, vcdPath_;
  std::ofstream usbFile_, timelineFile_, instructionsFile_;
  std::shared_ptr<traces::Tracer> tracer_;
  std::unique_ptr<traces::TimelineWriter> timeline_;
  std::unique_ptr<traces::InstructionTraceWriter> instructions_;
  traces::UsbLog usbLog_;
  std::unique_ptr<driver::RecordingTransport> recorder_;
  units::Frequency clock_ = 500'000'000;
};

}  // namespace coralsim::cli

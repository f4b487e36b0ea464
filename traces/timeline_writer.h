// TimelineWriter: trace events -> a Chrome / Perfetto JSON timeline ({"traceEvents": [...]}, open
// it in ui.perfetto.dev or chrome://tracing). One process ("coralsim"), one thread track per unit,
// named and ordered: scalar core, layers (`coralsim profile`), tiles, NLUs, DMA engines, USB endpoints. Timestamps are
// microseconds derived from cycles and the chip clock, printed with integer arithmetic so the
// file is byte-identical across runs.
#pragma once

#include <cstdint>
#include <ostream>
#include <vector>

#include "traces/trace_event.h"
#include "units/units.h"

namespace coralsim::traces {

class TimelineWriter final : public TraceSink {
 public:
  explicit TimelineWriter(units::Frequency clock) : clock_(clock) {}

  void record(const TraceEvent& event) override { events_.push_back(event); }
  [[nodiscard]] size_t eventCount() const { return events_.size(); }

  // Writes every event recorded so far (sorted by cycle, stable) as one JSON document.
  void write(std::ostream& out) const;

 private:
  units::Frequency clock_;
  std::vector<TraceEvent> events_;
};

// The instruction trace: JSONL, one line per executed packet
// {"cycle":..,"pc":"0x..","chunk":..,"packet":"...","writes":{"s3":"0x..","p1":true}}.
class InstructionTraceWriter final : public InstructionSink {
 public:
  explicit InstructionTraceWriter(std::ostream& out) : out_(out) {}
  void record(const InstructionRecord& record) override;
  [[nodiscard]] uint64_t count() const { return count_; }

 private:
  std::ostream& out_;
  uint64_t count_ = 0;
};

}  // namespace coralsim::traces

// The trace event model: what a unit of the simulated chip (or its USB function) did, and when.
// One event shape for every sink (timeline, VCD); the instruction trace has its own record
// because it carries register writes.
//
// Time is the chip clock in cycles (models count modelled work only, so traces are identical on
// every run); sinks convert to time with the clock they are given.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace coralsim::traces {

// The units a timeline shows one track for.
enum class TraceUnitKind : uint8_t {
  kScalarCore,   // runs, chunks, stalls
  kTile,         // index = tile 0..15
  kDmaEngine,    // index = descriptor tag 0..7 (the DMA engine the descriptor drives)
  kNlu,          // index = tile (the non-linear unit of that tile)
  kUsbEndpoint,  // index = endpoint address (0x00, 0x01, 0x81, 0x82, 0x83)
  kLayers,       // the model's layers as `coralsim profile` mapped them (index unused)
};

struct TraceUnit {
  TraceUnitKind kind = TraceUnitKind::kScalarCore;
  uint16_t index = 0;
  friend bool operator==(const TraceUnit&, const TraceUnit&) = default;
  friend auto operator<=>(const TraceUnit&, const TraceUnit&) = default;
};

// "scalar core", "tile 3", "DMA tag 2 (parameters)", "NLU tile 3", "USB EP 0x81", "layers"
[[nodiscard]] std::string traceUnitName(TraceUnit unit);

enum class TraceEventKind : uint8_t {
  kSpan,     // [cycle, cycle + duration): the unit was busy with `name`
  kInstant,  // something happened at `cycle`
};

struct TraceArg {
  std::string key;
  uint64_t value = 0;
};

struct TraceEvent {
  uint64_t cycle = 0;
  uint64_t duration = 0;  // spans only
  TraceUnit unit;
  TraceEventKind kind = TraceEventKind::kInstant;
  std::string name;
  std::vector<TraceArg> args;
};

// One executed scalar-core packet, for the instruction trace.
struct InstructionRecord {
  uint64_t cycle = 0;     // chip cycle at issue
  uint32_t pc = 0;        // word index in the chunk
  uint64_t chunk = 0;     // chunk number since the run began
  std::string packet;     // disassembly of the packet
  std::vector<std::pair<uint8_t, uint32_t>> scalarWrites;  // register, new value
  std::vector<std::pair<uint8_t, bool>> predicateWrites;   // predicate, new value
};

class TraceSink {
 public:
  virtual ~TraceSink() = default;
  virtual void record(const TraceEvent& event) = 0;
};

class InstructionSink {
 public:
  virtual ~InstructionSink() = default;
  virtual void record(const InstructionRecord& record) = 0;
};

// What the chip model is given at configuration (ChipConfig::tracer): where events go. Every
// pointer may be null; a model checks `events()` / `instructions()` before building an event, so
// a disabled trace costs one branch.
class Tracer {
 public:
  void addEventSink(TraceSink* sink) { eventSinks_.push_back(sink); }
  void setInstructionSink(InstructionSink* sink) { instructionSink_ = sink; }

  [[nodiscard]] bool events() const { return !eventSinks_.empty(); }
  [[nodiscard]] InstructionSink* instructions() const { return instructionSink_; }

  void record(const TraceEvent& event) const {
    for (TraceSink* s : eventSinks_) s->record(event);
  }

 private:
  std::vector<TraceSink*> eventSinks_;
  InstructionSink* instructionSink_ = nullptr;
};

}  // namespace coralsim::traces

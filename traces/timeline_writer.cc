#include "traces/timeline_writer.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <sstream>

#include "traces/json_writer.h"

namespace coralsim::traces {
namespace {

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%" PRIx64, v);
  return buf;
}

// Track order in the viewer: scalar core first, the profile's layers, then tiles, NLUs, DMA engines, USB endpoints.
int trackId(TraceUnit unit) {
  switch (unit.kind) {
    case TraceUnitKind::kScalarCore: return 1;
    case TraceUnitKind::kLayers: return 2;
    case TraceUnitKind::kTile: return 100 + unit.index;
    case TraceUnitKind::kNlu: return 200 + unit.index;
    case TraceUnitKind::kDmaEngine: return 300 + unit.index;
    case TraceUnitKind::kUsbEndpoint: return 400 + unit.index;
  }
  return 0;
}

}  // namespace

std::string traceUnitName(TraceUnit unit) {
  static constexpr const char* kTagNames[] = {"instructions", "input activations", "parameters", "output activations",
                                              "interrupt 0", "interrupt 1", "interrupt 2", "interrupt 3"};
  switch (unit.kind) {
    case TraceUnitKind::kScalarCore: return "scalar core";
    case TraceUnitKind::kTile: return "tile " + std::to_string(unit.index);
    case TraceUnitKind::kNlu: return "NLU tile " + std::to_string(unit.index);
    case TraceUnitKind::kDmaEngine:
      return "DMA tag " + std::to_string(unit.index) + (unit.index < 8 ? std::string(" (") + kTagNames[unit.index] + ")" : "");
    case TraceUnitKind::kUsbEndpoint: return "USB EP " + hex(unit.index);
    case TraceUnitKind::kLayers: return "layers";
  }
  return "?";
}

void TimelineWriter::write(std::ostream& out) const {
  std::vector<const TraceEvent*> sorted;
  sorted.reserve(events_.size());
  for (const TraceEvent& e : events_) sorted.push_back(&e);
  std::stable_sort(sorted.begin(), sorted.end(), [](const TraceEvent* a, const TraceEvent* b) { return a->cycle < b->cycle; });
  std::map<int, TraceUnit> tracks;
  for (const TraceEvent* e : sorted) tracks.emplace(trackId(e->unit), e->unit);

  // Microseconds as a decimal with nanosecond digits, from integers: deterministic text.
  auto micros = [this](uint64_t cycles) {
    const uint64_t nanos = units::wholeNanoseconds(cycles, clock_);
    char buf[40];
    std::snprintf(buf, sizeof buf, "%" PRIu64 ".%03" PRIu64, nanos / 1000, nanos % 1000);
    return std::string(buf);
  };

  out << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
  bool first = true;
  auto line = [&](const std::string& text) {
    if (!first) out << ",\n";
    first = false;
    out << text;
  };
  {
    std::ostringstream s;
    JsonWriter w(s);
    w.beginObject().field("ph", "M").field("pid", 1).field("name", "process_name");
    w.key("args").beginObject().field("name", "coralsim").endObject().endObject();
    line(s.str());
  }
  for (const auto& [id, unit] : tracks) {
    std::ostringstream s;
    JsonWriter w(s);
    w.beginObject().field("ph", "M").field("pid", 1).field("tid", id).field("name", "thread_name");
    w.key("args").beginObject().field("name", traceUnitName(unit)).endObject().endObject();
    line(s.str());
    std::ostringstream o;
    JsonWriter wo(o);
    wo.beginObject().field("ph", "M").field("pid", 1).field("tid", id).field("name", "thread_sort_index");
    wo.key("args").beginObject().field("sort_index", id).endObject().endObject();
    line(o.str());
  }
  for (const TraceEvent* e : sorted) {
    // ts/dur are written as raw numbers (JsonWriter would print doubles in shortest form, which
    // is exact but not fixed-point); everything else goes through JsonWriter.
    std::string text = "{\"ph\":\"";
    text += e->kind == TraceEventKind::kSpan ? "X" : "i";
    text += "\",\"pid\":1,\"tid\":" + std::to_string(trackId(e->unit));
    text += ",\"ts\":" + micros(e->cycle);
    if (e->kind == TraceEventKind::kSpan) text += ",\"dur\":" + micros(e->duration);
    else text += ",\"s\":\"t\"";
    text += ",\"name\":\"" + JsonWriter::escape(e->name) + "\"";
    text += ",\"args\":{\"cycle\":" + std::to_string(e->cycle);
    if (e->kind == TraceEventKind::kSpan) text += ",\"cycles\":" + std::to_string(e->duration);
    for (const TraceArg& a : e->args) text += ",\"" + JsonWriter::escape(a.key) + "\":" + std::to_string(a.value);
    text += "}}";
    line(text);
  }
  out << "\n]}\n";
}

void InstructionTraceWriter::record(const InstructionRecord& r) {
  JsonWriter w(out_);
  w.beginObject().field("cycle", r.cycle).field("pc", hex(r.pc)).field("chunk", r.chunk).field("packet", r.packet);
  if (!r.scalarWrites.empty() || !r.predicateWrites.empty()) {
    w.key("writes").beginObject();
    for (const auto& [reg, value] : r.scalarWrites) w.field("s" + std::to_string(reg), hex(value));
    for (const auto& [pred, value] : r.predicateWrites) w.field("p" + std::to_string(pred), value);
    w.endObject();
  }
  w.endObject();
  out_ << '\n';
  ++count_;
}

}  // namespace coralsim::traces

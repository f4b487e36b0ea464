// Event-driven service (descr_ep 0xFF); see dma_service.h.
#include <deque>
#include <string>

#include "driver/run/dma_service.h"
#include "driver/hex_text.h"
#include "driver/transport/record_framing.h"
#include "driver/run/run_error.h"
#include "usb/event_packet.h"

namespace coralsim::driver {
namespace {

// Host bytes served per class; a chunk is due once these reach what the hints list before it.
struct Served {
  uint64_t input = 0;      // tag-1 records (inputs and scratch read-back)
  uint64_t parameter = 0;  // tag-2 records
  uint64_t output = 0;     // bytes read from EP 0x81

  [[nodiscard]] bool covers(const Served& need) const {
    return input >= need.input && parameter >= need.parameter && output >= need.output;
  }
};

struct PendingChunk {
  size_t chunk = 0;
  Served after;  // what must have been served before the chunk goes out
};

std::deque<PendingChunk> chunkSchedule(const ExecutableRun& run) {
  std::deque<PendingChunk> schedule;
  const Executable& e = run.executable();
  if (e.dmaHints) {
    Served before;
    for (const DmaHint& h : e.dmaHints->hints) {
      if (h.kind == HintKind::Instruction) {
        schedule.push_back({static_cast<size_t>(std::max(h.chunk, 0)), before});
      } else if (h.kind == HintKind::Dma && h.buffer) {
        const auto size = static_cast<uint64_t>(std::max(h.size, 0));
        if (h.direction == DmaDirection::Outfeed) before.output += size;
        else if (h.buffer->kind == BufferKind::Parameter) before.parameter += size;
        else before.input += size;
      }
    }
  }
  if (schedule.empty()) {
    for (size_t i = 0; i < run.chunkCount(); ++i) schedule.push_back({i, Served{}});
  }
  return schedule;
}

std::string describe(const DeviceDescriptor& d) {
  return "tag-" + std::to_string(d.tag) + " event (address " + hexText(d.address) + ", " + std::to_string(d.length) +
         " bytes)";
}

std::string labelOf(const HostBuffer* b) { return b ? b->label() : std::string("no buffer"); }

// Answers one event. Returns true on the completion event.
bool answer(ExecutableRun& run, const DeviceDescriptor& d, const std::string& where, Served& served,
            const std::deque<PendingChunk>& pending) {
  switch (d.tag) {
    case static_cast<uint8_t>(RecordTag::kInputActivations): {
      const auto loc = run.locate(d);
      if (!loc.buffer || (loc.buffer->kind != BufferKind::Input && loc.buffer->kind != BufferKind::Scratch)) {
        throw RunError(where + describe(d) + " names " + labelOf(loc.buffer) + ", not an input or scratch buffer");
      }
      run.sendSlice(d.tag, *loc.buffer, loc.offset, d.length);
      served.input += d.length;
      return false;
    }
    case static_cast<uint8_t>(RecordTag::kParameters): {
      const auto loc = run.locate(d);
      if (!loc.buffer || loc.buffer->kind != BufferKind::Parameter) {
        throw RunError(where + describe(d) + " names " + labelOf(loc.buffer) + ", not the parameters");
      }
      run.sendSlice(d.tag, *loc.buffer, loc.offset, d.length);
      served.parameter += d.length;
      return false;
    }
    case static_cast<uint8_t>(RecordTag::kOutputActivations): {
      if (run.rawProgram()) {
        run.receiveInto(run.newRawOutput(d.address, d.length), 0, d.length);
      } else {
        const auto loc = run.locate(d);
        if (!loc.buffer || (loc.buffer->kind != BufferKind::Output && loc.buffer->kind != BufferKind::Scratch)) {
          throw RunError(where + describe(d) + " names " + labelOf(loc.buffer) + ", not an output or scratch buffer");
        }
        run.receiveInto(*loc.buffer, loc.offset, d.length);
      }
      served.output += d.length;
      return false;
    }
    case usb::kCompletionTag:
      run.record().completed = true;
      if (!pending.empty()) {
        throw RunError(where + "the device signalled completion before instruction chunk " +
                       std::to_string(pending.front().chunk) + " was sent");
      }
      return true;
    case 5:
    case 6:
    case 7:
      return false;  // sc host interrupts 1..3: nothing to answer
    default:
      throw RunError(where + "unexpected " + describe(d) + " (the device never sends tag 0)");
  }
}

}  // namespace

void serveByEvents(ExecutableRun& run) {
  std::deque<PendingChunk> pending = chunkSchedule(run);
  Served served;
  auto sendDueChunks = [&] {
    while (!pending.empty() && served.covers(pending.front().after)) {
      try {
        run.sendChunk(pending.front().chunk);
      } catch (const TransportError& e) {
        throw RunError(run.where() + "sending instruction chunk " + std::to_string(pending.front().chunk) + ": " +
                       e.what());
      }
      pending.pop_front();
    }
  };
  sendDueChunks();
  for (;;) {
    DeviceDescriptor d;
    try {
      d = run.readEvent();
    } catch (const TransportError& e) {
      std::string state = "waiting for event " + std::to_string(run.events().size()) + " (served " +
                          std::to_string(served.input) + " input, " + std::to_string(served.parameter) +
                          " parameter, " + std::to_string(served.output) + " output bytes";
      if (!pending.empty()) state += "; chunk " + std::to_string(pending.front().chunk) + " not sent yet";
      throw RunError(run.where() + state + "): " + e.what());
    }
    const std::string where = run.where() + "event " + std::to_string(run.events().size() - 1) + ": ";
    try {
      if (answer(run, d, where, served, pending)) return;
    } catch (const TransportError& e) {
      throw RunError(where + "answering the " + describe(d) + ": " + e.what());
    }
    sendDueChunks();
  }
}

}  // namespace coralsim::driver

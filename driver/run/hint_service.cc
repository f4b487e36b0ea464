// Hint-driven service (docs/usb-protocol.md §6.1); see dma_service.h.
#include <string>

#include "driver/run/dma_service.h"
#include "driver/transport/record_framing.h"
#include "driver/run/run_error.h"
#include "usb/event_packet.h"

namespace coralsim::driver {
namespace {

std::string describeHint(const DmaHint& h) {
  switch (h.kind) {
    case HintKind::Instruction: return "instruction chunk " + std::to_string(h.chunk);
    case HintKind::Interrupt: return "interrupt " + std::to_string(static_cast<int>(h.interrupt));
    case HintKind::Fence: return "fence";
    case HintKind::Dma: {
      std::string s = h.direction == DmaDirection::Infeed ? "infeed " : "outfeed ";
      if (h.buffer) {
        s += std::string(bufferKindShortName(h.buffer->kind).value_or("?"));
        if (!h.buffer->name.empty()) s += " '" + h.buffer->name + "'";
      }
      return s + " [" + std::to_string(h.offset) + ", +" + std::to_string(h.size) + ")";
    }
    default: return "hint of union type " + std::to_string(h.unionType);
  }
}

// Reads events until one carries `tag`. With descr_ep 0xF0 only interrupt tags (4..7) may arrive.
void awaitInterrupt(ExecutableRun& run, uint8_t tag, const std::string& where) {
  for (;;) {
    const DeviceDescriptor e = run.readEvent();
    if (e.tag < 4 || e.tag > 7) {
      throw RunError(where + "the device sent a tag-" + std::to_string(e.tag) +
                     " event although only interrupt events (tags 4..7) are enabled");
    }
    if (e.tag == usb::kCompletionTag) run.record().completed = true;
    if (e.tag == tag) return;
  }
}

void serveDma(ExecutableRun& run, const DmaHint& h, const std::string& where) {
  if (!h.buffer) throw RunError(where + "DMA hint without a buffer");
  if (h.offset < 0 || h.size < 0) {
    throw RunError(where + "negative offset or size (" + std::to_string(h.offset) + ", " + std::to_string(h.size) + ")");
  }
  HostBuffer& buffer = run.bufferFor(*h.buffer);
  const auto offset = static_cast<uint64_t>(h.offset);
  const auto size = static_cast<uint64_t>(h.size);
  if (h.direction == DmaDirection::Infeed) {
    switch (h.buffer->kind) {
      case BufferKind::Input:
      case BufferKind::Scratch:
        run.sendSlice(static_cast<uint8_t>(RecordTag::kInputActivations), buffer, offset, size);
        return;
      case BufferKind::Parameter:
        run.sendSlice(static_cast<uint8_t>(RecordTag::kParameters), buffer, offset, size);
        return;
      default:
        throw RunError(where + "infeed DMA from " + buffer.label() + " (only inputs, parameters and scratch go to the device)");
    }
  }
  if (h.buffer->kind != BufferKind::Output && h.buffer->kind != BufferKind::Scratch) {
    throw RunError(where + "outfeed DMA into " + buffer.label() + " (only outputs and scratch come from the device)");
  }
  run.receiveInto(buffer, offset, size);
}

void serveHint(ExecutableRun& run, const DmaHint& h, const std::string& where) {
  switch (h.kind) {
    case HintKind::Instruction:
      if (h.chunk < 0) throw RunError(where + "negative instruction chunk index");
      run.sendChunk(static_cast<size_t>(h.chunk));
      return;
    case HintKind::Dma:
      serveDma(run, h, where);
      return;
    case HintKind::Interrupt: {
      const int n = static_cast<int>(h.interrupt);
      if (n < 0 || n > 3) throw RunError(where + "interrupt type " + std::to_string(n) + " (0..3 exist)");
      awaitInterrupt(run, static_cast<uint8_t>(usb::kCompletionTag + n), where);
      return;
    }
    case HintKind::Fence:
      return;  // every transfer above completed before its call returned
    default:
      throw RunError(where + "unknown hint (union type " + std::to_string(h.unionType) + ")");
  }
}

}  // namespace

void serveByHints(ExecutableRun& run) {
  const Executable& exe = run.executable();
  if (!exe.dmaHints) throw RunError(run.where() + "hint-driven service needs DMA hints and this executable has none");
  const auto& hints = exe.dmaHints->hints;
  for (size_t i = 0; i < hints.size(); ++i) {
    const std::string where = run.where() + "DMA hint " + std::to_string(i) + " (" + describeHint(hints[i]) + "): ";
    try {
      serveHint(run, hints[i], where);
    } catch (const TransportError& e) {
      // Name the hint the transfer served; the transport's message names endpoint and cause.
      throw RunError(where + e.what());
    }
  }
  if (!run.record().completed) {
    const std::string where = run.where() + "waiting for the completion event after the last DMA hint: ";
    try {
      awaitInterrupt(run, usb::kCompletionTag, where);
    } catch (const TransportError& e) {
      throw RunError(where + e.what());
    }
  }
}

}  // namespace coralsim::driver

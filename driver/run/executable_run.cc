#include "driver/run/executable_run.h"

#include <algorithm>

#include "driver/hex_text.h"
#include "driver/model/linker.h"
#include "driver/transport/record_framing.h"
#include "driver/run/run_error.h"
#include "driver/run/run_plan.h"
#include "usb/event_packet.h"

namespace coralsim::driver {
namespace {

constexpr uint32_t kMaxInTransferBytes = 1 << 20;
constexpr int kMaxEmptyInTransfers = 3;

bool isNamedKind(BufferKind k) { return k == BufferKind::Input || k == BufferKind::Output; }

bool sameBuffer(const BufferRef& a, BufferKind kind, const std::string& name, int32_t batch) {
  if (a.kind != kind) return false;
  return !isNamedKind(kind) || (a.name == name && a.batch == batch);
}

}  // namespace

ExecutableRun::ExecutableRun(Transport& transport, const Executable& executable, std::string label,
                             const std::map<std::string, std::vector<uint8_t>>& inputs, bool rawProgram)
    : transport_(transport), executable_(executable), raw_(rawProgram) {
  record_.executable = std::move(label);
  record_.type = executable.type;
  record_.parameterCachingToken = executable.parameterCachingToken;
  allocateBuffers(inputs);
  const BaseAddresses bases = space_.baseAddresses();
  linked_.reserve(executable.bitstreams.size());
  for (size_t i = 0; i < executable.bitstreams.size(); ++i) {
    try {
      linked_.push_back(linkedCopy(executable.bitstreams[i], bases));
    } catch (const LinkError& e) {
      throw RunError(where() + "linking instruction chunk " + std::to_string(i) + ": " + e.what());
    }
  }
}

void ExecutableRun::allocateBuffers(const std::map<std::string, std::vector<uint8_t>>& inputs) {
  const Executable& e = executable_;
  // The furthest byte any DMA hint touches in a buffer: buffers are at least that large.
  auto hintExtent = [&](BufferKind kind, const std::string& name, int32_t batch) {
    uint64_t extent = 0;
    if (!e.dmaHints) return extent;
    for (const DmaHint& h : e.dmaHints->hints) {
      if (h.kind != HintKind::Dma || !h.buffer || !sameBuffer(*h.buffer, kind, name, batch)) continue;
      extent = std::max<uint64_t>(extent, static_cast<uint64_t>(std::max(h.offset, 0)) + static_cast<uint64_t>(std::max(h.size, 0)));
    }
    return extent;
  };
  const int32_t batches = std::max(e.batchSize, 1);

  if (raw_) {
    for (auto [stream, kind] : {std::pair{kRawInputStream, BufferKind::Input}, std::pair{kRawParameterStream, BufferKind::Parameter}}) {
      auto it = inputs.find(stream);
      HostBuffer& b = space_.add(kind, kind == BufferKind::Input ? stream : "", 0, it == inputs.end() ? 0 : it->second.size());
      if (it != inputs.end()) b.bytes = it->second;
    }
    return;
  }

  for (const Layer& layer : e.inputLayers) {
    auto it = inputs.find(layer.name);
    const std::vector<uint8_t>* data = it == inputs.end() ? nullptr : &it->second;
    const uint64_t perBatch = data ? data->size() / static_cast<uint64_t>(batches) : 0;
    for (int32_t b = 0; b < batches; ++b) {
      const uint64_t size = std::max<uint64_t>({static_cast<uint64_t>(std::max(layer.sizeBytes, 0)), perBatch,
                                                hintExtent(BufferKind::Input, layer.name, b)});
      HostBuffer& buf = space_.add(BufferKind::Input, layer.name, b, size);
      if (data) std::copy_n(data->begin() + static_cast<ptrdiff_t>(perBatch * b), perBatch, buf.bytes.begin());
    }
  }
  for (const Layer& layer : e.outputLayers) {
    for (int32_t b = 0; b < batches; ++b) {
      space_.add(BufferKind::Output, layer.name, b,
                 std::max<uint64_t>(static_cast<uint64_t>(std::max(layer.sizeBytes, 0)),
                                    hintExtent(BufferKind::Output, layer.name, b)));
    }
  }
  space_.add(BufferKind::Parameter, "", 0, hintExtent(BufferKind::Parameter, "", 0), &e.parameters);
  space_.add(BufferKind::Scratch, "", 0,
             std::max<uint64_t>(static_cast<uint64_t>(std::max(e.scratchSizeBytes, 0)), hintExtent(BufferKind::Scratch, "", 0)));
  // Buffers that only link points or hints name (no layer declares them) still get an address.
  for (const auto& chunk : e.bitstreams) {
    for (const FieldOffset& fo : chunk.fieldOffsets) {
      if (fo.target) bufferFor(*fo.target);
    }
  }
  if (e.dmaHints) {
    for (const DmaHint& h : e.dmaHints->hints) {
      if (h.kind == HintKind::Dma && h.buffer) bufferFor(*h.buffer);
    }
  }
}

HostBuffer& ExecutableRun::bufferFor(const BufferRef& ref) {
  const std::string name = isNamedKind(ref.kind) ? ref.name : "";
  const int32_t batch = isNamedKind(ref.kind) ? ref.batch : 0;
  if (HostBuffer* b = space_.find(ref.kind, name, batch)) return *b;
  uint64_t extent = 0;
  if (executable_.dmaHints) {
    for (const DmaHint& h : executable_.dmaHints->hints) {
      if (h.kind == HintKind::Dma && h.buffer && sameBuffer(*h.buffer, ref.kind, name, batch)) {
        extent = std::max<uint64_t>(extent, static_cast<uint64_t>(std::max(h.offset, 0)) + static_cast<uint64_t>(std::max(h.size, 0)));
      }
    }
  }
  return space_.add(ref.kind, name, batch, extent);
}

BufferTraffic& ExecutableRun::trafficFor(const HostBuffer& buffer) {
  for (BufferTraffic& t : record_.traffic) {
    if (t.kind == buffer.kind && t.name == buffer.name && t.batch == buffer.batch) return t;
  }
  BufferTraffic& t = record_.traffic.emplace_back();
  t.kind = buffer.kind;
  t.name = buffer.name;
  t.batch = buffer.batch;
  return t;
}

void ExecutableRun::sendChunk(size_t index) {
  if (index >= linked_.size()) {
    throw RunError(where() + "instruction chunk " + std::to_string(index) + " does not exist (" +
                   std::to_string(linked_.size()) + " chunks)");
  }
  sendRecord(transport_, static_cast<uint8_t>(RecordTag::kInstructions), linked_[index]);
  record_.instructionBytes += linked_[index].size();
  ++record_.instructionRecords;
}

void ExecutableRun::sendSlice(uint8_t tag, HostBuffer& buffer, uint64_t offset, uint64_t length) {
  const std::vector<uint8_t> slice = buffer.readSlice(offset, length);
  sendRecord(transport_, tag, slice);
  trafficFor(buffer).sentBytes += length;
  ++record_.dataRecords;
}

void ExecutableRun::receiveInto(HostBuffer& buffer, uint64_t offset, uint64_t length) {
  if (buffer.external || offset + length > buffer.bytes.size()) {
    throw RunError(where() + "device output of " + std::to_string(length) + " bytes at offset " + std::to_string(offset) +
                   " does not fit host buffer " + buffer.label() + " (" + std::to_string(buffer.sizeBytes) + " bytes)");
  }
  uint64_t done = 0;
  int empty = 0;
  while (done < length) {
    const auto want = static_cast<uint32_t>(std::min<uint64_t>(length - done, kMaxInTransferBytes));
    const std::vector<uint8_t> got = transport_.bulkIn(usb::endpoint::kOutputIn, want);
    if (got.size() > want) {
      throw RunError(where() + "EP 0x81 delivered " + std::to_string(got.size()) + " bytes for a " +
                     std::to_string(want) + "-byte transfer");
    }
    if (got.empty() && ++empty >= kMaxEmptyInTransfers) {
      throw RunError(where() + "EP 0x81 keeps completing with no data (" + std::to_string(done) + " of " +
                     std::to_string(length) + " bytes for " + buffer.label() + " received)");
    }
    std::copy(got.begin(), got.end(), buffer.bytes.begin() + static_cast<ptrdiff_t>(offset + done));
    done += got.size();
  }
  trafficFor(buffer).receivedBytes += length;
}

DeviceDescriptor ExecutableRun::readEvent() {
  const std::vector<uint8_t> packet = transport_.bulkIn(usb::endpoint::kEventIn, usb::kEventPacketBytes);
  if (packet.size() != usb::kEventPacketBytes) {
    throw RunError(where() + "EP 0x82 delivered an event of " + std::to_string(packet.size()) +
                   " bytes (events are exactly 16 bytes)");
  }
  events_.push_back(usb::decodeEventPacket(packet));
  return events_.back();
}

HostAddressSpace::Location ExecutableRun::locate(const DeviceDescriptor& d) {
  if (raw_) {
    // Raw programs are not linked: the address is the offset into the stream of that tag.
    HostBuffer* b = d.tag == static_cast<uint8_t>(RecordTag::kParameters)
                        ? space_.find(BufferKind::Parameter, "", 0)
                        : space_.find(BufferKind::Input, kRawInputStream, 0);
    return {b, d.address};
  }
  auto loc = space_.resolve(d.address);
  if (!loc) {
    throw RunError(where() + "the device asked for a tag-" + std::to_string(d.tag) + " transfer of " +
                   std::to_string(d.length) + " bytes at " + hexText(d.address, 16) +
                   ", which lies in no host buffer of this executable");
  }
  return *loc;
}

HostBuffer& ExecutableRun::newRawOutput(uint64_t address, uint64_t length) {
  (void)address;
  return space_.add(BufferKind::Output, "output " + std::to_string(rawOutputs_++), 0, length);
}

}  // namespace coralsim::driver

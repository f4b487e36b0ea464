#include "sim/usb_function.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "models/csr/csr_block.h"

namespace coralsim::sim {
namespace {

// Vendor requests (§2): bRequest 0 = 64-bit CSR access, 1 = 32-bit.
constexpr uint8_t kCsrRequest64 = 0;
constexpr uint8_t kCsrRequest32 = 1;

std::vector<uint8_t> littleEndian(uint64_t value, size_t length) {
  std::vector<uint8_t> out(length, 0);
  for (size_t i = 0; i < std::min<size_t>(length, 8); ++i) out[i] = static_cast<uint8_t>(value >> (8 * i));
  return out;
}

uint64_t fromLittleEndian(std::span<const uint8_t> bytes) {
  uint64_t value = 0;
  for (size_t i = 0; i < std::min<size_t>(bytes.size(), 8); ++i) value |= uint64_t{bytes[i]} << (8 * i);
  return value;
}

usb::UrbResult inResult(std::vector<uint8_t> data) {
  usb::UrbResult r;
  r.actualLength = static_cast<uint32_t>(data.size());
  r.data = std::move(data);
  return r;
}

usb::UrbResult status(usb::UrbStatus s) {
  usb::UrbResult r;
  r.status = s;
  return r;
}

}  // namespace

UsbFunction::UsbFunction(const sc_core::sc_module_name& name)
    : sc_core::sc_module(name),
      csr("csr"),
      instructionSink("instructionSink"),
      inputSink("inputSink"),
      parameterSink("parameterSink"),
      chipClock("chipClock") {
  SC_THREAD(outPump);
}

void UsbFunction::configure(usb::UsbSpeed speed, bool zlpAfterAlignedTail, usb::CoralPersonality initial, units::Frequency clock) {
  speed_ = speed;
  zlpAfterAlignedTail_ = zlpAfterAlignedTail;
  personality_ = UsbPersonality(speed, initial);
  clock_.configure(usbLinkParameters(speed), clock);
}

uint64_t UsbFunction::chargedRun() const {
  const uint64_t begun = chipClock->runsBegun();
  return chipClock->runInProgress() ? begun - 1 : begun;
}

// ---- EP0 -----------------------------------------------------------------------------------------

usb::UrbResult UsbFunction::control(const usb::ControlSetup& setup, std::span<const uint8_t> outData) {
  usb::UrbResult result = answerControl(setup, outData);
  // Answered at once, costing no link time (sim/device_clock.h says why).
  result.simulated = now();
  return result;
}

usb::UrbResult UsbFunction::answerControl(const usb::ControlSetup& setup, std::span<const uint8_t> outData) {
  if (!setup.isDeviceToHost() && outData.size() != setup.wLength) return status(usb::UrbStatus::kInvalid);
  std::optional<ControlOutcome> outcome = personality_.handle(setup, outData);
  if (!outcome) return csrRequest(setup, outData);  // vendor request, runtime personality
  // The host re-enumerating reveals a bus reset USB/IP never forwards: the bridge starts afresh.
  if (outcome->busReset) resetBridge();
  return std::move(outcome->result);
}

usb::UrbResult UsbFunction::csrRequest(const usb::ControlSetup& setup, std::span<const uint8_t> outData) {
  if (setup.bRequest == kCsrRequest64 || setup.bRequest == kCsrRequest32) {
    const unsigned width = setup.bRequest == kCsrRequest64 ? 64 : 32;
    const uint32_t address = (uint32_t{setup.wIndex} << 16) | setup.wValue;
    if (setup.isDeviceToHost()) return inResult(littleEndian(csr->read(address, width), setup.wLength));
    csr->write(address, width, fromLittleEndian(outData));
    return usb::UrbResult{};
  }
  // No other vendor request exists in any driver; answer without stalling.
  return setup.isDeviceToHost() ? inResult(std::vector<uint8_t>(setup.wLength, 0)) : usb::UrbResult{};
}

// ---- bulk OUT: the record parser -------------------------------------------------------------------

void UsbFunction::submitOut(uint64_t id, uint8_t endpoint, std::vector<uint8_t> data, Completion done) {
  if (endpoint != usb::endpoint::kBulkOut || personality_.personality() != usb::CoralPersonality::kRuntime) {
    // Multi-EP raw streams (EP 0x02/0x03, multi_bo_ep = 1) are not modelled.
    complete(id, std::move(done), status(usb::UrbStatus::kStall));
    return;
  }
  if (outUrbs_.size() >= kMaxPendingUrbsPerEndpoint) {
    complete(id, std::move(done), status(usb::UrbStatus::kInvalid));
    return;
  }
  outUrbs_.push_back(OutUrb{id, std::move(data), 0, std::move(done)});
  outWork_.notify(sc_core::SC_ZERO_TIME);
}

models::ByteSinkIf* UsbFunction::sinkForTag(uint8_t tag) {
  switch (tag) {
    case 0: return instructionSink.operator->();
    case 1: return inputSink.operator->();
    case 2: return parameterSink.operator->();
    default: return nullptr;  // tags >= 3: consumed and discarded
  }
}

void UsbFunction::resetParser() {
  headerFill_ = 0;
  payloadLeft_ = 0;
  recordTag_ = 0;
  discardRecord_ = false;
}

void UsbFunction::outPump() {
  for (;;) {
    if (outUrbs_.empty()) {
      wait(outWork_);
      continue;
    }
    OutUrb& urb = outUrbs_.front();
    if (arbiter_.withdrawn(urb.id)) {  // its host gave up on it: the rest of its bytes stay unsent
      outUrbs_.pop_front();
      continue;
    }
    if (urb.consumed == urb.data.size()) {
      usb::UrbResult r;
      r.actualLength = static_cast<uint32_t>(urb.data.size());
      r.simulated = now();
      complete(urb.id, std::move(urb.done), std::move(r));
      outUrbs_.pop_front();
      continue;
    }
    const std::span<const uint8_t> rest(urb.data.data() + urb.consumed, urb.data.size() - urb.consumed);

    if (headerFill_ < usb::kRecordHeaderBytes) {
      const size_t n = std::min(usb::kRecordHeaderBytes - headerFill_, rest.size());
      std::copy_n(rest.begin(), n, header_.begin() + static_cast<ptrdiff_t>(headerFill_));
      headerFill_ += n;
      urb.consumed += n;
      if (headerFill_ == usb::kRecordHeaderBytes) {
        const usb::RecordHeader header = usb::decodeRecordHeader(header_);
        payloadLeft_ = header.payloadLength;
        recordTag_ = header.tag;
        clock_.chargeRecordHeader(chargedRun(), payloadLeft_);
        discardRecord_ = recordTag_ == 0 && payloadLeft_ > kMaxInstructionRecordBytes;
        if (discardRecord_) {
          ++rejectedInstructionRecords_;
          if ((csr->read(models::csr::fatal_err_int_control, 64) & 1u) != 0) pushInterrupt(usb::interrupt_bit::kFatalError);
        } else if (models::ByteSinkIf* sink = sinkForTag(recordTag_)) {
          sink->beginRecord(static_cast<uint32_t>(payloadLeft_));
        }
        if (payloadLeft_ == 0) headerFill_ = 0;
      }
      continue;
    }

    const size_t n = static_cast<size_t>(std::min<uint64_t>(rest.size(), payloadLeft_));
    models::ByteSinkIf* sink = discardRecord_ ? nullptr : sinkForTag(recordTag_);
    const size_t accepted = sink != nullptr ? sink->tryWrite(rest.first(n)) : n;
    urb.consumed += accepted;
    payloadLeft_ -= accepted;
    if (accepted != 0) clock_.chargeRecordPayload(chargedRun(), accepted, static_cast<usb::RecordTag>(recordTag_));
    if (payloadLeft_ == 0) {
      headerFill_ = 0;
      discardRecord_ = false;
    }
    if (accepted == 0) wait(sink->spaceEvent() | outWork_);  // backpressure: the URB stays pending
  }
}

// ---- bulk/interrupt IN -------------------------------------------------------------------------------

std::deque<UsbFunction::InUrb>* UsbFunction::inQueue(uint8_t endpoint) {
  switch (endpoint) {
    case usb::endpoint::kOutputIn: return &outputUrbs_;
    case usb::endpoint::kEventIn: return &eventUrbs_;
    case usb::endpoint::kInterruptIn: return &interruptUrbs_;
    default: return nullptr;
  }
}

void UsbFunction::submitIn(uint64_t id, uint8_t endpoint, uint32_t length, Completion done) {
  std::deque<InUrb>* queue = personality_.personality() == usb::CoralPersonality::kRuntime ? inQueue(endpoint) : nullptr;
  if (queue == nullptr) {
    complete(id, std::move(done), status(usb::UrbStatus::kStall));
    return;
  }
  if (length > kMaxInUrbBytes || queue->size() >= kMaxPendingUrbsPerEndpoint) {
    complete(id, std::move(done), status(usb::UrbStatus::kInvalid));
    return;
  }
  queue->push_back(InUrb{id, length, {}, std::move(done)});
  serviceOutputs();
  serviceEvents();
  serviceInterrupts();
}

void UsbFunction::pushOutput(models::OutputDma dma) {
  const uint64_t total = dma.size();
  if (total == 0) return;
  const uint64_t chunkBytes = csr->read(models::csr::outfeed_chunk_length, 64) * 8;
  const DeviceClock::OutputStart start = clock_.chargeOutputDma(chargedRun(), total, chipClock->cycles());
  outputs_.push_back(PendingOutput{std::move(dma), chunkBytes == 0 ? total : chunkBytes, 0, start});
  serviceOutputs();
}

void UsbFunction::serviceOutputs() {
  const uint64_t maxPacket = bulkMaxPacket(speed_);
  while (dropWithdrawnFront(outputUrbs_) && !outputs_.empty()) {
    InUrb& urb = outputUrbs_.front();
    bool done = false;
    usb::SimulatedInstant lastByteAt;  // when the URB's last byte crossed the link
    while (urb.data.size() < urb.length && !outputs_.empty()) {
      PendingOutput& o = outputs_.front();
      const uint64_t total = o.dma.size();
      const uint64_t chunkStart = o.sent - o.sent % o.chunkBytes;
      const uint64_t chunkEnd = std::min(chunkStart + o.chunkBytes, total);
      const uint64_t take = std::min<uint64_t>(urb.length - urb.data.size(), chunkEnd - o.sent);
      // Produced bytes first, then the zero tail.
      const uint64_t produced = o.dma.bytes.size();
      const uint64_t fromProduced = o.sent < produced ? std::min(take, produced - o.sent) : 0;
      urb.data.insert(urb.data.end(), o.dma.bytes.begin() + static_cast<ptrdiff_t>(o.sent),
                      o.dma.bytes.begin() + static_cast<ptrdiff_t>(o.sent + fromProduced));
      urb.data.resize(urb.data.size() + static_cast<size_t>(take - fromProduced), 0);
      o.sent += take;
      lastByteAt = clock_.outputProgress(o.start, o.sent);
      if (o.sent == chunkEnd) {
        const bool last = chunkEnd == total;
        const bool ends = (chunkEnd - chunkStart) % maxPacket != 0 || (last && zlpAfterAlignedTail_);
        if (last) outputs_.pop_front();
        if (ends) {
          done = true;
          break;
        }
      }
    }
    if (urb.data.size() == urb.length) done = true;
    if (!done) break;  // partly filled: waits for more output
    usb::UrbResult r = inResult(std::move(urb.data));
    r.simulated = lastByteAt;
    complete(urb.id, std::move(urb.done), std::move(r));
    outputUrbs_.pop_front();
  }
}

void UsbFunction::pushEvent(const models::Descriptor& d) {
  // descr_ep bit n enables events of tag n; tag 0 never leaves (libedgetpu aborts on it).
  const uint64_t enabled = csr->read(models::csr::descr_ep, 64);
  if (d.tag == 0 || d.tag >= 8 || ((enabled >> d.tag) & 1u) == 0) return;
  clock_.chargeEvent(chargedRun());
  events_.push_back(QueuedEvent{usb::encodeEventPacket({d.tag, d.address, d.length}), now()});
  serviceEvents();
}

void UsbFunction::serviceEvents() {
  while (dropWithdrawnFront(eventUrbs_) && !events_.empty()) {
    InUrb& urb = eventUrbs_.front();
    const QueuedEvent& event = events_.front();
    std::vector<uint8_t> data(event.packet.begin(), event.packet.begin() + std::min<size_t>(urb.length, usb::kEventPacketBytes));
    usb::UrbResult r = inResult(std::move(data));
    r.simulated = event.at;
    complete(urb.id, std::move(urb.done), std::move(r));
    eventUrbs_.pop_front();
    events_.pop_front();
  }
}

void UsbFunction::pushInterrupt(uint32_t bits) {
  interrupts_.push_back(bits);
  serviceInterrupts();
}

void UsbFunction::serviceInterrupts() {
  while (dropWithdrawnFront(interruptUrbs_) && !interrupts_.empty()) {
    InUrb& urb = interruptUrbs_.front();
    const auto packet = usb::encodeInterruptPacket(interrupts_.front());
    std::vector<uint8_t> data(packet.begin(), packet.begin() + std::min<size_t>(urb.length, usb::kInterruptPacketBytes));
    complete(urb.id, std::move(urb.done), inResult(std::move(data)));
    interruptUrbs_.pop_front();
    interrupts_.pop_front();
  }
}

// ---- resets, cancel, completions ---------------------------------------------------------------------

void UsbFunction::flushBridge() {
  resetParser();
  // OUT data in flight is dropped with the parser state; its transfers count as accepted.
  for (OutUrb& urb : outUrbs_) {
    usb::UrbResult r;
    r.actualLength = static_cast<uint32_t>(urb.data.size());
    complete(urb.id, std::move(urb.done), std::move(r));
  }
  outUrbs_.clear();
  outputs_.clear();
  events_.clear();
  interrupts_.clear();
  for (InUrb& urb : outputUrbs_) urb.data.clear();
  outWork_.notify(sc_core::SC_ZERO_TIME);
}

void UsbFunction::busReset() {
  // An armed switch (DFU download, DFU_DETACH) takes effect, as on the kernel's re-enumeration.
  (void)personality_.busReset();
  resetBridge();
}

void UsbFunction::resetBridge() {
  for (OutUrb& urb : outUrbs_) complete(urb.id, std::move(urb.done), status(usb::UrbStatus::kShutdown));
  outUrbs_.clear();
  for (std::deque<InUrb>* queue : {&outputUrbs_, &eventUrbs_, &interruptUrbs_}) {
    for (InUrb& urb : *queue) complete(urb.id, std::move(urb.done), status(usb::UrbStatus::kShutdown));
    queue->clear();
  }
  flushBridge();
}

void UsbFunction::detach() {
  outUrbs_.clear();
  outputUrbs_.clear();
  eventUrbs_.clear();
  interruptUrbs_.clear();
  flushBridge();
  completions_.clear();
  arbiter_.clear();
}

bool UsbFunction::cancel(uint64_t id) {
  const auto outIt = std::find_if(outUrbs_.begin(), outUrbs_.end(), [&](const OutUrb& u) { return u.id == id; });
  if (outIt != outUrbs_.end()) {
    // Bytes already accepted stay accepted: the record stream continues with the next transfer.
    outUrbs_.erase(outIt);
    outWork_.notify(sc_core::SC_ZERO_TIME);
    return true;
  }
  for (std::deque<InUrb>* queue : {&outputUrbs_, &eventUrbs_, &interruptUrbs_}) {
    const auto it = std::find_if(queue->begin(), queue->end(), [&](const InUrb& u) { return u.id == id; });
    if (it != queue->end()) {
      queue->erase(it);
      return true;
    }
  }
  return false;
}

void UsbFunction::complete(uint64_t id, Completion done, usb::UrbResult result) {
  if (done && arbiter_.claim(id)) completions_.push_back(CompletedUrb{std::move(done), std::move(result)});
}

bool UsbFunction::dropWithdrawnFront(std::deque<InUrb>& queue) {
  while (!queue.empty() && arbiter_.withdrawn(queue.front().id)) queue.pop_front();
  return !queue.empty();
}

std::vector<UsbFunction::CompletedUrb> UsbFunction::takeCompletions() {
  std::vector<CompletedUrb> out;
  out.swap(completions_);
  return out;
}

size_t UsbFunction::pendingUrbCount() const {
  return outUrbs_.size() + outputUrbs_.size() + eventUrbs_.size() + interruptUrbs_.size();
}

}  // namespace coralsim::sim

#include "models/chip/infeed.h"

#include <algorithm>
#include <limits>

namespace coralsim::models {

InfeedChannel::InfeedChannel(const char* name, sc_core::sc_event& satisfied)
    : sc_core::sc_object(name), satisfied_(satisfied) {}

void InfeedChannel::reset() {
  buffer_.clear();
  outstanding_ = 0;
  readyCycle_ = 0;
  drained_.clear();
  spaceEvent_.notify(sc_core::SC_ZERO_TIME);
}

size_t InfeedChannel::tryWrite(std::span<const uint8_t> bytes) {
  // Bytes a request is already waiting for pass straight through.
  const size_t direct = static_cast<size_t>(std::min<uint64_t>(outstanding_, bytes.size()));
  drained_.insert(drained_.end(), bytes.begin(), bytes.begin() + static_cast<ptrdiff_t>(direct));
  outstanding_ -= direct;
  if (direct > 0 && outstanding_ == 0) satisfied_.notify(sc_core::SC_ZERO_TIME);
  // The rest waits in the buffer, as far as it has room.
  const std::span<const uint8_t> rest = bytes.subspan(direct);
  const size_t room = buffer_.size() >= capacity_ ? 0 : capacity_ - buffer_.size();
  const size_t buffered = std::min(room, rest.size());
  buffer_.insert(buffer_.end(), rest.begin(), rest.begin() + static_cast<ptrdiff_t>(buffered));
  return direct + buffered;
}

uint32_t InfeedChannel::freeBytes() const {
  return buffer_.size() >= capacity_ ? 0 : static_cast<uint32_t>(capacity_ - buffer_.size());
}

void InfeedChannel::request(uint32_t length, uint64_t cycle) {
  const size_t take = std::min<size_t>(length, buffer_.size());
  drained_.insert(drained_.end(), buffer_.begin(), buffer_.begin() + static_cast<ptrdiff_t>(take));
  buffer_.erase(buffer_.begin(), buffer_.begin() + static_cast<ptrdiff_t>(take));
  outstanding_ += length - take;
  if (take > 0) spaceEvent_.notify(sc_core::SC_ZERO_TIME);
  // Cost model (header): requests of one class land in order.
  readyCycle_ = std::max(readyCycle_, cycle) + infeedCycles(timing_, Bytes{length}).value();
}

Infeed::Infeed(const sc_core::sc_module_name& name)
    : sc_core::sc_module(name), input_("input", satisfied_), parameters_("parameters", satisfied_) {}

void Infeed::configure(Bytes inputCapacity, Bytes parameterCapacity, const TimingModel& timing) {
  input_.configure(inputCapacity, timing);
  parameters_.configure(parameterCapacity, timing);
}

void Infeed::reset() {
  input_.reset();
  parameters_.reset();
  satisfied_.notify(sc_core::SC_ZERO_TIME);
}

void Infeed::request(InfeedClass cls, uint32_t length, uint64_t cycle) { channel(cls).request(length, cycle); }

uint64_t Infeed::outstandingBytes() const { return input_.outstanding() + parameters_.outstanding(); }

uint64_t Infeed::readyCycle() const { return std::max(input_.readyCycle(), parameters_.readyCycle()); }

void Infeed::beginRun() {
  input_.clearDrained();
  parameters_.clearDrained();
}

}  // namespace coralsim::models

// Infeed: the input-activation (tag 1) and parameter (tag 2) byte streams from the host.
//
// Each class has a bounded buffer (ChipConfig::inputBufferBytes / parameterBufferBytes, the stall
// points measured on hardware, docs/usb-protocol.md §3.2): the bridge writes into it and a full
// buffer holds the host's OUT transfer pending. Descriptors (tag 1 / 2) request bytes in program
// order; requested bytes are drained from the buffer (or straight from the host when the request
// came first) and kept per executable run — the datapath issues route them into tile memories.
//
// Cost model (chip cycles; the host side costs nothing in chip time, see block_interfaces.h):
//   a request of n bytes at cycle c lands at  max(c, previous landing of that class)
//                                             + infeedCycles(n) = ceil(n / infeedBytesPerCycle)
// (models/chip/cost_model.h; TimingModel::infeedBytesPerCycle, one 128-bit word per cycle).
#pragma once

#include <cstdint>
#include <deque>
#include <span>
#include <vector>

#include <systemc>

#include "models/chip/block_interfaces.h"
#include "models/chip/chip_ports.h"
#include "models/chip/cost_model.h"

namespace coralsim::models {

// One class's stream: a bounded buffer in front of the requests.
class InfeedChannel : public sc_core::sc_object, public ByteSinkIf {
 public:
  InfeedChannel(const char* name, sc_core::sc_event& satisfied);

  void configure(Bytes capacity, const TimingModel& timing) {
    capacity_ = static_cast<uint32_t>(capacity.value());
    timing_ = timing;
  }
  void reset();

  // ByteSinkIf (the bridge). Record boundaries do not matter: requests cut the stream.
  void beginRecord(uint32_t) override {}
  size_t tryWrite(std::span<const uint8_t> bytes) override;
  [[nodiscard]] const sc_core::sc_event& spaceEvent() const override { return spaceEvent_; }
  [[nodiscard]] uint32_t freeBytes() const override;

  void request(uint32_t length, uint64_t cycle);
  [[nodiscard]] uint64_t outstanding() const { return outstanding_; }
  [[nodiscard]] uint64_t readyCycle() const { return readyCycle_; }
  [[nodiscard]] const std::vector<uint8_t>& drained() const { return drained_; }
  void clearDrained() { drained_.clear(); }

 private:
  TimingModel timing_;
  uint32_t capacity_ = 32 * 1024;
  std::deque<uint8_t> buffer_;   // received, not yet requested
  uint64_t outstanding_ = 0;     // requested, not yet received
  uint64_t readyCycle_ = 0;
  std::vector<uint8_t> drained_;  // this run's requested bytes, in order
  sc_core::sc_event spaceEvent_;
  sc_core::sc_event& satisfied_;
};

class Infeed : public sc_core::sc_module, public InfeedIf {
 public:
  explicit Infeed(const sc_core::sc_module_name& name);

  void configure(Bytes inputCapacity, Bytes parameterCapacity, const TimingModel& timing);
  void reset();

  [[nodiscard]] InfeedChannel& channel(InfeedClass cls) { return cls == InfeedClass::kInput ? input_ : parameters_; }
  [[nodiscard]] const InfeedChannel& channel(InfeedClass cls) const {
    return cls == InfeedClass::kInput ? input_ : parameters_;
  }

  // InfeedIf (descriptor unit, scalar core)
  void request(InfeedClass cls, uint32_t length, uint64_t cycle) override;
  [[nodiscard]] uint64_t outstandingBytes() const override;
  [[nodiscard]] const sc_core::sc_event& satisfiedEvent() const override { return satisfied_; }
  [[nodiscard]] uint64_t readyCycle() const override;
  void beginRun() override;
  [[nodiscard]] std::span<const uint8_t> runBytes(InfeedClass cls) const override { return channel(cls).drained(); }

 private:
  sc_core::sc_event satisfied_;
  InfeedChannel input_;
  InfeedChannel parameters_;
};

}  // namespace coralsim::models

// FakeCoral: a scripted Transport for runner unit tests. It models just enough of the device to
// be an honest counterpart — CSR storage with the power-on values of docs/usb-protocol.md §5.3,
// the scu_ctrl_3 status rule of §5.2 (a GCB reset clears scalarCoreRunControl), a byte-stream
// parser for the framed bulk-OUT records of §3.2 — and logs every control transfer, OUT transfer
// and record, so tests compare the host's traffic with the protocol tables. Events on EP 0x82 come
// from a script evaluated when the host reads them; EP 0x81 serves a byte FIFO. Reading from an
// empty script or FIFO is a TransportError, like a timeout.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "usb/event_packet.h"
#include "driver/transport/transport.h"

namespace coralsim::testing {

class FakeCoral : public driver::Transport, public driver::DeviceIntrospection {
 public:
  struct ControlOp {
    char op = 'R';  // 'R' read, 'W' write
    int width = 32;
    uint32_t address = 0;
    uint64_t value = 0;  // value written, or value returned by a read
    friend bool operator==(const ControlOp&, const ControlOp&) = default;
  };
  struct Record {
    uint8_t tag = 0;
    std::vector<uint8_t> payload;
  };
  using EventScript = std::function<driver::DeviceDescriptor(FakeCoral&)>;

  FakeCoral() {
    // Power-on values, docs/usb-protocol.md §5.3 ("must return" / hw column).
    regs_[0x1A30C] = 0x000F0959;  // scu_ctrl_0
    regs_[0x1A314] = 0x00190000;  // scu_ctrl_2: gated_gcb = 2
    regs_[0x1A318] = 0x00C50000;  // scu_ctrl_3: force_sleep = 3 (status bits computed on read)
    regs_[0x1A000] = 0x00000001;  // omc0_00
    regs_[0x1A0D4] = 0x00000001;  // omc0_d4
    regs_[0x1A704] = 0x0070007F;  // rambist_ctrl_1
    regs_[0x1A33C] = 0x000C003F;  // scu_ctr_7
  }

  // ---- Transport ----
  std::string name() const override { return "fake"; }

  std::vector<uint8_t> control(const usb::ControlSetup& s, std::span<const uint8_t> out) override {
    const uint32_t address = (uint32_t{s.wIndex} << 16) | s.wValue;
    const int width = s.bRequest == 1 ? 32 : 64;
    if (s.isDeviceToHost()) {
      const uint64_t v = readRegister(address);
      controlLog.push_back({'R', width, address, v});
      std::vector<uint8_t> data(s.wLength);
      for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(v >> (8 * i));
      return data;
    }
    uint64_t v = 0;
    for (size_t i = 0; i < out.size(); ++i) v |= uint64_t{out[i]} << (8 * i);
    controlLog.push_back({'W', width, address, v});
    writeRegister(address, v);
    return {};
  }

  void bulkOut(uint8_t endpoint, std::span<const uint8_t> bytes) override {
    if (endpoint != 0x01) throw driver::TransportError(name(), "bulk OUT", "wrong endpoint");
    outTransfers.push_back(bytes.size());
    stream_.insert(stream_.end(), bytes.begin(), bytes.end());
    // Parse complete records off the byte stream.
    for (;;) {
      if (stream_.size() < 8) break;
      const uint32_t len = uint32_t{stream_[0]} | uint32_t{stream_[1]} << 8 | uint32_t{stream_[2]} << 16 |
                           uint32_t{stream_[3]} << 24;
      if (stream_[5] != 0 || stream_[6] != 0 || stream_[7] != 0) headerBytesNonZero = true;
      if (stream_.size() < 8 + size_t{len}) break;
      Record r;
      r.tag = stream_[4] & 0xF;
      r.payload.assign(stream_.begin() + 8, stream_.begin() + 8 + len);
      stream_.erase(stream_.begin(), stream_.begin() + 8 + len);
      records.push_back(std::move(r));
    }
  }

  std::vector<uint8_t> bulkIn(uint8_t endpoint, uint32_t maxLength) override {
    if (endpoint == 0x82) {
      if (events.empty()) throw driver::TransportError(name(), "bulk IN EP 0x82", "timed out (script exhausted)");
      EventScript next = std::move(events.front());
      events.pop_front();
      const driver::DeviceDescriptor d = next(*this);
      const auto p = usb::encodeEventPacket(d);
      return {p.begin(), p.end()};
    }
    if (endpoint == 0x81) {
      if (outputFifo.empty()) throw driver::TransportError(name(), "bulk IN EP 0x81", "timed out (no output queued)");
      const size_t n = std::min<size_t>(maxLength, outputFifo.size());
      std::vector<uint8_t> data(outputFifo.begin(), outputFifo.begin() + static_cast<ptrdiff_t>(n));
      outputFifo.erase(outputFifo.begin(), outputFifo.begin() + static_cast<ptrdiff_t>(n));
      inTransfers81.push_back(n);
      return data;
    }
    throw driver::TransportError(name(), "bulk IN", "unexpected endpoint");
  }

  void cancelAsyncTransfers() override { ++cancelCalls; }

  const driver::DeviceIntrospection* introspection() const override { return withIntrospection ? this : nullptr; }

  // ---- DeviceIntrospection (only when withIntrospection) ----
  uint64_t simulatedCycles() const override { return cycles; }
  std::vector<driver::DeviceDescriptor> descriptorLog() const override { return log; }
  std::optional<bool> outputsComputed() const override { return computed; }
  std::optional<std::string> executionModeUsed() const override { return std::string("protocol"); }
  std::optional<std::string> faultText() const override { return std::nullopt; }

  // ---- test helpers ----
  uint64_t reg(uint32_t address) const {
    auto it = regs_.find(address);
    return it == regs_.end() ? 0 : it->second;
  }
  void setReg(uint32_t address, uint64_t v) { regs_[address] = v; }
  void clearLogs() {
    controlLog.clear();
    records.clear();
    outTransfers.clear();
  }
  // Records of one tag, in order.
  std::vector<Record> recordsWithTag(uint8_t tag) const {
    std::vector<Record> out;
    for (const auto& r : records) {
      if (r.tag == tag) out.push_back(r);
    }
    return out;
  }

  std::vector<ControlOp> controlLog;
  std::vector<Record> records;
  std::vector<size_t> outTransfers;
  std::vector<size_t> inTransfers81;
  std::deque<EventScript> events;
  std::deque<uint8_t> outputFifo;
  bool headerBytesNonZero = false;
  int cancelCalls = 0;
  // Introspection knobs.
  bool withIntrospection = false;
  uint64_t cycles = 0;
  std::vector<driver::DeviceDescriptor> log;
  std::optional<bool> computed;
  // Registers that never read back what was written (for poll-timeout tests).
  std::map<uint32_t, uint64_t> stuck;

 private:
  uint64_t readRegister(uint32_t address) const {
    if (auto it = stuck.find(address); it != stuck.end()) return it->second;
    const uint64_t v = reg(address);
    if (address == 0x1A318) {
      // §5.2: status bits 0..9 follow rg_force_sleep (bits 22..23) immediately.
      const uint32_t writable = static_cast<uint32_t>(v) & ~0x3FFu;
      const bool reset = ((writable >> 22) & 3) == 3;
      return writable | (reset ? (2u << 8) | 0x5C : 0x04);
    }
    return v;
  }
  void writeRegister(uint32_t address, uint64_t v) {
    if (address == 0x1A318) {
      const bool wasReset = ((reg(address) >> 22) & 3) == 3;
      const bool reset = ((v >> 22) & 3) == 3;
      if (reset && !wasReset) regs_[0x44018] = 0;  // entering reset resets the GCB run controls
    }
    regs_[address] = v;
  }

  std::map<uint32_t, uint64_t> regs_;
  std::vector<uint8_t> stream_;
};

}  // namespace coralsim::testing

// What fuzz_device does with one input, shared with its replay test: the bytes are a script of
// host operations against ONE sim::Device (kept for the whole process, as the USB/IP server keeps
// its devices; a libedgetpu-style chip reset, bus reset and unlinks put it back between inputs):
//
//   op % 5 == 0  control:  8 setup bytes (bmRequestType bRequest wValue wIndex wLength, LE), then
//                          the OUT data stage (wLength capped at kMaxControlBytes)
//   op % 5 == 1  bulk OUT: endpoint byte (0x01 + b % 3), u16 LE length (≤ kMaxChunkBytes), bytes
//   op % 5 == 2  bulk IN:  endpoint byte (b % 4: 0x81, 0x82, 0x83 or the byte itself), u16 LE length
//   op % 5 == 3  unlink:   index byte into the URBs submitted so far
//   op % 5 == 4  bus reset
//
// A missing tail reads as zeros. Nothing is awaited (completions land on the simulator thread in
// shared state), so an input can never hang the fuzzer on a URB the device rightly keeps pending;
// the chip's cycle limit is small so a runaway program is stopped quickly. Properties: control()
// returns, device-to-host data never exceeds wLength, every completion arrives at most once, and
// the device answers a GET_STATUS after the input (it is still alive).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "models/csr/csr_block.h"
#include "sim/device.h"

namespace coralsim::sim::fuzz {

inline constexpr size_t kMaxControlBytes = 1024;
inline constexpr size_t kMaxChunkBytes = 4096;
inline constexpr uint64_t kFuzzCycleLimit = 2'000'000;

class ByteReader {
 public:
  explicit ByteReader(std::span<const uint8_t> data) : data_(data) {}
  [[nodiscard]] bool done() const { return at_ >= data_.size(); }
  uint8_t u8() { return at_ < data_.size() ? data_[at_++] : 0; }
  uint16_t u16() {
    const uint16_t lo = u8();
    return static_cast<uint16_t>(lo | (u8() << 8));
  }
  std::vector<uint8_t> bytes(size_t n) {
    std::vector<uint8_t> out(n, 0);
    for (size_t i = 0; i < n; ++i) out[i] = u8();
    return out;
  }

 private:
  std::span<const uint8_t> data_;
  size_t at_ = 0;
};

// Completions of one input's URBs; shared with the callbacks, which may run after the input.
struct CompletionLog {
  std::mutex mutex;
  std::vector<int> completions;  // per URB index
  std::optional<std::string> violation;
  void complete(size_t index, const usb::UrbResult& result, uint32_t capacity) {
    std::lock_guard lock(mutex);
    if (++completions[index] > 1) violation = "a URB completed twice";
    if (result.data.size() > capacity) violation = "an IN URB returned more bytes than it asked for";
  }
};

inline Device& fuzzDevice() {
  static Device device([] {
    DeviceOptions o;
    o.chip.cycleLimit = kFuzzCycleLimit;
    return o;
  }());
  return device;
}

// The host's way to reset the chip between inputs: GCB into reset (scu_ctrl_3 force_sleep 3),
// bridge flush (gcbb_credit0), then a bus reset; URBs still pending are unlinked first.
inline void resetDevice(Device& device, const std::vector<uint64_t>& urbs) {
  for (uint64_t id : urbs) (void)device.cancel(id);
  auto write32 = [&](uint32_t address, uint32_t value) {
    const std::vector<uint8_t> data{static_cast<uint8_t>(value), static_cast<uint8_t>(value >> 8),
                                    static_cast<uint8_t>(value >> 16), static_cast<uint8_t>(value >> 24)};
    (void)device.control(usb::ControlSetup{0x40, 1, static_cast<uint16_t>(address & 0xFFFF),
                                      static_cast<uint16_t>(address >> 16), 4},
                         data);
  };
  write32(models::csr::scu_ctrl_3, 0x00C50000u | (3u << 22));
  write32(models::csr::gcbb_credit0, 0xF);
  write32(models::csr::gcbb_credit0, 0);
  device.busReset();
}

inline std::optional<std::string> exerciseDevice(std::span<const uint8_t> data) {
  Device& device = fuzzDevice();
  auto log = std::make_shared<CompletionLog>();
  std::vector<uint64_t> urbs;
  ByteReader in(data);
  auto track = [&](uint32_t capacity) {
    std::lock_guard lock(log->mutex);
    log->completions.push_back(0);
    const size_t index = log->completions.size() - 1;
    return [log, index, capacity](usb::UrbResult r) { log->complete(index, r, capacity); };
  };
  std::optional<std::string> violation;
  while (!in.done() && !violation) {
    switch (in.u8() % 5) {
      case 0: {
        usb::ControlSetup setup{in.u8(), in.u8(), in.u16(), in.u16(), in.u16()};
        std::vector<uint8_t> out;
        if (!setup.isDeviceToHost()) {
          setup.wLength = static_cast<uint16_t>(std::min<size_t>(setup.wLength, kMaxControlBytes));
          out = in.bytes(setup.wLength);
        }
        const usb::UrbResult r = device.control(setup, out);
        if (setup.isDeviceToHost() && r.data.size() > setup.wLength) {
          violation = "a control IN returned more than wLength bytes";
        }
        break;
      }
      case 1: {
        const uint8_t endpoint = static_cast<uint8_t>(0x01 + in.u8() % 3);
        const size_t length = std::min<size_t>(in.u16(), kMaxChunkBytes);
        urbs.push_back(device.submitOut(endpoint, in.bytes(length), track(0)));
        break;
      }
      case 2: {
        const uint8_t pick = in.u8();
        const uint8_t endpoints[] = {0x81, 0x82, 0x83, pick};
        const uint32_t length = in.u16();
        urbs.push_back(device.submitIn(endpoints[pick % 4], length, track(length)));
        break;
      }
      case 3:
        if (!urbs.empty()) (void)device.cancel(urbs[in.u8() % urbs.size()]);
        break;
      default:
        device.busReset();
        break;
    }
  }
  // Still alive: a standard GET_STATUS is answered with at most 2 bytes.
  const usb::UrbResult status = device.control(usb::ControlSetup{0x80, 0x00, 0, 0, 2});
  if (status.data.size() > 2) violation = "GET_STATUS returned more than 2 bytes";
  resetDevice(device, urbs);
  std::lock_guard lock(log->mutex);
  if (!violation) violation = log->violation;
  return violation;
}

}  // namespace coralsim::sim::fuzz

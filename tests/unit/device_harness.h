// A test harness around sim::Device: synchronous CSR access through EP0 control transfers (with
// per-kind counters), URBs that can be awaited, record framing and program assembly. It uses only
// the Device's public API, like any host would.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "models/csr/csr_block.h"
#include "models/isa/assembler.h"
#include "sim/device.h"

namespace coralsim::testing {

namespace csr = models::csr;
using namespace std::chrono_literals;

// One URB in flight: its completion lands here from the simulator thread.
class UrbWait {
 public:
  void complete(usb::UrbResult r) {
    std::lock_guard lock(mutex_);
    result_ = std::move(r);
    ++completions_;
    changed_.notify_all();
  }
  // True once completed (waits up to `timeout`).
  bool waitFor(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, timeout, [&] { return completions_ > 0; });
  }
  [[nodiscard]] bool done() {
    std::lock_guard lock(mutex_);
    return completions_ > 0;
  }
  [[nodiscard]] int completions() {
    std::lock_guard lock(mutex_);
    return completions_;
  }
  [[nodiscard]] usb::UrbResult result() {
    std::lock_guard lock(mutex_);
    return result_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  int completions_ = 0;
  usb::UrbResult result_;
};

struct PendingUrb {
  uint64_t id = 0;
  std::shared_ptr<UrbWait> wait;
};

// [u32 LE length][tag][0 0 0] + payload (docs/usb-protocol.md §3.2).
inline std::vector<uint8_t> record(uint8_t tag, std::span<const uint8_t> payload) {
  std::vector<uint8_t> out(8 + payload.size(), 0);
  const auto n = static_cast<uint32_t>(payload.size());
  for (size_t i = 0; i < 4; ++i) out[i] = static_cast<uint8_t>(n >> (8 * i));
  out[4] = tag;
  std::copy(payload.begin(), payload.end(), out.begin() + 8);
  return out;
}

inline std::vector<uint8_t> assembleBytes(std::string_view text) {
  return isa::bytesFromWords(isa::assemble(text, "test.s").words);
}

inline std::vector<uint8_t> concat(std::initializer_list<std::vector<uint8_t>> parts) {
  std::vector<uint8_t> out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

// An EP 0x82 event decoded (docs/usb-protocol.md §4.2).
struct Event {
  uint64_t address = 0;
  uint32_t length = 0;
  uint8_t tag = 0;
};
inline Event decodeEvent(const std::vector<uint8_t>& b) {
  Event e;
  for (int i = 0; i < 8; ++i) e.address |= uint64_t{b.at(static_cast<size_t>(i))} << (8 * i);
  for (int i = 0; i < 4; ++i) e.length |= uint32_t{b.at(static_cast<size_t>(8 + i))} << (8 * i);
  e.tag = b.at(12) & 0x0F;
  return e;
}

class DeviceHarness {
 public:
  struct Counts {
    int r32 = 0, r64 = 0, w32 = 0, w64 = 0;
  };

  explicit DeviceHarness(sim::DeviceOptions options = {}) : device(std::move(options)) {}

  sim::Device device;
  Counts counts;

  // ---- EP0 CSR access (docs/usb-protocol.md §2) ----
  uint64_t read(uint32_t address, unsigned width) {
    usb::ControlSetup s{0xC0, static_cast<uint8_t>(width == 64 ? 0 : 1), static_cast<uint16_t>(address & 0xFFFF),
                        static_cast<uint16_t>(address >> 16), static_cast<uint16_t>(width / 8)};
    const usb::UrbResult r = device.control(s);
    EXPECT_EQ(r.status, usb::UrbStatus::kOk);
    EXPECT_EQ(r.data.size(), width / 8u) << "a CSR read must return exactly wLength bytes";
    (width == 64 ? counts.r64 : counts.r32)++;
    uint64_t v = 0;
    for (size_t i = 0; i < r.data.size() && i < 8; ++i) v |= uint64_t{r.data[i]} << (8 * i);
    return v;
  }
  void write(uint32_t address, unsigned width, uint64_t value) {
    usb::ControlSetup s{0x40, static_cast<uint8_t>(width == 64 ? 0 : 1), static_cast<uint16_t>(address & 0xFFFF),
                        static_cast<uint16_t>(address >> 16), static_cast<uint16_t>(width / 8)};
    std::vector<uint8_t> data(width / 8);
    for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(value >> (8 * i));
    const usb::UrbResult r = device.control(s, data);
    EXPECT_EQ(r.status, usb::UrbStatus::kOk);
    (width == 64 ? counts.w64 : counts.w32)++;
  }
  uint32_t read32(uint32_t a) { return static_cast<uint32_t>(read(a, 32)); }
  uint64_t read64(uint32_t a) { return read(a, 64); }
  void write32(uint32_t a, uint32_t v) { write(a, 32, v); }
  void write64(uint32_t a, uint64_t v) { write(a, 64, v); }

  // A polled read as libedgetpu does it (no delay); returns how many reads it took.
  template <class Pred>
  int poll(uint32_t address, unsigned width, Pred satisfied, int maxReads = 1000) {
    for (int n = 1; n <= maxReads; ++n) {
      if (satisfied(read(address, width))) return n;
    }
    return maxReads + 1;
  }

  // ---- URBs ----
  PendingUrb submitOut(std::vector<uint8_t> bytes, uint8_t endpoint = 0x01) {
    auto wait = std::make_shared<UrbWait>();
    const uint64_t id = device.submitOut(endpoint, std::move(bytes), [wait](usb::UrbResult r) { wait->complete(std::move(r)); });
    return {id, wait};
  }
  PendingUrb submitIn(uint8_t endpoint, uint32_t length) {
    auto wait = std::make_shared<UrbWait>();
    const uint64_t id = device.submitIn(endpoint, length, [wait](usb::UrbResult r) { wait->complete(std::move(r)); });
    return {id, wait};
  }
  // Submits and waits; fails the test if the OUT transfer does not complete OK in full.
  void out(std::vector<uint8_t> bytes) {
    const size_t n = bytes.size();
    PendingUrb u = submitOut(std::move(bytes));
    ASSERT_TRUE(u.wait->waitFor(10s)) << "bulk OUT of " << n << " bytes did not complete";
    EXPECT_EQ(u.wait->result().status, usb::UrbStatus::kOk);
    EXPECT_EQ(u.wait->result().actualLength, n);
  }
  std::optional<usb::UrbResult> in(uint8_t endpoint, uint32_t length, std::chrono::milliseconds timeout = 10s) {
    PendingUrb u = submitIn(endpoint, length);
    if (u.wait->waitFor(timeout)) return u.wait->result();
    EXPECT_TRUE(device.cancel(u.id));
    return std::nullopt;
  }
  std::optional<Event> event(std::chrono::milliseconds timeout = 10s) {
    auto r = in(0x82, 16, timeout);
    if (!r) return std::nullopt;
    EXPECT_EQ(r->data.size(), 16u);
    return decodeEvent(r->data);
  }

  void sendProgram(std::string_view text) { out(record(0, assembleBytes(text))); }

  // ---- the libedgetpu open sequence (docs/usb-protocol.md §5.3, single-EP, SuperSpeed, Max) ----
  // Every poll records how many reads it needed in `pollReads`.
  std::vector<int> pollReads;
  void openLikeLibedgetpu(bool moveToRun = true);
  void closeLikeLibedgetpu();
};

inline constexpr uint32_t kScalarRunControls[] = {csr::scalarCoreRunControl, csr::avDataPopRunControl,
                                                  csr::parameterPopRunControl, csr::infeedRunControl,
                                                  csr::outfeedRunControl};
// In the order libedgetpu writes them (op, narrowToWide, wideToNarrow, mesh0..3, ringConsumer0/1,
// ringProducer).
inline constexpr uint32_t kTileRunControls[] = {csr::opRunControl,
                                                csr::narrowToWideRunControl,
                                                csr::wideToNarrowRunControl,
                                                csr::meshBus0RunControl,
                                                csr::meshBus1RunControl,
                                                csr::meshBus2RunControl,
                                                csr::meshBus3RunControl,
                                                csr::ringBusConsumer0RunControl,
                                                csr::ringBusConsumer1RunControl,
                                                csr::ringBusProducerRunControl};

inline uint64_t field(uint64_t v, unsigned lsb, unsigned width) { return (v >> lsb) & ((uint64_t{1} << width) - 1); }
inline uint64_t withField(uint64_t v, unsigned lsb, unsigned width, uint64_t f) {
  const uint64_t mask = ((uint64_t{1} << width) - 1) << lsb;
  return (v & ~mask) | ((f << lsb) & mask);
}

inline void DeviceHarness::openLikeLibedgetpu(bool moveToRun) {
  // Open: PHY inactive modes cleared.
  const uint32_t scu0 = read32(csr::scu_ctrl_0);
  write32(csr::scu_ctrl_0, static_cast<uint32_t>(withField(scu0, 8, 6, 0)));
  const uint32_t scu2 = read32(csr::scu_ctrl_2);
  // DisableHardwareClockGate only when gating is on (every re-open after a libedgetpu session).
  if (field(scu2, 18, 2) == 1) write32(csr::scu_ctrl_2, static_cast<uint32_t>(withField(scu2, 18, 2, 2)));
  // EnableReset: skipped when the chip is already in reset.
  const uint32_t sleepState = read32(csr::scu_ctrl_3);
  if (field(sleepState, 22, 2) != 3) {
    write32(csr::scu_ctrl_3, static_cast<uint32_t>(withField(sleepState, 22, 2, 3)));
    pollReads.push_back(poll(csr::scu_ctrl_3, 32, [](uint64_t v) { return field(v, 8, 2) == 2; }));
    write32(csr::gcbb_credit0, 0xF);
    write32(csr::gcbb_credit0, 0);
  }
  // QuitReset (Max: clock bits 28..31 = 0).
  const uint32_t scu3 = read32(csr::scu_ctrl_3);
  write32(csr::scu_ctrl_3, static_cast<uint32_t>(withField(withField(scu3, 22, 2, 2), 28, 4, 0)));
  pollReads.push_back(poll(csr::scu_ctrl_3, 32, [](uint64_t v) { return field(v, 8, 2) == 0; }));
  pollReads.push_back(poll(csr::scalarCoreRunControl, 64, [](uint64_t v) { return v == 0; }));
  write64(csr::idleRegister, 1);
  write64(csr::tileconfig0, 0x7F);
  pollReads.push_back(poll(csr::tileconfig0, 64, [](uint64_t v) { return v == 0x7F; }));
  write64(csr::deepSleep, 0x1E02);
  // EnableHardwareClockGate.
  const uint32_t gate = read32(csr::scu_ctrl_2);
  if (field(gate, 18, 2) != 1) write32(csr::scu_ctrl_2, static_cast<uint32_t>(withField(gate, 18, 2, 1)));
  // InitializeChip.
  (void)read32(csr::omc0_00);
  write64(csr::descr_ep, 0xF0);
  write64(csr::multi_bo_ep, 0);
  write64(csr::outfeed_chunk_length, 0x80);
  // RunControl(kMoveToRun).
  const uint64_t run = moveToRun ? 1 : 0;
  for (uint32_t a : kScalarRunControls) write64(a, run);
  write64(csr::tileconfig0, 0x7F);
  pollReads.push_back(poll(csr::tileconfig0, 64, [](uint64_t v) { return v == 0x7F; }));
  for (uint32_t a : kTileRunControls) write64(a, run);
  // RegisterAndEnableAllInterrupts.
  write64(csr::fatal_err_int_control, 1);
  for (uint32_t a : {csr::top_level_int_0_control, csr::top_level_int_1_control, csr::top_level_int_2_control,
                     csr::top_level_int_3_control}) {
    write64(a, 1);
  }
  write32(csr::omc0_d4, read32(csr::omc0_d4) | 0x80000000u);
  write32(csr::rambist_ctrl_1, static_cast<uint32_t>(withField(withField(read32(csr::rambist_ctrl_1), 16, 3, 0), 20, 3, 0)));
  write32(csr::scu_ctr_7, static_cast<uint32_t>(withField(read32(csr::scu_ctr_7), 16, 4, 0)));
  write32(csr::slv_abm_en, 1);
  write32(csr::mst_abm_en, 1);
  write32(csr::slv_err_resp_isr_mask, 3);
  write32(csr::mst_err_resp_isr_mask, 3);
  write32(csr::omc0_d8, read32(csr::omc0_d8) | 0x80000000u);
}

inline void DeviceHarness::closeLikeLibedgetpu() {
  for (uint32_t a : {csr::top_level_int_0_control, csr::top_level_int_1_control, csr::top_level_int_2_control,
                     csr::top_level_int_3_control}) {
    write64(a, 0);
  }
  write32(csr::omc0_d4, read32(csr::omc0_d4) & ~0x80000000u);
  write32(csr::rambist_ctrl_1, static_cast<uint32_t>(withField(read32(csr::rambist_ctrl_1), 20, 3, 7)));
  write32(csr::scu_ctr_7, static_cast<uint32_t>(withField(read32(csr::scu_ctr_7), 18, 2, 3)));
  for (uint32_t a : {csr::slv_abm_en, csr::mst_abm_en, csr::slv_err_resp_isr_mask, csr::mst_err_resp_isr_mask}) {
    write32(a, 0);
  }
  write32(csr::omc0_d8, read32(csr::omc0_d8) & ~0x80000000u);
  write64(csr::fatal_err_int_control, 0);
  for (uint32_t a : kScalarRunControls) write64(a, 2);
  write64(csr::tileconfig0, 0x7F);
  pollReads.push_back(poll(csr::tileconfig0, 64, [](uint64_t v) { return v == 0x7F; }));
  for (uint32_t a : kTileRunControls) write64(a, 2);
  const uint32_t scu3 = read32(csr::scu_ctrl_3);
  if (field(scu3, 22, 2) != 3) {
    write32(csr::scu_ctrl_3, static_cast<uint32_t>(withField(scu3, 22, 2, 3)));
    pollReads.push_back(poll(csr::scu_ctrl_3, 32, [](uint64_t v) { return field(v, 8, 2) == 2; }));
    write32(csr::gcbb_credit0, 0xF);
    write32(csr::gcbb_credit0, 0);
  }
}

}  // namespace coralsim::testing

#include "driver/run/open_close_sequence.h"

#include <array>

#include "driver/transport/beagle_csrs.h"
#include "driver/transport/register_poll.h"

namespace coralsim::driver {
namespace {

constexpr uint32_t field(uint32_t value, unsigned shift, uint32_t mask) { return (value >> shift) & mask; }
constexpr uint32_t withField(uint32_t value, unsigned shift, uint32_t mask, uint32_t fieldValue) {
  return (value & ~(mask << shift)) | ((fieldValue & mask) << shift);
}

// scu_ctrl_2 bits 18..19 rg_gated_gcb: 1 = hardware clock gating on, 2 = off.
constexpr unsigned kGatedGcbShift = 18;
constexpr uint32_t kGatedOn = 1;
constexpr uint32_t kGatedOff = 2;

// The scalar core and its four TTUs, in libedgetpu's RunControl order (§5.3 steps 18..22).
constexpr std::array<uint32_t, 5> kScalarRunControls = {csr::scalarCoreRunControl, csr::avDataPopRunControl,
                                                        csr::parameterPopRunControl, csr::infeedRunControl,
                                                        csr::outfeedRunControl};
// The tile run controls, written through the tileconfig0 broadcast window (§5.3 steps 25..34).
constexpr std::array<uint32_t, 10> kTileRunControls = {
    csr::opRunControl,        csr::narrowToWideRunControl, csr::wideToNarrowRunControl,
    csr::meshBus0RunControl,  csr::meshBus1RunControl,     csr::meshBus2RunControl,
    csr::meshBus3RunControl,  csr::ringBusConsumer0RunControl, csr::ringBusConsumer1RunControl,
    csr::ringBusProducerRunControl};
constexpr std::array<uint32_t, 4> kTopLevelInterruptControls = {
    csr::top_level_int_0_control, csr::top_level_int_1_control, csr::top_level_int_2_control,
    csr::top_level_int_3_control};

constexpr uint64_t kRunControlRun = 1;
constexpr uint64_t kRunControlHalt = 2;
constexpr uint64_t kTileBroadcast = 0x7F;

uint32_t clockBits(ClockPerformance p) {
  switch (p) {
    case ClockPerformance::kMax: return 0x0;     // 500 MHz, AXI 250 MHz, 8051 500 MHz
    case ClockPerformance::kHigh: return 0x5;    // clkdiv 1, AXI 125 MHz
    case ClockPerformance::kMedium: return 0x6;  // clkdiv 2, AXI 125 MHz
    case ClockPerformance::kLow: return 0xF;     // clkdiv 3, AXI 125 MHz, 8051 250 MHz
  }
  return 0x0;
}

// EnableReset (§5.3 steps 4..4d; §5.4 steps 35..39): force_sleep = 3, wait for the power state,
// pulse gcbb_credit0. Skipped when the GCB is already in reset.
void enterReset(Transport& t, std::chrono::milliseconds timeout) {
  const uint32_t v = t.read32(csr::scu_ctrl_3);
  if (field(v, scu_ctrl_3::kForceSleepShift, 3) == scu_ctrl_3::kForceSleepReset) return;
  t.write32(csr::scu_ctrl_3, withField(v, scu_ctrl_3::kForceSleepShift, 3, scu_ctrl_3::kForceSleepReset));
  pollRegister(
      t, csr::scu_ctrl_3, CsrWidth::k32,
      [](uint64_t r) { return field(static_cast<uint32_t>(r), scu_ctrl_3::kCurPwrStateShift, 3) == scu_ctrl_3::kPwrStateReset; },
      "cur_pwr_state == 2 (GCB in reset)", timeout);
  t.write32(csr::gcbb_credit0, 0xF);
  t.write32(csr::gcbb_credit0, 0x0);
}

void pollTileBroadcast(Transport& t, std::chrono::milliseconds timeout) {
  pollRegister(
      t, csr::tileconfig0, CsrWidth::k64, [](uint64_t r) { return r == kTileBroadcast; }, "== 0x7f (broadcast)",
      timeout);
}

// read32, modify, write32.
template <typename F>
void modify32(Transport& t, uint32_t address, F change) {
  t.write32(address, change(t.read32(address)));
}

}  // namespace

void openChip(Transport& t, const OpenOptions& o) {
  // Steps 1-2: leave the PHY inactive modes at 0 (scu_ctrl_0 bits 8..13).
  modify32(t, csr::scu_ctrl_0, [](uint32_t v) { return v & ~(uint32_t{0x3F} << 8); });
  // Step 3 (+3a DisableHardwareClockGate when a previous session left gating on).
  const uint32_t scu2 = t.read32(csr::scu_ctrl_2);
  if (field(scu2, kGatedGcbShift, 3) == kGatedOn) t.write32(csr::scu_ctrl_2, withField(scu2, kGatedGcbShift, 3, kGatedOff));
  // Step 4: EnableReset.
  enterReset(t, o.pollTimeout);
  // Steps 5-7: QuitReset with the chosen clocks.
  const uint32_t scu3 = t.read32(csr::scu_ctrl_3);
  uint32_t quit = withField(scu3, scu_ctrl_3::kForceSleepShift, 3, scu_ctrl_3::kForceSleepRun);
  quit = withField(quit, scu_ctrl_3::kClockShift, 0xF, clockBits(o.performance));
  t.write32(csr::scu_ctrl_3, quit);
  pollRegister(
      t, csr::scu_ctrl_3, CsrWidth::k32,
      [](uint64_t r) { return field(static_cast<uint32_t>(r), scu_ctrl_3::kCurPwrStateShift, 3) == scu_ctrl_3::kPwrStateRun; },
      "cur_pwr_state == 0 (GCB out of reset)", o.pollTimeout);
  // Step 8: the GCB reset must have stopped the scalar core.
  pollRegister(
      t, csr::scalarCoreRunControl, CsrWidth::k64, [](uint64_t r) { return r == 0; }, "== 0 (idle after reset)",
      o.pollTimeout);
  // Steps 9-12.
  t.write64(csr::idleRegister, 0x1);
  t.write64(csr::tileconfig0, kTileBroadcast);
  pollTileBroadcast(t, o.pollTimeout);
  t.write64(csr::deepSleep, 0x1E02);
  // Step 13: EnableHardwareClockGate.
  modify32(t, csr::scu_ctrl_2, [](uint32_t v) { return withField(v, kGatedGcbShift, 3, kGatedOn); });
  // Steps 14-17: InitializeChip.
  (void)t.read32(csr::omc0_00);  // e-fuse revision; libedgetpu only logs it
  t.write64(csr::descr_ep, o.descriptorEventMask);
  t.write64(csr::multi_bo_ep, 0);  // single-EP framed records
  t.write64(csr::outfeed_chunk_length, o.highSpeedLink ? 0x20 : 0x80);
  // Steps 18-34: RunControl(kMoveToRun).
  for (uint32_t a : kScalarRunControls) t.write64(a, kRunControlRun);
  t.write64(csr::tileconfig0, kTileBroadcast);
  pollTileBroadcast(t, o.pollTimeout);
  for (uint32_t a : kTileRunControls) t.write64(a, kRunControlRun);
  // Steps 35-51: RegisterAndEnableAllInterrupts.
  t.write64(csr::fatal_err_int_control, 1);
  for (uint32_t a : kTopLevelInterruptControls) t.write64(a, 1);
  modify32(t, csr::omc0_d4, [](uint32_t v) { return v | 0x80000000u; });                       // thm_warn_en
  modify32(t, csr::rambist_ctrl_1, [](uint32_t v) { return v & ~((0x7u << 16) | (0x7u << 20)); });  // unmask MBIST
  modify32(t, csr::scu_ctr_7, [](uint32_t v) { return v & ~(0xFu << 16); });                    // boot failure mask
  t.write32(csr::slv_abm_en, 1);
  t.write32(csr::mst_abm_en, 1);
  t.write32(csr::slv_err_resp_isr_mask, 3);
  t.write32(csr::mst_err_resp_isr_mask, 3);
  modify32(t, csr::omc0_d8, [](uint32_t v) { return v | 0x80000000u; });  // sd_en
}

void closeChip(Transport& t, std::chrono::milliseconds pollTimeout) {
  // Step 0.
  t.cancelAsyncTransfers();
  // Steps 1-17: disable the interrupts again.
  for (uint32_t a : kTopLevelInterruptControls) t.write64(a, 0);
  modify32(t, csr::omc0_d4, [](uint32_t v) { return v & ~0x80000000u; });
  modify32(t, csr::rambist_ctrl_1, [](uint32_t v) { return v | (0x7u << 20); });
  modify32(t, csr::scu_ctr_7, [](uint32_t v) { return v | (0x3u << 18); });
  t.write32(csr::slv_abm_en, 0);
  t.write32(csr::mst_abm_en, 0);
  t.write32(csr::slv_err_resp_isr_mask, 0);
  t.write32(csr::mst_err_resp_isr_mask, 0);
  modify32(t, csr::omc0_d8, [](uint32_t v) { return v & ~0x80000000u; });
  t.write64(csr::fatal_err_int_control, 0);
  // Steps 18-34: halt the scalar core, the TTUs and the tiles.
  for (uint32_t a : kScalarRunControls) t.write64(a, kRunControlHalt);
  t.write64(csr::tileconfig0, kTileBroadcast);
  pollTileBroadcast(t, pollTimeout);
  for (uint32_t a : kTileRunControls) t.write64(a, kRunControlHalt);
  // Steps 35-39: back into reset.
  enterReset(t, pollTimeout);
}

ClockPerformance clockPerformanceForMhz(uint64_t mhz) {
  if (mhz >= 500) return ClockPerformance::kMax;
  if (mhz >= 250) return ClockPerformance::kHigh;
  if (mhz >= 125) return ClockPerformance::kMedium;
  return ClockPerformance::kLow;
}

}  // namespace coralsim::driver

#include "models/beagle.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "models/hle/hle_rung.h"
#include "models/lle/lle_rung.h"

namespace coralsim::models {
namespace {

// scu_ctrl_3 fields (beagle_csr_helper.h, docs/usb-protocol.md §5.2).
constexpr unsigned kForceSleepShift = 22;
constexpr uint64_t kForceSleepMask = 3;
constexpr uint64_t kForceSleepReset = 3;  // GCB held in reset ("sleep")
constexpr unsigned kCurPwrStateShift = 8;
constexpr uint64_t kPwrStateReset = 2;
constexpr uint64_t kBitPcieL0 = 1u << 2;
constexpr uint64_t kBitGatedGcb = 1u << 3;
constexpr uint64_t kBitRstGcb = 1u << 4;
constexpr uint64_t kBitGcbSramSd = 1u << 6;

// tileconfig0: bits 0..6 select a tile, 0x7F broadcasts.
constexpr uint64_t kTileSelectMask = 0x7F;
constexpr uint64_t kTileBroadcast = 0x7F;

// ep_status_credit: three 21-bit fields in 8-byte units.
constexpr unsigned kCreditBits = 21;
uint64_t creditField(uint32_t freeBytes) {
  return std::min<uint64_t>(freeBytes / 8, (uint64_t{1} << kCreditBits) - 1);
}

}  // namespace

RungFactories standardRungFactories() { return RungFactories{&makeLleRung, &makeHleRung}; }

Beagle::Beagle(const sc_core::sc_module_name& name, RungFactories rungs)
    : sc_core::sc_module(name),
      csr("csr"),
      instructionsIn("instructionsIn"),
      inputsIn("inputsIn"),
      parametersIn("parametersIn"),
      outputsOut("outputsOut"),
      eventsOut("eventsOut"),
      interruptsOut("interruptsOut"),
      bridgeResetOut("bridgeResetOut"),
      clock("clock"),
      instructionQueue_("instructionQueue"),
      infeed_("infeed"),
      outfeed_("outfeed"),
      descriptors_("descriptors"),
      datapath_("datapath", std::move(rungs)),
      faults_("faults", csrs_),
      tileFifos_("tileFifo", kTiles,
                 [](const char* n, size_t) { return new sc_core::sc_fifo<TilePacket>(n, kTileFifoDepth); }),
      tiles_("tile", kTiles, [](const char* n, size_t i) { return new Tile(n, static_cast<unsigned>(i)); }),
      dispatcher_("dispatcher", kTiles),
      core_("core", csrs_) {
  csr(csrs_);
  clock(core_);
  instructionsIn(instructionQueue_);
  inputsIn(infeed_.channel(InfeedClass::kInput));
  parametersIn(infeed_.channel(InfeedClass::kParameter));

  outfeed_.hostOut(outputsOut);
  outfeed_.datapath(datapath_);
  datapath_.infeed(infeed_);
  datapath_.scalarMemory(core_);
  descriptors_.infeed(infeed_);
  descriptors_.outfeed(outfeed_);
  descriptors_.events(eventsOut);
  faults_.interrupts(interruptsOut);
  for (unsigned t = 0; t < kTiles; ++t) {
    dispatcher_.toTile[t](tileFifos_[t]);
    dispatcher_.tileStatus[t](tiles_[t]);
    tiles_[t].in(tileFifos_[t]);
  }
  core_.instructions(instructionQueue_);
  core_.descriptors(descriptors_);
  core_.outfeed(outfeed_);
  core_.infeed(infeed_);
  core_.tiles(dispatcher_);
  core_.faults(faults_);
  core_.datapath(datapath_);

  registerCsrHooks();
}

void Beagle::powerOnReset(const ChipConfig& config) {
  if (config.tileCount() != kTiles) {
    throw std::invalid_argument("ChipConfig: " + std::to_string(config.tilesX) + " x " +
                                std::to_string(config.tilesY) + " tiles; the Beagle model has 4 x 4");
  }
  if (config.clockHz == 0) throw std::invalid_argument("ChipConfig: clockHz must not be 0");
  datapath_.configure(config);  // throws for a strict rung this configuration cannot run
  datapath_.reset();
  mode_ = config.mode;
  config_ = config;
  csrs_.resetAll();
  gcbAsleep_ = true;
  instructionQueue_.configure(config.instructionBufferBytes);
  instructionQueue_.reset();
  infeed_.configure(config.inputBufferBytes, config.parameterBufferBytes, config.timing);
  outfeed_.setTiming(config.timing);
  dispatcher_.setTiming(config.timing);
  infeed_.reset();
  outfeed_.reset();
  descriptors_.reset();
  faults_.reset();
  for (Tile& tile : tiles_) {
    tile.reset();
    tile.setTracer(config.tracer.get());
  }
  dispatcher_.reset();
  core_.requestPowerOnReset(config);
}

void Beagle::gcbReset() {
  csrs_.resetDomain(CsrDomain::Gcb);
  instructionQueue_.reset();
  infeed_.reset();
  outfeed_.dropWindow();
  datapath_.reset();
  for (Tile& tile : tiles_) tile.reset();
  dispatcher_.restartSequence();
  core_.requestGcbReset();
  bridgeResetOut->flushBridge();
}

uint64_t Beagle::powerStatusBits(uint64_t scuCtrl3) {
  const uint64_t forceSleep = (scuCtrl3 >> kForceSleepShift) & kForceSleepMask;
  if (forceSleep == kForceSleepReset) {
    return (kPwrStateReset << kCurPwrStateShift) | kBitPcieL0 | kBitGatedGcb | kBitRstGcb | kBitGcbSramSd;
  }
  return kBitPcieL0;  // cur_pwr_state 0: running
}

void Beagle::registerCsrHooks() {
  csrs_.setHooks(CsrEffect::PowerControl,
                 {[](const CsrRegister&, unsigned, uint64_t stored) { return stored | powerStatusBits(stored); },
                  [this](const CsrRegister&, unsigned, uint64_t value, uint64_t) {
                    const bool asleep = ((value >> kForceSleepShift) & kForceSleepMask) == kForceSleepReset;
                    if (asleep && !gcbAsleep_) gcbReset();
                    gcbAsleep_ = asleep;
                    core_.setSleeping(asleep);
                  }});

  csrs_.setHooks(CsrEffect::BridgeFlush, {nullptr, [this](const CsrRegister&, unsigned, uint64_t value, uint64_t) {
                                            if (value != 0) bridgeResetOut->flushBridge();
                                          }});

  csrs_.setHooks(CsrEffect::BridgeCredit,
                 {[this](const CsrRegister&, unsigned, uint64_t) {
                    return creditField(instructionQueue_.freeBytes()) |
                           (creditField(infeed_.channel(InfeedClass::kInput).freeBytes()) << kCreditBits) |
                           (creditField(infeed_.channel(InfeedClass::kParameter).freeBytes()) << (2 * kCreditBits));
                  },
                  nullptr});

  csrs_.setHooks(CsrEffect::TileWindow,
                 {[this](const CsrRegister& reg, unsigned, uint64_t) -> uint64_t {
                    const uint64_t select = csrs_.stored(csr::tileconfig0) & kTileSelectMask;
                    const uint64_t tile = select == kTileBroadcast ? 0 : select;
                    return tile < kTiles ? tiles_[tile].csr(reg.address) : 0;
                  },
                  [this](const CsrRegister& reg, unsigned, uint64_t value, uint64_t) {
                    const uint64_t select = csrs_.stored(csr::tileconfig0) & kTileSelectMask;
                    if (select == kTileBroadcast) {
                      for (Tile& tile : tiles_) tile.setCsr(reg.address, value);
                    } else if (select < kTiles) {
                      tiles_[select].setCsr(reg.address, value);
                    }
                  }});
}

void Beagle::traceSignals(sc_core::sc_trace_file* file) const {
  core_.traceSignals(file, std::string(name()) + ".scalar_core");
  for (const Tile& tile : tiles_) tile.traceSignals(file, std::string(name()) + ".tile" + std::to_string(tile.index()));
}

}  // namespace coralsim::models

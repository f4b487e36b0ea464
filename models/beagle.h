// Beagle: the Edge TPU chip as the USB bridge sees it — the top module that wires the blocks.
//
//   bridge ──instructionsIn──▶ InstructionQueue ──▶ ScalarCore ──▶ TileDispatcher ──▶ 16 × Tile
//          ──inputsIn/parametersIn──▶ Infeed ◀── DescriptorUnit ◀─┘    (per-tile FIFOs)
//          ◀──outputsOut── Outfeed ◀──────────────┤ (tag 3 windows, stream words)
//          ◀──eventsOut─── DescriptorUnit          │
//          ◀──interruptsOut── FaultUnit ◀──────────┘ (faults)
//          ──csr──▶ CsrBlock (hooks: ScalarCore, tiles, power control, bridge flush/credit)
//
// To the bridge it exposes the CSR export, byte-stream exports for tags 0/1/2, ports for the
// output stream, the event stream, the interrupt stream and the bridge flush, the chip clock
// (cycles and run boundaries, for the bridge's device clock), and a power-on reset. All blocks
// are elaborated once; sizes from ChipConfig apply at powerOnReset().
//
// scu_ctrl_3 (docs/usb-protocol.md §5.2): status bits 0..9 follow rg_force_sleep at once
// (3 → cur_pwr_state 2 and bits 2,3,4,6; else cur_pwr_state 0 and bit 2). Entering force_sleep 3
// resets the GCB: its CSRs (run controls) to 0, core state, instruction queue, infeed, outfeed,
// tiles and tile sequence, and flushes the bridge; while it stays 3 the core does not run.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <systemc>

#include "models/chip/chip_ports.h"
#include "models/chip/datapath.h"
#include "models/chip/descriptor_unit.h"
#include "models/chip/fault_unit.h"
#include "models/chip/infeed.h"
#include "models/chip/instruction_queue.h"
#include "models/chip/outfeed.h"
#include "models/chip/run_record.h"
#include "models/chip/scalar_core.h"
#include "models/chip/tile.h"
#include "models/chip/tile_dispatcher.h"
#include "models/chip_config.h"
#include "models/csr/csr_block.h"

namespace coralsim::models {

// The datapath rungs this library links: lle (models/lle) and hle (models/hle). The chip blocks
// only know the RungFactories interface (models/chip/datapath_rung.h); the top injects these.
[[nodiscard]] RungFactories standardRungFactories();

class Beagle : public sc_core::sc_module {
 public:
  // The bridge side.
  sc_core::sc_export<CsrAccessIf> csr;
  sc_core::sc_export<ByteSinkIf> instructionsIn;  // tag 0
  sc_core::sc_export<ByteSinkIf> inputsIn;        // tag 1
  sc_core::sc_export<ByteSinkIf> parametersIn;    // tag 2
  sc_core::sc_port<OutputStreamIf> outputsOut;
  sc_core::sc_port<EventStreamIf> eventsOut;
  sc_core::sc_port<InterruptStreamIf> interruptsOut;
  sc_core::sc_port<BridgeResetIf> bridgeResetOut;
  sc_core::sc_export<ChipClockIf> clock;  // cycles and run boundaries, for the bridge's device clock

  static constexpr unsigned kTiles = 16;  // 4 x 4 (beagle_chip_structures.h)

  // `rungs`: the datapath rungs powerOnReset may build (default: lle and hle).
  explicit Beagle(const sc_core::sc_module_name& name, RungFactories rungs = standardRungFactories());

  // Power-on: every CSR to its reset value (GCB asleep: force_sleep = 3), every block emptied,
  // sizes and limits from `config`. Call while the simulation is paused; the core settles at the
  // current simulated instant. Throws std::invalid_argument for a configuration the chip cannot
  // take (tile count, execution mode).
  void powerOnReset(const ChipConfig& config);

  // Registers the chip's traced signals with a SystemC trace file (VCD): the scalar core's run
  // state and chip-cycle clock, each tile's accepted packets and fence. Call before the simulation
  // starts (sc_trace's rule); the members traced live as long as the chip.
  void traceSignals(sc_core::sc_trace_file* file) const;

  // Observation (call while the simulation is paused).
  [[nodiscard]] uint64_t cycles() const { return core_.cycles(); }
  [[nodiscard]] const std::vector<Descriptor>& descriptorLog() const { return descriptors_.log(); }
  [[nodiscard]] const std::vector<RunRecord>& runs() const { return core_.runs(); }
  [[nodiscard]] const std::string& lastFault() const { return faults_.lastText(); }
  [[nodiscard]] uint64_t faultCount() const { return faults_.count(); }
  [[nodiscard]] uint64_t outputBytes() const { return outfeed_.outputBytes(); }
  [[nodiscard]] uint64_t notComputedBytes() const { return outfeed_.notComputedBytes(); }
  [[nodiscard]] ExecutionMode executionMode() const { return mode_; }
  [[nodiscard]] const ChipConfig& config() const { return config_; }
  [[nodiscard]] const ScalarCore& core() const { return core_; }
  [[nodiscard]] const Tile& tile(unsigned index) const { return tiles_[index]; }
  [[nodiscard]] uint64_t tilePacketsDispatched() const { return dispatcher_.packetsDispatched(); }
  [[nodiscard]] const Infeed& infeed() const { return infeed_; }
  [[nodiscard]] CsrBlock& csrBlock() { return csrs_; }

 private:
  void registerCsrHooks();
  void gcbReset();
  [[nodiscard]] static uint64_t powerStatusBits(uint64_t scuCtrl3);

  ChipConfig config_;
  ExecutionMode mode_ = ExecutionMode::kProtocol;
  bool gcbAsleep_ = true;

  CsrBlock csrs_;
  InstructionQueue instructionQueue_;
  Infeed infeed_;
  Outfeed outfeed_;
  DescriptorUnit descriptors_;
  Datapath datapath_;
  FaultUnit faults_;
  sc_core::sc_vector<sc_core::sc_fifo<TilePacket>> tileFifos_;
  sc_core::sc_vector<Tile> tiles_;
  TileDispatcher dispatcher_;
  ScalarCore core_;
};

}  // namespace coralsim::models

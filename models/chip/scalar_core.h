// ScalarCore: the SystemC module around the functional ScalarEngine (scalar_engine.h).
//
// One SC_THREAD runs the engine with temporal decoupling: the engine executes up to a quantum of
// cycles on its own, and the module synchronises SystemC time with the chip clock at every
// ScalarCoreHost callback (descriptor push, stream word, issued packet) and at the end of each
// engine call. Cost model: the engine's (models/scalar/scalar_engine.cc, Stage A: a packet costs
// its length in cycles at issue) plus the stalls this module adds:
//   scalar fence 0x24      waits for every requested infeed byte: chip time += landing - now
//   final HALT             waits for the infeed, every tile and the outfeed: chip time += idle - now
// Waiting for the host (a chunk not yet sent, infeed data not yet sent) never adds chip cycles.
//
// Run control comes from CSRs (docs/usb-protocol.md §7): scalarCoreRunControl 0 idle, 1 run,
// 2 halt, 3 single-step (each write steps one packet); scalarCoreRunStatus 0 idle, 1 run,
// 2 single-step, 3 halting, 4 halted; currentPc; scalarCoreBreakPoint = (pc << 1) | 1; the scalar
// and predicate register files and a scalar-memory port. A halt takes effect at the end of the
// current engine call (at most one quantum). The core also stops while the GCB sleeps
// (scu_ctrl_3 force_sleep = 3), after a fault, and at ChipConfig::cycleLimit cycles per run.
//
// Resets requested from outside (CSR hooks run while the simulation is paused) are performed by
// the core's own thread: it unwinds out of the engine first, so engine state is never changed
// under a suspended engine call.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <systemc>

#include "models/chip/block_interfaces.h"
#include "models/chip/chip_ports.h"
#include "models/chip/run_record.h"
#include "models/chip_config.h"
#include "models/csr/csr_block.h"
#include "models/scalar/scalar_engine.h"
#include "traces/trace_event.h"

namespace coralsim::models {

// scalarCoreRunControl / scalarCoreRunStatus values (hardware_structures.h RunControl/RunStatus).
namespace run_control {
inline constexpr uint64_t kIdle = 0;
inline constexpr uint64_t kRun = 1;
inline constexpr uint64_t kHalt = 2;
inline constexpr uint64_t kSingleStep = 3;
}  // namespace run_control
namespace run_status {
inline constexpr uint64_t kIdle = 0;
inline constexpr uint64_t kRun = 1;
inline constexpr uint64_t kSingleStep = 2;
inline constexpr uint64_t kHalting = 3;
inline constexpr uint64_t kHalted = 4;
}  // namespace run_status

class ScalarCore : public sc_core::sc_module,
                   public ChipClockIf,
                   public ScalarMemoryIf,
                   private ScalarCoreHost,
                   private ScalarTraceHook {
 public:
  SC_HAS_PROCESS(ScalarCore);

  sc_core::sc_port<InstructionFetchIf> instructions;
  sc_core::sc_port<DescriptorSinkIf> descriptors;
  sc_core::sc_port<OutfeedIf> outfeed;
  sc_core::sc_port<InfeedIf> infeed;
  sc_core::sc_port<TileDispatchIf> tiles;
  sc_core::sc_port<FaultSinkIf> faults;
  sc_core::sc_port<DatapathIf> datapath;

  // Engine cycles per call when nothing else makes it return: bounds how late a halt request is
  // seen (65,536 cycles = 131 us at 500 MHz).
  static constexpr uint64_t kQuantumCycles = 65'536;

  ScalarCore(const sc_core::sc_module_name& name, CsrBlock& csrs);

  // Requests, from outside the core's thread; performed before the next simulated instant ends.
  void requestPowerOnReset(const ChipConfig& config);
  void requestGcbReset();
  // The GCB sleeps while scu_ctrl_3 force_sleep == 3 (true at power-on).
  void setSleeping(bool sleeping);

  // The chip clock: cycles since power-on, advanced only by modelled costs.
  [[nodiscard]] uint64_t cycles() const override;
  [[nodiscard]] const std::vector<RunRecord>& runs() const { return runs_; }
  // ChipClockIf: run boundaries for the bridge's device clock.
  [[nodiscard]] uint64_t runsBegun() const override { return runs_.size(); }
  [[nodiscard]] bool runInProgress() const override { return runActive_; }

  // ScalarMemoryIf: the datapath's writes into data memory (a nested outfeed to scalar memory).
  void writeDataWords(uint32_t firstWord, std::span<const uint32_t> words, uint64_t cycle) override;
  [[nodiscard]] uint64_t runStatus() const;
  [[nodiscard]] uint32_t pc() const;
  [[nodiscard]] const ScalarEngine& engine() const { return *engine_; }

  // VCD signals (sc_trace, before the simulation starts): <prefix>.cycle (chip cycle SystemC time
  // was last brought up to), .run_active, .run_control, .sleeping, .faulted, .chunks_in_run.
  void traceSignals(sc_core::sc_trace_file* file, const std::string& prefix) const;

 private:
  enum class ResetRequest : uint8_t { kNone, kGcb, kPowerOn };
  struct ResetUnwind {};  // thrown out of waits when a reset request arrives

  void thread();
  void applyPendingReset();
  void runLoop();
  [[nodiscard]] bool mayExecute() const;
  [[nodiscard]] bool needsChunk() const;
  void loadChunk(InstructionChunk chunk);
  void executeSome();
  void beginRun();
  void finishRun();
  void stopOnFault(FaultKind kind, const std::string& text);
  // Something hardware tolerates but a program should not do (docs/refusal-rules.md): recorded
  // in the run's RunRecord::notes and, when tracing, as an instant event. Never fatal.
  void noteOddity(std::string text);
  void closeRunRecord();

  // Time.
  [[nodiscard]] uint64_t now() const { return cycles(); }
  [[nodiscard]] uint64_t budget() const;
  void syncTo(uint64_t cycle, bool interruptible = false);
  void stallUntil(uint64_t cycle);
  void waitHost(const sc_core::sc_event& event);
  void throwIfReset() const;
  void waitInfeedSatisfied();

  // ScalarCoreHost
  void pushDescriptor(const Descriptor& descriptor, uint64_t cycle) override;
  void streamWord(uint32_t word, uint64_t cycle) override;
  void issuePacket(const DecodedPacket& packet, uint64_t cycle) override;

  void registerCsrHooks();

  // Tracing (ChipConfig::tracer): run spans, chunk and descriptor events, executed packets.
  [[nodiscard]] bool tracingEvents() const;
  void traceInstant(traces::TraceUnit unit, std::string name, uint64_t cycle,
                    std::vector<traces::TraceArg> args) const;
  void packetExecuted(const DecodedPacket& packet, uint64_t cycle, const std::array<uint32_t, 32>& scalarBefore,
                      const std::array<bool, 8>& predicateBefore) override;

  CsrBlock& csrs_;
  ChipConfig config_;
  sc_core::sc_time period_;
  std::unique_ptr<ScalarEngine> engine_;
  uint64_t extraCycles_ = 0;   // stall cycles on top of the engine's clock
  uint64_t syncedCycle_ = 0;   // chip cycle SystemC time was last brought up to

  // Run control state (written by CSR hooks, read by the thread).
  uint64_t runControl_ = run_control::kIdle;
  bool stepPending_ = false;
  bool stepping_ = false;
  bool breakHalted_ = false;   // stopped at the breakpoint; run or step resumes
  bool parked_ = true;         // between packets (not inside an engine call)
  bool faulted_ = false;
  bool sleeping_ = true;
  std::optional<uint32_t> breakpoint_;
  ResetRequest resetRequest_ = ResetRequest::kNone;
  std::optional<ChipConfig> pendingConfig_;

  // Runs.
  bool runActive_ = false;
  uint64_t chunksInRun_ = 0;
  std::vector<RunRecord> runs_;

  sc_core::sc_event wake_;   // any change of run control, sleep or reset
  sc_core::sc_event reset_;  // reset requests only: aborts a time synchronisation
};

}  // namespace coralsim::models

// ScalarEngine: the functional scalar core of Beagle — VLIW bundle semantics, predicates, branches,
// hardware loops, HALT forms, descriptor and stream-out stores (docs/isa.md §3) — as plain C++.
//
// Why a plain class under the SystemC module (models/chip/scalar_core.h): the core must run
// ≥ 50 M bundles/s, far above what one SystemC wait() per bundle allows. The module runs the engine
// in a tight loop with temporal decoupling: the engine counts cycles locally and the module only
// synchronises with the kernel where the core touches the outside world (the ScalarCoreHost
// callbacks below, which may block in SystemC time) or when its quantum runs out.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/scalar/decoded_program.h"
#include "units/units.h"

namespace coralsim::models {

// A fault the hardware would raise on the fatal-error interrupt (bad memory address, unknown
// opcode under strict decoding, branch into a packet payload, runaway program, ...). The message
// names the PC (in 16-byte words), the word and what was wrong.
class ScalarFault : public std::runtime_error {
 public:
  ScalarFault(uint32_t pc, const std::string& what)
      : std::runtime_error(what), pc_(pc) {}
  [[nodiscard]] uint32_t pc() const { return pc_; }

 private:
  uint32_t pc_;
};

struct Descriptor {
  uint64_t address = 0;
  uint32_t length = 0;
  uint8_t tag = 0;  // low nibble of descriptor word 3
};

// Everything the engine needs from its surroundings. Implementations may block (in SystemC time)
// inside these calls; `cycle` is the engine's local cycle count at the moment of the call, so the
// caller can synchronise its clock first.
class ScalarCoreHost {
 public:
  virtual ~ScalarCoreHost() = default;
  // Store-slot op 6: the 16-byte descriptor {addr_lo, addr_hi, length, tag} leaves the core.
  virtual void pushDescriptor(const Descriptor& descriptor, uint64_t cycle) = 0;
  // Store-slot op 4: one 32-bit word towards the host output stream (4 bytes, little-endian).
  virtual void streamWord(uint32_t word, uint64_t cycle) = 0;
  // Any packet that is not executed by the scalar core itself (tile packets 0x01-0x1a, scalar-side
  // sync/infeed/pop/outfeed 0x24-0x27), in program order.
  virtual void issuePacket(const DecodedPacket& packet, uint64_t cycle) = 0;
};

// Observes every packet the engine executes, for the instruction trace. Off (nullptr) by default:
// then the execution loop pays one predictable branch per packet.
class ScalarTraceHook {
 public:
  virtual ~ScalarTraceHook() = default;
  // After `packet` executed (issued at `cycle`); `scalarBefore` / `predicateBefore` are the
  // register files before it, so the hook can tell which registers it wrote.
  virtual void packetExecuted(const DecodedPacket& packet, uint64_t cycle, const std::array<uint32_t, 32>& scalarBefore,
                              const std::array<bool, 8>& predicateBefore) = 0;
};

struct ScalarState {
  std::array<uint32_t, 32> scalar{};
  std::array<bool, 8> predicate{};
  std::array<uint32_t, 4> descriptorWords{};
  std::vector<uint32_t> memory;  // scalar data memory, in 32-bit words
};

enum class StopReason {
  kFinalHalt,   // HALT 0x10: the executable's run is over
  kChunkEnd,    // HALT 0x04: continue with the next instruction chunk, state kept
  kBreakpoint,  // PC reached the breakpoint (before executing it)
  kBudget,      // the cycle budget of this call ran out (quantum end or single step)
};

class ScalarEngine {
 public:
  explicit ScalarEngine(uint32_t memoryWords);

  // Starts executing `program` at word 1 (after START). Registers, predicates, descriptor words
  // and memory are kept: instruction chunks continue one logical program (docs/isa.md §2.1).
  void load(std::shared_ptr<const DecodedProgram> program);
  [[nodiscard]] bool loaded() const { return program_ != nullptr; }

  // Executes until a stop reason. `cycleBudget` bounds the cycles spent in this call (a packet
  // that starts within the budget completes). Throws ScalarFault.
  //
  // Details (models/scalar/scalar_engine.cc has the semantics, README the choices):
  // - the `cycle` passed to a ScalarCoreHost callback is cycles() at the issue of the packet
  //   making the call; the packet's cost is added when it completes;
  // - after a HALT the engine stays halted at the HALT's PC; run()/step() return the same reason
  //   again (no cycles) until the next load();
  // - a fault leaves pc() at the faulting packet, with none of that packet's effects applied;
  // - calling run()/step() with no program loaded is a programming error (std::logic_error).
  StopReason run(units::Cycles cycleBudget, ScalarCoreHost& host);
  // Executes exactly one packet (one bundle, one loop iteration's bundle, one tile packet, ...),
  // also when the breakpoint sits on it. Returns kBudget, or the HALT's reason.
  StopReason step(ScalarCoreHost& host);

  // Clears all architectural state (chip reset): registers, predicates, descriptor words, memory
  // (zeroed, size kept), PC, loop state and the loaded program. The cycle and bundle counters are
  // the engine's local clock and keep counting (a caller synchronising by differences never sees
  // them go backwards); the breakpoint is a CSR mirror owned by the caller and is kept.
  void reset();

  void setBreakpoint(std::optional<uint32_t> pc) { breakpoint_ = pc; }
  void setTraceHook(ScalarTraceHook* hook) { traceHook_ = hook; }
  [[nodiscard]] uint32_t pc() const { return pc_; }
  [[nodiscard]] uint64_t cycles() const { return cycles_; }
  [[nodiscard]] ScalarState& state() { return state_; }
  [[nodiscard]] const ScalarState& state() const { return state_; }
  // Scalar bundles issued (predicated-off ones included; each loop iteration counts its bundles).
  [[nodiscard]] uint64_t bundlesExecuted() const { return bundles_; }
  // The reason of the HALT the engine stopped at, until the next load() or reset().
  [[nodiscard]] std::optional<StopReason> haltReason() const { return halted_; }

 private:
  StopReason execute(uint64_t cycleBudget, ScalarCoreHost& host, bool singleStep);
  void executeBundle(const DecodedPacket& packet, ScalarCoreHost& host);
  [[noreturn]] void fault(const DecodedPacket& packet, const std::string& what) const;

  std::shared_ptr<const DecodedProgram> program_;
  ScalarState state_;
  uint32_t pc_ = 0;  // in 128-bit words
  uint32_t packetIndex_ = 0;  // index of the packet at pc_ in program_->packets()
  uint64_t cycles_ = 0;
  uint64_t bundles_ = 0;
  std::optional<uint32_t> breakpoint_;
  ScalarTraceHook* traceHook_ = nullptr;
  bool resumeAtBreakpoint_ = false;
  std::optional<StopReason> halted_;
  // Active hardware loop (op 0x23): body = packets [bodyStart, bodyEnd) (packet indices),
  // iterations left including the current one.
  struct Loop {
    uint32_t bodyStart = 0;
    uint32_t bodyEnd = 0;
    uint32_t remaining = 0;
  };
  std::optional<Loop> loop_;
};

}  // namespace coralsim::models

// The scalar core's semantics (docs/isa.md §3). Facts come from the doc and the ISA tables in
// models/isa/; the choices this file makes where the doc is silent are marked [choice] and listed
// in models/README.md.
#include "models/scalar/scalar_engine.h"

#include <bit>
#include <cmath>
#include <limits>

#include "models/isa/bundle_syntax.h"
#include "models/isa/number_text.h"
#include "models/timing_model.h"

namespace coralsim::models {

namespace {

using isa::AluKind;
using isa::LoadForm;
using isa::StoreForm;

constexpr uint32_t kNoPacket = DecodedProgram::kNoPacket;
constexpr uint32_t kFirstBodyWord = 1;  // execution starts after START

// ---- Timing: Stage A of docs/isa.md §7 ------------------------------------------------------------
// The one place the core's cost formula lives. A packet costs its length in 128-bit words, in
// cycles, when it issues:
//   scalar bundle                      1 (also when its predicate turns it off)
//   HALT, branch (taken or not), loop  1
//   tile / scalar-side packet          its length L (1..17)
// The hardware loop has zero overhead: each body bundle costs its 1 cycle per iteration and the
// loop word costs 1 once. The constants are kBundleIssueCycles / kIssueCyclesPerPacketWord in
// models/timing_model.h (packetIssueCycles).
constexpr uint64_t issueCycles(const DecodedPacket& packet) { return packetIssueCycles(packet.length); }

float asFloat(uint32_t bits) { return std::bit_cast<float>(bits); }
uint32_t asBits(float value) { return std::bit_cast<uint32_t>(value); }

// F2I: truncation toward zero (docs/isa.md §3.3, [INF]). Out-of-range values saturate and NaN
// gives 0 [choice: what most float units do; C++ leaves the conversion undefined].
uint32_t floatToInt(uint32_t bits) {
  const float f = asFloat(bits);
  if (std::isnan(f)) return 0;
  if (f >= 2147483648.0f) return static_cast<uint32_t>(std::numeric_limits<int32_t>::max());
  if (f < -2147483648.0f) return static_cast<uint32_t>(std::numeric_limits<int32_t>::min());
  return static_cast<uint32_t>(static_cast<int32_t>(f));
}

int32_t asSigned(uint32_t v) { return static_cast<int32_t>(v); }

std::string hex(uint64_t v) { return isa::formatHex(v); }

}  // namespace

ScalarEngine::ScalarEngine(uint32_t memoryWords) { state_.memory.assign(memoryWords, 0); }

void ScalarEngine::load(std::shared_ptr<const DecodedProgram> program) {
  if (!program) throw std::invalid_argument("ScalarEngine::load: no program");
  const uint32_t first = program->packetIndexAt(kFirstBodyWord);
  // A strictly segmented chunk always has a packet at word 1 (START is one word and HALT, the
  // drain NOPs and END follow it); DecodedProgram guarantees the frame.
  if (first == kNoPacket) throw std::invalid_argument("ScalarEngine::load: the chunk has no packet at word 1");
  program_ = std::move(program);
  packetIndex_ = first;
  pc_ = kFirstBodyWord;
  loop_.reset();
  halted_.reset();
  resumeAtBreakpoint_ = false;
}

void ScalarEngine::reset() {
  const size_t memoryWords = state_.memory.size();
  state_ = ScalarState{};
  state_.memory.assign(memoryWords, 0);
  program_.reset();
  pc_ = 0;
  packetIndex_ = 0;
  loop_.reset();
  halted_.reset();
  resumeAtBreakpoint_ = false;
}

StopReason ScalarEngine::run(units::Cycles cycleBudget, ScalarCoreHost& host) {
  return execute(cycleBudget.value(), host, /*singleStep=*/false);
}

StopReason ScalarEngine::step(ScalarCoreHost& host) {
  // Every packet costs at least one cycle, so a budget of 1 runs exactly one packet.
  return execute(1, host, /*singleStep=*/true);
}

void ScalarEngine::fault(const DecodedPacket& packet, const std::string& what) const {
  throw ScalarFault(packet.pc, "scalar core fault at " + describePacketLocation(packet.pc, packet.words[0]) +
                                   ": " + what);
}

// One scalar bundle (docs/isa.md §3.2-§3.5). VLIW: every slot reads the state from before the
// bundle; all checks come first, so a faulting bundle has no effect at all; the writes commit at
// the end. When two slots write the same register the later one in this order wins [choice]:
// ALU result, load result, load post-increment, store post-increment.
void ScalarEngine::executeBundle(const DecodedPacket& packet, ScalarCoreHost& host) {
  const BundleExec& b = packet.exec;
  std::array<uint32_t, 32>& s = state_.scalar;
  if (b.condition.gated && state_.predicate[b.condition.pred] != b.condition.polarity) return;

  // ---- read phase ----
  uint32_t aluValue = 0;
  if (b.alu != AluKind::None) {
    const uint32_t a = s[b.aluSrcA];
    const uint32_t src = b.aluImmediate ? b.aluSrc : s[b.aluSrc];
    const unsigned shift = src & 31u;  // shifts use src & 31 (docs/isa.md §3.3)
    switch (b.alu) {
      case AluKind::Add: aluValue = a + src; break;  // unsigned: wraps mod 2^32
      case AluKind::Sub: aluValue = a - src; break;
      case AluKind::And: aluValue = a & src; break;
      case AluKind::Or: aluValue = a | src; break;
      case AluKind::Xor: aluValue = a ^ src; break;
      case AluKind::Shl: aluValue = a << shift; break;
      case AluKind::Shr: aluValue = a >> shift; break;
      case AluKind::Sar: aluValue = static_cast<uint32_t>(asSigned(a) >> shift); break;
      case AluKind::CmpEq: aluValue = a == src; break;
      case AluKind::CmpNe: aluValue = a != src; break;
      case AluKind::CmpGt: aluValue = asSigned(a) > asSigned(src); break;
      case AluKind::CmpLt: aluValue = asSigned(a) < asSigned(src); break;
      case AluKind::CmpGe: aluValue = asSigned(a) >= asSigned(src); break;
      case AluKind::CmpGeu: aluValue = a >= src; break;
      case AluKind::Mov: aluValue = src; break;
      case AluKind::I2F: aluValue = asBits(static_cast<float>(asSigned(src))); break;
      case AluKind::F2I: aluValue = floatToInt(src); break;
      case AluKind::FAdd: aluValue = asBits(asFloat(a) + asFloat(src)); break;
      case AluKind::FSub: aluValue = asBits(asFloat(a) - asFloat(src)); break;
      case AluKind::FMul: aluValue = asBits(asFloat(a) * asFloat(src)); break;
      // IEEE maxNum/minNum: a NaN operand yields the other one [choice].
      case AluKind::FMax: aluValue = asBits(std::fmax(asFloat(a), asFloat(src))); break;
      case AluKind::FMin: aluValue = asBits(std::fmin(asFloat(a), asFloat(src))); break;
      case AluKind::None:
      case AluKind::Unknown:
        fault(packet, "ALU op " + hex(packet.bundle.aluOp) + " (" + isa::aluMnemonic(packet.bundle.aluOp) +
                          ") has no known semantics");
    }
  }

  const size_t memoryWords = state_.memory.size();
  uint32_t loadValue = 0;
  if (b.load != LoadForm::None) {
    const uint32_t address = b.load == LoadForm::Absolute ? b.loadAddress : s[b.loadReg];
    if (address >= memoryWords) {
      fault(packet, "load from word address " + hex(address) +
                        (b.load == LoadForm::Absolute ? std::string() : " (s" + std::to_string(b.loadReg) + ")") +
                        " outside scalar memory (" + std::to_string(memoryWords) + " words)");
    }
    loadValue = state_.memory[address];
  }

  uint32_t storeAddress = 0;
  switch (b.store) {
    case StoreForm::None:
    case StoreForm::Stream:
    case StoreForm::DescWord:
    case StoreForm::DescPush:
      break;
    case StoreForm::Absolute:
    case StoreForm::Indirect:
    case StoreForm::IndirectPostInc:
      storeAddress = b.store == StoreForm::Absolute ? b.storeAddress : s[b.storeReg];
      if (storeAddress >= memoryWords) {
        fault(packet, "store to word address " + hex(storeAddress) +
                          (b.store == StoreForm::Absolute ? std::string() : " (s" + std::to_string(b.storeReg) + ")") +
                          " outside scalar memory (" + std::to_string(memoryWords) + " words)");
      }
      break;
    case StoreForm::Unknown:
      fault(packet, "store-slot op " + std::to_string(packet.bundle.storeOp) + " has no known semantics");
  }

  // ---- effects towards the host (they read the pre-bundle state) ----
  if (b.store == StoreForm::Stream) {
    host.streamWord(s[b.storeSrc], cycles_);
  } else if (b.store == StoreForm::DescPush) {
    const auto& d = state_.descriptorWords;
    host.pushDescriptor(Descriptor{(uint64_t{d[1]} << 32) | d[0], d[2], static_cast<uint8_t>(d[3] & 0xFu)}, cycles_);
  }

  // ---- commit phase ----
  const uint32_t storeValue = s[b.storeSrc];
  const uint32_t loadPostInc = s[b.loadReg] + b.loadIncrement;
  const uint32_t storePostInc = s[b.storeReg] + b.storeIncrement;
  if (b.alu != AluKind::None) {
    if (b.aluWritesPredicate) {
      state_.predicate[b.aluDest] = aluValue != 0;
    } else {
      s[b.aluDest] = aluValue;
    }
  }
  if (b.load != LoadForm::None) {
    s[b.loadDest] = loadValue;
    if (b.load == LoadForm::IndirectPostInc) s[b.loadReg] = loadPostInc;
  }
  switch (b.store) {
    case StoreForm::Absolute:
    case StoreForm::Indirect:
      state_.memory[storeAddress] = storeValue;
      break;
    case StoreForm::IndirectPostInc:
      state_.memory[storeAddress] = storeValue;
      s[b.storeReg] = storePostInc;
      break;
    case StoreForm::DescWord:
      state_.descriptorWords[b.descIndex] = storeValue;
      break;
    default:
      break;
  }
}

StopReason ScalarEngine::execute(uint64_t cycleBudget, ScalarCoreHost& host, bool singleStep) {
  if (!program_) throw std::logic_error("ScalarEngine: run() or step() without a loaded program");
  if (halted_) return *halted_;

  const DecodedPacket* const packets = program_->packets().data();
  const uint64_t limit = cycleBudget > std::numeric_limits<uint64_t>::max() - cycles_
                             ? std::numeric_limits<uint64_t>::max()
                             : cycles_ + cycleBudget;
  // A breakpoint on a payload word or outside the chunk never matches.
  const uint32_t breakIndex = breakpoint_ ? program_->packetIndexAt(*breakpoint_) : kNoPacket;
  uint32_t index = packetIndex_;
  uint32_t loopEnd = loop_ ? loop_->bodyEnd : kNoPacket;
  // The packet we stopped at for the breakpoint runs when execution resumes.
  bool skipBreakpoint = singleStep || (resumeAtBreakpoint_ && index == breakIndex);
  resumeAtBreakpoint_ = false;

  // Instruction trace (traceHook_ set): the packet in flight and the register files before it.
  struct TraceBefore {
    const DecodedPacket* packet;
    uint64_t cycle;
    std::array<uint32_t, 32> scalar;
    std::array<bool, 8> predicate;
  };
  std::optional<TraceBefore> traceBefore;

  auto stopAt = [&](StopReason reason) {
    packetIndex_ = index;
    pc_ = packets[index].pc;
    return reason;
  };

  try {
    for (;;) {
      if (cycles_ >= limit) return stopAt(StopReason::kBudget);
      if (index == breakIndex && !skipBreakpoint) {
        resumeAtBreakpoint_ = true;
        return stopAt(StopReason::kBreakpoint);
      }
      skipBreakpoint = false;

      const DecodedPacket& p = packets[index];
      if (traceHook_ != nullptr) [[unlikely]] {
        // HALT returns from inside the switch: report it before it executes.
        if (p.action == PacketAction::kHalt) traceHook_->packetExecuted(p, cycles_, state_.scalar, state_.predicate);
        else traceBefore.emplace(TraceBefore{&p, cycles_, state_.scalar, state_.predicate});
      }
      switch (p.action) {
        case PacketAction::kBundle:
          executeBundle(p, host);
          cycles_ += issueCycles(p);
          ++bundles_;
          if (++index == loopEnd) {
            if (--loop_->remaining != 0) {
              index = loop_->bodyStart;
            } else {
              loop_.reset();
              loopEnd = kNoPacket;
            }
          }
          break;

        case PacketAction::kIssue:
          host.issuePacket(p, cycles_);
          cycles_ += issueCycles(p);
          ++index;
          break;

        case PacketAction::kBranch: {
          // Condition coded like bundle predication; no delay slot (docs/isa.md §3.6).
          const Condition& c = p.branchCondition;
          const bool taken = !c.gated || state_.predicate[c.pred] == c.polarity;
          if (taken && p.branchTarget == kNoPacket) {
            fault(p, "branch target word " + hex(p.branchTargetWord) + " (offset " + std::to_string(p.branchOffset) +
                         ") is not the start of a packet of this chunk");
          }
          cycles_ += issueCycles(p);
          index = taken ? p.branchTarget : index + 1;
          break;
        }

        case PacketAction::kLoop:
          // Repeat the next B packets N times (docs/isa.md §3.6). The body must be B scalar
          // bundles; a loop (nested loop), branch or any other packet inside it is a fault.
          if (p.loopBadPacket != kNoPacket) {
            const size_t count = program_->packets().size();
            fault(p, "hardware loop body of " + std::to_string(p.loopBody) + " packets: " +
                         (p.loopBadPacket < count
                              ? "the packet at PC 0x" + isa::formatAddress(packets[p.loopBadPacket].pc) + " (" +
                                    std::string(isa::opcodeInfo(packets[p.loopBadPacket].opcode).mnemonic) +
                                    ") is not a scalar bundle"
                              : std::string("it runs past the end of the chunk")));
          }
          cycles_ += issueCycles(p);
          if (p.loopCount == 0 || p.loopBody == 0) {
            // [choice] N = 0 skips the body (the doc leaves it open; never seen in compiled code).
            index += 1u + p.loopBody;
          } else {
            loop_ = Loop{index + 1, index + 1 + p.loopBody, p.loopCount};
            loopEnd = loop_->bodyEnd;
            ++index;
          }
          break;

        case PacketAction::kHalt: {
          if (p.haltKind == HaltKind::kUnknown) {
            fault(p, "HALT kind " + hex(p.haltCode) + " is neither final (0x10) nor chunk end (0x04, 0x00)");
          }
          cycles_ += issueCycles(p);
          const StopReason reason = p.haltKind == HaltKind::kFinal ? StopReason::kFinalHalt : StopReason::kChunkEnd;
          halted_ = reason;
          return stopAt(reason);
        }

        case PacketAction::kFrameStart:
          fault(p, "execution reached START (the frame header is never executed)");

        case PacketAction::kFrameEnd:
          fault(p, "execution reached END (the frame trailer is never executed)");
      }
      if (traceBefore) [[unlikely]] {
        traceHook_->packetExecuted(*traceBefore->packet, traceBefore->cycle, traceBefore->scalar, traceBefore->predicate);
        traceBefore.reset();
      }
    }
  } catch (...) {
    packetIndex_ = index;
    pc_ = packets[index].pc;
    throw;
  }
}

}  // namespace coralsim::models

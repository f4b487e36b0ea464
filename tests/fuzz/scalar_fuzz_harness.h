// What fuzz_scalar_engine does with one input, shared with its replay test: the input's bytes
// become the BODY of a well-framed program (the project's assembler adds START with the right
// length, HALT final, the drain NOPs and END, so the fuzzer spends its time in the executor, not
// in the framing checks the segmenter fuzz target already covers), which then runs on a
// ScalarEngine with a small host and a low cycle budget. The only acceptable endings are a HALT,
// the budget running out, a ScalarFault (the hardware's fatal error) or a ProgramDecodeError
// (strict decoding refused the body). Anything else escapes (a crash under libFuzzer).
#pragma once

#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "models/isa/assembler.h"
#include "models/isa/number_text.h"
#include "models/isa/word128.h"
#include "models/scalar/decoded_program.h"
#include "models/scalar/scalar_engine.h"

namespace coralsim::models::fuzz {

// Body words kept per input: enough for loops, branches and tile packets, small enough to be fast.
inline constexpr size_t kMaxBodyWords = 256;
// Scalar memory of the fuzzed core: smaller than the chip's so out-of-range addresses are common.
inline constexpr uint32_t kMemoryWords = 1024;
// Cycles before the run is stopped (a runaway program is an acceptable ending, a hang is not).
inline constexpr uint64_t kCycleBudget = 200'000;

// A host that only counts: pushes, stream words and packets must keep arriving in finite numbers.
class CountingHost : public ScalarCoreHost {
 public:
  void pushDescriptor(const Descriptor&, uint64_t) override { ++descriptors; }
  void streamWord(uint32_t, uint64_t) override { ++streamWords; }
  void issuePacket(const DecodedPacket&, uint64_t) override { ++packets; }
  uint64_t descriptors = 0;
  uint64_t streamWords = 0;
  uint64_t packets = 0;
};

// Chunk-end HALTs continue the program at most this often (a HALT may cost no cycles).
inline constexpr unsigned kMaxChunks = 64;

enum class ScalarOutcome { kHalted, kBudget, kFault, kDecodeError };

// Frames `data` (padded with zero bytes to whole 16-byte words, at most kMaxBodyWords) as a
// program body and runs it. Returns how it ended, or a property violation as a message.
struct ScalarFuzzResult {
  ScalarOutcome outcome = ScalarOutcome::kDecodeError;
  std::optional<std::string> violation;
};

inline ScalarFuzzResult exerciseScalarProgram(std::span<const uint8_t> data) {
  std::string text = "program {\n";
  const size_t words = std::min((data.size() + isa::Word128::kBytes - 1) / isa::Word128::kBytes, kMaxBodyWords);
  for (size_t w = 0; w < words; ++w) {
    uint8_t bytes[isa::Word128::kBytes] = {};
    for (size_t b = 0; b < isa::Word128::kBytes && w * isa::Word128::kBytes + b < data.size(); ++b) {
      bytes[b] = data[w * isa::Word128::kBytes + b];
    }
    text += ".word " + isa::formatWordHex(isa::Word128::fromBytes(bytes)) + "\n";
  }
  text += "}\n";
  // Our own text: an AsmError here is a bug of the harness or the assembler, so it escapes.
  const isa::AssembledProgram framed = isa::assemble(text, "fuzz_scalar_engine");

  ScalarFuzzResult result;
  std::shared_ptr<const DecodedProgram> program;
  try {
    program = DecodedProgram::fromWords(framed.words);
  } catch (const ProgramDecodeError&) {
    result.outcome = ScalarOutcome::kDecodeError;
    return result;
  }
  ScalarEngine engine(kMemoryWords);
  CountingHost host;
  engine.load(program);
  try {
    // Chunk ends continue the same program (as the next chunk would); the budget bounds the total.
    uint64_t spent = 0;
    for (unsigned chunk = 0;; ++chunk) {
      const uint64_t before = engine.cycles();
      const StopReason reason = engine.run(kCycleBudget - spent, host);
      spent += engine.cycles() - before;
      if (reason == StopReason::kFinalHalt) {
        result.outcome = ScalarOutcome::kHalted;
        break;
      }
      if (reason == StopReason::kChunkEnd) {
        if (spent >= kCycleBudget || chunk >= kMaxChunks) {
          result.outcome = ScalarOutcome::kBudget;
          break;
        }
        engine.load(program);
        continue;
      }
      if (reason == StopReason::kBudget) {
        result.outcome = ScalarOutcome::kBudget;
        break;
      }
      result.violation = "the engine stopped at a breakpoint nobody set";
      return result;
    }
  } catch (const ScalarFault& fault) {
    result.outcome = ScalarOutcome::kFault;
    if (std::string(fault.what()).empty()) result.violation = "a ScalarFault without a message";
    return result;
  }
  // A run that ended without a fault must have kept within the budget (plus one packet's cost).
  if (engine.cycles() > kCycleBudget + 1'000'000) result.violation = "the cycle budget was not honoured";
  return result;
}

}  // namespace coralsim::models::fuzz

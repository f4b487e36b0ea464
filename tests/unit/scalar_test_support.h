// Shared helpers of the scalar-core unit tests: assemble a program with the project's assembler,
// run it on a ScalarEngine and record everything the core hands to its host.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "models/isa/assembler.h"
#include "models/scalar/decoded_program.h"
#include "models/scalar/scalar_engine.h"

namespace coralsim::models::testing {

struct IssuedPacket {
  uint32_t pc = 0;
  isa::Opcode opcode{};
  uint64_t cycle = 0;
  bool tilePacket = false;
  uint16_t tileMask = 0;
  uint32_t tileSequence = 0;
};

class RecordingHost : public ScalarCoreHost {
 public:
  void pushDescriptor(const Descriptor& d, uint64_t cycle) override {
    descriptors.push_back(d);
    descriptorCycles.push_back(cycle);
  }
  void streamWord(uint32_t word, uint64_t cycle) override {
    stream.push_back(word);
    streamCycles.push_back(cycle);
  }
  void issuePacket(const DecodedPacket& p, uint64_t cycle) override {
    issued.push_back(IssuedPacket{p.pc, p.opcode, cycle, p.tilePacket, p.tileMask, p.tileSequence});
  }

  std::vector<Descriptor> descriptors;
  std::vector<uint64_t> descriptorCycles;
  std::vector<uint32_t> stream;
  std::vector<uint64_t> streamCycles;
  std::vector<IssuedPacket> issued;
};

// Assembles `text` (a whole program: use program { } or write START ... END).
inline std::shared_ptr<const DecodedProgram> assembleProgram(std::string_view text) {
  return DecodedProgram::fromWords(isa::assemble(text, "test.s").words);
}

// Wraps `body` in "program { }" (START, body, HALT final, 4 NOPs, END) and assembles it.
inline std::shared_ptr<const DecodedProgram> programWithBody(std::string_view body) {
  return assembleProgram("program {\n" + std::string(body) + "\n}\n");
}

// The word index of label `name` in an assembled text.
inline uint32_t labelAddress(std::string_view text, const std::string& name) {
  const isa::AssembledProgram p = isa::assemble(text, "test.s");
  return p.labels.at(name);
}

// Runs `body` (inside program { }) on `engine` until it stops; the budget guards against hangs.
inline StopReason runBody(ScalarEngine& engine, RecordingHost& host, std::string_view body,
                          uint64_t budget = 1'000'000) {
  engine.load(programWithBody(body));
  return engine.run(budget, host);
}

// The message of the ScalarFault `f` throws; fails the test when it throws nothing else.
template <typename F>
std::string faultMessage(F&& f) {
  try {
    std::forward<F>(f)();
  } catch (const ScalarFault& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected a ScalarFault";
  return {};
}

}  // namespace coralsim::models::testing

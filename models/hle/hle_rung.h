// HleRung: the `hle` rung of the datapath ladder (models/chip/datapath_rung.h). It recognises the
// run's program by its instruction chunks (models/hle/program_registry.h: hashes with the linked
// address fields masked), and when the outfeed asks for the first output window it reads the run's
// input stream, computes the custom op's outputs with the registered CPU twin and the reference
// kernels, and serves them window by window in the device's own byte order: uint8 on the wire
// (int8 values XOR 0x80) and tile-major where the executable's OutputLayout says so. Bytes the
// program put in a window through scalar stream words are overwritten too (the control plane does
// not compute them). Programs that stream (output bands before all input is in) are recomputed as
// input arrives. Packets are not interpreted: timing and the control plane come from the program.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "models/chip/datapath_rung.h"
#include "models/hle/program_registry.h"

namespace coralsim::models {

class HleRung final : public DatapathRung {
 public:
  explicit HleRung(std::shared_ptr<const hle::ProgramRegistry> registry);

  [[nodiscard]] ExecutionMode rung() const override { return ExecutionMode::kHle; }
  void reset() override;
  void beginRun() override;
  void packet(const DecodedPacket& packet, const RunStreams& streams, uint64_t cycle) override;
  [[nodiscard]] std::vector<uint8_t> windowTail(unsigned window, uint32_t windowLength, uint32_t streamedBytes,
                                                const RunStreams& streams) override;
  void overwriteStreamedHead(unsigned window, std::span<uint8_t> head) override;
  void endRun() override {}

 private:
  // Matches the chunk's bytes; the decoded packets are not needed.
  [[nodiscard]] std::string checkChunk(std::span<const uint8_t> chunk, const DecodedProgram* decoded) override;

  // The executable the run's chunks identify: one whose whole chunk list was seen, else the first
  // that is still a candidate (the registry's order decides between identical programs).
  [[nodiscard]] hle::ExecutableRef chosen() const;
  void compute(const RunStreams& streams);

  std::shared_ptr<const hle::ProgramRegistry> registry_;
  size_t chunks_ = 0;
  std::vector<hle::ExecutableRef> candidates_;
  std::vector<uint8_t> stream_;  // the run's whole output stream, device order
  bool computed_ = false;
  bool inputComplete_ = false;  // the last compute saw every input byte the layers need
  size_t computedWith_ = 0;     // input stream bytes the last compute saw
  size_t inputNeeded_ = 0;
  size_t cursor_ = 0;           // output stream bytes the earlier windows covered
  size_t windowStart_ = 0;      // where the current window starts in the output stream
  std::string where_;           // "PROGRAM LABEL" of the recognised executable, for messages
};

// The hle rung for `config`; nullptr when it cannot run (no registered programs). The chip gets it
// through RungFactories (models/beagle.cc), never by name.
[[nodiscard]] std::unique_ptr<DatapathRung> makeHleRung(const ChipConfig& config);

}  // namespace coralsim::models

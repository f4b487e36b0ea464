// Datapath: the ladder of datapath rungs (docs/ARCHITECTURE.md §3) as one chip block.
//
// Selection, per executable run:
//   lle, hle   strict: that rung computes the run; a chunk it cannot compute, or a packet it does
//              not model, is a chip fault (FaultKind::kUnsupported) naming opcode, PC and word.
//   protocol   no rung: the outfeed sends fillers flagged "not computed".
//   auto       every available rung follows the run; a rung that declines a chunk or meets a packet
//              it does not model is dropped for the rest of the run (the reason is kept), and each
//              window's tail comes from the highest rung still standing (lle above hle), else
//              from the protocol rung. The run's RungReport names the lowest rung that produced
//              any of its windows and why the higher ones were dropped.
// A rung's state survives runs (parameter caching) and is cleared by power-on and GCB reset.
//
// Cost model: 0 chip cycles. The datapath computes functionally when packets issue; the time
// those packets take is the tiles' and DMA engines' cost models (models/chip/tile.h, infeed.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <systemc>

#include "models/chip/block_interfaces.h"
#include "models/chip/datapath_rung.h"

namespace coralsim::models {

class Datapath : public sc_core::sc_module, public DatapathIf, private RunStreams {
 public:
  sc_core::sc_port<InfeedIf> infeed;
  // Where the computing rung's scalar-memory writes go (the scalar core).
  sc_core::sc_port<ScalarMemoryIf> scalarMemory;

  // `rungs`: the implementations configure() may build (the chip does not link them itself).
  Datapath(const sc_core::sc_module_name& name, RungFactories rungs);

  // Power-on: builds the rungs `config` asks for. Throws std::invalid_argument when a strict mode
  // names a rung that cannot run with this configuration (hle without registered programs).
  void configure(const ChipConfig& config);
  // Power-on or GCB reset: every rung forgets its state.
  void reset();

  // DatapathIf (scalar core, outfeed)
  void beginRun() override;
  void instructionChunk(std::span<const uint8_t> chunk, const DecodedProgram& program, uint64_t cycle) override;
  void packet(const DecodedPacket& packet, uint64_t cycle) override;
  [[nodiscard]] std::vector<uint8_t> windowTail(uint32_t windowLength, std::span<uint8_t> streamedHead,
                                                uint64_t cycle) override;
  [[nodiscard]] RungReport endRun() override;

  [[nodiscard]] ExecutionMode requestedMode() const { return mode_; }

 private:
  struct Candidate {
    std::unique_ptr<DatapathRung> rung;
    bool standing = true;  // still following the current run
  };

  // RunStreams
  [[nodiscard]] std::span<const uint8_t> inputBytes() const override;
  [[nodiscard]] std::span<const uint8_t> parameterBytes() const override;

  [[nodiscard]] bool strict() const { return mode_ == ExecutionMode::kLle || mode_ == ExecutionMode::kHle; }
  void drop(Candidate& candidate, const std::string& why);

  RungFactories factories_;
  ExecutionMode mode_ = ExecutionMode::kProtocol;
  std::vector<Candidate> candidates_;  // highest rung first
  unsigned window_ = 0;                // output windows so far in this run
  ExecutionMode lowestUsed_ = ExecutionMode::kLle;
  bool anyWindow_ = false;
  std::string notes_;
  std::vector<std::pair<uint32_t, uint32_t>> undefined_;  // RunRecord::undefinedOutputBytes of this run
};

}  // namespace coralsim::models

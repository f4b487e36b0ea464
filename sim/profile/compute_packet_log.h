// ComputePacketLog: the compute packets a run executed, rebuilt from the chip's trace events
// (traces/trace_event.h), so the profile needs no hook inside the chip model. The tile dispatcher
// sends one packet to every tile of its mask; each tile records a span for it with the packet's
// pc and issue cycle, so the spans of one packet share (issue cycle, pc). The scalar core records
// one "run N" span per executable run, which splits the packets by run.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "traces/trace_event.h"
#include "units/units.h"

namespace coralsim::sim {

struct ComputePacket {
  uint64_t issueCycle = 0;  // when the scalar core issued it
  uint32_t pc = 0;          // word index in its instruction chunk
  std::string mnemonic;     // tile.compute, tile.compute02, ...
  uint32_t tiles = 0;       // how many tiles executed it (the tiles of its mask)
  uint64_t start = 0;       // first tile start .. last tile end (chip cycles)
  uint64_t end = 0;
  uint64_t cycles = 0;      // the cost model's cycles for one tile (the tiles run it in parallel)
  // Loop iterations over all its tiles: (cycles - fixed packet cost) / cycles per iteration, summed
  // over the tiles, i.e.
  // (K groups) x (output positions) per tile (models/chip/cost_model.h). One iteration is one
  // 4-byte reduction group at one output position on a tile's 64 MAC cells, so x 256 = MACs.
  uint64_t iterations = 0;
  // A compute whose epilogue leaves the accumulator as it is (models/chip/pass_through_compute.h: no
  // clamp, multiplier 1, zero points 0): no layer's output, so none of its iterations are a layer's MACs.
  bool passThrough = false;
};

struct RunSpan {
  uint64_t start = 0;
  uint64_t end = 0;
};

class ComputePacketLog final : public traces::TraceSink {
 public:
  // TimingModel::computePacketCycles and macCyclesPerIteration of the simulated chip: a compute
  // span lasts fixed + perIteration x iterations (models/chip/cost_model.h).
  ComputePacketLog(units::Cycles fixedPacketCycles, units::Cycles cyclesPerIteration)
      : fixed_(fixedPacketCycles.value()),
        perIteration_(cyclesPerIteration == 0 ? 1 : cyclesPerIteration.value()) {}

  void record(const traces::TraceEvent& event) override;

  // The compute packets issued within [start, end), in issue order.
  [[nodiscard]] std::vector<ComputePacket> packetsIn(const RunSpan& run) const;
  // The executable runs, in the order they ran.
  [[nodiscard]] const std::vector<RunSpan>& runs() const { return runs_; }

 private:
  uint64_t fixed_;
  uint64_t perIteration_;
  std::map<std::pair<uint64_t, uint32_t>, ComputePacket> packets_;  // by (issue cycle, pc)
  std::vector<RunSpan> runs_;
};

}  // namespace coralsim::sim

// RunRecord: what one executable run did (from the first chunk after a final HALT or reset up to
// the next final HALT), for `coralsim run --json`, tests and traces.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "models/chip_config.h"

namespace coralsim::models {

struct RunRecord {
  uint64_t startCycle = 0;
  uint64_t endCycle = 0;        // the final HALT's completion; the fault's cycle; 0 while running
  size_t firstDescriptor = 0;   // index of its first descriptor in the chip's descriptor log
  size_t descriptorCount = 0;
  uint64_t chunks = 0;          // instruction chunks executed
  uint64_t outputBytes = 0;     // bytes produced for EP 0x81
  uint64_t notComputedBytes = 0;  // of which fillers the datapath did not compute (protocol rung)
  bool finished = false;        // reached its final HALT
  bool faulted = false;         // stopped on a fatal error
  // The datapath rung that computed the run's outputs (the lowest one any window needed), and why
  // no higher rung did ("" when none was dropped). See models/chip/datapath.h.
  ExecutionMode rung = ExecutionMode::kProtocol;
  std::string rungNote;
  // Oddities the device tolerated the way hardware does (docs/refusal-rules.md): a tile packet
  // addressed to no tile, a HALT without its drain NOPs, ... Bounded: at most kMaxNotes texts,
  // the rest only counted in notesDropped.
  static constexpr size_t kMaxNotes = 32;
  std::vector<std::string> notes;
  uint64_t notesDropped = 0;
  // Output bytes the datapath computed from memory no packet wrote (docs/decoding-log.md "raw25"): their values are
  // whatever the memory held, so they are reported undefined, never compared. (output window of the run, byte offset in it).
  std::vector<std::pair<uint32_t, uint32_t>> undefinedOutputBytes;

  [[nodiscard]] uint64_t cycles() const { return endCycle > startCycle ? endCycle - startCycle : 0; }
};

}  // namespace coralsim::models

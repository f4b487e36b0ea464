// What a 0x14 staging write says comes next on its tiles (lle_fields.def Stage14FeedsCompute;
// docs/decoding-log.md "stride" §B): with w4 bit 101 set the staged bytes are a compute's -- the
// next packet on each of its tiles (fences skipped: a fence moves no data) is a compute, or in nine
// corpus writes a mesh 0x18, never a 0x11 receive; with it clear that packet is never a compute. A
// packet that breaks the rule is refused naming the field, the tile and both PCs, so the bit's
// meaning is checked wherever it is read rather than assumed. A compute-feeding write's w5[14:0]
// (Stage14SplitPassPairs, "ring128") is checked against that compute the same way: half its split
// reduction's K passes where it walks partial sums, else 0.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "models/isa/word128.h"
#include "models/scalar/decoded_program.h"

namespace coralsim::lle {

class NextPacketWatch {
 public:
  static constexpr unsigned kTiles = 16;

  // Called for every issued packet in program order: "" when it may come where it does, else why not.
  [[nodiscard]] std::string observe(const models::DecodedPacket& packet);
  void clear();

 private:
  struct Expectation {
    uint32_t pc = 0;
    isa::Word128 word0;  // for the location in a refusal
    bool feedsCompute = false;
    uint64_t splitPassPairs = 0;  // Stage14SplitPassPairs, read where feedsCompute
  };
  std::array<std::optional<Expectation>, kTiles> expected_;
};

}  // namespace coralsim::lle

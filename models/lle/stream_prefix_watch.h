// What a compute-feeding 0x14 says about the weight stream its compute takes (lle_fields.def
// Stage14StreamPrefix*, Stage14RingStream; docs/decoding-log.md "prefix14" §B). Where the packet before it on
// its tiles (fences skipped: a fence moves no data) is a stream receive with a prefix -- an execution-only
// 0x11 (Recv11PrefixOn) or a 0x12 (Recv12PrefixOn) -- the write stages that stream's prefix: its arrays (or 0)
// with the flag saying it holds them, one prefix a block of output lanes (the receive's levels 2-3 above its K
// parts, or levels 1-3 where level 1 counts blocks: the write says which, docs/decoding-log.md "bias14"), whether
// the stream comes over the weight ring (a 0x12) or from the host (a 0x11), and the prefix's
// run: its parts - 1 (the bias array; the scale / offset pair), ceil(arrays / 2) - 1 of the stream, its wraps
// -run by relation (docs/decoding-log.md "pair14b"). After no prefixed stream and no kept read a write naming blocks
// stages a prefix a block of the compute after it, which must count them (block_prefix_write.h, "nin14"). After a read kept for the compute (a 0x13 routed 0, 0) the
// blocks slot restates the read's level-1 limit and the other four are 0 ("soft14" §A). After any other packet the five fields must be 0. Each is checked wherever it is read, the refusal naming field, tile
// and both PCs; the rung moves no byte for them (a convolution takes its prefix from the parameter rows its
// stream names, conv_compute.h; the rung keeps the blocks the write names as the stream's, which the convolution
// and the stream's feeding pop check, LleRung::takeStreamBlocksFromWrite).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/isa/word128.h"
#include "models/scalar/decoded_program.h"

namespace coralsim::lle {

class StreamPrefixWatch {
 public:
  static constexpr unsigned kTiles = 16;

  // Called for every issued packet in program order: "" when it may come where it does, else why not.
  [[nodiscard]] std::string observe(const models::DecodedPacket& packet);
  void clear();
  // How many writes it took as a prefix a block after no stream (block_prefix_write.h), for the corpus test.
  [[nodiscard]] size_t blockPrefixWrites() const { return blockPrefixWrites_; }

 private:
  struct Previous {
    uint32_t pc = 0;
    uint8_t opcode = 0;
    std::vector<isa::Word128> words;
  };
  std::array<std::optional<Previous>, kTiles> previous_;
  // A write after no stream that staged a prefix a block (block_prefix_write.h): checked against the next compute.
  struct BlockPrefix {
    uint32_t pc = 0;
    uint64_t blocks = 0;
  };
  std::array<std::optional<BlockPrefix>, kTiles> blockPrefix_;
  size_t blockPrefixWrites_ = 0;
};

}  // namespace coralsim::lle

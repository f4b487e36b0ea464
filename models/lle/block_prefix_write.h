// The compute-feeding write that stages a prefix a block for a compute with no weight stream (docs/decoding-log.md
// "nin14"). Where the packet before a compute-feeding 0x14 on its tiles arms no prefixed stream and is no read kept
// for the compute -- a compute (nin_cnn's average pool @ 0x0b1b before 0x0b2e), a 0x19 table, a plain 0x11 / 0x12 --
// the write may still name output blocks (Stage14StreamPrefixBlocks, w1[15:0]): the softmax tails of nin_cnn,
// ensemble and the MobileNet v1 compiles, before the computes that take a bias (ComputeParamPrefix 1) or scale /
// offset prefix (2) and walk their few output positions of one 4-lane unit each (10 classes: 3 positions; 1,001
// classes over 16 tiles: 16 a tile, 11 on the last). Corpus (42 such writes, all with arrays, flag, ring and run 0): the
// write's nest has level 0 over two units, level 1 idle and a level 2 of stride 0 counting blocks + 1 (the block level
// of docs/decoding-log.md "twice14": one block's prefix staged over the last), and the 0x01 next on its tiles counts
// blocks + 1 positions (its output nest's level 2, ComputeOut37Limit2; Nest37 level 3, the w0 nest's level 2, Nest29's
// and the w10 nest's level 1 count the same) and takes a prefix; the 27 other writes after no stream name no block.
// Where the prefixes come from: in the compiles that stream them (ensemble, the co-compiled MobileNet v1 0.25 128 and
// 0.75 192 ones) the packet just before the write on its tiles is a receive of the write's own stream (its tag =
// Stage14FeedTag) that arms no prefixed weight stream -- an execution-only 0x11 or a 0x12 without its nest (36 writes,
// 3 of them naming one block) -- whose run (Recv11ExecRun / Recv12Run) equals the write's blocks - 1 in all 36, and the
// write then names one prefix array with its flag and, after a 0x12, the ring: blocks + 1 eight-byte units, one a
// block, the two 4-byte units the write's level 0 stages. Where the compile caches them (nin_cnn, MobileNet v1 0.25 128
// alone) no receive comes before the write and it names no array (9 writes, after a compute or a 0x19 table).
// Read as: one prefix an output position of the compute, staged where it reads it. What the eight bytes hold is not
// decoded: the rung moves no byte for the write (as for every compute-feeding write) and does not execute the compute
// that takes it; this file checks the shape, the receive and the compute's count.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "models/isa/word128.h"

namespace coralsim::lle {

// "" where the compute-feeding write `words` names no stream (Stage14StreamPrefixArrays, ...On, Stage14RingStream,
// Stage14StreamPrefixRun 0) and its nest's outermost counting level, of stride 0, counts Stage14StreamPrefixBlocks + 1
// over distinct units below it (stage14_block_level.h); else why not, naming the field or level.
[[nodiscard]] std::string blockPrefixWriteProblem(std::span<const isa::Word128> words);

// True where `receive` (a packet of opcode `receiveOpcode`, just before the compute-feeding write `write` on its tiles)
// is a receive of the write's stream arming no prefixed weight stream: the form whose run carries the blocks' prefixes.
[[nodiscard]] bool receivesBlockPrefixes(uint8_t receiveOpcode, std::span<const isa::Word128> receive, std::span<const isa::Word128> write);

// "" where the write after such a receive names one prefix array (Stage14StreamPrefixArrays 1, ...On 1), the ring
// exactly after a 0x12, no run, and blocks - 1 = the receive's run, and where it names more than one block its nest
// stages them as blockPrefixWriteProblem's does; else why not, naming the fields.
[[nodiscard]] std::string blockPrefixAfterReceiveProblem(uint8_t receiveOpcode, std::span<const isa::Word128> receive,
                                                         std::span<const isa::Word128> write);

// "" where `compute`, the 0x01 next on the tiles of a write naming `blocks` (Stage14StreamPrefixBlocks), counts
// blocks + 1 output positions at its output nest's level 2 and takes a prefix, the staged one (ComputeStagedPrefix,
// w12 bit 83); else why not, naming the fields.
[[nodiscard]] std::string blockPrefixComputeProblem(uint64_t blocks, std::span<const isa::Word128> compute);

}  // namespace coralsim::lle

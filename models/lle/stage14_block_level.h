// The block level of a compute-feeding write (docs/decoding-log.md "twice14"): a 0x14 with Stage14FeedsCompute stages
// the prefix of the weight stream its compute takes -- one prefix a block of output lanes (Stage14StreamPrefixBlocks,
// "bias14"; the feeding pop carries one a block) -- and its address nest says where: level 0 over the units of a part,
// a level over the prefix's parts (Stage14StreamPrefixRun + 1: the bias array, the scale / offset pair, "pair14b"),
// one 256-byte row (64 units) a part, and above them a level of stride 0 counting the blocks, every block's prefix
// staged over the units of the last. So a unit written twice is a block's prefix written over the previous block's
// (an overwrite, the compute taking each block's before the next), not an accumulation and not a second address.
// Corpus (scripts/scan_stage14_block_level.py): every compute-feeding 0x14 that revisits a unit does so at its
// outermost counting level, of stride 0, counting Stage14StreamPrefixBlocks + 1 over distinct units below (1,460 /
// 1,460; the other 601 name one block and revisit nothing); the level between counts the parts 64 units apart in all
// 506 that have both. The rung moves no byte for it (each block's convolution reads its prefix from the
// stream's rows); it checks the shape where the nest is not a one-outer-level window (those keep the window rule,
// staging_window.h, though the corpus's 931 window-shaped compute-feeding writes count their blocks the same way), so
// a nest that revisits units another way is refused naming the level.
#pragma once

#include <span>
#include <string>

#include "models/isa/word128.h"
#include "models/lle/write_nest.h"

namespace coralsim::lle {

// One 256-byte prefix row in 4-byte units: the pitch of the staged prefix's parts.
constexpr int64_t kPrefixPartUnits = 64;

// "" where `nest` (the write's, write_nest.h) comes back to its units only at its outermost counting level, whose
// stride is 0 and whose count is the stream's blocks, the levels below it visiting distinct units and any counting
// level between level 0 and it counting the prefix's parts 64 units apart; else the reason, naming the level and fields.
[[nodiscard]] std::string stage14BlockLevelProblem(std::span<const isa::Word128> words, const WriteNest& nest);

}  // namespace coralsim::lle

// The convolution compute (docs/decoding-log.md "convmac"): the compute packet that follows the
// identity computes of a convolution, whose taps read the zero-padded grid those copied the input
// into. Three loop nests of the packet walk together, iteration n of each belonging to the same MAC
// step (models/isa/compute_loop_nest.def; the carry convention of loop_nest.h):
//   Nest37   (w1 bit 100) the input: a 4-byte unit of narrow memory from ComputeInputAt4 (one grid
//            position: 4 input bytes) -- tap column, tap row, position column, position row;
//   Nest29   (w7 bit 90)  the weights: a group of 4 x lanes bytes after the parameter prefix in wide
//            memory, byte (lane c, input byte i) at 4 c + i;
//   Output37 (w5 bit 8)   the output: one 4-byte unit from ComputeOutputAt per output and 4 lanes, the
//            lanes' results in its bytes (a wider output's groups side by side, output_nest.h).
// The iterations over the outputs are the reduction: acc[c] = sum over it of
// sum_i (x[i] - ComputeZpIn) (w[c][i] - offset[c]) + bias[c], then the epilogue (requantizer.h) with
// the lane's f32 scale when the prefix has one. The prefix (ComputeParamPrefix) holds per lane, in
// this order, a f32 scale (bit 1), an int32 bias (bit 0) and a u32 weight offset (bit 1, 128 in every
// program with it); without bit 1 the offset is the packet's ComputeZpWeight (per-tensor layers).
// Plain C++ over the rung's memories, so it can be unit-tested without a program.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "models/chip_config.h"
#include "models/isa/word128.h"
#include "models/lle/addressed_memory.h"
#include "models/lle/compute_epilogue.h"
#include "models/lle/compute_nest.h"
#include "models/lle/output_nest.h"

namespace coralsim::lle {

struct ConvCompute {
  ComputeLoopNest input;    // narrow 4-byte units (absolute: ComputeInputAt4 is the first)
  ComputeLoopNest weights;  // weight groups, counted from the end of the prefix
  OutputNest output;        // narrow 4-byte units (absolute: ComputeOutputAt / 4 is the first)
  unsigned lanes = 0;       // 4 x (ComputeLaneGroups + 1)
  unsigned prefix = 0;      // ComputeParamPrefix
  // A prefix array the compute's own fields do not name: the per-lane u32 weight offset a 0x12 weight stream
  // opens with where ComputeParamPrefix is 0 (gabor; lle_rung.cc computeConvolution, docs/decoding-log.md "bcast10" §D).
  bool streamOffsetArray = false;
  int32_t zpWeight = 0;  // ComputeZpWeight: the offset where the prefix has no per-lane one
  // Output blocks a host weight stream carries above one K pass (the compute-feeding write's count where the
  // receive's level 1 counts blocks, docs/decoding-log.md "bias14"): the weight nest's outermost levels count them
  // above the positions. In wide memory the blocks lie side by side: each prefix array holds every block's lanes,
  // each weight group's row every block's group (MobileNet v2 wo_fc 224's first convolution: the 32 lanes' bias at
  // bytes 0-127, then a 128-byte row a tap, block b's 16 bytes at 16 b). 1: one block, or the stream's own order.
  uint64_t sideBySideBlocks = 1;
  // Output blocks a 0x12 weight stream carries one after another, each its prefix then its K groups (the receive's
  // levels 2-3, "ring128" §C), where the weight nest reduces over one K pass: a level of the weight nest above the
  // positions, of stride 0, counts them (the stream brings the next block's weights to the same place). 1: none.
  uint64_t streamBlocks = 1;
  // A position's partial pass (output_partial_pass.h, docs/decoding-log.md "dec16"): the last iteration of the output
  // nest's highest counting level writes only `partialUnits` of the position's lane groups. 0: every pass is whole.
  uint64_t partialUnits = 0;
  unsigned partialLevel = 0;
  ComputeEpilogue epilogue;  // input and output zero points, multiplier, clamps
  // The input nest's level-0 step in bytes: 4 (one unit), or C where a depthwise walks a channel grid (input_step.h).
  uint64_t inputStep = 4;
  // Passes of the whole walk (whole_walk_passes.h: the w0 nest's level 7): the input and weight nests walk one output
  // block, Output37 counts the blocks at its top, pass p reads the stream's block p (prefix, then weight groups).
  uint64_t passes = 1;
  // The input and weight nests' level-7 strides (whole_walk_passes.h levelSevenStride, "w3b103"): 0 where every pass
  // walks the same input units and weight window again, the only form executed.
  int64_t inputPassStride = 0;
  int64_t weightPassStride = 0;
  // The weight nest's level that counts a split reduction's K passes where the packet names it: 6 under
  // ComputeTopLevelPasses (w15 bit 12, whose w10 walk adds level 6 into the same rows: docs/decoding-log.md "w15b12",
  // "wrap10"); 0 where the split is found from the counts alone. Named, a level of positions whose count equals the
  // passes' (the PoseNet decoders' 8 positions beside 8 K passes) cannot be taken for them.
  unsigned kPassLevel = 0;
  // The w0 nest's shorter last iteration (w0_last_run.h, docs/decoding-log.md "smx"): the walk's last iterations it drops
  // (ComputeK4W0 - ComputeW0LastRun), and whether they are the walk's tail (every level above ComputeW0LastRunLevel runs
  // once). Executed where they are the tail of one output's last K pass of a split reduction (the co-compiled classifiers:
  // 12 groups a K pass at level 2, the last pass 4 / 8): those iterations are not walked, and the weight stream is that
  // much shorter (their 0x12's Recv12LastShort, "mnv1d" §B). 0: every iteration is walked.
  uint64_t droppedIterations = 0;
  bool droppedAreTheTail = true;

  [[nodiscard]] static ConvCompute fromPacket(std::span<const isa::Word128> words);

  // Iterations (one 4-byte input unit x one weight group each), outputs, iterations per output.
  [[nodiscard]] uint64_t iterations() const { return input.units() * passes; }
  [[nodiscard]] uint64_t outputs() const { return output.units(); }
  [[nodiscard]] uint64_t reduction() const { return outputs() == 0 ? 0 : iterations() / outputs(); }
  // The weight groups the stream brings for this compute's blocks: the reduction in each, less the dropped tail.
  [[nodiscard]] uint64_t streamGroups() const { return reduction() * streamOutputBlocks() - droppedIterations; }
  [[nodiscard]] uint64_t groupBytes() const { return 4ull * lanes; }
  // The 4-byte units output `o` (in the output nest's order) writes: the lane groups, or the partial pass's units in
  // the last iteration of its level (the outputs after all earlier iterations of the highest counting level).
  [[nodiscard]] uint64_t unitsOfOutput(uint64_t o) const;
  // Bytes of the prefix arrays in front of the first weight group (4 x lanes each); of a split
  // reduction's blocks, in front of each block's groups.
  [[nodiscard]] uint64_t prefixBytes() const;
  // Output blocks: a split reduction's, else 1.
  [[nodiscard]] uint64_t blocks() const;

  // A reduction split around the positions: taps x groups iterations an output, the K groups counted
  // outside the positions, and above them the output blocks (RingCanary's two 64-lane halves of 128
  // channels), each block's outputs the positions again with the next lanes' weights.
  struct SplitReduction {
    uint64_t taps = 0;
    uint64_t positions = 0;
    uint64_t groups = 0;
    uint64_t blocks = 1;
  };
  [[nodiscard]] std::optional<SplitReduction> splitReduction() const;

  // With `passes` > 1: the output nest of one pass (Output37's levels below the ones whose product is the passes), or
  // nullopt where its top levels do not count exactly the passes. `passesProblem` says why the passes cannot run, or "".
  [[nodiscard]] std::optional<OutputNest> onePassOutput() const;
  [[nodiscard]] std::string passesProblem() const;
  // With `passes` > 1: one pass's reduction split into K passes above the positions ("wrap10"), or nullopt where a
  // pass is a plain reduction (or its output nest does not count the passes).
  [[nodiscard]] std::optional<SplitReduction> onePassSplit() const;
  // The output blocks the weight stream carries for this compute: the split reduction's blocks, once a pass of the whole
  // walk (the compute-feeding write's Stage14StreamPrefixBlocks + 1 = level 7's passes in 2,096 / 2,096 corpus tile-feeds,
  // docs/decoding-log.md "wrap10").
  [[nodiscard]] uint64_t streamOutputBlocks() const { return blocks() * passes; }

  // Why the kernel cannot run this packet (naming the field), or "" when it can.
  [[nodiscard]] std::string unsupported() const;
};

// Runs `conv` on one tile: the input units from `narrow`, the prefix and weights from `wide` (the tile's
// parameter bytes from address 0), the results written into `narrow` along the output nest. A position
// whose taps reach an input byte no packet wrote this run is undefined: its output units are left unwritten
// (conv_undefined_outputs.h) and counted in `undefinedOutputs` when given.
// Returns "" or why it cannot (memory left, parameters missing); `macs` grows by the MACs done.
[[nodiscard]] std::string runConvCompute(const ConvCompute& conv, AddressedMemory& narrow, std::span<const uint8_t> wide,
                                         models::RequantRounding rounding, uint64_t& macs, uint64_t* undefinedOutputs = nullptr);

}  // namespace coralsim::lle

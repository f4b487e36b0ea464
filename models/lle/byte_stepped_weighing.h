// The byte-stepped weighing (docs/decoding-log.md "loomid"): a compute of 4-byte input elements whose positions each
// take K = ComputeK4W0 + 1 groups (Nest37 level 0, ComputeK4W1 = ComputeK4W0) while its weight nest, Nest29, steps
// ONE byte a group over the 16-byte block kept under its ComputeStreamTag and returns after the K bytes (slot 0's
// carry ComputeKWrapW7 x 4 + ComputeNest29CarryLow[0] = -(K - 1) bytes, a carry that is no whole unit; every level
// above 0 moves no weight byte). Looming's 4 x 4 identity @ 0x0149 / 0x019a after its MULs x * x reads this way: each
// position is the product's K = 4 units (one a channel, "loom35" §C), one 4-byte unit written a position.
//
// Which input lane each weight byte meets ("trk15": the diagonal, decided by the trackers' golden outputs downstream of
// their 16-bit-results 0x07d1, and executed there; the one-byte form below keeps its narrower domain) was open: lane c = sum over k of lane c of group k x byte k of block unit
// c (the diagonal the byte step suggests, "loom13" §E), lane c = sum over k of lane (c - k) mod 4 of group k x the same
// byte (a rotating read of unit c), or each group weighed by the whole unit c (the step ignored) give other bytes in
// general. They give the same bytes where only lane 0 of a position's first group differs from the input zero point and
// byte 0 of block units 1-3 is 0: lane 0 = (x - zpIn) x byte 0 of unit 0 (+ the bias), lanes 1-3 the bias alone. So the
// weighing is executed there (looming: the product's units hold one channel's x * x in lane 0 and requant(0) = the
// zero point elsewhere), and refused elsewhere naming the position, group and lane, or the block byte.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "models/isa/word128.h"
#include "models/lle/requantizer.h"

namespace coralsim::lle {

struct ByteSteppedWeighing {
  static constexpr uint64_t kUnitBytes = 4;  // an input group, a block unit, an output unit

  uint64_t positions = 0;  // the w0 nest's iterations above its K level (ComputeLimitW0 levels 1-3)
  uint64_t groups = 0;     // K = ComputeK4W0 + 1 input groups a position
  uint64_t inputAt = 0;    // the input's first byte: ComputeInputAt4 x 4

  // True where the compute reads 4-byte input elements outside a ring and its weight nest's slot 0 carries a part of a
  // unit (ComputeNest29CarryLow[0] != 0): the carry of a walk in bytes over a kept block, this form's signature.
  [[nodiscard]] static bool isForm(std::span<const isa::Word128> words);

  // The shape, or why the packet's nests are not this form: Nest37 must read positions x K groups as one run of units,
  // Nest29 the K bytes at level 0 and back (every level above it moving no byte) for every position, the w10 nest
  // the same iterations, the w0 nest no level above 3.
  [[nodiscard]] static std::variant<ByteSteppedWeighing, std::string> fromPacket(std::span<const isa::Word128> words);

  [[nodiscard]] uint64_t inputBytes() const { return positions * groups * kUnitBytes; }

  // One output unit a position (4 lane bytes each) where the lanes do not depend on the rule not decoded (the header's
  // comment), from `input` (the positions' groups in order) and the 16-byte `block` (signed weight bytes); or the first
  // input byte or block byte that would make the rule matter.
  // The diagonal rule (docs/decoding-log.md "trk15"): lane c of a position = bias + sum over its K groups k of (lane c of
  // group k - zpIn) x signed byte k of block unit c. Decided for the 16-bit-results form by the bytes downstream of the
  // trackers' 0x07d1 (the rotating read gives other golden outputs); 4 accumulators a position, positions in order.
  [[nodiscard]] std::variant<std::vector<int32_t>, std::string> diagonalLaneSums(std::span<const uint8_t> input, std::span<const uint8_t> block,
                                                                                 int32_t zpIn, int32_t bias) const;

  // The 16-bit results of the diagonal lane sums (ComputeSixteenBitResults without a table): each sum x `mult` in
  // float32, clamped to [lo, hi], rounded half-even and saturated to 0 .. 65,535, written low byte first, the four lanes
  // of a position in two 4-byte units (the 16-bit streamed product's result arithmetic, wide_streamed_square.h).
  [[nodiscard]] static std::vector<uint8_t> sixteenBitResults(std::span<const int32_t> sums, float mult, float lo, float hi);

  [[nodiscard]] std::variant<std::vector<uint8_t>, std::string> unitsWhereOnlyLaneZeroWeighs(std::span<const uint8_t> input,
                                                                                             std::span<const uint8_t> block, int32_t zpIn,
                                                                                             int32_t bias, const Requantizer& requant) const;
};

}  // namespace coralsim::lle

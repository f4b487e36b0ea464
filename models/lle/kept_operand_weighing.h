// The weighing by a kept operand (docs/decoding-log.md "trk16" §B): the trackers' normalisation @ 0x09cb / 0x0aec, the
// compute after the kept-operand read (kept_operand_read.h, "trk15" §C) that takes the read's bytes -- the tile's
// exponentials, gathered in the unit order (0, 2, 1, 3) of each 16-byte block -- as unsigned 16-bit weights
// (ComputeWideWeights, ComputeUnsignedWideWeights) under its ComputeStreamTag. Its counts: positions (the w0 nest above
// K) x K = ComputeK4W0 + 1 = 2 iterations, the w10 nest and Nest37 the same; Nest29 steps one 16-bit weight a K
// iteration and returns (slot 0's carry 4 x ComputeKWrapW7 + ComputeNest29CarryLow[0] = -2 bytes: -(K - 1) x 2), as
// the byte-stepped weighing (byte_stepped_weighing.h) steps one byte; each iteration reads one 4-byte input unit along
// Nest37 (0x0949's broadcast u, the same unit every iteration) and writes one output unit, ComputeLaneGroups + 1 =
// positions x K units of one output position.
// Which weight each lane takes (Guess): position p weighs with the kept operand's 16-byte block p, and lane c of K
// iteration k takes the 16-bit half c mod 2 of block unit 2 floor(c / 2) + k -- each lane pair's two weights a unit, the
// K step one unit on within the pair's 8 bytes. With the read's (0, 2, 1, 3) order this writes the exponentials in their
// order (iteration k of block p: pixels 8p + 4k .. 8p + 4k + 3), which is what the gather's reordering is for; the
// 16-bit analogue of the byte-stepped diagonal (half k of unit c) would give pixels (0, 4, 2, 6) -- not decided by any
// byte downstream (the FULLY_CONNECTED computes that read this output are not executed), but the held-out 10-class
// normalisations (nin_cnn, the ensemble) count it: 2 positions x K = 4 in the w0 nest and Nest29, 3 in the w10 nest,
// Nest37 and the output units -- the 10 weights' last 2 need K step 0 of position 1 only in this order, steps 0 and 1 in
// the diagonal one. So the iterations written are the w10 nest's count, the last position's later steps dropped. Lane c's input is 16-bit
// element c mod 2 of its unit; executed only where the unit's two elements are equal (0x0949 writes u twice), so the
// input pairing does not matter. The product (unsigned 16 x 16 bits, below 2^31) goes through the compute's epilogue.
// The dropped steps are the w0 nest's shorter last iteration (ComputeW0LastRun / ComputeW0LastRunLevel, w0_last_run.h,
// docs/decoding-log.md "smx"): the w10 nest's count must be positions x K less what it drops.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "models/isa/word128.h"

namespace coralsim::lle {

struct KeptOperandWeighing {
  static constexpr uint64_t kUnitBytes = 4;
  static constexpr uint64_t kBlockBytes = 16;
  static constexpr uint64_t kK = 2;  // a 4-byte weight unit holds two 16-bit weights

  uint64_t positions = 0;  // the w0 nest's iterations above K (ComputeLimitW0 levels 1-3)
  uint64_t written = 0;    // the iterations that write a unit: the w10 nest's count (positions x K, or fewer by < K)

  [[nodiscard]] uint64_t iterations() const { return written; }
  [[nodiscard]] uint64_t operandBytes() const { return positions * kBlockBytes; }  // the most a kept operand holds

  // True for the packet's marks of this form: 4-byte input elements outside a ring, unsigned 16-bit weights, one-byte
  // results (no 16-bit results, no table), a weight walk whose slot-0 carry is a part of a unit.
  [[nodiscard]] static bool isForm(std::span<const isa::Word128> words);

  // The shape, or why the packet's counts are not this form's (the header comment).
  [[nodiscard]] static std::variant<KeptOperandWeighing, std::string> fromPacket(std::span<const isa::Word128> words);

  // The kept operand's 16-bit weight lane `lane` of K iteration `k` of position `position` takes (the Guess above).
  [[nodiscard]] static uint32_t weight(std::span<const uint8_t> operand, uint64_t position, uint64_t k, uint64_t lane);

  // The products of every iteration: input element (lane mod 2) of the iteration's unit x its lane's weight, 4 a unit
  // (iteration-major); or the first iteration whose input unit holds two different 16-bit elements.
  [[nodiscard]] std::variant<std::vector<int64_t>, std::string> products(std::span<const uint8_t> inputUnits,
                                                                         std::span<const uint8_t> operand) const;
};

}  // namespace coralsim::lle

// The streamed product (docs/decoding-log.md "loom35"): a compute of one-byte input elements whose tiles hold
// nothing under its ComputeStreamTag takes its second operand from the read routed (0, 1) and marked
// Stage13TakenByCompute that its tiles issue right after it (looming 64^2's two MULs x * x @ 0x0111 / 0x0181,
// their reads @ 0x0122 / 0x0192: the compute waits for its stream). Each of its positions (the w0 nest's
// iterations) reduces K = ComputeK4W0 + 1 one-byte elements: the input's, walked by Nest37 as one run of
// bytes, times the stream's, taken in order K a position (Nest29 walks the same K bytes for every position:
// a register the stream refills). result[p] = requantised sum over c < K of
// (input[pK + c] - ComputeZpIn) x (stream[pK + c] - ComputeZpWeight); four positions' bytes fill one 4-byte
// output unit, the units in Output37's order.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "models/isa/word128.h"
#include "models/lle/requantizer.h"

namespace coralsim::lle {

struct StreamedProduct {
  static constexpr uint64_t kPositionsAUnit = 4;  // one-byte results, four to a 4-byte output unit
  uint64_t positions = 0;  // the w0 nest's iterations (ComputeLimitW0 levels 1-3): one output byte each
  uint64_t elements = 0;   // K = ComputeK4W0 + 1 one-byte elements a position
  uint64_t inputAt = 0;    // the input's first byte: ComputeInputAt4 x 4 + ComputeInputByte

  // The product's shape from a compute packet of one-byte elements, or why its nests are not this form's
  // (a non-linear input walk, weight bytes that move between positions, levels above 3, a position count
  // that does not fill whole output units).
  [[nodiscard]] static std::variant<StreamedProduct, std::string> fromPacket(std::span<const isa::Word128> words);

  [[nodiscard]] uint64_t bytes() const { return positions * elements; }  // input bytes = stream bytes

  // The positions' results; input and stream hold bytes() bytes each.
  [[nodiscard]] std::vector<uint8_t> run(std::span<const uint8_t> input, std::span<const uint8_t> stream, int32_t zpIn,
                                         int32_t zpWeight, const Requantizer& requant) const;
};

}  // namespace coralsim::lle

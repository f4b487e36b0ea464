// The streamed product (docs/decoding-log.md "loom35"): a compute of one-byte input elements whose tiles hold
// nothing under its ComputeStreamTag takes its second operand from the read routed (0, 1) and marked
// Stage13TakenByCompute that its tiles issue right after it (looming 64^2's two MULs x * x @ 0x0111 / 0x0181,
// their reads @ 0x0122 / 0x0192: the compute waits for its stream). Its positions (the w0 nest's iterations)
// each take K = ComputeK4W0 + 1 one-byte elements (a packed K group, ComputeKCountOfPackedElements): the input's,
// walked by Nest37 as one run of bytes, and the stream's, K a position in order (Nest29 walks the same K bytes for
// every position: a register the stream refills). What the product writes is not decoded: looming's output nest
// covers one 4-byte unit per element (lle_rung_streamed_product.cc refuses there).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <variant>

#include "models/isa/word128.h"

namespace coralsim::lle {

struct StreamedProduct {
  uint64_t positions = 0;  // the w0 nest's iterations (ComputeLimitW0 levels 1-3)
  uint64_t elements = 0;   // K = ComputeK4W0 + 1 one-byte elements a position
  uint64_t inputAt = 0;    // the input's first byte: ComputeInputAt4 x 4 + ComputeInputByte

  // The product's shape from a compute packet of one-byte elements, or why its nests are not this form's
  // (a non-linear input walk, weight bytes that move between positions or levels above 3).
  [[nodiscard]] static std::variant<StreamedProduct, std::string> fromPacket(std::span<const isa::Word128> words);

  [[nodiscard]] uint64_t bytes() const { return positions * elements; }  // input bytes = stream bytes
};

}  // namespace coralsim::lle

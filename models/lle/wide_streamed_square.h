// The 16-bit streamed product (docs/decoding-log.md "trk14" §C, "trk14b"): the softmax's squaring after every 0x03
// (bright / colour @ 0x07b8 / 0x08d9, 23 / 23 corpus chains). A compute of 2-byte input elements (ComputeInputBytes 2)
// with ComputeWideWeights and ComputeUnsignedWideWeights, 16-bit results without a table, whose tiles hold nothing under
// its ComputeStreamTag: like the one-byte streamed product ("loom35", streamed_product.h) it waits for the read routed
// (0, 1) and marked Stage13TakenByCompute issued next on its tiles, whose bytes are its second operand. Its counts are
// that form's: positions (the w0 nest above K) x K (ComputeK4W0 + 1) products, one output unit each
// (ComputeOut37Limit0 + 1), no sum over K; its input is ComputeK4W1 + 1 16-bit elements read as one run from
// ComputeInputAt4 x 4 (the 0x03's four lanes), its stream as many.
//
// Which input element meets which stream element in a product (the diagonal, the outer product: "loom35"'s open question)
// and which 16-bit slot of its 4-byte unit a product's result takes are not decoded. Where every input element is one
// value and every stream element one value, each rule gives the same bytes: every 16-bit slot of every unit holds
// requant(in x stream). Executed there only (the 0x03 writes one result in all four lanes, "trk14b"); elsewhere refused
// naming the element. Both operands are read unsigned: the weights by ComputeUnsignedWideWeights, the input because the
// only corpus input is the 0x03's table result (up to 46,341 > 32,767; read signed, the one-peak image's u would be
// 5,622, not the clamp 32,768 that gives TFLite's byte, "sum03" §D) -- Guess.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "models/isa/word128.h"

namespace coralsim::lle {

struct WideStreamedSquare {
  static constexpr uint64_t kElementBytes = 2;
  static constexpr uint64_t kUnitBytes = 4;

  uint64_t positions = 0;  // the w0 nest's iterations above K (ComputeLimitW0 levels 1-3)
  uint64_t elements = 0;   // K = ComputeK4W0 + 1 products a position
  uint64_t inputAt = 0;    // ComputeInputAt4 x 4

  // True for the packet's marks of this form: 2-byte input elements, unsigned 16-bit weights, 16-bit results, no table.
  [[nodiscard]] static bool isForm(std::span<const isa::Word128> words);

  // The shape, or why the packet's counts are not this form's (see the header comment).
  [[nodiscard]] static std::variant<WideStreamedSquare, std::string> fromPacket(std::span<const isa::Word128> words);

  [[nodiscard]] uint64_t products() const { return positions * elements; }
  [[nodiscard]] uint64_t operandBytes() const { return products() * kElementBytes; }

  // The output units (kUnitBytes each, one a product, every 16-bit slot the product's result, low byte first) where every
  // input element is one value and every stream element one value; or the first element that differs. The result:
  // float32(in x stream) x mult, clamped to [lo, hi], rounded half-even, saturated to 0 ... 65,535 (the table results'
  // order, nlu_apply.h, without the table).
  [[nodiscard]] std::variant<std::vector<uint8_t>, std::string> unitsWhereAllElementsAreEqual(std::span<const uint8_t> input,
                                                                                             std::span<const uint8_t> stream, float mult,
                                                                                             float lo, float hi) const;
};

}  // namespace coralsim::lle

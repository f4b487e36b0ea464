// The 16-bit streamed product (wide_streamed_square.h, docs/decoding-log.md "trk14b"): the softmax's squaring of the 0x03's
// result. Issued with nothing under its tag, it waits (as the one-byte streamed product, lle_rung_streamed_product.cc)
// for the read marked Stage13TakenByCompute next on its tiles, and runs with that read's bytes as its weights. Executed
// where every input element is one value and every stream element one value (no pairing rule matters); refused elsewhere.

#include <string>
#include <variant>
#include <vector>

#include "models/isa/number_text.h"
#include "models/lle/compute_epilogue.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"
#include "models/lle/output_nest.h"
#include "models/lle/wide_streamed_square.h"

namespace coralsim::lle {

using models::DecodedPacket;

void LleRung::waitForWideStreamedSquare(const DecodedPacket& packet) {
  const auto words = packet.words;
  const auto shape = WideStreamedSquare::fromPacket(words);
  if (const auto* why = std::get_if<std::string>(&shape)) refuse(packet, "the 16-bit streamed product: " + *why);
  if (computeUnstreamed_) {
    refuse(packet, "the 16-bit streamed product: the packet after it is not the read marked Stage13TakenByCompute of its stream; "
                   "where else its weights come from is not decoded");
  }
  // Its epilogue: no zero point and no bias (every corpus squaring): another is not decoded for 16-bit operands.
  for (const LleField field : {LleField::ComputeZpIn, LleField::ComputeZpWeight, LleField::ComputeZpOut}) {
    if (readField(words, field) != 0) {
      refuse(packet, "the 16-bit streamed product with " + std::string(fieldDef(field).name) + " = " + std::to_string(readField(words, field)) +
                         ": a zero point on 16-bit operands is not decoded");
    }
  }
  if (readComputeBias(words) != 0) refuse(packet, "the 16-bit streamed product with ComputeBias != 0: not decoded");
  const uint64_t tag = readField(words, LleField::ComputeStreamTag);
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t))) continue;
    const TileState& tile = tiles_[t];
    if ((tile.keptRead && tile.keptReadChannel == tag) || tile.keptStreams.contains(tag) || (weightStreams_[t] && weightStreams_[t]->tag == tag)) {
      refuse(packet, "the 16-bit streamed product on tile " + std::to_string(t) + ", which already holds stream " + std::to_string(tag) +
                         " (ComputeStreamTag): weighing by a kept stream in this form is not decoded");
    }
  }
  waitForStreamedOperand(packet);
}

void LleRung::takeWideStreamedSquare(const DecodedPacket& read, const StagedNest& reach) {
  const DeferredCompute compute = std::move(*streamedOperandTaker_);
  streamedOperandTaker_.reset();
  const DecodedPacket& packet = compute.packet;
  const auto words = std::span<const isa::Word128>(compute.words);
  const uint64_t tag = readField(words, LleField::ComputeStreamTag);
  const uint64_t channel = readField(read.words, LleField::Stage13Channel);
  if (channel != tag || read.tileMask != packet.tileMask) {
    refuse(read, "the read's Stage13Channel " + std::to_string(channel) + " on tiles " + isa::formatHex(read.tileMask) +
                     " is not the stream the 16-bit streamed product at PC 0x" + isa::formatAddress(packet.pc) + " waits for (ComputeStreamTag " +
                     std::to_string(tag) + " on tiles " + isa::formatHex(packet.tileMask) + ")");
  }
  const WideStreamedSquare form = std::get<WideStreamedSquare>(WideStreamedSquare::fromPacket(words));  // checked at issue
  if (4 * reach.groups != form.operandBytes()) {
    refuse(read, "the read streams " + std::to_string(4 * reach.groups) + " bytes; the 16-bit streamed product at PC 0x" +
                     isa::formatAddress(packet.pc) + " takes " + std::to_string(form.products()) + " 16-bit elements");
  }
  const ComputeEpilogue e = readComputeEpilogue(words);
  const uint64_t outputAt = readField(words, LleField::ComputeOutputAt);
  const OutputNest out = OutputNest::fromPacket(words, static_cast<int64_t>(outputAt / WideStreamedSquare::kUnitBytes));
  // Every corpus squaring's Output37 counts one iteration a product with a level-0 step of 0 (ComputeOut37Step 0,
  // ComputeLaneGroups 1): how the hardware spreads 16-bit results over such a walk is not decoded. Its bytes are taken
  // as one run of a unit a product from ComputeOutputAt (Guess): the run the compute after it reads (0x07d1: 4 groups of
  // 4 bytes from the same address, 23 / 23 chains). Any other walk must visit one unit a product, each once.
  const bool oneRun = readField(words, LleField::ComputeOut37Step) == 0 && out.units() == form.products();
  if (outputAt % WideStreamedSquare::kUnitBytes != 0 || out.units() != form.products() || (out.revisitsAUnit() && !oneRun)) {
    refuse(packet, "the 16-bit streamed product's output nest (w5, Output37) from ComputeOutputAt = " + std::to_string(outputAt) + " covers " +
                       std::to_string(out.units()) + " 4-byte units, not one for each of its " + std::to_string(form.products()) + " products");
  }
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t))) continue;
    TileState& tile = tiles_[t];
    const StreamedOperands operands = streamedOperands(t, packet, read, reach, form.inputAt, form.operandBytes(), "16-bit streamed product");
    const auto units = form.unitsWhereAllElementsAreEqual(operands.input, operands.stream, e.mult, e.lo, e.hi);
    if (const auto* why = std::get_if<std::string>(&units)) refuse(packet, "tile " + std::to_string(t) + ": the 16-bit streamed product's " + *why);
    const std::vector<uint8_t>& bytes = std::get<std::vector<uint8_t>>(units);
    uint64_t next = 0;
    bool inside = true;
    out.forEachUnit([&](int64_t walked) {
      const int64_t unit = oneRun ? static_cast<int64_t>(outputAt / WideStreamedSquare::kUnitBytes + next) : walked;
      inside = inside && unit >= 0 &&
               tile.narrowSram.write(static_cast<uint64_t>(unit) * WideStreamedSquare::kUnitBytes,
                                     std::span<const uint8_t>(bytes).subspan(next * WideStreamedSquare::kUnitBytes, WideStreamedSquare::kUnitBytes));
      ++next;
    });
    if (!inside) refuse(packet, "the 16-bit streamed product's output nest leaves tile " + std::to_string(t) + "'s narrow memory");
    macs_ += form.products();
  }
}

}  // namespace coralsim::lle

// The streamed product (streamed_product.h, docs/decoding-log.md "loom35"): a compute of one-byte elements whose
// tiles hold nothing under its ComputeStreamTag waits for the read routed (0, 1) and marked Stage13TakenByCompute
// (routed_read_mark.h) that its tiles issue next, naming its tag as Stage13Channel; that read's bytes are the
// compute's second operand, and the compute runs when they arrive. Anything else next ends the wait: the compute then
// runs as before this form was executed (the identity copy's path, which refuses what it lacks by name). The product is
// executed where every K element but a position's first is the zero point on both sides ("loom13": looming's padded
// channels), one 4-byte output unit a K element; elsewhere refused naming the position and element.

#include <string>
#include <variant>
#include <vector>

#include "models/isa/number_text.h"
#include "models/lle/compute_epilogue.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"
#include "models/lle/output_nest.h"
#include "models/lle/requantizer.h"
#include "models/lle/routed_read_mark.h"
#include "models/lle/streamed_product.h"
#include "models/lle/wide_streamed_square.h"

namespace coralsim::lle {

using models::DecodedPacket;

namespace {

constexpr uint8_t kStagingRead = 0x13;
constexpr uint8_t kTileFence = 0x1a;

}  // namespace

// Nothing under the compute's tag on any of its tiles (no read kept in that stream, no weight stream armed on it) and its
// input bytes all written in this run (looming's convolution output): the operand it lacks is the stream to come. An
// identity copy in that state (issued before its window or its block) waits one packet and runs as before.
bool LleRung::takesAStreamedOperand(const DecodedPacket& packet) {
  const auto shape = StreamedProduct::fromPacket(packet.words);
  const auto* product = std::get_if<StreamedProduct>(&shape);
  const uint64_t tag = readField(packet.words, LleField::ComputeStreamTag);
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t))) continue;
    const TileState& tile = tiles_[t];
    if (tile.keptRead && tile.keptReadChannel == tag) return false;
    if (tile.keptStreams.contains(tag)) return false;
    if (weightStreams_[t] && weightStreams_[t]->tag == tag) return false;
    // A shape this form does not walk is named by the identity copy's checks, as before this form was executed.
    if (!product || tile.narrowSram.firstUnwritten(product->inputAt, product->bytes())) return false;
  }
  return true;
}

void LleRung::waitForStreamedOperand(const DecodedPacket& packet) {
  if (streamedOperandTaker_) {
    refuse(packet, "a second compute waiting for its streamed operand while the one at PC 0x" +
                       isa::formatAddress(streamedOperandTaker_->packet.pc) + " still waits: not decoded");
  }
  DeferredCompute& waiting = streamedOperandTaker_.emplace();
  waiting.words.assign(packet.words.begin(), packet.words.end());
  waiting.packet = packet;
  waiting.packet.words = waiting.words;
}

// While the compute waits, anything but a fence or the read that feeds it ends the wait: the compute is then no streamed
// product, and runs as the one-byte compute it was before this form was executed (the identity copy's path, which names
// what it lacks), before that packet.
void LleRung::endTheWaitForAStreamedOperand(const DecodedPacket& packet, const models::RunStreams& streams) {
  if (!streamedOperandTaker_) return;
  const auto op = static_cast<uint8_t>(packet.opcode);
  if (op == kTileFence || (op == kStagingRead && isTakenByCompute(packet))) return;  // takeStreamedOperand checks tag and tiles
  DeferredCompute waiting = std::move(*streamedOperandTaker_);
  streamedOperandTaker_.reset();
  waiting.packet.words = waiting.words;
  struct Unstreamed {
    bool& flag;
    explicit Unstreamed(bool& f) : flag(f) { flag = true; }
    ~Unstreamed() { flag = false; }
  } unstreamed(computeUnstreamed_);
  compute(waiting.packet, streams);
}

void LleRung::takeStreamedOperand(const DecodedPacket& read, const StagedNest& reach) {
  if (!streamedOperandTaker_) {
    refuse(read, "Stage13TakenByCompute (word 4 bit 35) = 1 and no compute waits on its tiles for the stream: the read taken by the "
                 "compute issued after it is not executed");
  }
  if (WideStreamedSquare::isForm(streamedOperandTaker_->words)) {  // its 16-bit form (lle_rung_wide_streamed_square.cc)
    takeWideStreamedSquare(read, reach);
    return;
  }
  const DeferredCompute compute = std::move(*streamedOperandTaker_);
  streamedOperandTaker_.reset();
  const DecodedPacket& packet = compute.packet;
  const uint64_t tag = readField(compute.words, LleField::ComputeStreamTag);
  const uint64_t channel = readField(read.words, LleField::Stage13Channel);
  if (channel != tag || read.tileMask != packet.tileMask) {
    refuse(read, "the read's Stage13Channel " + std::to_string(channel) + " on tiles " + isa::formatHex(read.tileMask) +
                     " is not the stream the compute at PC 0x" + isa::formatAddress(packet.pc) + " waits for (ComputeStreamTag " +
                     std::to_string(tag) + " on tiles " + isa::formatHex(packet.tileMask) + ")");
  }
  const StreamedProduct product = std::get<StreamedProduct>(StreamedProduct::fromPacket(compute.words));  // checked at issue
  if (4 * reach.groups != product.bytes()) {
    refuse(read, "the read streams " + std::to_string(4 * reach.groups) + " bytes; the compute at PC 0x" + isa::formatAddress(packet.pc) +
                     " takes " + std::to_string(product.positions) + " positions of " + std::to_string(product.elements) + " bytes");
  }
  const auto [zpIn, zpOut, mult, lo, hi] = readEpilogue(packet);  // refused by name where the requantiser could not model it
  const int32_t zpWeight = static_cast<int32_t>(readField(compute.words, LleField::ComputeZpWeight));
  if (zpWeight > 255) refuse(packet, "ComputeZpWeight (word 14 bits 70:62) = " + std::to_string(zpWeight) + " above 255");
  const Requantizer requant(1.0f, mult, lo, hi, zpOut, config_.requantRounding);
  const uint64_t outputAt = readField(compute.words, LleField::ComputeOutputAt);
  const OutputNest out = OutputNest::fromPacket(compute.words, static_cast<int64_t>(outputAt / 4));
  // One 4-byte unit a K element ("loom35" §C): the output nest must walk exactly those units, each once.
  if (out.units() != product.bytes() || out.revisitsAUnit()) {
    refuse(packet, "the streamed product (" + std::to_string(product.positions) + " positions of K = " + std::to_string(product.elements) +
                       " one-byte elements, its stream the read at PC 0x" + isa::formatAddress(read.pc) + "): its output nest (w5, Output37) from "
                       "ComputeOutputAt = " + std::to_string(outputAt) + " covers " + std::to_string(out.units()) +
                       " 4-byte units, not one for each of its " + std::to_string(product.bytes()) + " K elements");
  }
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t))) continue;
    TileState& tile = tiles_[t];
    const StreamedOperands operands = streamedOperands(t, packet, read, reach, product.inputAt, product.bytes(), "streamed product");
    // Executed only where the lanes do not depend on how the product pairs its bytes (streamed_product.h).
    const auto units = product.unitsWhereOnlyFirstElementsWeigh(operands.input, operands.stream, zpIn, zpWeight, requant);
    if (const auto* why = std::get_if<std::string>(&units)) refuse(packet, "tile " + std::to_string(t) + ": the streamed product's " + *why);
    const std::vector<uint8_t>& bytes = std::get<std::vector<uint8_t>>(units);
    uint64_t next = 0;
    bool inside = true;
    out.forEachUnit([&](int64_t unit) {
      inside = inside && unit >= 0 &&
               tile.narrowSram.write(static_cast<uint64_t>(unit) * 4, std::span<const uint8_t>(bytes).subspan(next * 4, 4));
      ++next;
    });
    if (!inside) {
      refuse(packet, "the streamed product's output nest from ComputeOutputAt = " + std::to_string(outputAt) + " leaves tile " + std::to_string(t) +
                         "'s narrow memory");
    }
    macs_ += product.bytes();
  }
}

LleRung::StreamedOperands LleRung::streamedOperands(unsigned t, const DecodedPacket& compute, const DecodedPacket& read,
                                                     const StagedNest& reach, uint64_t inputAt, uint64_t inputBytes,
                                                     const std::string& form) const {
  const TileState& tile = tiles_[t];
  auto stream = gather(tile.narrowSram, reach);
  if (const auto* hole = std::get_if<uint64_t>(&stream)) {
    refuse(read, "tile " + std::to_string(t) + ": the read's narrow byte " + std::to_string(*hole) + " was not written in this run");
  }
  if (const auto hole = tile.narrowSram.firstUnwritten(inputAt, inputBytes)) {
    refuse(compute, "tile " + std::to_string(t) + ": input byte " + std::to_string(*hole) + " of the " + form + " (from ComputeInputAt4 x 4 = " +
                        std::to_string(inputAt) + ") was not written in this run");
  }
  const auto input = tile.narrowSram.read(inputAt, inputBytes);
  return {std::vector<uint8_t>(input.begin(), input.end()), std::move(std::get<std::vector<uint8_t>>(stream))};
}

}  // namespace coralsim::lle

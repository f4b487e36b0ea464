// The byte-stepped weighing (byte_stepped_weighing.h, docs/decoding-log.md "loomid"): a compute of 4-byte input groups,
// K a position, weighed by the 16-byte block kept under its ComputeStreamTag through a weight walk that steps one byte a
// group; one output unit a position. Executed where its lanes do not depend on how the stepped bytes meet the input lanes
// (only lane 0 of a position's first group off the zero point, byte 0 of block units 1-3 zero); refused elsewhere by name.

#include <string>
#include <variant>
#include <vector>

#include "models/lle/byte_stepped_weighing.h"
#include "models/lle/compute_epilogue.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"
#include "models/lle/output_nest.h"
#include "models/lle/requantizer.h"
#include "models/lle/unrequantised_copy.h"

namespace coralsim::lle {

using models::DecodedPacket;

void LleRung::computeByteSteppedWeighing(const DecodedPacket& packet) {
  const auto words = packet.words;
  const auto shape = ByteSteppedWeighing::fromPacket(words);
  if (const auto* why = std::get_if<std::string>(&shape)) {
    refuse(packet, "4-byte input groups weighed through a weight walk in bytes (ComputeNest29CarryLow[0] = " +
                       std::to_string(readField(words, LleField::ComputeNest29CarryLow, 0)) + ", the byte-stepped weighing): " + *why);
  }
  const ByteSteppedWeighing& form = std::get<ByteSteppedWeighing>(shape);
  refuseW0NestAboveLevel3(packet);
  if (readField(words, LleField::ComputeNluApply) != 0) {
    refuse(packet, "ComputeNluApply in the byte-stepped weighing: a table applied there is not decoded");
  }
  if (isUnrequantisedCopy(words)) refuse(packet, "ComputeUnrequantisedCopy in the byte-stepped weighing: not decoded");
  // 16-bit results (ComputeSixteenBitResults without a table, "trk15"): the four lanes' diagonal sums as 16-bit values,
  // two 4-byte units a position (ComputeLaneGroups 1); one byte a lane otherwise.
  const bool sixteen = readField(words, LleField::ComputeSixteenBitResults) != 0;
  const uint64_t unitsPerPosition = sixteen ? 2 : 1;
  refuseOtherLanesOrPrefix(packet, unitsPerPosition - 1, 0, "byte-stepped weighing: 4 lanes a position, no parameter prefix");
  const auto [zpIn, zpOut, mult, lo, hi] = readEpilogue(packet, true);
  if (sixteen && zpOut != 0) {
    refuse(packet, "ComputeZpOut = " + std::to_string(zpOut) + " with ComputeSixteenBitResults: how a zero point enters a 16-bit result is not decoded");
  }
  const int32_t bias = readComputeBias(words);
  const Requantizer requant(1.0f, mult, lo, hi, zpOut, config_.requantRounding);
  const uint64_t outputAt = readField(words, LleField::ComputeOutputAt);
  if (outputAt % ByteSteppedWeighing::kUnitBytes != 0) refuse(packet, "ComputeOutputAt = " + std::to_string(outputAt) + " is not a 4-byte unit");
  const OutputNest out = OutputNest::fromPacket(words, static_cast<int64_t>(outputAt / ByteSteppedWeighing::kUnitBytes));
  if (out.units() != form.positions || out.revisitsAUnit()) {
    refuse(packet, "the byte-stepped weighing's output nest (w5, Output37) from ComputeOutputAt = " + std::to_string(outputAt) + " covers " +
                       std::to_string(out.units()) + " 4-byte units (or one twice), not one for each of its " + std::to_string(form.positions) +
                       " positions");
  }
  const uint64_t tag = readField(words, LleField::ComputeStreamTag);
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t))) continue;
    TileState& tile = tiles_[t];
    const std::optional<std::vector<uint8_t>> block = walkBlock(t, tag);
    if (!block) refuseAnotherStream(packet, t);
    if (!out.staysInside(tile.narrowSram.capacity() / ByteSteppedWeighing::kUnitBytes - (unitsPerPosition - 1))) {
      refuse(packet, "the byte-stepped weighing's output nest leaves tile " + std::to_string(t) + "'s narrow memory");
    }
    if (const auto hole = tile.narrowSram.firstUnwritten(form.inputAt, form.inputBytes())) {
      refuse(packet, "tile " + std::to_string(t) + ": input byte " + std::to_string(*hole) + " of the byte-stepped weighing (from ComputeInputAt4 x 4 = " +
                         std::to_string(form.inputAt) + ") was not written in this run");
    }
    const auto read = tile.narrowSram.read(form.inputAt, form.inputBytes());
    const std::vector<uint8_t> input(read.begin(), read.end());
    std::vector<uint8_t> bytes;
    if (sixteen) {
      const auto sums = form.diagonalLaneSums(input, *block, zpIn, bias);
      if (const auto* why = std::get_if<std::string>(&sums)) refuse(packet, "tile " + std::to_string(t) + ": the byte-stepped weighing's " + *why);
      bytes = ByteSteppedWeighing::sixteenBitResults(std::get<std::vector<int32_t>>(sums), mult, lo, hi);
    } else {
      auto units = form.unitsWhereOnlyLaneZeroWeighs(input, *block, zpIn, bias, requant);
      if (const auto* why = std::get_if<std::string>(&units)) refuse(packet, "tile " + std::to_string(t) + ": the byte-stepped weighing's " + *why);
      bytes = std::move(std::get<std::vector<uint8_t>>(units));
    }
    tile.keptRead.reset();  // the compute consumes the last kept read; the block stays kept under its stream
    // Each nest unit starts a position's unitsPerPosition consecutive units (the lane groups, as the table forms write them).
    const uint64_t positionBytes = unitsPerPosition * ByteSteppedWeighing::kUnitBytes;
    uint64_t next = 0;
    bool inside = true;
    out.forEachUnit([&](int64_t unit) {
      inside = inside && unit >= 0 &&
               tile.narrowSram.write(static_cast<uint64_t>(unit) * ByteSteppedWeighing::kUnitBytes,
                                     std::span<const uint8_t>(bytes).subspan(next * positionBytes, positionBytes));
      ++next;
    });
    if (!inside) refuse(packet, "the results of tile " + std::to_string(t) + " leave its narrow memory");
    macs_ += form.positions * form.groups * ByteSteppedWeighing::kUnitBytes;
  }
}

}  // namespace coralsim::lle

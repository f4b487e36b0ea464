// The rung's 4-byte identity copy (docs/decoding-log.md "ring4copy" §C): the RingCanary convolutions'
// identity computes, a ring input of 4-byte K groups (ComputeInputRingOn with ComputeInputBytes 4).
// The arithmetic is identity_copy4.h; here the checks at issue and when the window has filled.

#include <algorithm>
#include <string>

#include "models/lle/compute_write_report.h"
#include "models/lle/identity_copy4.h"
#include "models/lle/input_byte_walk.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"
#include "models/lle/weight_byte_walk.h"

namespace coralsim::lle {

namespace {

constexpr uint64_t kGroupBytesHere = 4;
constexpr uint64_t kBlockBytes = 16;          // the kept 4 x 4 identity block
constexpr uint64_t kZeroFillBytes = 64 * 4;  // the 64 zero units the convolutions' prologue keeps after it

struct RingCopyShape {
  uint64_t groups, columns, rows;
};

RingCopyShape ringCopyShape(std::span<const isa::Word128> words) {
  return {readField(words, LleField::ComputeK4W1) + 1, readField(words, LleField::ComputeNest37Limit1) + 1,
          readField(words, LleField::ComputePositions) + 1};
}

}  // namespace

bool LleRung::isRingIdentityCopy(const models::DecodedPacket& packet) {
  return readField(packet.words, LleField::ComputeInputBytes) == kGroupBytesHere &&
         readField(packet.words, LleField::ComputeInputRingOn) != 0;
}

// At issue: the walk the copy executes, every nest in it. Input (Nest37 in bytes): K groups 4 bytes
// apart (level 0), the row's positions C bytes apart (level 1), rows at level 2 reading the same
// bytes again (stride 0: the window's next pass), level 3 once. The three counting nests agree: the
// w0 nest (0, C/4 - 1, T - 1, R - 1), Nest29 and the w10 nest (C/4 - 1, 0, T - 1, R - 1) with whole-unit
// carries of 0 (the one block weighs every group: "ringconv" table, all 16 RingCanary identity
// computes), lanes = C (ComputeLaneGroups = C/4 - 1), no parameter prefix, zero points 0.
void LleRung::refuseOtherRingCopyWalk(const models::DecodedPacket& packet) const {
  const auto words = packet.words;
  const auto [groups, columns, rows] = ringCopyShape(words);
  const InputByteWalk walk = InputByteWalk::fromPacket(words, kGroupBytesHere);
  const bool inputOk = walk.limits[0] == groups - 1 && walk.limits[1] == columns - 1 && walk.limits[2] == rows - 1 && walk.limits[3] == 0 &&
                       (groups == 1 || walk.strideBytes[0] == static_cast<int64_t>(kGroupBytesHere)) &&
                       (columns == 1 || walk.strideBytes[1] == static_cast<int64_t>(kGroupBytesHere * groups)) &&
                       (rows == 1 || walk.strideBytes[2] == 0);
  if (!inputOk) {
    std::string levels;
    for (unsigned i = 0; i < InputByteWalk::kLevels; ++i) {
      levels += (i ? ", " : "") + std::string("(") + std::to_string(walk.limits[i]) + ", " + std::to_string(walk.strideBytes[i]) + ")";
    }
    refuse(packet, "ComputeInputRingOn = 1 with 4-byte elements (the 4-byte identity copy's form): its input nest (Nest37 in bytes) "
                   "walks (limit, stride in bytes) " + levels +
                       "; the 4-byte identity copy of " + std::to_string(rows) + " rows of " + std::to_string(columns) + " positions of " +
                       std::to_string(groups) + " K groups (ComputeK4W1, ComputeNest37Limit1, ComputePositions) walks (C/4 - 1, 4), (T - 1, C), (R - 1, 0), (0, -)");
  }
  const bool w0Ok = readField(words, LleField::ComputeK4W0) == 0 && readField(words, LleField::ComputeLimitW0, 0) == groups - 1 &&
                    readField(words, LleField::ComputeLimitW0, 1) == columns - 1 && readField(words, LleField::ComputeLimitW0, 2) == rows - 1;
  const WeightByteWalk weights = WeightByteWalk::fromPacket(words);
  const bool weightsOk = weights.limits[0] == groups - 1 && weights.limits[1] == 0 && weights.limits[2] == columns - 1 &&
                         weights.limits[3] == rows - 1 &&
                         std::all_of(weights.carryBytes.begin(), weights.carryBytes.end(), [](int64_t c) { return c == 0; });
  const bool w10Ok = readField(words, LleField::ComputeK4W10) == groups - 1 && readField(words, LleField::ComputeLimitW10, 0) == 0 &&
                     readField(words, LleField::ComputeLimitW10, 1) == columns - 1 &&
                     readField(words, LleField::ComputeLimitW10Level3) == rows - 1;
  if (!w0Ok || !weightsOk || !w10Ok) {
    refuse(packet, "the loop nests of a ring-input 4-byte compute (w0: ComputeK4W0, ComputeLimitW0; Nest29: ComputeK4W7, ComputeLimit29, "
                   "ComputeLimit29Level3, carries ComputeKWrapW7 / ComputeKWrap29 / ComputeNest29CarryLow; w10: ComputeK4W10, "
                   "ComputeLimitW10, ComputeLimitW10Level3) do not all count " + std::to_string(groups) + " K groups x " +
                   std::to_string(columns) + " positions x " + std::to_string(rows) + " rows with weight carries 0, the 4-byte identity copy's walk");
  }
  if (const uint64_t lanes = readField(words, LleField::ComputeLaneGroups); lanes != groups - 1) {
    refuse(packet, "ComputeLaneGroups (word 4 bits 118:99) = " + std::to_string(lanes) + " in a 4-byte identity copy of " +
                       std::to_string(groups) + " K groups: its lanes are the position's C = 4 x " + std::to_string(groups) + " channels");
  }
  if (const uint64_t prefix = readField(words, LleField::ComputeParamPrefix); prefix != 0 || readField(words, LleField::ComputeZpWeight) != 0 ||
                                                                                readField(words, LleField::ComputeInputByte) != 0) {
    refuse(packet, "ComputeParamPrefix / ComputeZpWeight / ComputeInputByte not 0 in a 4-byte identity copy: a parameter prefix, weight "
                   "zero point or mid-group start is not decoded for it");
  }
  const uint64_t rowBytes = kGroupBytesHere * groups * columns;
  if (const uint64_t ring = readField(words, LleField::ComputeInputRingBytes); rowBytes > ring) {
    refuse(packet, "the 4-byte identity copy's row reads " + std::to_string(rowBytes) + " bytes of an input ring of " + std::to_string(ring) +
                       " (ComputeInputRingBytes, word 4 bits 18:3): the wrap past the ring's end is not executed");
  }
}

// A copy of one row (no pass to wait for) from narrow memory at ComputeInputAt4 x 4, where a contiguous
// staging write put the tile's part of the pop: add_128_128's 0x14s write 4,096 - 1,024 k units from unit
// 1,024 with no level that revisits them, so no window exists; its copy reads the first row of them.
bool LleRung::ringRowWrittenInPlace(const models::DecodedPacket& packet, unsigned tile) const {
  const auto [groups, columns, rows] = ringCopyShape(packet.words);
  const uint64_t at = readField(packet.words, LleField::ComputeInputAt4) * kGroupBytesHere;
  return rows == 1 && !tiles_[tile].narrowSram.firstUnwritten(at, kGroupBytesHere * groups * columns);
}

// Once the window has filled: row r of the copy takes the window's next pass, each K group of it one
// output unit (identity_copy4.h).
void LleRung::computeRingIdentityCopy(const models::DecodedPacket& packet) {
  const auto words = packet.words;
  const auto [groups, columns, rows] = ringCopyShape(words);
  const auto [zpIn, zpOut, mult, lo, hi] = readEpilogue(packet);
  if (zpIn != 0) {
    refuse(packet, "ComputeZpIn = " + std::to_string(zpIn) + " in a 4-byte identity copy: an input zero point is not decoded for it "
                   "(the RingCanary identity computes have 0)");
  }
  const uint64_t outputAt = readField(words, LleField::ComputeOutputAt);
  const GroupedOutputNest out = groupedOutputNest(words, static_cast<int64_t>(outputAt / 4), groups);
  if (outputAt % 4 != 0 || out.units() != groups * columns * rows) {
    refuse(packet, "the output nest (w5, Output37, with the K groups as its implicit inner level) from ComputeOutputAt = " +
                       std::to_string(outputAt) + " covers " + std::to_string(out.units()) + " 4-byte units; the copy writes " +
                       std::to_string(groups) + " x " + std::to_string(columns) + " x " + std::to_string(rows));
  }
  const uint64_t rowBytes = kGroupBytesHere * groups * columns;
  const Requantizer requant(1.0f, mult, lo, hi, zpOut, config_.requantRounding);
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t))) continue;
    TileState& tile = tiles_[t];
    const bool blockAlone = tile.keptRead && tile.keptRead->size() == kBlockBytes;
    const bool blockAndZeros = tile.keptRead && tile.keptRead->size() == kBlockBytes + kZeroFillBytes &&
                               std::all_of(tile.keptRead->begin() + kBlockBytes, tile.keptRead->end(), [](uint8_t b) { return b == 0; });
    if (!blockAlone && !blockAndZeros) {
      refuse(packet, "tile " + std::to_string(t) + " of the 4-byte identity copy holds no kept 16-byte block (alone, or followed by " +
                         "256 zero bytes) from a 0x13");
    }
    refuseAnotherStream(packet, t);
    if (!out.staysInside(tile.narrowSram.capacity() / 4) || out.revisitsAUnit()) {
      refuse(packet, "the output nest (w5, Output37, K groups innermost) from ComputeOutputAt = " + std::to_string(outputAt) +
                         " leaves the narrow memory of tile " + std::to_string(t) + " or writes a unit twice");
    }
    // identityWindowFilled() found the window, or the row written in place (ringRowWrittenInPlace()).
    StagingWindow inPlace;
    StagingWindow* named = windowNamedBy(t, packet);
    if (!named) {
      const uint64_t inputUnit = readField(words, LleField::ComputeInputAt4);
      const auto bytes = tile.narrowSram.read(inputUnit * kGroupBytesHere, rowBytes);
      inPlace.firstUnit = inputUnit;
      inPlace.units = rowBytes / kGroupBytesHere;
      inPlace.passes = 1;
      inPlace.passBytes.emplace_back(bytes.begin(), bytes.end());
      named = &inPlace;
    }
    StagingWindow& window = *named;
    if (window.passesRead + rows > window.passBytes.size()) {
      refuse(packet, "tile " + std::to_string(t) + ": the staging window at unit " + std::to_string(window.firstUnit) + " holds " +
                         std::to_string(window.passBytes.size()) + " passes, " + std::to_string(window.passesRead) +
                         " already read; this compute reads " + std::to_string(rows) + " more");
    }
    for (uint64_t r = 0; r < rows; ++r) {
      if (window.passBytes[window.passesRead + r].size() < rowBytes) {
        refuse(packet, "tile " + std::to_string(t) + ": pass " + std::to_string(window.passesRead + r) + " of the staging window holds " +
                           std::to_string(window.passBytes[window.passesRead + r].size()) + " bytes, the 4-byte copy's row reads " +
                           std::to_string(rowBytes));
      }
    }
    const std::vector<uint8_t> block = *tile.keptRead;
    GroupIdentityCopy{groups, columns, rows}.run(window, window.passesRead, block, requant, out, tile.narrowSram);
    if (config_.lleComputeObserver) {
      reportComputeWrite(*config_.lleComputeObserver, packet, t, ComputeForm::kRingIdentityCopy, kGroupBytesHere,
                         positionAddresses(out, 1), tile.narrowSram);
    }
    window.passesRead += rows;
    macs_ += uint64_t{kGroupBytesHere} * rowBytes * rows;
  }
}

}  // namespace coralsim::lle

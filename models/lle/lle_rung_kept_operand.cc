// The kept operand at run time (docs/decoding-log.md "trk16" §B): the read routed (0, 1), marked Stage13TakenByCompute and
// Stage13FeedsReduction, that no compute waits for ("trk15" §C: its taker is the next compute on its tiles, checked
// statically by kept_operand_read.h) keeps its bytes -- gathered in its nest's order, the (0, 2, 1, 3) unit order of
// each 16-byte block in the trackers -- under its Stage13Channel; the weighing that names that channel
// (kept_operand_weighing.h, the normalisation @ 0x09cb / 0x0aec) takes them as its 16-bit weights.

#include <limits>
#include <string>
#include <variant>
#include <vector>

#include "models/lle/compute_epilogue.h"
#include "models/lle/identity_copy4.h"
#include "models/lle/input_byte_walk.h"
#include "models/lle/kept_operand_weighing.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"
#include "models/lle/requantizer.h"

namespace coralsim::lle {

using models::DecodedPacket;

void LleRung::keepOperandRead(const DecodedPacket& read, const StagedNest& reach) {
  const uint64_t channel = readField(read.words, LleField::Stage13Channel);
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(read.tileMask & (1u << t))) continue;
    TileState& tile = tiles_[t];
    auto bytes = gather(tile.narrowSram, reach);
    if (const uint64_t* hole = std::get_if<uint64_t>(&bytes)) {
      refuse(read, "tile " + std::to_string(t) + ": the kept operand's byte at narrow address " + std::to_string(*hole) + " was not written in this run");
    }
    tile.keptStreams[channel] = std::move(std::get<std::vector<uint8_t>>(bytes));
  }
}

void LleRung::computeKeptOperandWeighing(const DecodedPacket& packet) {
  const auto words = packet.words;
  const auto shape = KeptOperandWeighing::fromPacket(words);
  if (const auto* why = std::get_if<std::string>(&shape)) {
    refuse(packet, "4-byte input units weighed by unsigned 16-bit weights through a weight walk in 16-bit steps (the weighing by a kept operand): " + *why);
  }
  const KeptOperandWeighing& form = std::get<KeptOperandWeighing>(shape);
  refuseOtherLanesOrPrefix(packet, form.iterations() - 1, 0, "weighing by a kept operand: one output unit an iteration, no parameter prefix");
  const auto [zpIn, zpOut, mult, lo, hi] = readEpilogue(packet, true);
  if (zpIn != 0) refuse(packet, "ComputeZpIn = " + std::to_string(zpIn) + " in the weighing by a kept operand: how it enters a 16-bit element is not decoded");
  const int32_t bias = readComputeBias(words);
  const Requantizer requant(1.0f, mult, lo, hi, zpOut, config_.requantRounding);
  // The input: one 4-byte unit an iteration along Nest37 (level 0 fastest).
  const InputByteWalk walk = InputByteWalk::fromPacket(words, KeptOperandWeighing::kUnitBytes);
  uint64_t walked = 1;
  for (const uint64_t limit : walk.limits) walked *= limit + 1;
  if (walked != form.iterations()) {
    refuse(packet, "Nest37 walks " + std::to_string(walked) + " input units; the weighing by a kept operand counts " + std::to_string(form.iterations()));
  }
  const int64_t inputAt = static_cast<int64_t>(readField(words, LleField::ComputeInputAt4) * KeptOperandWeighing::kUnitBytes);
  const uint64_t outputAt = readField(words, LleField::ComputeOutputAt);
  if (outputAt % KeptOperandWeighing::kUnitBytes != 0) refuse(packet, "ComputeOutputAt = " + std::to_string(outputAt) + " is not a 4-byte unit");
  const GroupedOutputNest out = groupedOutputNest(words, static_cast<int64_t>(outputAt / KeptOperandWeighing::kUnitBytes), form.iterations());
  if (out.units() != form.iterations() || out.revisitsAUnit()) {
    refuse(packet, "the output nest (Output37, a position's ComputeLaneGroups + 1 units innermost) writes " + std::to_string(out.units()) +
                       " units (or one twice) for the " + std::to_string(form.iterations()) + " iterations");
  }
  const uint64_t tag = readField(words, LleField::ComputeStreamTag);
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t))) continue;
    TileState& tile = tiles_[t];
    const auto kept = tile.keptStreams.find(tag);
    if (kept == tile.keptStreams.end() || !kept->second) {
      refuse(packet, "tile " + std::to_string(t) + " holds no kept operand on ComputeStreamTag " + std::to_string(tag) +
                         " (the kept-operand read before it, Stage13FeedsReduction)");
    }
    if (!out.staysInside(tile.narrowSram.capacity() / KeptOperandWeighing::kUnitBytes)) {
      refuse(packet, "the output nest of tile " + std::to_string(t) + " leaves its narrow memory");
    }
    std::vector<uint8_t> units;
    units.reserve(form.iterations() * KeptOperandWeighing::kUnitBytes);
    std::array<uint64_t, InputByteWalk::kLevels> count{};
    for (uint64_t i = 0; i < form.iterations(); ++i) {
      int64_t at = inputAt;
      for (unsigned l = 0; l < InputByteWalk::kLevels; ++l) at += static_cast<int64_t>(count[l]) * walk.strideBytes[l];
      if (at < 0 || tile.narrowSram.firstUnwritten(static_cast<uint64_t>(at), KeptOperandWeighing::kUnitBytes)) {
        refuse(packet, "tile " + std::to_string(t) + " holds no input unit at narrow address " + std::to_string(at) + " of the weighing's input walk");
      }
      const auto bytes = tile.narrowSram.read(static_cast<uint64_t>(at), KeptOperandWeighing::kUnitBytes);
      units.insert(units.end(), bytes.begin(), bytes.end());
      for (unsigned l = 0; l < InputByteWalk::kLevels && ++count[l] > walk.limits[l]; ++l) count[l] = 0;
    }
    const auto products = form.products(units, *kept->second);
    if (const auto* why = std::get_if<std::string>(&products)) refuse(packet, "tile " + std::to_string(t) + ": the weighing by a kept operand: " + *why);
    std::vector<uint8_t> results;
    results.reserve(units.size());
    for (const int64_t product : std::get<std::vector<int64_t>>(products)) {
      const int64_t acc = product + bias;
      if (acc > std::numeric_limits<int32_t>::max()) {
        refuse(packet, "tile " + std::to_string(t) + ": a product of " + std::to_string(acc) + " leaves the 32-bit accumulator");
      }
      results.push_back(requant(static_cast<int32_t>(acc)));
    }
    uint64_t next = 0;
    bool inside = true;
    out.forEachUnit([&](int64_t unit) {
      inside = inside && unit >= 0 &&
               tile.narrowSram.write(static_cast<uint64_t>(unit) * KeptOperandWeighing::kUnitBytes,
                                     std::span<const uint8_t>(results).subspan(next * KeptOperandWeighing::kUnitBytes, KeptOperandWeighing::kUnitBytes));
      ++next;
    });
    if (!inside) refuse(packet, "the results of tile " + std::to_string(t) + " leave its narrow memory");
    macs_ += form.iterations() * KeptOperandWeighing::kUnitBytes;
  }
}

}  // namespace coralsim::lle

// The softmax's sum, opcode 0x03 (exp_sum_form.h, docs/decoding-log.md "sum03"), laid out as an 0x01 compute. Its form is the
// softmax max pass's (lle_rung_max_reduce.cc): beats of ComputeK4W0 + 1 four-byte groups (ComputeLimitW0[0] + 1 beats, Nest29
// repeating both levels), the w10 nest's level 0 counting the groups, an idle input nest, over the stream of the read kept for
// it on its tile (Stage13FeedsNormalise, ComputeStreamTag). ComputeWideWeights makes the stream's elements 16 bits (two a
// group): the exponentials the table computes wrote two bytes each ("exp19"). What is executed: the stream is taken, its
// elements summed, and ComputeNluApply beside w15 bit 27 applies the tile's table to ComputeMult times that sum, clamped,
// reduced by an even power of two into the table's factor of four (reduced_table_application.h, "trk14"), and the result
// is written in all four 16-bit lanes of the output unit pair at ComputeOutputAt ("trk14b" §A: a Guess, not read from the
// packet -- the chain after it carries the squared result whole only then).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"
#include "models/lle/reduced_table_application.h"
#include "models/lle/w0_last_run.h"

namespace coralsim::lle {

namespace {

constexpr uint64_t kGroupBytes = 4;    // a group is one 4-byte unit of the stream (the max pass's groups of 4 lanes)
constexpr uint64_t kOutputLanes = 4;   // the result's 16-bit lanes at ComputeOutputAt (8 bytes, what the read after the squaring takes)
constexpr uint64_t kElementBytes = 2;  // ComputeWideWeights: 16-bit elements, low byte first (as the exponentials wrote them)

}  // namespace

// Why the packet is not the sum's form the rung walks, or "" (static: no tile state needed).
std::string LleRung::sumFormProblem(std::span<const isa::Word128> words) {
  const uint64_t beatGroups = readField(words, LleField::ComputeK4W0) + 1;
  const uint64_t beats = readField(words, LleField::ComputeLimitW0, 0) + 1;
  const uint64_t groups = readField(words, LleField::ComputeK4W10) + 1;
  if (readField(words, LleField::ComputeInputBytes) != 0 || !isIdleInputNest(words)) {
    return "ComputeInputBytes (word 1 bits 83:81) = " + std::to_string(readField(words, LleField::ComputeInputBytes)) +
           " or an input nest that walks: a sum that reads an input is not decoded (every corpus 0x03 has an idle input nest)";
  }
  if (readField(words, LleField::ComputeWideWeights) != 1) {
    return "ComputeWideWeights (word 14 bit 55) = 0: a sum over one-byte elements is not decoded (every corpus 0x03 sums 16-bit ones)";
  }
  if (readField(words, LleField::ComputeK4W7) + 1 != beatGroups || readField(words, LleField::ComputeLimit29, 0) + 1 != beats) {
    return "Nest29's levels 0-1 (ComputeK4W7, ComputeLimit29[0] = " + std::to_string(readField(words, LleField::ComputeK4W7)) + ", " +
           std::to_string(readField(words, LleField::ComputeLimit29, 0)) + ") do not repeat the w0 nest's (" + std::to_string(beatGroups - 1) +
           ", " + std::to_string(beats - 1) + "): another walk is not decoded";
  }
  for (unsigned level = 1; level < fieldDef(LleField::ComputeLimitW0).count; ++level) {
    if (readField(words, LleField::ComputeLimitW0, level) != 0) {
      return "ComputeLimitW0[" + std::to_string(level) + "] = " + std::to_string(readField(words, LleField::ComputeLimitW0, level)) +
             ": a sum above two levels is not decoded";
    }
  }
  // The w10 nest counts the groups; the beats cover them, the last one shorter where ComputeW0LastRunLevel names level 1 (the
  // beats) and ComputeW0LastRun its groups - 1 (w0_last_run.h, docs/decoding-log.md "smx": MobileNet's 501 groups in 126 beats of
  // 4, the last 1; nin_cnn's 5 in 2 of 3, the last 2). Level 2 would shorten a level the sum does not count: refused above.
  if (const std::string problem = w0LastRunProblem(words); !problem.empty()) return problem;
  if (const uint64_t walked = beats * beatGroups - w0LastRunShortfall(words); groups != walked) {
    return "ComputeK4W10 + 1 = " + std::to_string(groups) + " groups are not the beat walk's ComputeLimitW0[0] + 1 = " + std::to_string(beats) +
           " beats of ComputeK4W0 + 1 = " + std::to_string(beatGroups) + " groups less the last beat's shortfall (ComputeW0LastRun, " +
           "ComputeW0LastRunLevel) = " + std::to_string(walked);
  }
  return "";
}

void LleRung::expSum(const models::DecodedPacket& packet) {
  const auto words = packet.words;
  if (const std::string problem = sumFormProblem(words); !problem.empty()) refuse(packet, problem);
  const uint64_t groups = readField(words, LleField::ComputeK4W10) + 1;
  const uint64_t tag = readField(words, LleField::ComputeStreamTag);
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t))) continue;
    TileState& tile = tiles_[t];
    if (!tile.keptReadFeedsNormalise || !tile.keptRead) {
      refuse(packet, "tile " + std::to_string(t) + " holds no read kept for an opcode-0x02 / 0x03 compute (Stage13FeedsNormalise): "
                     "where else a sum's stream comes from is not decoded");
    }
    if (tile.keptReadChannel != tag) {
      refuse(packet, "ComputeStreamTag (word 7 bits 74:63) = " + std::to_string(tag) + " is not the tag of the read kept for it on tile " +
                         std::to_string(t) + " (" + std::to_string(tile.keptReadChannel) + ")");
    }
    // The read's second nest is the sum's beat walk (read_beat_walk.h, docs/decoding-log.md "nin16"): groups a beat, beats.
    const uint64_t beatGroups = readField(words, LleField::ComputeK4W0);
    const uint64_t beats = readField(words, LleField::ComputeLimitW0, 0);
    if (tile.keptReadBeatWalk && (tile.keptReadBeatWalk->first != beatGroups || tile.keptReadBeatWalk->second != beats)) {
      refuse(packet, "ComputeK4W0 / ComputeLimitW0[0] = " + std::to_string(beatGroups) + " / " + std::to_string(beats) + " on tile " +
                         std::to_string(t) + " are not the beat walk of the read kept for the sum (Stage13Repeats / Stage13StreamBeats = " +
                         std::to_string(tile.keptReadBeatWalk->first) + " / " + std::to_string(tile.keptReadBeatWalk->second) + ")");
    }
    const std::vector<uint8_t>& stream = *tile.keptRead;
    if (stream.size() != groups * kGroupBytes) {
      refuse(packet, "the stream on tile " + std::to_string(t) + " holds " + std::to_string(stream.size()) + " bytes; the sum walks " +
                         std::to_string(groups) + " groups of " + std::to_string(kGroupBytes) + " (ComputeK4W10 + 1) = " +
                         std::to_string(groups * kGroupBytes));
    }
    uint64_t sum = 0;
    for (uint64_t at = 0; at < stream.size(); at += kElementBytes) sum += stream[at] | (uint64_t{stream[at + 1]} << 8);
    // The table's input: the sum times the multiplier, clamped, not rounded (nlu_apply.h's order: float32 products, then
    // the clamps); its application (reduced_table_application.h): into the table's factor of four, back by 2^-k.
    const float mult = readF32(words, LleField::ComputeMult);
    const float lo = readF32(words, LleField::ComputeClampLo);
    const float hi = readF32(words, LleField::ComputeClampHi);
    const float x = std::min(std::max(static_cast<float>(sum) * mult, lo), hi);
    if (!tile.nlu) {
      refuse(packet, "ComputeNluApply (word 15 bit 26) on tile " + std::to_string(t) + ", which holds no table (packet 0x19)");
    }
    const std::optional<ReducedTableApplication> applied = ReducedTableApplication::of(*tile.nlu, x);
    char said[192];
    std::snprintf(said, sizeof said, "sum %llu x ComputeMult %.9g = %.9g", static_cast<unsigned long long>(sum), static_cast<double>(mult),
                  static_cast<double>(x));
    if (!applied) {
      refuse(packet, "tile " + std::to_string(t) + ": the table's input (" + said + ") is not a finite positive number: "
                     "its reduction by an even power of two is not defined");
    }
    // The result in all four 16-bit lanes of its output unit pair (Guess, docs/decoding-log.md "trk14b" §A): the squaring
    // after it weighs the four lanes by themselves, the weighing after that spreads the bytes of the squares' 16-bit slots
    // over four 16-bit results that 0x0949's weights 1 / 256 rebuild -- a chain that carries u whole only if every slot
    // holds it. Not read from the 0x03's packet (its output nest is the max pass's one position).
    const uint64_t outputAt = readField(words, LleField::ComputeOutputAt);
    std::vector<uint8_t> lanes(kOutputLanes * kElementBytes);
    for (uint64_t at = 0; at < lanes.size(); at += kElementBytes) {
      lanes[at] = static_cast<uint8_t>(applied->result & 0xff);
      lanes[at + 1] = static_cast<uint8_t>(applied->result >> 8);
    }
    if (!tile.narrowSram.write(outputAt, lanes)) {
      refuse(packet, "ComputeOutputAt = " + std::to_string(outputAt) + ": the result's four 16-bit lanes leave tile " + std::to_string(t) +
                         "'s narrow memory");
    }
    // The sum consumes the read kept for it, stream and all: the squaring after it names the same tag and takes a streamed
    // read (23 / 23 corpus chains, "trk14" §C), so nothing stays kept under it.
    tile.keptRead.reset();
    tile.keptReadFeedsNormalise = false;
    tile.keptStreams.erase(tag);
  }
}

}  // namespace coralsim::lle

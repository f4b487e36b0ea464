// The max reduction, compute opcode 0x02 (docs/decoding-log.md "bright02"): the softmax's first passes in
// bright / the colour templates / MobileNet v1, and the pools of nin_cnn / ensemble / voice_commands, which are
// the graphs' maxima. Laid out as an 0x01 compute (its fields in lle_fields.def, Max02*); it walks its stream
// in groups of Max02Lanes bytes and writes lane j = the largest byte j of any group. Executed for the softmax
// form bright 64^2 shows: the stream one read before it on its one tile (the read kept for it, Stage13FeedsNormalise,
// or a sent read of one line), beats whose last may be shorter (Max02LastBeatLevel, "smx"), one-byte or four-byte groups. Its epilogue is 0x01's floats (Max02Mult,
// Max02ClampHi / Lo, docs/decoding-log.md "w15b61"): each lane's maximum times the multiplier, clamped, rounded; its
// zero points stay pinned (0) by the envelope. Every corpus pass's epilogue leaves a byte as it is.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"
#include "models/lle/max_pool_form.h"
#include "models/lle/requantizer.h"
#include "models/lle/w0_last_run.h"

namespace coralsim::lle {

namespace {

// One byte of the walk is the result's lane 0; four bytes are the four lanes of a group (the first pass over
// the softmax's input, whose four partial maxima a second pass of one-byte groups reduces).
bool executedLanes(uint64_t lanes) { return lanes == 1 || lanes == 4; }

// The pass's output element: a whole 4-byte unit. 0x01's ComputeOutputBytes place (w4[98:80]) holds 4 in all 123 corpus
// 0x02s -- the 23 one-lane passes among them -- where 0x01 writes 1 exactly in its one-byte-output computes
// (docs/decoding-log.md "trkrun" §A); the envelope pins it there (the 0x02 w4 row's bit 82), so every pass run writes 4 bytes.
constexpr uint64_t kMaxOutputElementBytes = 4;

// Why the pass's epilogue is not executed, or "". The maximum is taken before the epilogue: that order is
// the hardware's only if the epilogue never reverses two bytes, i.e. the multiplier is positive (every corpus 0x02:
// 1.0 or 1 - 2^-24); a negative one would turn the maximum into a minimum, not decoded.
std::string maxEpilogueProblem(float mult, float lo, float hi) {
  if (!std::isfinite(mult) || !(mult > 0.0f)) {
    return "Max02Mult (word 15 bits 60:29) = " + std::to_string(mult) + ": only a finite positive multiplier keeps the maximum the maximum";
  }
  if (std::isnan(lo) || std::isnan(hi) || lo > hi) {
    return "Max02ClampLo / Max02ClampHi (word 15 bits 124:93 / 92:61) = " + std::to_string(lo) + " / " + std::to_string(hi) +
           ": not an ordered pair of clamps";
  }
  return "";
}

}  // namespace

// Stage13MaxPassBeats (docs/decoding-log.md "bright02"): 0xffff in every read kept for a pass (38 / 38) and in the
// sent reads of another producer's bytes; otherwise the beats of the tile's last max pass, whose result is where the
// read starts (19 / 19 corpus reads between two passes). A wait, not an address: it moves no byte.
void LleRung::refuseMaxPassBeatsDisagreeing(const models::DecodedPacket& read, uint64_t address, bool keptForPass) const {
  constexpr uint64_t kNoPass = 0xffff;
  if (!fieldPresent(LleField::Stage13MaxPassBeats, read.words)) {
    refuse(read, "a read marked for a max pass (Stage13MaxPassMark) with Stage13W4Bit59 clear: never seen, not decoded");
  }
  const uint64_t beats = readField(read.words, LleField::Stage13MaxPassBeats);
  if (beats == kNoPass) return;
  if (keptForPass) {
    refuse(read, "Stage13MaxPassBeats (word 4 bits 58:43) = " + std::to_string(beats) +
                     " in a read kept for an opcode-0x02 / 0x03 compute: every corpus one holds 0xffff");
  }
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(read.tileMask & (1u << t))) continue;
    const auto& pass = tiles_[t].lastMaxPass;
    if (!pass || pass->outputAt != address || pass->beats != beats) {
      refuse(read, "Stage13MaxPassBeats (word 4 bits 58:43) = " + std::to_string(beats) + " on tile " + std::to_string(t) +
                       (pass ? ", whose last max pass wrote " + std::to_string(pass->beats) + " beats at narrow " + std::to_string(pass->outputAt)
                             : ", which ran no max pass") +
                       ", the read starting at " + std::to_string(address) + ": only the beats of the pass whose result it reads are decoded");
    }
  }
}

// The max pass's streamed read (max_pass_stream_read.h): the static check (LleRung::checkChunk) has paired it with the
// softmax-form 0x02 next on its tiles naming its channel and walking its bytes. Its bytes are taken now, in its nest's
// order, and held as a read kept for a pass (Stage13FeedsNormalise): no 0x01 compute and no send may take them
// (lle_rung.cc), and maxReduce checks the tag and the byte count again at run time.
void LleRung::keepReadForMaxPass(const models::DecodedPacket& packet, const StagedNest& reach, uint64_t channel) {
  keepRead(packet, reach, 0, channel, 0);
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t))) continue;
    tiles_[t].keptReadFeedsNormalise = true;
    tiles_[t].keptReadBeatWalk.reset();  // no second nest: the pass walks the bytes the static check paired it with
  }
}

void LleRung::maxReduce(const models::DecodedPacket& packet) {
  const auto words = packet.words;
  if (isMaxPoolForm(static_cast<uint8_t>(packet.opcode), words)) {  // Max02Lanes 0: 0x01's layout, the pool's window walk
    // Laid out as 0x01: its w0 nest's shorter last iteration (w0_last_run.h) is 0 in all 81 corpus pools; the window walk has none.
    if (const uint64_t level = readField(words, LleField::ComputeW0LastRunLevel); level != 0) {
      refuse(packet, fieldText(LleField::ComputeW0LastRunLevel, level) + " in a max pool: a shorter last iteration of its walk is not executed");
    }
    computeMaxPool(packet);
    return;
  }
  const uint64_t beatGroups = readField(words, LleField::Max02BeatGroups);
  const uint64_t beats = readField(words, LleField::Max02Beats);
  const uint64_t groups = readField(words, LleField::Max02Groups) + 1;
  const uint64_t lanes = readField(words, LleField::Max02Lanes);
  const uint64_t tag = readField(words, LleField::Max02StreamTag);
  const uint64_t outputAt = readField(words, LleField::Max02OutputAt);
  // Nest29 repeats the w0 nest's two levels (123 / 123 corpus 0x02s): another walk there is not decoded.
  if (readField(words, LleField::Max02BeatGroupsNest29) != beatGroups || readField(words, LleField::Max02BeatsNest29) != beats) {
    refuse(packet, "Max02BeatGroupsNest29 / Max02BeatsNest29 (word 7 bits 103:90 / 132:119) = " +
                       std::to_string(readField(words, LleField::Max02BeatGroupsNest29)) + " / " +
                       std::to_string(readField(words, LleField::Max02BeatsNest29)) + " are not Max02BeatGroups / Max02Beats = " +
                       std::to_string(beatGroups) + " / " + std::to_string(beats) + ": another walk is not decoded");
  }
  if (!executedLanes(lanes)) {
    refuse(packet, "Max02Lanes (word 9 bits 75:64) = " + std::to_string(lanes) +
                       ": only groups of one or four bytes are executed (the pools' 0 walks windows, not decoded)");
  }
  // The walk's level 0 steps one group: its carry back over the beat is -lanes x beatGroups bytes.
  const int64_t wrap = static_cast<int64_t>(readField(words, LleField::Max02StepWrap) ^ 0x1000) - 0x1000;
  const int64_t carry = 4 * wrap + static_cast<int64_t>(readField(words, LleField::Max02StepCarryLow));
  if (carry != -static_cast<int64_t>(lanes * beatGroups)) {
    refuse(packet, "the Nest29 level-0 carry 4 x Max02StepWrap + Max02StepCarryLow (word 8 bits 19:7, word 7 bits 105:104) = " +
                       std::to_string(carry) + " bytes is not -Max02Lanes x Max02BeatGroups = -" + std::to_string(lanes * beatGroups) +
                       ": a walk that does not step one group is not decoded");
  }
  // The beats cover the groups, the last one shorter where Max02LastBeatLevel says so (w0_last_run.h, docs/decoding-log.md "smx":
  // 42 / 42 corpus passes). The maximum is the same whichever beat a group is in: the walk paces, the groups are reduced.
  if (const std::string problem = max02LastBeatProblem(words); !problem.empty()) refuse(packet, problem);
  if (const uint64_t walked = max02WalkGroups(words); groups != walked) {
    refuse(packet, "Max02Groups + 1 = " + std::to_string(groups) + " is not the beat walk's (Max02Beats + 1) x (Max02BeatGroups + 1) = " +
                       std::to_string((beats + 1) * (beatGroups + 1)) + " groups less the last beat's shortfall (Max02LastBeatGroups, " +
                       "Max02LastBeatLevel) = " + std::to_string(walked));
  }
  const uint64_t bytes = groups * lanes;
  const float mult = readF32(words, LleField::Max02Mult);
  const float lo = readF32(words, LleField::Max02ClampLo);
  const float hi = readF32(words, LleField::Max02ClampHi);
  if (const std::string problem = maxEpilogueProblem(mult, lo, hi); !problem.empty()) refuse(packet, problem);
  // The addend and the output zero point ("nin15" §B): every corpus pass subtracts the scores' zero point Z and adds it back,
  // so the maximum byte comes out as it went in. The number at the weight zero point's place is Z again (no weight): checked.
  const int64_t bias = static_cast<int32_t>(static_cast<uint32_t>(readField(words, LleField::Max02Bias)));
  const auto zpOut = static_cast<int32_t>(readField(words, LleField::Max02ZpOut));
  if (const uint64_t zpWeight = readField(words, LleField::Max02ZpWeight); zpWeight != static_cast<uint64_t>(zpOut)) {
    refuse(packet, "Max02ZpWeight (word 14 bits 70:62) = " + std::to_string(zpWeight) + " is not Max02ZpOut (word 16 bits 37:29) = " +
                       std::to_string(zpOut) + ": every corpus pass holds the scores' zero point in both; another value is not decoded");
  }
  if (zpOut > 255) refuse(packet, "Max02ZpOut (word 16 bits 37:29) = " + std::to_string(zpOut) + " above 255");
  const Requantizer epilogue(1.0f, mult, lo, hi, zpOut, config_.requantRounding);
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t))) continue;
    TileState& tile = tiles_[t];
    // The stream: the read kept for this pass, or a sent read of one line (one 4-byte group, "bright10").
    std::vector<uint8_t> stream;
    if (tile.keptReadFeedsNormalise) {
      if (!tile.keptRead) refuse(packet, "tile " + std::to_string(t) + " holds no bytes for its kept read (stream " + std::to_string(tile.keptReadChannel) + ")");
      if (tile.keptReadChannel != tag) {
        refuse(packet, "Max02StreamTag (word 7 bits 74:63) = " + std::to_string(tag) + " is not the tag of the read kept for it on tile " +
                           std::to_string(t) + " (" + std::to_string(tile.keptReadChannel) + ")");
      }
      stream = *tile.keptRead;
      // The read's second nest is this pass's beat walk (read_beat_walk.h, docs/decoding-log.md "nin16"): 42 / 42 corpus takers.
      if (tile.keptReadBeatWalk && (tile.keptReadBeatWalk->first != beatGroups || tile.keptReadBeatWalk->second != beats)) {
        refuse(packet, "Max02BeatGroups / Max02Beats = " + std::to_string(beatGroups) + " / " + std::to_string(beats) + " on tile " +
                           std::to_string(t) + " are not the beat walk of the read kept for it (Stage13Repeats / Stage13StreamBeats = " +
                           std::to_string(tile.keptReadBeatWalk->first) + " / " + std::to_string(tile.keptReadBeatWalk->second) + ")");
      }
    } else if (tile.stagedReadAt && tile.stagedReadForMaxPass && tile.stagedReadBytes == 0 && tile.stagedReadRepeats == 0) {
      if (tile.stagedReadChannel != tag) {
        refuse(packet, "Max02StreamTag (word 7 bits 74:63) = " + std::to_string(tag) + " is not the tag of the read before it on tile " +
                           std::to_string(t) + " (" + std::to_string(tile.stagedReadChannel) + ")");
      }
      const uint64_t at = *tile.stagedReadAt;
      if (const auto hole = tile.narrowSram.firstUnwritten(at, 4); hole || at + 4 > tile.narrowSram.capacity()) {
        refuse(packet, "the one-line read before it on tile " + std::to_string(t) + " covers narrow byte " +
                           std::to_string(hole.value_or(at)) + ", not written in this run");
      }
      const auto line = tile.narrowSram.read(at, 4);
      stream.assign(line.begin(), line.end());
    } else {
      refuse(packet, "tile " + std::to_string(t) + " holds neither a read kept for an opcode-0x02 / 0x03 compute nor a sent read of one line "
                     "marked for it (Stage13MaxPassMark): where else its stream comes from is not decoded");
    }
    const uint64_t waits = readField(words, LleField::Max02WaitCount);
    const uint64_t namedBeats = tile.keptReadFeedsNormalise ? 0 : tile.stagedReadMaxPassBeats;
    if (waits != 1 + namedBeats) {
      refuse(packet, "Max02WaitCount (word 12 bits 63:50) = " + std::to_string(waits) + " on tile " + std::to_string(t) + ": its read names " +
                         std::to_string(namedBeats) + " beats of a pass before it (Stage13MaxPassBeats), and every corpus pass waits for 1 + those");
    }
    if (stream.size() != bytes) {
      refuse(packet, "the stream on tile " + std::to_string(t) + " holds " + std::to_string(stream.size()) + " bytes; the reduction walks " +
                         std::to_string(groups) + " groups of " + std::to_string(lanes) + " (Max02Groups, Max02Lanes) = " + std::to_string(bytes));
    }
    std::vector<uint8_t> result(lanes, 0);
    for (uint64_t g = 0; g < groups; ++g) {
      for (uint64_t j = 0; j < lanes; ++j) result[j] = std::max(result[j], stream[g * lanes + j]);
    }
    for (uint8_t& lane : result) lane = epilogue(static_cast<int32_t>(lane + bias));
    // The pass writes a whole 4-byte output element: the lanes it counts hold their maxima, the others
    // values not decoded, left undefined ("trkrun" §A) -- not what an earlier packet wrote there.
    if (outputAt + kMaxOutputElementBytes > tile.narrowSram.capacity() || !tile.narrowSram.write(outputAt, result)) {
      refuse(packet, "Max02OutputAt (word 4 bits 79:62) = " + std::to_string(outputAt) + " + " + std::to_string(kMaxOutputElementBytes) +
                         " bytes lies outside narrow memory");
    }
    if (lanes < kMaxOutputElementBytes) tile.narrowSram.forget(outputAt + lanes, kMaxOutputElementBytes - lanes);
    tile.keptRead.reset();
    tile.keptReadFeedsNormalise = false;
    tile.keptReadSequence = 0;
    tile.stagedReadAt.reset();
    tile.stagedReadBytes = 0;
    tile.stagedReadForMaxPass = false;
    tile.stagedReadMaxPassBeats = 0;
    tile.lastMaxPass = TileState::MaxPassResult{outputAt, beats + 1};
  }
}

}  // namespace coralsim::lle

#include "models/lle/read_beat_walk.h"

#include "models/isa/number_text.h"
#include "models/lle/exp_sum_form.h"
#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

std::string readBeatWalkLastRunProblem(std::span<const isa::Word128> words) {
  if (!fieldPresent(LleField::Stage13RepeatLastRunLevel, words)) return "";
  const uint64_t level = readField(words, LleField::Stage13RepeatLastRunLevel);
  if (level == 0) return "";
  // Every corpus read with the triple names level 1, the beats (14 / 14): another level's last iteration is not decoded.
  if (level != 1) {
    return fieldText(LleField::Stage13RepeatLastRunLevel, level) +
           ": every corpus read with a shorter last beat names level 1 of its second nest (14 / 14); another level is not decoded";
  }
  // The two-level second nest ("st13") lays its slots out otherwise (w3[34:19] is its level-1 limit over the rows): never seen
  // with the triple.
  if (readField(words, LleField::Stage13RepeatLevel1On) != 0) {
    return fieldText(LleField::Stage13RepeatLastRunLevel, level) +
           " with Stage13RepeatLevel1On (word 3 bit 102): a shorter last iteration of the rows' second nest is not decoded";
  }
  const uint64_t beats = readField(words, LleField::Stage13StreamBeats);
  if (beats == 0) {
    return fieldText(LleField::Stage13RepeatLastRunLevel, level) +
           " while Stage13StreamBeats = 0: a level 1 that runs once has no last beat apart from its first (14 / 14 corpus reads count it)";
  }
  const uint64_t limit = readField(words, LleField::Stage13Repeats);
  const uint64_t run = readField(words, LleField::Stage13RepeatLastRun);
  const uint64_t rest = readField(words, LleField::Stage13RepeatLastShort);
  if (run > limit || rest != limit - run) {
    return fieldText(LleField::Stage13RepeatLastShort, rest) + " with " + fieldText(LleField::Stage13RepeatLastRun, run) +
           " does not split Stage13Repeats = " + std::to_string(limit) +
           ", the second nest's level-0 limit, into the last beat's run and its rest (14 / 14 corpus reads do; docs/decoding-log.md \"nin16\")";
  }
  return "";
}

uint64_t readBeatWalkGroups(std::span<const isa::Word128> words) {
  const uint64_t whole = (readField(words, LleField::Stage13Repeats) + 1) * (readField(words, LleField::Stage13StreamBeats) + 1);
  const bool shortLast = readField(words, LleField::Stage13RepeatLastRunLevel) != 0;
  return whole - (shortLast ? readField(words, LleField::Stage13RepeatLastShort) : 0);
}

std::string sentIntoSumProblem(std::span<const isa::Word128> words) {
  const uint64_t mark = readField(words, LleField::Stage13SentIntoSum);
  if (mark == 0) return "";
  const std::string said = fieldText(LleField::Stage13SentIntoSum, mark);
  if (readField(words, LleField::Stage13Route, 0) != 1 || readField(words, LleField::Stage13Route, 1) != 1) {
    return said + " in a read not routed (1, 1): every corpus read with the mark is sent (4 / 4); another route is not decoded";
  }
  if (!fieldPresent(LleField::Stage13MaxPassMark, words) || readField(words, LleField::Stage13MaxPassMark) == 0) {
    return said + " without Stage13MaxPassMark (word 4 bit 35): every corpus read with the mark is marked for a softmax pass (4 / 4)";
  }
  if (readField(words, LleField::Stage13RepeatOn) == 0 || readField(words, LleField::Stage13RepeatLevel1On) != 0) {
    return said + " without the one-level second nest (Stage13RepeatOn set, Stage13RepeatLevel1On clear): the sum's beat walk "
                  "is the only form seen (4 / 4)";
  }
  return "";
}

std::string sentIntoSumTakerProblem(std::span<const models::DecodedPacket> packets, size_t index) {
  const models::DecodedPacket& read = packets[index];
  if (static_cast<uint8_t>(read.opcode) != fieldDef(LleField::Stage13SentIntoSum).opcode ||
      readField(read.words, LleField::Stage13SentIntoSum) == 0) {
    return "";
  }
  const uint64_t channel = readField(read.words, LleField::Stage13Channel);
  uint32_t unseen = read.tileMask;  // tiles whose next compute is still to come
  for (size_t i = index + 1; i < packets.size() && unseen != 0; ++i) {
    const models::DecodedPacket& p = packets[i];
    const auto op = static_cast<uint8_t>(p.opcode);
    const bool compute = op == 0x01 || op == 0x02 || isSumOpcode(op);
    if (p.action != models::PacketAction::kIssue || !p.tilePacket || !compute || (p.tileMask & unseen) == 0) continue;
    const std::string at = "the next compute on its tiles, opcode " + isa::formatHex(op, 2) + " at PC 0x" + isa::formatAddress(p.pc);
    if (!isSumOpcode(op)) return at + ", is no sum (opcode 0x03)";
    if (p.tileMask != read.tileMask) return at + ", runs on tiles " + isa::formatHex(p.tileMask) + ", not the read's " + isa::formatHex(read.tileMask);
    if (const uint64_t tag = readField(p.words, LleField::ComputeStreamTag); tag != channel) {
      return at + ", sums stream " + std::to_string(tag) + " (ComputeStreamTag), not the read's " + std::to_string(channel);
    }
    const uint64_t beatGroups = readField(p.words, LleField::ComputeK4W0);
    const uint64_t beats = readField(p.words, LleField::ComputeLimitW0, 0);
    if (beatGroups != readField(read.words, LleField::Stage13Repeats) || beats != readField(read.words, LleField::Stage13StreamBeats)) {
      return at + ", walks beats of ComputeK4W0 + 1 = " + std::to_string(beatGroups + 1) + " groups, ComputeLimitW0[0] + 1 = " +
             std::to_string(beats + 1) + " beats; the read's second nest names " +
             std::to_string(readField(read.words, LleField::Stage13Repeats) + 1) + " and " +
             std::to_string(readField(read.words, LleField::Stage13StreamBeats) + 1);
    }
    unseen &= ~p.tileMask;
  }
  if (unseen != 0) return "no compute follows it on tiles " + isa::formatHex(unseen);
  return "";
}

}  // namespace coralsim::lle

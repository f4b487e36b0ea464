#include "models/lle/partner_copy.h"

#include <algorithm>
#include <cstdio>
#include <span>
#include <vector>

#include "models/isa/opcodes.h"
#include "models/lle/field_relations.h"
#include "models/lle/kept_stream_write.h"
#include "models/lle/kept_write_marks.h"
#include "models/lle/lle_fields.h"
#include "models/lle/read_copy_watch.h"
#include "models/lle/receive_slice.h"
#include "models/lle/write_nest.h"

namespace coralsim::lle {

namespace {

struct PartnerCopy {
  LleField field;
  uint8_t partner;
};

constexpr PartnerCopy kPartnerCopies[] = {
#define CORAL_LLE_PARTNER_COPY(field, partner) PartnerCopy{LleField::field, partner},
#define CORAL_LLE_PARTNER_COPY_PART(part)  // a part is compared as a bit of its copy field
#include "models/lle/lle_partner_copies.def"
#undef CORAL_LLE_PARTNER_COPY_PART
#undef CORAL_LLE_PARTNER_COPY
};

// A partner loop that runs once: its step is never applied, so the copy may hold 0 or 1 there.
struct IdleStep {
  LleField step;
  LleField limit;
};

constexpr IdleStep kIdleSteps[] = {
#define CORAL_LLE_PARTNER_IDLE_STEP(step, limit) IdleStep{LleField::step, LleField::limit},
#include "models/lle/lle_partner_idle_steps.def"
#undef CORAL_LLE_PARTNER_IDLE_STEP
};

// A partner's wait (lle_partner_waits.def): the copy may hold 0 there instead of the partner's value.
constexpr LleField kPartnerWaits[] = {
#define CORAL_LLE_PARTNER_WAIT(field) LleField::field,
#include "models/lle/lle_partner_waits.def"
#undef CORAL_LLE_PARTNER_WAIT
};

constexpr uint8_t kSync = 0x1a;
constexpr uint64_t kReceiveRowBytes = 256;  // a receive row: 64 lanes x 4 bytes (as the parameter form's rows)  // a tile fence: orders, moves no data, so it does not break a pairing

std::string hexByte(uint8_t value) {
  char text[8];
  std::snprintf(text, sizeof text, "0x%02x", value);
  return text;
}

bool copiesAPartner(uint8_t opcode) {
  for (const PartnerCopy& c : kPartnerCopies) {
    if (fieldDef(c.field).opcode == opcode) return true;
  }
  return false;
}

uint8_t partnerOpcode(uint8_t opcode) {
  for (const PartnerCopy& c : kPartnerCopies) {
    if (fieldDef(c.field).opcode == opcode) return c.partner;
  }
  return 0;
}

bool bitAt(std::span<const isa::Word128> words, uint32_t bit) {
  return bit / 128 < words.size() && words[bit / 128].bits(bit % 128, 1) != 0;
}

// "Stage14PartnerW0 (word 0 bits 127:62) differs in bits 73:70, 65" or "" when every bit agrees. A
// copy field's elements lie back to back (lle_partner_copies.def), so it is one range of bits.
std::string fieldDifference(const LleFieldDef& f, std::span<const isa::Word128> mine,
                            std::span<const isa::Word128> theirs) {
  const int first = static_cast<int>(f.lsb);
  const int last = static_cast<int>(f.lsb + (f.count - 1u) * f.stride + f.width) - 1;
  const auto differs = [&](int b) {
    return bitAt(mine, static_cast<uint32_t>(b)) != bitAt(theirs, static_cast<uint32_t>(b));
  };
  std::string runs;
  for (int b = last; b >= first;) {
    if (!differs(b)) {
      --b;
      continue;
    }
    const int hi = b;
    while (b >= first && differs(b)) --b;
    if (!runs.empty()) runs += ", ";
    runs += std::to_string(hi % 128);
    if (b + 1 != hi) runs += ":" + std::to_string((b + 1) % 128);
  }
  if (runs.empty()) return "";
  return std::string(f.name) + " (word " + std::to_string(first / 128) + " bits " + std::to_string(last % 128) + ":" +
         std::to_string(first % 128) + ") differs in bits " + runs;
}

// Which of the partner's own fields the copied bits `first` .. `last` that differ are ("add128" §A): its
// fields present in its form ("Recv11ExecRun, Recv11ExecWrap[0]") and, for bits no such field holds,
// "w0[73:62] of no decoded field". So a refusal says what the disagreement means in the partner.
std::string partnerFieldsHolding(uint8_t partner, std::span<const isa::Word128> partnerWords, std::span<const isa::Word128> copy,
                                 uint32_t first, uint32_t last) {
  std::vector<bool> differs(last + 1, false), named(last + 1, false);
  for (uint32_t b = first; b <= last; ++b) differs[b] = bitAt(copy, b) != bitAt(partnerWords, b);
  std::string names;
  for (size_t i = 0; i < std::size(kLleFields); ++i) {
    const LleFieldDef& f = kLleFields[i];
    if (f.opcode != partner || !fieldPresent(static_cast<LleField>(i), partnerWords)) continue;
    for (unsigned e = 0; e < f.count; ++e) {
      bool hit = false;
      for (uint32_t b = f.lsb + e * f.stride; b < f.lsb + e * f.stride + f.width && b <= last; ++b) {
        if (b < first || !differs[b]) continue;
        hit = true;
        named[b] = true;
      }
      if (!hit) continue;
      names += (names.empty() ? "" : ", ") + std::string(f.name) + (f.count > 1 ? "[" + std::to_string(e) + "]" : "");
    }
  }
  std::string rest;
  for (uint32_t b = last + 1; b-- > first;) {
    if (!differs[b] || named[b]) continue;
    uint32_t low = b;
    while (low > first && differs[low - 1] && !named[low - 1]) --low;
    rest += (rest.empty() ? "" : ", ") + ("w" + std::to_string(b / 128) + "[" + std::to_string(b % 128)) +
            (low != b ? ":" + std::to_string(low % 128) : "") + "]";
    b = low;
  }
  if (!rest.empty()) names += (names.empty() ? "" : "; ") + rest + " of no decoded field";
  return names.empty() ? "" : " (the " + hexByte(partner) + "'s " + names + ")";
}

void writeField(std::span<isa::Word128> words, LleField field, uint64_t value, unsigned element = 0) {
  const LleFieldDef& f = fieldDef(field);
  const uint32_t lsb = f.lsb + element * f.stride;
  words[lsb / 128].setBits(lsb % 128, f.width, value);
}

// A receive descriptor without an inner level (Stage14CopyInnerLevel clear) in the one state every such
// execution-only receive of the corpus holds (734 / 734, docs/decoding-log.md "win14" §A): its one loop,
// the run, at level 0, and count 1, step 0, flag 0, wraps and the upper levels' limits 0 — bits the form
// does not use. Only this state is re-read in the other layout; anything else is compared as it stands.
bool runOnlyDescriptor(std::span<const isa::Word128> words) {
  if (readField(words, LleField::Stage14CopyInnerLevel) != 0) return false;
  for (unsigned level = 1; level < fieldDef(LleField::Stage14CopyLimit).count; ++level) {
    if (readField(words, LleField::Stage14CopyLimit, level) != 0) return false;
  }
  for (unsigned level = 0; level < fieldDef(LleField::Stage14CopyWrap).count; ++level) {
    if (readField(words, LleField::Stage14CopyWrap, level) != 0) return false;
  }
  return readField(words, LleField::Stage14CopyCount) == 1 && readField(words, LleField::Stage14CopyStep) == 0 &&
         readField(words, LleField::Stage14CopyFlag) == 0;
}

// The run of a receive without an inner level, written in the layout with one (docs/decoding-log.md "win14"):
// an inner level 0 that runs once (limit 0, its wrap -0, count 1, step 1, flag 1 — the values every such copy
// holds, 34 / 34) and the run one level up. The number of iterations, (0 + 1) x (run + 1), is the receive's.
void runOneLevelUp(std::span<isa::Word128> words) {
  const uint64_t run = readField(words, LleField::Stage14CopyLimit, 0);
  writeField(words, LleField::Stage14CopyInnerLevel, 1);
  writeField(words, LleField::Stage14CopyLimit, 0, 0);
  writeField(words, LleField::Stage14CopyLimit, run, 1);
  writeField(words, LleField::Stage14CopyCount, 1);
  writeField(words, LleField::Stage14CopyStep, 1);
  writeField(words, LleField::Stage14CopyFlag, 1);
}

// The partner's words as the copy is compared with them: a copy with an inner level (Stage14CopyInnerLevel)
// of an execution-only receive without one sees the receive's run one level up; then a wait the copy holds as 0
// (lle_partner_waits.def) reads 0, and each idle step (a loop of limit 0) whose value differs from the copy's
// only in its lowest bit takes the copy's value.
std::vector<isa::Word128> partnerAsCompared(std::span<const isa::Word128> copy, const models::DecodedPacket& partner) {
  std::vector<isa::Word128> words(partner.words.begin(), partner.words.end());
  if (copy.size() > 1 && words.size() > 2 && readField(words, LleField::Recv11ExecutionForm) == 1 &&
      readField(copy, LleField::Stage14CopyInnerLevel) == 1 && runOnlyDescriptor(words)) {
    runOneLevelUp(words);
  }
  for (const LleField wait : kPartnerWaits) {
    const LleFieldDef& f = fieldDef(wait);
    if (f.opcode != static_cast<uint8_t>(partner.opcode) || !fieldPresent(wait, words)) continue;
    if (f.lsb / 128 >= copy.size() || readField(copy, wait) != 0) continue;
    writeField(words, wait, 0);
  }
  for (const IdleStep& s : kIdleSteps) {
    const LleFieldDef& step = fieldDef(s.step);
    if (step.opcode != static_cast<uint8_t>(partner.opcode) || !fieldPresent(s.step, words) ||
        readField(words, s.limit) != 0) {
      continue;
    }
    if (step.lsb / 128 >= copy.size() || step.lsb / 128 >= words.size()) continue;
    const uint64_t mine = readField(copy, s.step);
    if ((mine ^ readField(words, s.step)) != 1) continue;
    words[step.lsb / 128].setBits(step.lsb % 128, 1, mine & 1u);
  }
  return words;
}

// A receive without an inner level takes Recv11ExecRun + 1 rows of 256 bytes: what the write copying it
// puts on each tile, its nest's units x 4 bytes (docs/decoding-log.md "win14" §B). "" when they agree or
// the partner has another form (its inner level's loops are not decoded: pinned by its envelope).
std::string runAgainstWrite(std::span<const isa::Word128> write, const models::DecodedPacket& partner) {
  if (readField(partner.words, LleField::Recv11ExecutionForm) == 0 ||
      readField(partner.words, LleField::Recv11ExecInnerLevel) != 0) {
    return "";
  }
  const uint64_t rows = readField(partner.words, LleField::Recv11ExecRun) + 1;
  const uint64_t written = WriteNest::fromPacket(write).units() * 4;
  if (rows * kReceiveRowBytes == written) return "";
  return "Recv11ExecRun = " + std::to_string(rows - 1) + " (" + std::to_string(rows) + " rows of " +
         std::to_string(kReceiveRowBytes) + " bytes) where the write copying it puts " + std::to_string(written) +
         " bytes on each tile (docs/decoding-log.md \"win14\" §B)";
}

}  // namespace

std::string PartnerCopyWatch::comparePartner(const Awaiting& copy, const models::DecodedPacket& partner,
                                             std::optional<ReceiveSlice>& slice) {
  slice.reset();
  std::string differences;
  const std::vector<isa::Word128> theirs = partnerAsCompared(copy.words, partner);
  for (const PartnerCopy& c : kPartnerCopies) {
    const LleFieldDef& f = fieldDef(c.field);
    if (f.opcode != copy.opcode) continue;
    const std::string d = fieldDifference(f, copy.words, theirs);
    if (d.empty()) continue;
    if (!differences.empty()) differences += "; ";
    differences += d + partnerFieldsHolding(c.partner, theirs, copy.words, f.lsb, f.lsb + (f.count - 1u) * f.stride + f.width - 1);
  }
  if (differences.empty()) {
    const std::string run = runAgainstWrite(copy.words, partner);
    if (run.empty()) return "";
    return "opcode " + hexByte(static_cast<uint8_t>(partner.opcode)) + " (" +
           std::string(isa::opcodeInfo(partner.opcode).mnemonic) + ") at " +
           models::describePacketLocation(partner.pc, partner.words[0]) + ": " + run + ", the " + hexByte(copy.opcode) +
           " at " + models::describePacketLocation(copy.pc, copy.words[0]);
  }
  // A copy that is not the receive may be its tile's slice of it (receive_slice.h, "prefix14" §A).
  std::string notASlice;
  if (static_cast<uint8_t>(partner.opcode) == 0x11) {
    slice = sliceOfReceive(copy.words, partner.words, &notASlice);
    if (slice) return "";
  }
  return "opcode " + hexByte(copy.opcode) + " (" +
         std::string(isa::opcodeInfo(static_cast<isa::Opcode>(copy.opcode)).mnemonic) + ") at " +
         models::describePacketLocation(copy.pc, copy.words[0]) +
         ": its copy of the " + hexByte(partnerOpcode(copy.opcode)) + " next on its tiles (at " +
         models::describePacketLocation(partner.pc, partner.words[0]) + ") disagrees: " + differences +
         (notASlice.empty() ? "" : "; nor is it its tile's slice of the receive: " + notASlice) +
         " (docs/decoding-log.md \"pair14\", \"prefix14\")";
}

std::string PartnerCopyWatch::observe(const models::DecodedPacket& packet, const std::string& pinnedRefusal,
                                      EnvelopeSet set) {
  const auto op = static_cast<uint8_t>(packet.opcode);
  if (packet.tilePacket && op != kSync) {
    std::array<std::optional<ReceiveSlice>, kTiles> slices;
    for (unsigned t = 0; t < kTiles; ++t) {
      if (!(packet.tileMask & (1u << t)) || !awaiting_[t]) continue;
      const Awaiting copy = std::move(*awaiting_[t]);
      awaiting_[t].reset();
      if (op != partnerOpcode(copy.opcode)) {
        return copy.pinnedRefusal + "; read as a copy of its partner's, they need a " + hexByte(partnerOpcode(copy.opcode)) +
               " next on tile " + std::to_string(t) + ", where opcode " + hexByte(op) + " at " +
               models::describePacketLocation(packet.pc, packet.words[0]) + " comes (docs/decoding-log.md \"pair14\")";
      }
      if (std::string why = comparePartner(copy, packet, slices[t]); !why.empty()) return why;
    }
    if (std::string why = dealtOut(packet, slices); !why.empty()) return why;
  }
  if (packet.tilePacket && op == 0x13 && isKeptRead(packet.words)) {
    const uint64_t channel = readField(packet.words, LleField::Stage13Channel);
    for (unsigned t = 0; t < kTiles; ++t) {
      if (packet.tileMask & (1u << t)) keptReads_[t][channel].assign(packet.words.begin(), packet.words.end());
    }
  }
  if (packet.tilePacket && copiesAPartner(op) && isKeptStreamWrite(packet.words)) {
    // Its partner came before it: compared now, never awaited.
    if (!pinnedRefusal.empty()) {
      if (const std::string rest = checkEnvelope(packet, set, PartnerBits::kComparedWithPartner); !rest.empty()) {
        if (rest == pinnedRefusal) return pinnedRefusal;
        const auto at = rest.find(": word ");
        return pinnedRefusal + "; with its copy of a kept read set aside, still" + (at == std::string::npos ? ": " + rest : rest.substr(at + 1));
      }
    }
    return compareKeptRead(packet);
  }
  if (pinnedRefusal.empty()) return "";
  if (!packet.tilePacket || !copiesAPartner(op)) return pinnedRefusal;
  if (takesTheReadBeforeIt(packet.words)) {
    // Its partner is the read just before it on its tiles (read_copy_watch.h checks that read's stream against its
    // Stage14CopyStream, docs/decoding-log.md "mnv1b"); the rest of the copied bits are not compared: its
    // Stage14CopyLimit[0] is the read's Stage13OuterLimit[0] in 67 of the 130 corpus tile-reads only.
    const std::string rest = checkEnvelope(packet, set, PartnerBits::kComparedWithPartner);
    if (rest.empty()) return "";
    if (rest == pinnedRefusal) return pinnedRefusal;
    const auto at = rest.find(": word ");
    return pinnedRefusal + "; with its copy of the read before it set aside, still" + (at == std::string::npos ? ": " + rest : rest.substr(at + 1));
  }
  if (const std::string rest = checkEnvelope(packet, set, PartnerBits::kComparedWithPartner); !rest.empty()) {
    // Refused either way; say what stays undecoded once the copied bits are set aside, when that differs.
    if (rest == pinnedRefusal) return pinnedRefusal;
    const auto at = rest.find(": word ");
    return pinnedRefusal + "; with its copy of a partner " + hexByte(partnerOpcode(op)) + " set aside, still" +
           (at == std::string::npos ? ": " + rest : rest.substr(at + 1));
  }
  for (unsigned t = 0; t < kTiles; ++t) {
    if (!(packet.tileMask & (1u << t))) continue;
    awaiting_[t] = Awaiting{packet.pc, op, std::vector<isa::Word128>(packet.words.begin(), packet.words.end()), pinnedRefusal};
  }
  return "";
}

// Slices of one receive deal out its rows: every tile of its mask takes one, and taken in row order they
// cover the receive's rows once, without gap or overlap ("prefix14" §A). "" when they do, or no tile holds a slice.
std::string PartnerCopyWatch::dealtOut(const models::DecodedPacket& receive, const std::array<std::optional<ReceiveSlice>, kTiles>& slices) {
  std::vector<ReceiveSlice> taken;
  for (unsigned t = 0; t < kTiles; ++t) {
    if (slices[t]) taken.push_back(*slices[t]);
  }
  if (taken.empty()) return "";
  const auto where = "opcode 0x11 (" + std::string(isa::opcodeInfo(receive.opcode).mnemonic) + ") at " +
                     models::describePacketLocation(receive.pc, receive.words[0]) + ": ";
  for (unsigned t = 0; t < kTiles; ++t) {
    if ((receive.tileMask & (1u << t)) && !slices[t]) {
      return where + "the 0x14s before it copy slices of its rows on some of its tiles, but tile " + std::to_string(t) +
             " holds no slice (docs/decoding-log.md \"prefix14\")";
    }
  }
  std::sort(taken.begin(), taken.end(), [](const ReceiveSlice& a, const ReceiveSlice& b) { return a.firstRow < b.firstRow; });
  uint64_t next = 0;
  for (const ReceiveSlice& s : taken) {
    if (s.firstRow != next) {
      return where + "its tiles' slices (Stage14CopyStream, Stage14CopyLimit[0]) " + (s.firstRow < next ? "overlap" : "leave a gap") +
             " at row " + std::to_string(std::min(s.firstRow, next)) + " of its " + std::to_string(s.receiveRows) +
             " (docs/decoding-log.md \"prefix14\")";
    }
    next += s.rows;
  }
  if (next != taken.front().receiveRows) {
    return where + "its tiles' slices cover " + std::to_string(next) + " of its " + std::to_string(taken.front().receiveRows) +
           " rows (docs/decoding-log.md \"prefix14\")";
  }
  return "";
}

std::string PartnerCopyWatch::compareKeptRead(const models::DecodedPacket& write) const {
  const uint64_t stream = readField(write.words, LleField::Stage14CopyStream);
  const std::string where = "opcode 0x14 (" + std::string(isa::opcodeInfo(write.opcode).mnemonic) + ") at " +
                            models::describePacketLocation(write.pc, write.words[0]) + ": a kept-stream write (Stage14SourceSideOn, word 4 bit 99, clear)";
  for (unsigned t = 0; t < kTiles; ++t) {
    if (!(write.tileMask & (1u << t))) continue;
    const auto read = keptReads_[t].find(stream);
    if (read == keptReads_[t].end()) {
      return where + " of stream " + std::to_string(stream) + " (Stage14CopyStream) on tile " + std::to_string(t) +
             ", where no read (0x13) was kept under that stream before it (docs/decoding-log.md \"dma14\")";
    }
    if (const std::string d = keptStreamCopyDifference(write.words, read->second); !d.empty()) {
      return where + " on tile " + std::to_string(t) + ": " + d + " (docs/decoding-log.md \"dma14\")";
    }
    if (const std::string m = keptWriteMarksProblem(write.words, read->second); !m.empty()) {
      return where + " on tile " + std::to_string(t) + ": " + m + " (docs/decoding-log.md \"twice14\" §D)";
    }
  }
  return "";
}

std::string PartnerCopyWatch::finish() const {
  for (unsigned t = 0; t < kTiles; ++t) {
    if (awaiting_[t]) {
      return awaiting_[t]->pinnedRefusal + "; read as a copy of its partner's, they need a " +
             hexByte(partnerOpcode(awaiting_[t]->opcode)) + " next on tile " + std::to_string(t) +
             ", and none comes before the chunk ends (docs/decoding-log.md \"pair14\")";
    }
  }
  return "";
}

void PartnerCopyWatch::clear() {
  for (auto& a : awaiting_) a.reset();
  for (auto& k : keptReads_) k.clear();
}

}  // namespace coralsim::lle

// Packets for the lle watch tests: every word starts at the envelope's value for its opcode (so only the
// fields a test sets differ from what the rung's envelope accepts), the tile mask in word 0, PCs counting
// up from `firstPc`. Owns the words (DecodedPacket holds a span).
#pragma once

#include <cstdint>
#include <deque>
#include <span>
#include <utility>
#include <vector>

#include "models/isa/opcodes.h"
#include "models/lle/lle_fields.h"
#include "models/lle/packet_envelope.h"
#include "models/scalar/decoded_program.h"
#include "tests/unit/lle_relation_marks.h"

namespace coralsim::lle {

// Writes element `element` of `field` at its place, bit by bit, whichever words it spans (the w10 nest's levels 4-6
// cross from w10 into w11).
inline void setFieldElement(std::span<isa::Word128> words, LleField field, unsigned element, uint64_t value) {
  const LleFieldDef& f = fieldDef(field);
  for (unsigned i = 0; i < f.width; ++i) {
    const uint32_t bit = f.lsb + element * f.stride + i;
    words[bit / 128].setBits(bit % 128, 1, (value >> i) & 1);
  }
}

// The w10 nest's slot wraps (ComputeWrapW10, 13 bits each) with the forward mark every corpus compute carries beside a
// positive one: slot 0's is ComputePartialSumWalkOn, slots 1-6's ComputeW10ForwardMark (w10_forward_marks.h).
inline void setW10WrapsWithTheirMarks(std::span<isa::Word128> words, const std::vector<int64_t>& wraps) {
  for (unsigned slot = 0; slot < wraps.size(); ++slot) {
    setFieldElement(words, LleField::ComputeWrapW10, slot, static_cast<uint64_t>(wraps[slot]) & 0x1fff);
    const uint64_t mark = wraps[slot] > 0 ? 1 : 0;
    if (slot == 0) setFieldElement(words, LleField::ComputePartialSumWalkOn, 0, mark);
    else setFieldElement(words, LleField::ComputeW10ForwardMark, slot - 1, mark);
  }
}

class EnvelopePackets {
 public:
  explicit EnvelopePackets(uint32_t firstPc) : pc_(firstPc) {}

  models::DecodedPacket make(uint8_t op, uint16_t mask, const std::vector<std::pair<LleField, uint64_t>>& fields = {}) {
    const unsigned length = isa::packetLength(static_cast<isa::Opcode>(op));
    std::vector<isa::Word128>& words = storage_.emplace_back(length);
    for (unsigned k = 0; k < length; ++k) words[k] = envelopeValue(op, k);
    // Every corpus 0x14 with a word 4 takes a stream (lle_fields.def Stage14SourceSideOn); the form without one
    // (the kept-stream write) is asked for by the callers that test it.
    if (op == 0x14) words[4].setBits(fieldDef(LleField::Stage14SourceSideOn).lsb % 128, 1, 1);
    // And carries Stage14WordSixCode (w6[104:102]) 1..4 (1 in most; docs/decoding-log.md "dense"), no longer in the
    // envelope's rows.
    if (op == 0x14) words[6].setBits(102, 3, 1);
    // Every corpus 0x10 but the 107 Dense broadcasts carries the kind marks 4, 1 (Dma10RingKindCode w2[91:89],
    // Dma10RingKindBit83; docs/decoding-log.md "dense10"); the envelope's first row is the ring form's, where they are fields.
    if (op == 0x10) {
      words[2].setBits(fieldDef(LleField::Dma10RingKindCode).lsb % 128, 3, 4);
      words[2].setBits(fieldDef(LleField::Dma10RingKindBit83).lsb % 128, 1, 1);
    }
    if (op != 0x1a) words[0].setBits(12, 16, mask);  // the fence has no tile mask
    for (const auto& [field, value] : fields) {
      const LleFieldDef& f = fieldDef(field);
      words[f.lsb / 128].setBits(f.lsb % 128, f.width, value);
    }
    setRelationFixedMarks(op, words, fields);
    models::DecodedPacket p;
    p.pc = pc_++;
    p.opcode = static_cast<isa::Opcode>(op);
    p.length = static_cast<uint8_t>(length);
    p.words = words;
    p.tilePacket = true;
    p.tileMask = static_cast<uint16_t>(words[0].bits(12, 16));
    return p;
  }

  // The words of the packet made last, to change a field element `make` cannot name.
  std::vector<isa::Word128>& lastWords() { return storage_.back(); }

  // The 0x17 immediate fill of one 4-byte unit (Fill17At4) of `tile`'s narrow memory with `value`.
  models::DecodedPacket fillUnit(unsigned tile, uint64_t unit, uint32_t value) {
    return make(0x17, static_cast<uint16_t>(1u << tile),
                {{LleField::Fill17Immediate, 1}, {LleField::Fill17Value, value}, {LleField::Fill17At4, unit}, {LleField::Mesh17RecvStride, 1}});
  }

  // In the packet made last, a mesh side (or fill) walking `units` units at one level: `limit`'s level 0 counts them, its
  // other levels 0, and each of `carry`'s three elements carries back over the run (17-bit two's complement).
  void setOneLevelSide(LleField limit, LleField carry, uint64_t units) {
    setElement(limit, 0, units - 1);
    for (unsigned i = 1; i < 4; ++i) setElement(limit, i, 0);
    for (unsigned i = 0; i < 3; ++i) setElement(carry, i, static_cast<uint64_t>(-(static_cast<int64_t>(units) - 1)) & 0x1ffff);
  }

  // Sets element `element` of `field` (a nest's slot, a level's limit) in the packet made last: `make` sets element 0.
  void setElement(LleField field, unsigned element, uint64_t value) { setFieldElement(lastWords(), field, element, value); }
  // The same for a signed element (a wrap, a carry, a return): its two's complement in the field's width, which
  // setFieldElement cuts it to.
  void setSignedElement(LleField field, unsigned element, int64_t value) {
    setElement(field, element, static_cast<uint64_t>(value));
  }

 private:
  std::deque<std::vector<isa::Word128>> storage_;  // a deque: earlier packets' spans stay valid
  uint32_t pc_;
};

}  // namespace coralsim::lle

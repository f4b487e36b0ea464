// The element-wise form over a walk of the tile's narrow memory (docs/decoding-log.md "eltw12" §B):
// add_128_128's add, one 4-byte group an iteration (Nest37 level 0 runs once) weighed by the 4 x 4
// block a kept 0x13 holds, over the iterations of Nest37's levels 1-6 -- 32 x 32 there, a column of
// 128-byte rows at level 1 and the next column at level 2; 69 x 69 in conv 1024^2's copy, positions at
// level 2 and rows at level 4 --, each group's four results written to the
// next unit of the output nest (Output37, output_nest.h). The raw programs' form (lle_rung.cc
// computeElementWise) is the case of one counting level with the units one after the other.

#include <algorithm>
#include <array>
#include <initializer_list>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "models/lle/compute_epilogue.h"
#include "models/lle/compute_write_report.h"
#include "models/lle/field_relations.h"
#include "models/lle/identity_copy4.h"
#include "models/lle/input_byte_walk.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"
#include "models/lle/nlu_apply.h"
#include "models/lle/output_nest.h"
#include "models/lle/requantizer.h"
#include "models/lle/sixteen_bit_results.h"
#include "models/lle/two_byte_element_broadcast.h"
#include "models/lle/unrequantised_copy.h"
#include "models/lle/weight_group_walk.h"

namespace coralsim::lle {

using models::DecodedPacket;

namespace {

constexpr uint64_t kUnitBytes = 4;                        // one K group: the input element and the output unit
constexpr uint64_t kBlockBytes = kUnitBytes * kUnitBytes;  // the kept 4 x 4 weight block

// An input group of which some bytes are undefined: its place in the walk, its address, which bytes.
struct PartlyUndefinedGroup {
  uint64_t index = 0;
  uint64_t address = 0;
  std::array<bool, kUnitBytes> undefined{};
};

// Every level of the input nest (Nest37, levels 0-6) runs once: the walk reads one group.
bool walksOnce(std::span<const isa::Word128> words) {
  const InputByteWalk walk = InputByteWalk::fromPacket(words, kUnitBytes);
  for (const uint64_t limit : walk.limits) {
    if (limit != 0) return false;
  }
  return true;
}

}  // namespace

// The form: 4-byte input elements outside a ring, Nest37 level 0 run once (one group an iteration)
// and a level above it counting -- level 1 in add_128_128, level 2 alone in the colour templates' pixel
// walk (field_relations.h isPixelWalk: the w0 nest's level 0 counts the pixels, docs/decoding-log.md
// "colour43"), levels 2 and 4 in conv / depthwise 1024^2's input copies (a window of the image's rows,
// "conv1024") --, every tile of the mask holding a 16-byte block a 0x13 kept for it and
// no weight stream on the compute's tag (with one, Nest37 level 1 is the convolution's tap rows). A
// looping receive on another tag (add_128_128's input receive, 1952 against the compute's 1951) is not
// this compute's stream.
// The 16-byte block a walked compute on tile `t` weighs with: the block kept under its stream tag
// (ComputeStreamTag = the read's Stage13Channel, "w7ident" §A). It stays kept after a compute takes it: conv
// 1024^2's 112 copies on stream 181 follow the one read kept on it, each tile's copies after the first with
// other reads kept between (its image window on stream 1804, docs/decoding-log.md "dma14" §D).
std::optional<std::vector<uint8_t>> LleRung::walkBlock(unsigned t, uint64_t tag) const {
  const TileState& tile = tiles_[t];
  const auto kept = tile.keptStreams.find(tag);
  if (kept == tile.keptStreams.end() || !kept->second || kept->second->size() != kBlockBytes) return std::nullopt;
  return kept->second;
}

bool LleRung::isWalkedElementWise(const DecodedPacket& packet) const {
  const auto words = packet.words;
  const bool fourByteGroupsOutsideARing =
      readField(words, LleField::ComputeInputBytes) == kUnitBytes && readField(words, LleField::ComputeInputRingOn) == 0;
  const bool groupsOutsideARing = fourByteGroupsOutsideARing && readField(words, LleField::ComputeK4W1) == 0;
  const bool walksAtLevel1 = groupsOutsideARing && readField(words, LleField::ComputeNest37Limit1) != 0;
  // Conv 1024^2's input copy: positions at level 2, the image's rows at level 4 ("conv1024").
  const bool walksAboveLevel3 = groupsOutsideARing && InputByteWalk::fromPacket(words, kUnitBytes).countsAboveLevel3();
  // The grouped walk: Nest37 level 0 counts K groups the w0 nest does not reduce over (unitsAPosition).
  // An unrequantised copy whose input nest runs once copies one group: the walk of one iteration (docs/decoding-log.md
  // "loomid" §D: looming's copies @ 0x0407 / 0x0418 of a zone's average on tiles 0, 4 and 8).
  const bool copiesOneGroup = groupsOutsideARing && isUnrequantisedCopy(words) && walksOnce(words);
  if (!walksAtLevel1 && !walksAboveLevel3 && !isPixelWalk(words) && !isGroupedWalk(words) && !copiesOneGroup) return false;
  bool any = false;
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t))) continue;
    const uint64_t tag = readField(words, LleField::ComputeStreamTag);
    const bool streamOnTag = weightStreams_[t] && weightStreams_[t]->tag == tag;
    if (streamOnTag || !walkBlock(t, tag)) return false;
    any = true;
  }
  return any;
}

// Outside that form, the weight nests' wraps keep the relation the other 4-byte forms have
// (lle_relations.def: ComputeKWrap29 / ComputeKWrapW7 = -ComputeK4W0), which the relation table leaves
// to the rung where Nest37 level 1 counts -- or they walk the reduction's weight groups one after another over
// the taps (weight_group_walk.h, docs/decoding-log.md "conv7": carries +1 at the reduction's levels, -(groups - 1)
// above them; model_conv's 7 x 7 convolutions, MobileNet / PoseNet 3 x 3 ones), which the convolution executor walks.
void LleRung::refuseWeightWrapsOutsideTheWalkedForm(const DecodedPacket& packet) const {
  const auto words = packet.words;
  const int64_t want = -static_cast<int64_t>(readField(words, LleField::ComputeK4W0));
  const std::string walk = weightGroupWalkProblem(words);
  if (walk.empty()) return;
  for (const LleField field : {LleField::ComputeKWrap29, LleField::ComputeKWrapW7}) {
    for (unsigned e = 0; e < fieldDef(field).count; ++e) {
      if (const int64_t got = readSigned(words, field, e); got != want) {
        refuse(packet, std::string(fieldDef(field).name) + "[" + std::to_string(e) + "] = " + std::to_string(got) +
                           " is not -1 x ComputeK4W0 = " + std::to_string(want) + ", nor a walk of the reduction's weight groups one after another (" +
                           walk + "): a loop the rung does not model");
      }
    }
  }
}

void LleRung::computeElementWiseWalk(const DecodedPacket& packet) {
  const auto words = packet.words;
  for (const LleField field : {LleField::ComputeNest37CarryLow, LleField::ComputeNest29CarryLow}) {
    for (unsigned e = 0; e < fieldDef(field).count; ++e) {
      if (const uint64_t low = readField(words, field, e); low != 0) {
        refuse(packet, std::string(fieldDef(field).name) + "[" + std::to_string(e) + "] = " + std::to_string(low) +
                           " with 4-byte input elements: a carry that is not a whole 4-byte group");
      }
    }
  }
  // The input walk: Nest37 in bytes from ComputeInputAt4 x 4, level 0 one group (its limit is 0 here).
  const InputByteWalk walk = InputByteWalk::fromPacket(words, kUnitBytes);
  uint64_t iterations = 1;
  for (const uint64_t limit : walk.limits) iterations *= limit + 1;
  // The three counting nests count the same iterations (their split over levels does not move a byte:
  // the addresses are Nest37's and Output37's), and the weight nests' carries are 0 -- the block stays,
  // as in the raw programs' form ("eltwise" §B).
  // The weight nests count at all seven levels: the PoseNet decoders' and MobileNet v2 wo_fc's image-window
  // copies count positions and rows at Nest29 / w10 levels 3 and 4 (docs/decoding-log.md "w8mid" §B).
  const std::initializer_list<LleField> counters[] = {
      {LleField::ComputeK4W0, LleField::ComputeLimitW0, LleField::ComputeLimitW0Level4},
      {LleField::ComputeK4W7, LleField::ComputeLimit29, LleField::ComputeLimit29Level3, LleField::ComputeLimit29High},
      {LleField::ComputeK4W10, LleField::ComputeLimitW10, LleField::ComputeLimitW10Level3, LleField::ComputeLimitW10High}};
  for (const auto& nest : counters) {
    if (const uint64_t n = levelIterations(words, nest); n != iterations) {
      std::string names;
      for (const LleField field : nest) names += (names.empty() ? "" : ", ") + std::string(fieldDef(field).name);
      refuse(packet, names + " count " + std::to_string(n) + " iterations where the input nest (Nest37: ComputeK4W1, ComputeNest37Limit1, "
                         "ComputePositions, ComputeNest37Limit3, ComputeNest37LimitHigh) walks " + std::to_string(iterations) + " groups");
    }
  }
  for (const LleField field : {LleField::ComputeKWrap29, LleField::ComputeKWrapW7}) {
    for (unsigned e = 0; e < fieldDef(field).count; ++e) {
      if (const int64_t carry = readSigned(words, field, e); carry != 0) {
        refuse(packet, std::string(fieldDef(field).name) + "[" + std::to_string(e) + "] = " + std::to_string(carry) +
                           " in the walked element-wise form: a weight walk away from the kept block is not decoded");
      }
    }
  }
  // w11 bit 111 is set wherever the other walked forms iterate more than once; the unrequantised copies
  // (ComputeUnrequantisedCopy, "copy117") carry it clear whatever they count (0 of the corpus's 857).
  const bool copy = isUnrequantisedCopy(words);
  if (const uint64_t loopOn = readField(words, LleField::ComputePositionLoopOn); copy ? loopOn != 0 : loopOn == 0) {
    refuse(packet, "ComputePositionLoopOn (word 11 bit 111) = " + std::to_string(loopOn) + " with " + std::to_string(iterations) +
                       " iterations (set wherever there is more than one, clear in every unrequantised copy)");
  }
  // A table over the walk (the trackers' exponentials @ 0x052f, docs/decoding-log.md "exp19" §B): each group's four
  // lanes go through the tile's table into 16-bit results, two units a position (ComputeLaneGroups 1); the grouped
  // walk and the unrequantised copy, whose positions are K groups, never carry it.
  const bool table = readField(words, LleField::ComputeNluApply) != 0;
  if (table && (isGroupedWalk(words) || isUnrequantisedCopy(words))) {
    refuse(packet, "ComputeNluApply in the grouped walk or the unrequantised copy: a table over K groups is not decoded");
  }
  if (const std::string problem = sixteenBitResultsProblem(words); table && !problem.empty()) refuse(packet, problem);
  refuseInputLevelMovesDisagreeingWithTheWalk(packet, kUnitBytes);
  // A position is ComputeLaneGroups + 1 units ("w4hi" §A: Output37's positions x those units = the walk's groups in
  // all 857 corpus copies): the grouped walk's K groups, each its own lane group, as the ring copy's (lanes = C,
  // ComputeLaneGroups = ComputeK4W1 in all 388 grouped copies and all 181 grouped walks without bit 117, "kstride"),
  // or the broadcast copies' one position of every group the walk reads (K4W1 0: bright @ 0x0390's 1,024 units).
  // The other walked forms write 4 lanes a position.
  const uint64_t units = unitsAPosition(words);
  const bool grouped = isGroupedWalk(words);
  refuseOtherLanesOrPrefix(packet, grouped ? readField(words, LleField::ComputeK4W1) : units - 1, 0,
                           grouped                      ? "grouped walk: 4 lanes a K group (ComputeLaneGroups = ComputeK4W1), no parameter prefix"
                           : isUnrequantisedCopy(words) ? "unrequantised copy: ComputeLaneGroups + 1 units a position, no parameter prefix"
                           : table                      ? "walked element-wise compute through a table: 4 lanes of 16 bits, no parameter prefix"
                                                        : "walked element-wise compute: 4 lanes, no parameter prefix");
  const uint64_t outputAt = readField(words, LleField::ComputeOutputAt);
  if (outputAt % kUnitBytes != 0) refuse(packet, "ComputeOutputAt = " + std::to_string(outputAt) + " is not a 4-byte unit");
  const int64_t firstUnit = static_cast<int64_t>(outputAt / kUnitBytes);
  if (table) {
    // The position's two units are its lane group's 16-bit results, the step and carries applied from the second
    // (output_nest.h's wider position): bright 64^2's 64 positions fill 128 units one after the other.
    writeWalkedGroups(packet, OutputNest::fromPacket(words, firstUnit, static_cast<int64_t>(units)), walk, iterations);
  } else if (units == 1) {
    writeWalkedGroups(packet, OutputNest::fromPacket(words, firstUnit), walk, iterations);
  } else {
    writeWalkedGroups(packet, groupedOutputNest(words, firstUnit, units), walk, iterations);
  }
}

// The 4-byte units of one output position: 1 in the element-wise forms, ComputeLaneGroups + 1 in the grouped walk
// and the unrequantised copies, whose groups are written one unit each, a position's units innermost.
// A table's position is its four lanes' 16-bit results: NluApplication::kResultBytes units ("exp19" §B).
uint64_t LleRung::unitsAPosition(std::span<const isa::Word128> words) {
  if (readField(words, LleField::ComputeNluApply) != 0) return NluApplication::kResultBytes;
  return isGroupedWalk(words) || isUnrequantisedCopy(words) ? readField(words, LleField::ComputeLaneGroups) + 1 : 1;
}

// Each group of the walk, in walk order, weighed by the kept block into the next unit of `out`: Output37
// itself, or for the grouped copy Output37 with the groups as its implicit innermost level (identity_copy4.h).
template <typename Nest>
void LleRung::writeWalkedGroups(const DecodedPacket& packet, const Nest& out, const InputByteWalk& walk, uint64_t iterations) {
  const auto words = packet.words;
  if (out.units() != iterations) {
    refuse(packet, "the output nest (Output37" + std::string(unitsAPosition(words) > 1 ? ", a position's units innermost" : "") + ") writes " +
                       std::to_string(out.units()) + " units for the input nest's " + std::to_string(iterations) + " groups");
  }
  const auto [zpIn, zpOut, mult, lo, hi] = readEpilogue(packet, true);
  const int32_t bias = readComputeBias(words);
  const Requantizer requant(1.0f, mult, lo, hi, zpOut, config_.requantRounding);
  const int64_t inputAt = static_cast<int64_t>(readField(words, LleField::ComputeInputAt4) * kUnitBytes);
  // Through a table (ComputeNluApply): the clamped, unrounded value is the table's x and each lane's result 16 bits,
  // low byte first as nlu_apply.h assumes (not decoded: the 0x03 that reads them is not executed, "exp19" §B).
  const bool table = readField(words, LleField::ComputeNluApply) != 0;
  const NluApplication applyTable(1.0f, mult, lo, hi);
  if (table && zpOut != 0) {
    refuse(packet, "ComputeNluApply with output zero point " + std::to_string(zpOut) +
                       " (ComputeZpOut): how a zero point enters a table's 16-bit result is not decoded");
  }
  const uint64_t resultBytes = table ? NluApplication::kResultBytes : 1;
  // A broadcast copy of 2-byte elements (two_byte_element_broadcast.h, docs/decoding-log.md "trk16" §A) reads its group
  // as two 16-bit elements; the byte broadcasts (element width 1) keep the byte rule below.
  bool twoByteElements = false;
  if (TwoByteElementBroadcast::isBroadcastCopy(words)) {
    const auto width = TwoByteElementBroadcast::elementBytes(words);
    if (const auto* why = std::get_if<std::string>(&width)) refuse(packet, *why);
    const uint64_t bytes = std::get<uint64_t>(width);
    if (bytes != 1 && bytes != TwoByteElementBroadcast::kElementBytes) {
      refuse(packet, "the broadcast copy's idle Nest37 carries name " + std::to_string(bytes) +
                         "-byte elements (ComputeNest37Carry1 / 4): only 1- and 2-byte elements are decoded");
    }
    twoByteElements = bytes == TwoByteElementBroadcast::kElementBytes;
  }

  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t))) continue;
    TileState& tile = tiles_[t];
    const std::optional<std::vector<uint8_t>> held = walkBlock(t, readField(words, LleField::ComputeStreamTag));
    if (!held) refuseAnotherStream(packet, t);
    if (table && !tile.nlu) {
      refuse(packet, "tile " + std::to_string(t) + " applies an NLU table (ComputeNluApply) but no 0x19 loaded one since reset");
    }
    const uint64_t capacityUnits = tile.narrowSram.capacity() / kUnitBytes;
    if (!out.staysInside(capacityUnits) || out.revisitsAUnit()) {
      refuse(packet, "the output nest (Output37) of tile " + std::to_string(t) + " leaves its narrow memory or writes a unit twice");
    }
    // The groups in walk order, level 0 fastest (each read before any result is written: the walk may
    // write in place, as add_128_128's does).
    std::vector<uint8_t> groups;
    groups.reserve(iterations * kUnitBytes);
    // A group partly undefined (a one-lane max pass's unit, docs/decoding-log.md "trkrun" §A): where each lane weighs its
    // undefined bytes by 0 their values never reach a result; anywhere else the compute is refused below, naming the byte.
    std::vector<PartlyUndefinedGroup> partlyUndefined;
    std::array<uint64_t, InputByteWalk::kLevels> count{};
    for (;;) {
      int64_t at = inputAt;
      for (unsigned i = 0; i < InputByteWalk::kLevels; ++i) at += static_cast<int64_t>(count[i]) * walk.strideBytes[i];
      PartlyUndefinedGroup group{groups.size() / kUnitBytes, static_cast<uint64_t>(std::max<int64_t>(at, 0)), {}};
      unsigned undefinedBytes = 0;
      for (unsigned k = 0; k < kUnitBytes; ++k) {
        group.undefined[k] = tile.narrowSram.firstUnwritten(group.address + k, 1).has_value();
        undefinedBytes += group.undefined[k] ? 1 : 0;
      }
      if (at < 0 || group.address + kUnitBytes > tile.narrowSram.capacity() || undefinedBytes == kUnitBytes) {
        refuse(packet, "tile " + std::to_string(t) + " holds no input group at narrow address " + std::to_string(at) +
                           " of the input nest's walk from ComputeInputAt4 x 4 = " + std::to_string(inputAt));
      }
      if (undefinedBytes != 0) partlyUndefined.push_back(group);
      const std::vector<uint8_t> bytes = tile.narrowSram.readAnyway(static_cast<uint64_t>(at), kUnitBytes);
      groups.insert(groups.end(), bytes.begin(), bytes.end());
      unsigned level = 0;
      while (level < InputByteWalk::kLevels && count[level] == walk.limits[level]) count[level++] = 0;
      if (level == InputByteWalk::kLevels) break;
      ++count[level];
    }
    const std::vector<uint8_t> block = *held;
    for (const PartlyUndefinedGroup& group : partlyUndefined) {
      for (unsigned k = 0; k < kUnitBytes; ++k) {
        if (!group.undefined[k]) continue;
        for (unsigned c = 0; c < kUnitBytes; ++c) {
          if (twoByteElements || block[kUnitBytes * c + k] != 0) {
            refuse(packet, "tile " + std::to_string(t) + ": input byte " + std::to_string(k) + " of the group at narrow address " +
                               std::to_string(group.address) + " was not written in this run (or holds a value not decoded), and lane " +
                               std::to_string(c) + (twoByteElements ? " reads it as part of a 2-byte element" : " weighs it by " +
                               std::to_string(static_cast<int8_t>(block[kUnitBytes * c + k]))));
          }
        }
      }
    }
    tile.keptRead.reset();  // the compute consumes the last kept read; the block stays kept under its stream
    uint64_t g = 0;
    bool written = true;
    out.forEachUnit([&](int64_t unit) {
      std::array<uint8_t, kUnitBytes * NluApplication::kResultBytes> results{};
      if (twoByteElements) {
        const auto lanes = TwoByteElementBroadcast::lanes(std::span(groups).subspan(kUnitBytes * g, kUnitBytes), block);
        if (const auto* why = std::get_if<std::string>(&lanes)) {
          refuse(packet, "tile " + std::to_string(t) + ": the broadcast copy of 2-byte elements: " + *why);
        }
        std::ranges::copy(std::get<0>(lanes), results.begin());
        written = tile.narrowSram.write(static_cast<uint64_t>(unit) * kUnitBytes, std::span(results.data(), kUnitBytes)) && written;
        ++g;
        return;
      }
      for (unsigned c = 0; c < kUnitBytes; ++c) {
        int32_t acc = bias;
        for (unsigned k = 0; k < kUnitBytes; ++k) {
          acc += (int32_t{groups[kUnitBytes * g + k]} - zpIn) * int32_t{static_cast<int8_t>(block[kUnitBytes * c + k])};
        }
        if (table) {
          const uint16_t value = applyTable(*tile.nlu, acc);
          results[2 * c] = static_cast<uint8_t>(value);
          results[2 * c + 1] = static_cast<uint8_t>(value >> 8);
        } else {
          results[c] = requant(acc);
        }
      }
      written = tile.narrowSram.write(static_cast<uint64_t>(unit) * kUnitBytes, std::span(results.data(), kUnitBytes * resultBytes)) && written;
      ++g;
    });
    if (!written) refuse(packet, "the results of tile " + std::to_string(t) + " leave its narrow memory");
    if (config_.lleComputeObserver) {
      reportComputeWrite(*config_.lleComputeObserver, packet, t, ComputeForm::kElementWiseWalk, static_cast<unsigned>(kUnitBytes * resultBytes),
                         positionAddresses(out, 1), tile.narrowSram);
    }
    macs_ += kUnitBytes * kUnitBytes * iterations;
  }
}

}  // namespace coralsim::lle

#pragma once
// The two sides of a mesh packet (0x15, 0x16, 0x17, 0x18; docs/decoding-log.md "ringmesh" §C,
// "conv32run" §B): every tile of the mask may send the 4-byte units of one four-level nest of its
// narrow memory to one neighbour and receive, into another nest, what its other neighbour sends in
// the same direction (or write an immediate instead). The four opcodes share one layout; 0x17's
// receive side is its immediate write nest (Fill17At4 ...). Which neighbour: by tile index t, 0x15
// sends to t + 4, 0x17 to t - 4, 0x16 to t - 1, 0x18 to t + 1.

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "models/isa/word128.h"
#include "models/lle/last_repetition.h"
#include "models/lle/lle_fields.h"
#include "models/lle/loop_nest.h"
#include "models/lle/mesh_region.h"

namespace coralsim::lle {

struct MeshLayout {
  uint8_t opcode;
  int neighbourOffset;  // destination tile of a send: t + neighbourOffset
  // Each side: address / 4, level-0 stride (0: the side is off), limits, carries.
  LleField sendAt4, sendStride, sendLimit, sendCarry;
  LleField recvAt4, recvStride, recvLimit, recvCarry;
  LleField fill, fillValue;
  // Each side's per-level run mask (docs/decoding-log.md "mesh83"): the slot after the last limit.
  LleField sendLevelOn, recvLevelOn;
  // The slot's bits above the level bits (docs/decoding-log.md "relay111"): 0x11 marks a ring buffer the
  // relay refills. 0x17's receive slot is Fill17Step, whose bits above 3 are read in its place.
  LleField sendRingMarks, recvRingMarks;
  // Each side's four flags (docs/decoding-log.md "fill17c", "mesh83", "meshw3" §A): the receive side's in
  // 0x17's Fill17Flags slot, the send side's just below it.
  LleField flags, sendFlags;
  // Each side's shorter last repetition (docs/decoding-log.md "short18"; the 0x11's, last_repetition.h): the
  // flag, the last pass's level-0 limit and the units it drops, against the side's limits.
  LastRepetitionFields sendLast, recvLast;
  // The region after the flags (mesh_region.h): the bus it names and its pacing.
  MeshRegionLayout region;
};

// A side's last-repetition fields against its own limits (level 0 shortened; levels 2-3 must not count).
[[nodiscard]] constexpr LastRepetitionFields meshLastRepetition(LleField on, LleField lastRun, LleField shortfall, LleField limit) {
  return {on, lastRun, shortfall, limit, 0, limit, 2};
}

inline constexpr std::array<MeshLayout, 4> kMeshLayouts = {{
    {0x15, +4, LleField::Mesh15SendAt4, LleField::Mesh15SendStride, LleField::Mesh15SendLimit, LleField::Mesh15SendCarry,
     LleField::Mesh15RecvAt4, LleField::Mesh15RecvStride, LleField::Mesh15RecvLimit, LleField::Mesh15RecvCarry,
     LleField::Mesh15Fill, LleField::Mesh15FillValue, LleField::Mesh15SendLevelOn, LleField::Mesh15RecvLevelOn, LleField::Mesh15SendRingMarks, LleField::Mesh15RecvRingMarks,
     LleField::Mesh15Flags,
     LleField::Mesh15SendFlags,
     meshLastRepetition(LleField::Mesh15SendLastRunOn, LleField::Mesh15SendLastRun, LleField::Mesh15SendLastShort, LleField::Mesh15SendLimit),
     meshLastRepetition(LleField::Mesh15RecvLastRunOn, LleField::Mesh15RecvLastRun, LleField::Mesh15RecvLastShort, LleField::Mesh15RecvLimit),
     {LleField::Mesh15RegionOn, LleField::Mesh15RegionLink, LleField::Mesh15RegionForm, LleField::Mesh15RegionCount,
      LleField::Mesh15RegionMark, LleField::Mesh15RegionCode, LleField::Mesh15RegionPace, LleField::Mesh15RegionWidePace,
      LleField::Mesh15RegionWiderPace}},
    {0x16, -1, LleField::Mesh16SendAt4, LleField::Mesh16SendStride, LleField::Mesh16SendLimit, LleField::Mesh16SendCarry,
     LleField::Mesh16RecvAt4, LleField::Mesh16RecvStride, LleField::Mesh16RecvLimit, LleField::Mesh16RecvCarry,
     LleField::Mesh16Fill, LleField::Mesh16FillValue, LleField::Mesh16SendLevelOn, LleField::Mesh16RecvLevelOn, LleField::Mesh16SendRingMarks, LleField::Mesh16RecvRingMarks,
     LleField::Mesh16Flags,
     LleField::Mesh16SendFlags,
     meshLastRepetition(LleField::Mesh16SendLastRunOn, LleField::Mesh16SendLastRun, LleField::Mesh16SendLastShort, LleField::Mesh16SendLimit),
     meshLastRepetition(LleField::Mesh16RecvLastRunOn, LleField::Mesh16RecvLastRun, LleField::Mesh16RecvLastShort, LleField::Mesh16RecvLimit),
     {LleField::Mesh16RegionOn, LleField::Mesh16RegionLink, LleField::Mesh16RegionForm, LleField::Mesh16RegionCount,
      LleField::Mesh16RegionMark, LleField::Mesh16RegionCode, LleField::Mesh16RegionPace, LleField::Mesh16RegionWidePace,
      LleField::Mesh16RegionWiderPace}},
    {0x17, -4, LleField::Mesh17SendAt4, LleField::Mesh17SendStride, LleField::Mesh17SendLimit, LleField::Mesh17SendCarry,
     LleField::Fill17At4, LleField::Mesh17RecvStride, LleField::Fill17Limit, LleField::Fill17Carry, LleField::Fill17Immediate,
     LleField::Fill17Value, LleField::Mesh17SendLevelOn, LleField::Fill17Step, LleField::Mesh17SendRingMarks, LleField::Fill17Step,
     LleField::Fill17Flags, LleField::Mesh17SendFlags,
     meshLastRepetition(LleField::Mesh17SendLastRunOn, LleField::Mesh17SendLastRun, LleField::Mesh17SendLastShort, LleField::Mesh17SendLimit),
     meshLastRepetition(LleField::Mesh17RecvLastRunOn, LleField::Mesh17RecvLastRun, LleField::Mesh17RecvLastShort, LleField::Fill17Limit),
     {LleField::Mesh17RegionOn, LleField::Mesh17RegionLink, LleField::Mesh17RegionForm, LleField::Mesh17RegionCount,
      LleField::Mesh17RegionMark, LleField::Mesh17RegionCode, LleField::Mesh17RegionPace, LleField::Mesh17RegionWidePace,
      LleField::Mesh17RegionWiderPace}},
    {0x18, +1, LleField::Mesh18SendAt4, LleField::Mesh18SendStride, LleField::Mesh18SendLimit, LleField::Mesh18SendCarry,
     LleField::Mesh18RecvAt4, LleField::Mesh18RecvStride, LleField::Mesh18RecvLimit, LleField::Mesh18RecvCarry,
     LleField::Mesh18Fill, LleField::Mesh18FillValue, LleField::Mesh18SendLevelOn, LleField::Mesh18RecvLevelOn, LleField::Mesh18SendRingMarks, LleField::Mesh18RecvRingMarks,
     LleField::Mesh18Flags,
     LleField::Mesh18SendFlags,
     meshLastRepetition(LleField::Mesh18SendLastRunOn, LleField::Mesh18SendLastRun, LleField::Mesh18SendLastShort, LleField::Mesh18SendLimit),
     meshLastRepetition(LleField::Mesh18RecvLastRunOn, LleField::Mesh18RecvLastRun, LleField::Mesh18RecvLastShort, LleField::Mesh18RecvLimit),
     {LleField::Mesh18RegionOn, LleField::Mesh18RegionLink, LleField::Mesh18RegionForm, LleField::Mesh18RegionCount,
      LleField::Mesh18RegionMark, LleField::Mesh18RegionCode, LleField::Mesh18RegionPace, LleField::Mesh18RegionWidePace,
      LleField::Mesh18RegionWiderPace}},
}};

[[nodiscard]] inline const MeshLayout* meshLayoutOf(uint8_t opcode) {
  for (const MeshLayout& m : kMeshLayouts) {
    if (m.opcode == opcode) return &m;
  }
  return nullptr;
}

// One side's nest: four levels of 16-bit limits, three carries, the level-0 stride (the odometer of
// loop_nest.h, as the 0x17 write and the 0x13 read), the level-0 runs of its short level's last iteration shortened
// where the side's flag says so (call after lastRepetitionConflict).
[[nodiscard]] inline LoopNest<4> meshNest(std::span<const isa::Word128> words, LleField at4, LleField stride,
                                          LleField limit, LleField carry, const LastRepetitionFields& last) {
  std::array<uint64_t, 4> limits{};
  std::array<int64_t, 3> carries{};
  for (unsigned i = 0; i < 4; ++i) limits[i] = readField(words, limit, i);
  for (unsigned i = 0; i < 3; ++i) carries[i] = readSigned(words, carry, i);
  LoopNest<4> nest =
      LoopNest<4>::fromCarries(static_cast<int64_t>(readField(words, at4)), limits, readSigned(words, stride), carries);
  nest.lastPassDrops = lastRepetitionShortfall(words, last);
  nest.shortFromLevel = std::max(1u, lastRepetitionLevel(words, last));  // the level whose last iteration is short
  return nest;
}

// The value that marks a side's walk as a ring buffer the relay refills (docs/decoding-log.md "relay111"):
// slot bits 4 and 8, on both sides of every corpus relay and nowhere else.
inline constexpr uint64_t kMeshRingMarks = 0x11;

// A side's run mask: the slot's four level bits (0x17's receive mask is the low bits of Fill17Step).
[[nodiscard]] inline uint64_t meshLevelMask(std::span<const isa::Word128> words, LleField levelOn) {
  return readField(words, levelOn) & 0xfu;
}

// The slot's bits above the level bits (0x17's receive side: Fill17Step's bits 16:4).
[[nodiscard]] inline uint64_t meshRingMarks(std::span<const isa::Word128> words, LleField ringMarks) {
  return ringMarks == LleField::Fill17Step ? readField(words, ringMarks) >> 4 : readField(words, ringMarks);
}

// The first level whose limit is non-zero while its bit of the side's run mask is clear; nullopt when the
// mask agrees with the limits (docs/decoding-log.md "mesh83": a level that does not run has limit 0). A
// side marked as a ring (relay111) is checked by meshRingConflict instead.
[[nodiscard]] inline std::optional<unsigned> meshLevelMaskConflict(std::span<const isa::Word128> words, LleField levelOn,
                                                                   LleField limit) {
  const uint64_t mask = meshLevelMask(words, levelOn);
  for (unsigned i = 0; i < 4; ++i) {
    if (readField(words, limit, i) != 0 && ((mask >> i) & 1u) == 0) return i;
  }
  return std::nullopt;
}

// Why a side marked as a ring is not one the rung reads, or nullopt (docs/decoding-log.md "relay111"): the
// ring is level 0 alone in the run mask, walked again by level 1 -- each of the three carries brings the
// walk back to level 0's first unit -- with levels 2 and 3 not counting, as in every corpus relay.
[[nodiscard]] inline std::optional<std::string> meshRingConflict(std::span<const isa::Word128> words, LleField levelOn,
                                                                 LleField stride, LleField limit, LleField carry) {
  if (meshLevelMask(words, levelOn) != 1) return std::string("its run mask is not level 0 alone");
  if (readField(words, limit, 2) != 0 || readField(words, limit, 3) != 0) return std::string("levels 2 / 3 count");
  const int64_t back = -static_cast<int64_t>(readField(words, limit, 0)) * readSigned(words, stride);
  for (unsigned i = 0; i < 3; ++i) {
    if (readSigned(words, carry, i) != back) return std::string("a carry does not come back to the ring's first unit");
  }
  return std::nullopt;
}

}  // namespace coralsim::lle

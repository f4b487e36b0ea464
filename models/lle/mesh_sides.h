#pragma once
// The two sides of a mesh packet (0x15, 0x16, 0x17, 0x18; docs/decoding-log.md "ringmesh" §C,
// "conv32run" §B): every tile of the mask may send the 4-byte units of one four-level nest of its
// narrow memory to one neighbour and receive, into another nest, what its other neighbour sends in
// the same direction (or write an immediate instead). The four opcodes share one layout; 0x17's
// receive side is its immediate write nest (Fill17At4 ...). Which neighbour: by tile index t, 0x15
// sends to t + 4, 0x17 to t - 4, 0x16 to t - 1, 0x18 to t + 1.

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "models/isa/word128.h"
#include "models/lle/lle_fields.h"
#include "models/lle/loop_nest.h"

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
  // Each side's four flags (docs/decoding-log.md "fill17c", "mesh83", "meshw3" §A): the receive side's in
  // 0x17's Fill17Flags slot, the send side's just below it.
  LleField flags, sendFlags;
};

inline constexpr std::array<MeshLayout, 4> kMeshLayouts = {{
    {0x15, +4, LleField::Mesh15SendAt4, LleField::Mesh15SendStride, LleField::Mesh15SendLimit, LleField::Mesh15SendCarry,
     LleField::Mesh15RecvAt4, LleField::Mesh15RecvStride, LleField::Mesh15RecvLimit, LleField::Mesh15RecvCarry,
     LleField::Mesh15Fill, LleField::Mesh15FillValue, LleField::Mesh15SendLevelOn, LleField::Mesh15RecvLevelOn, LleField::Mesh15Flags,
     LleField::Mesh15SendFlags},
    {0x16, -1, LleField::Mesh16SendAt4, LleField::Mesh16SendStride, LleField::Mesh16SendLimit, LleField::Mesh16SendCarry,
     LleField::Mesh16RecvAt4, LleField::Mesh16RecvStride, LleField::Mesh16RecvLimit, LleField::Mesh16RecvCarry,
     LleField::Mesh16Fill, LleField::Mesh16FillValue, LleField::Mesh16SendLevelOn, LleField::Mesh16RecvLevelOn, LleField::Mesh16Flags,
     LleField::Mesh16SendFlags},
    {0x17, -4, LleField::Mesh17SendAt4, LleField::Mesh17SendStride, LleField::Mesh17SendLimit, LleField::Mesh17SendCarry,
     LleField::Fill17At4, LleField::Mesh17RecvStride, LleField::Fill17Limit, LleField::Fill17Carry, LleField::Fill17Immediate,
     LleField::Fill17Value, LleField::Mesh17SendLevelOn, LleField::Fill17Step, LleField::Fill17Flags, LleField::Mesh17SendFlags},
    {0x18, +1, LleField::Mesh18SendAt4, LleField::Mesh18SendStride, LleField::Mesh18SendLimit, LleField::Mesh18SendCarry,
     LleField::Mesh18RecvAt4, LleField::Mesh18RecvStride, LleField::Mesh18RecvLimit, LleField::Mesh18RecvCarry,
     LleField::Mesh18Fill, LleField::Mesh18FillValue, LleField::Mesh18SendLevelOn, LleField::Mesh18RecvLevelOn, LleField::Mesh18Flags,
     LleField::Mesh18SendFlags},
}};

[[nodiscard]] inline const MeshLayout* meshLayoutOf(uint8_t opcode) {
  for (const MeshLayout& m : kMeshLayouts) {
    if (m.opcode == opcode) return &m;
  }
  return nullptr;
}

// One side's nest: four levels of 16-bit limits, three carries, the level-0 stride (the odometer of
// loop_nest.h, as the 0x17 write and the 0x13 read).
[[nodiscard]] inline LoopNest<4> meshNest(std::span<const isa::Word128> words, LleField at4, LleField stride,
                                          LleField limit, LleField carry) {
  std::array<uint64_t, 4> limits{};
  std::array<int64_t, 3> carries{};
  for (unsigned i = 0; i < 4; ++i) limits[i] = readField(words, limit, i);
  for (unsigned i = 0; i < 3; ++i) carries[i] = readSigned(words, carry, i);
  return LoopNest<4>::fromCarries(static_cast<int64_t>(readField(words, at4)), limits, readSigned(words, stride), carries);
}

// The first level whose limit is non-zero while its bit of the side's run mask is clear, or 4 when
// the mask has a bit above level 3 (0x17's receive mask is the 17-bit Fill17Step); nullopt when the
// mask agrees with the limits (docs/decoding-log.md "mesh83": a level that does not run has limit 0).
[[nodiscard]] inline std::optional<unsigned> meshLevelMaskConflict(std::span<const isa::Word128> words, LleField levelOn,
                                                                   LleField limit) {
  const uint64_t mask = readField(words, levelOn);
  if ((mask >> 4) != 0) return 4u;
  for (unsigned i = 0; i < 4; ++i) {
    if (readField(words, limit, i) != 0 && ((mask >> i) & 1u) == 0) return i;
  }
  return std::nullopt;
}

// A side's flags (docs/decoding-log.md "meshw3" §A) take 0, 1, 3, 5, 7 or 9 in every corpus packet: bit 0
// is set whenever another is, bit 3 only alone with it. They say how the two halves of a transfer meet
// (a send-only half with non-zero flags meets a receive-only half of the same value in 1,888 / 1,953
// corpus pairs), which the rung's in-order pairing takes as don't-care for the bytes; any other value
// was never seen and is refused.
[[nodiscard]] constexpr bool meshFlagsSeen(uint64_t flags) {
  return flags == 0 || flags == 1 || flags == 3 || flags == 5 || flags == 7 || flags == 9;
}

}  // namespace coralsim::lle

// The sizes of tile DMA/TTU packets (tile_transfer_loops.def) as constexpr tables, and the reader
// of a packet's moved bytes. The cost model (models/chip/cost_model.h) divides them by a memory's
// bandwidth; the lle rows they repeat are checked against these by a unit test.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "models/isa/confidence.h"
#include "models/isa/field.h"
#include "models/isa/word128.h"

namespace coralsim::isa {

// The tile memory a transfer writes or reads, which sets its bandwidth.
enum class TileMemory : uint8_t {
  Narrow,  // activations, 192 KiB per tile
  Wide,    // parameters, 256-byte rows
  Ring,    // the ring bus between the tiles and the outfeed: 0x10 sends, in 256-byte beats
};

// "No bit": a gate or format condition that always holds.
inline constexpr uint32_t kTileTransferAlways = UINT32_MAX;

[[nodiscard]] constexpr uint32_t tileTransferBit(int word, unsigned bit) {
  return word < 0 ? kTileTransferAlways : static_cast<uint32_t>(word) * 128u + bit;
}

struct TileTransferUnitDef {
  uint8_t opcode;
  uint32_t unitBytes;     // bytes of one innermost iteration
  TileMemory memory;
  uint32_t formatBit;     // absolute bit whose value selects the format the loops mean a size in, or always
  uint8_t formatValue;    // the value formatBit has in that format
  Confidence confidence;
  std::string_view meaning;
  std::string_view evidence;
};

struct TileTransferLoopDef {
  std::string_view name;
  uint8_t opcode;
  uint32_t lsb;  // level 0's limit: absolute bit in the packet
  uint8_t limitWidth;
  uint8_t levels;
  uint8_t pitch;     // bits from one level's limit to the next
  uint32_t gateBit;  // absolute bit: the levels run only when it is set, or always
  Confidence confidence;
  std::string_view meaning;
  std::string_view evidence;

  [[nodiscard]] constexpr uint32_t limitLsb(unsigned level) const { return lsb + level * pitch; }
};

inline constexpr TileTransferUnitDef kTileTransferUnits[] = {
#define CORAL_TILE_TRANSFER_UNIT(op, unitBytes, memory, formatWord, formatBit, formatValue, conf, meaning, evidence) \
  TileTransferUnitDef{op,         unitBytes,  TileMemory::memory, tileTransferBit(formatWord, formatBit), formatValue, \
                      Confidence::conf, meaning, evidence},
#define CORAL_TILE_TRANSFER_LOOP(...)
#include "models/isa/tile_transfer_loops.def"
#undef CORAL_TILE_TRANSFER_LOOP
#undef CORAL_TILE_TRANSFER_UNIT
};

inline constexpr TileTransferLoopDef kTileTransferLoops[] = {
#define CORAL_TILE_TRANSFER_UNIT(...)
#define CORAL_TILE_TRANSFER_LOOP(id, op, word, bit, limitWidth, levels, pitch, gateWord, gateBit, conf, meaning, \
                                 evidence)                                                                      \
  TileTransferLoopDef{#id,        op,   (word) * 128u + (bit), limitWidth, levels, pitch,                       \
                      tileTransferBit(gateWord, gateBit), Confidence::conf, meaning, evidence},
#include "models/isa/tile_transfer_loops.def"
#undef CORAL_TILE_TRANSFER_LOOP
#undef CORAL_TILE_TRANSFER_UNIT
};

static_assert([] {
  for (const TileTransferLoopDef& loop : kTileTransferLoops) {
    bool hasUnit = false;
    for (const TileTransferUnitDef& unit : kTileTransferUnits) hasUnit = hasUnit || unit.opcode == loop.opcode;
    if (!hasUnit || loop.levels == 0 || (loop.levels > 1 && loop.pitch < loop.limitWidth)) return false;
  }
  return true;
}(), "every transfer loop belongs to an opcode with a unit row, and its levels do not overlap");

// What one tile DMA packet moves: bytes in its memory (per tile of its mask).
struct TileTransfer {
  uint64_t bytes = 0;
  TileMemory memory = TileMemory::Narrow;
};

// The bytes the packet moves, when its opcode and format have a decoded size; nullopt otherwise
// (undecoded opcode 0x12; an execution-only 0x11; a 0x17 that is not the immediate form). Bits past
// the end of `words` read as 0.
[[nodiscard]] inline std::optional<TileTransfer> readTileTransfer(uint8_t opcode, std::span<const Word128> words) {
  for (const TileTransferUnitDef& unit : kTileTransferUnits) {
    if (unit.opcode != opcode) continue;
    if (unit.formatBit != kTileTransferAlways && readPacketBits(words, unit.formatBit, 1) != unit.formatValue) {
      return std::nullopt;
    }
    uint64_t units = 1;
    for (const TileTransferLoopDef& loop : kTileTransferLoops) {
      if (loop.opcode != opcode) continue;
      if (loop.gateBit != kTileTransferAlways && readPacketBits(words, loop.gateBit, 1) == 0) continue;
      for (unsigned level = 0; level < loop.levels; ++level) {
        // Saturates: arbitrary bits (a fuzzed program) must not wrap a size round to a small one.
        if (__builtin_mul_overflow(units, readPacketBits(words, loop.limitLsb(level), loop.limitWidth) + 1, &units)) {
          units = UINT64_MAX / unit.unitBytes;
        }
      }
    }
    if (units > UINT64_MAX / unit.unitBytes) units = UINT64_MAX / unit.unitBytes;
    return TileTransfer{units * unit.unitBytes, unit.memory};
  }
  return std::nullopt;
}

}  // namespace coralsim::isa

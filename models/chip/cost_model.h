// Cost models of the Beagle blocks: pure functions of a packet (or a byte count) and the
// TimingModel constants (models/timing_model.h), so each formula can be checked by hand in a unit
// test. The SystemC blocks call them and keep only the bookkeeping (who is busy until when).
//
//   block                 formula (chip cycles)                                   used by
//   scalar core           packetIssueCycles (models/timing_model.h)                 scalar_engine.cc
//   MAC array  0x01-0x05  computePacketCycles + macCyclesPerIteration x             tile.cc
//                         product over the 7 levels of (limit + 1) of the packet's
//                         loop nest (models/isa/compute_loop_nest.def, Nest29:
//                         K groups, kernel taps, output positions; computeLoopIterations)
//   NLU        0x19       nluTableCycles                                            tile.cc
//   tile DMA   0x10-0x18  tileDmaPacketCycles + ceil(bytes / bandwidth of its         tile.cc
//                         memory): bytes = unit x product of (limit + 1) of its decoded
//                         loops (models/isa/tile_transfer_loops.def, tileTransferOf);
//                         narrowBytesPerCycle for 0x13 / 0x14 / 0x17 and the mesh
//                         0x15 / 0x16 / 0x18 (received bytes), wideBytesPerCycle for
//                         0x11 rows, ringBytesPerCycle for 0x10 beats; 0 bytes where the
//                         size is not decoded (0x12, other formats)
//   tile fence 0x1a       0 (the tile waits for all its units, tile.cc)             tile.cc
//   infeed                ceil(bytes / infeedBytesPerCycle) per descriptor          infeed.cc
//   outfeed               ceil(bytes / outfeedBytesPerCycle) per output window      outfeed.cc
//
// A packet sent to several tiles (its tile mask) costs its cycles in each of them, in parallel:
// the mask selects where the work happens, not how long it takes (each tile computes its own
// 64-channel slice, docs/isa.md §1).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "models/isa/compute_loop_nest.h"
#include "models/isa/opcodes.h"
#include "models/isa/tile_transfer_loops.h"
#include "models/isa/word128.h"
#include "models/timing_model.h"

namespace coralsim::models {

// Which functional unit of a tile executes a tile packet; units of one tile work concurrently
// and meet at tile fences (0x1a).
enum class TileUnit : uint8_t {
  kMac,    // compute packets 0x01-0x05
  kNlu,    // 0x19
  kDma10,  // one engine per DMA opcode 0x10..0x18 (narrow/wide, ring bus, mesh N/E/S/W)
  kDma11,
  kDma12,
  kDma13,
  kDma14,
  kDma15,
  kDma16,
  kDma17,
  kDma18,
  kFence,  // 0x1a: no unit of its own
};
inline constexpr unsigned kTileUnitCount = static_cast<unsigned>(TileUnit::kFence);  // units with a busy time

[[nodiscard]] TileUnit tileUnitOf(isa::Opcode opcode);

// The loop limits of a compute packet that set its MAC work ("count - 1" values, like every TTU
// limit): the seven levels of its Nest29 loop nest (models/isa/compute_loop_nest.def) — level 0
// the K reduction in 4-byte groups, then the kernel taps and the output positions per tile (a
// 7 x 7 convolution of 32 channels on 32 x 32 positions: 7, 6, 6, 0, 31, 31, 0). All 0 for other
// packets; fields past the end of a short packet read 0.
struct ComputeLoops {
  std::array<uint64_t, isa::kComputeNestLevels> limits{};
};
[[nodiscard]] ComputeLoops computeLoops(isa::Opcode opcode, std::span<const isa::Word128> words);
// The product of (limit + 1) over the levels: the 4-byte groups x taps x output positions one tile
// steps through.
[[nodiscard]] uint64_t computeLoopIterations(const ComputeLoops& loops);

// The bytes a tile DMA packet moves in its tile's memory (per tile of its mask), when its size is
// decoded (models/isa/tile_transfer_loops.def); nullopt for other packets and undecoded forms.
[[nodiscard]] std::optional<isa::TileTransfer> tileTransferOf(isa::Opcode opcode, std::span<const isa::Word128> words);

// Cycles a tile unit is busy with the packet (table above).
[[nodiscard]] Cycles tilePacketCycles(const TimingModel& timing, isa::Opcode opcode,
                                      std::span<const isa::Word128> words);

[[nodiscard]] inline Cycles infeedCycles(const TimingModel& timing, Bytes bytes) {
  return transferCycles(bytes, timing.infeedBytesPerCycle);
}
[[nodiscard]] inline Cycles outfeedCycles(const TimingModel& timing, Bytes bytes) {
  return transferCycles(bytes, timing.outfeedBytesPerCycle);
}

}  // namespace coralsim::models

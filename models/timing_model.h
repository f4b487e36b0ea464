// TimingModel: every constant of coralsim's cycle-approximate cost models in one struct, with the
// evidence for each value. ChipConfig carries one (ChipConfig::timing); the blocks read it at reset.
// The formulas that use these constants sit in models/chip/cost_model.h, one function per block.
//
// Evidence tags: [doc] a published figure or a fact of docs/isa.md / docs/usb-protocol.md;
// [calibrated] fitted by scripts/calibrate-timing.py against the published latencies in
// scripts/timing-references.json (the fit, its residuals and the leave-one-out error are in the
// report that script writes); [choice] a modelling decision with no direct evidence.
//
// The USB side of a run's predicted time (bytes on the link, per-transfer overheads, host
// turnaround) is modelled in sim/usb_link_model.h: the chip clock never waits for the host
// (models/chip/block_interfaces.h), so chip cycles only hold the device's own work.
#pragma once

#include <cstdint>
#include <variant>

#include "units/units.h"

namespace coralsim::models {

// The cost models count in typed units (units/units.h): a cycle count, a byte count and a bus
// width do not mix by accident. models:: code names them unqualified.
using units::Bytes;
using units::BytesPerCycle;
using units::Cycles;
using units::transferCycles;

// Scalar-core issue costs. They sit in the core's inner loop (models/scalar/scalar_engine.cc), so
// they are compile-time constants rather than fields: one 128-bit instruction word is fetched per
// cycle [choice: the scalar core is a single-issue VLIW fed one word per cycle, docs/isa.md §3.2].
//   scalar bundle (0x20), HALT, branch, loop word    1 cycle
//   any other packet of L words (tile, scalar-side)  L cycles (multi-word packet issue)
inline constexpr uint64_t kBundleIssueCycles = 1;
inline constexpr uint64_t kIssueCyclesPerPacketWord = 1;

// Issue cost of a packet of `lengthWords` words (bundles and control packets are one word long).
[[nodiscard]] constexpr uint64_t packetIssueCycles(uint64_t lengthWords) {
  // While both costs are equal the formula is one multiplication: no branch in the core's hot loop.
  if constexpr (kBundleIssueCycles == kIssueCyclesPerPacketWord) return lengthWords * kIssueCyclesPerPacketWord;
  return lengthWords <= 1 ? kBundleIssueCycles : lengthWords * kIssueCyclesPerPacketWord;
}

struct TimingModel {
  // ---- MAC array (compute packets 0x01-0x05) ---------------------------------------------------
  // Each tile's 64 MAC cells can take 4 input bytes per cycle (16 x 64 x 4 = 4096 MAC/cycle, the
  // 4 TOPS of the datasheet at 500 MHz) [doc: docs/isa.md §1]: at that peak one output position
  // times one 4-byte group of the reduction costs one cycle. A compute packet's work is the product
  // of the limits of its decoded loop nest (models/isa/compute_loop_nest.def: the K reduction, the
  // kernel taps, the output positions; docs/decoding-log.md "taps").
  // 1 cycle per iteration [calibrated: of the candidates 1, 2, 3, 4, 8 (scripts/estimate-fit.py
  // --sweep, docs/timing.md §1) 1 puts 12 of the 33 executables with a compiler estimate within
  // 0.8-1.25x of it (median 1.00 over the 21 with >= 1,000 estimated cycles; 2 of 33 at 2 and 0 at
  // 8), and on the 42 published latencies gives a mean absolute error of 4.1 % with 42 of 42
  // within +-30 % (8.9-49.8 % at 2-8). It is also the datasheet peak above, so the fit agrees with
  // the documented array]. Until the tap loop was decoded the packets' work missed the k x k taps
  // and the depthwise channel loop, and 8 cycles per iteration stood in for them.
  Cycles macCyclesPerIteration = 1;  // [calibrated]
  // Fixed cost of a compute packet besides its loops: TTU set-up, pipeline fill and drain, the
  // requantisation epilogue. [calibrated: 300 of the grid 0..30000, fitted with 1 cycle per MAC
  // iteration; with the decoded nest and 1 cycle per iteration, 300 and 0 both give 4.1 % on the
  // latencies and 12 / 13 of 33 executables within 0.8-1.25x of the estimate (docs/timing.md)]
  Cycles computePacketCycles = 300;

  // ---- NLU (0x19) ------------------------------------------------------------------------------
  // Loading the 13-word polynomial table into the tile's NLU: one word per cycle [choice]; using
  // it costs nothing extra (it runs in the compute epilogue the 0x01 packet already pays).
  Cycles nluTableCycles = 13;

  // ---- tile DMA engines and ring/mesh transfers ------------------------------------------------
  // 0x10-0x18 move data between narrow/wide memories, the ring bus and the mesh. A packet costs
  //     tileDmaPacketCycles + ceil(bytes moved / bandwidth of its memory)
  // where the bytes come from its decoded loop fields (models/isa/tile_transfer_loops.def: 0x11
  // receive rows, 0x13 read groups, 0x14 write groups, 0x17 immediate fill nest, 0x10 send beats,
  // mesh 0x15/0x16/0x18 received units); the packets whose size is not decoded (0x12, a 0x11
  // without bit 61, a 0x17 that is not immediate) pay the fixed part only.
  // Fixed part [calibrated: 0 of the grid 0..3000 — on the published latencies the DMA engines
  // never set the pace (they overlap the MAC array between fences); refitted with the byte costs
  // below in place (docs/timing.md §1, "Tile DMA packets from their loops"), still 0].
  Cycles tileDmaPacketCycles = 0;
  // Narrow memory (0x13 reads, 0x14 writes, 0x17 fills): 32 bytes per cycle per tile
  // [calibrated: of the widths 4, 8, ..., 256 (scripts/estimate-fit.py --choose
  // narrow_bytes_per_cycle=..., docs/timing.md §1 "Tile DMA packets from their loops") 32 puts the
  // most executables within 0.8-1.25x of the compiler's estimate (14 of 33; 12 at 64-256, 11 at 16,
  // 6 at 4-8), and is chosen on every leave-one-family-out fold (14 of 33 held out in band); tested
  // on the 42 published latencies: MAE 3.8 % (4.0 % at 256, 9.6 % at 1), 42 of 42 within +-30 %.
  // The effect comes from the repeated 0x13 reads alone (Read13Repeats, corpus-fitted): without
  // them no width from 8 to 64 changes either oracle].
  BytesPerCycle narrowBytesPerCycle = 32;
  // Wide memory (0x11 receive rows): one 256-byte row per cycle, the row the MAC array reads its
  // weights in (64 lanes x 4 bytes, docs/isa.md §5.1) [choice; the rows arrive over the infeed at
  // infeedBytesPerCycle, which is slower, so this never sets the pace].
  BytesPerCycle wideBytesPerCycle = 256;
  // The ring bus (0x10 sends, 256-byte beats, docs/decoding-log.md "ringmesh" §A): one 128-bit word
  // per cycle [choice: the width the infeed and outfeed take over the same ring; see docs/timing.md
  // §1 "Ring and mesh transfers" for the sweep].
  BytesPerCycle ringBytesPerCycle = 16;
  // Tile and scalar fences (0x1a, 0x24) cost their issue only; a tile fence makes the tile wait
  // until every unit of the tile is idle (models/chip/tile.h).

  // ---- infeed (tag 1/2 descriptors, 0x25/0x26 ring pops) ---------------------------------------
  // Host bytes requested by a descriptor land on chip over the ring bus at one 128-bit word per
  // cycle [choice: the ring's width is the instruction word's; docs/isa.md §4.1 0x26 offsets are
  // in 16-byte units].
  BytesPerCycle infeedBytesPerCycle = 16;

  // ---- outfeed (tag 3 windows towards EP 0x81) -------------------------------------------------
  // Output bytes leave the tiles over the ring bus towards the USB bridge, one 128-bit word per
  // cycle [choice, same width as the infeed]; the final HALT waits until the last byte has left.
  BytesPerCycle outfeedBytesPerCycle = 16;
};

// The table of TimingModel's fields, declared once: `coralsim run --timing-constant NAME=VALUE`
// and scripts/calibrate-timing.py address them by these names.
struct TimingConstant {
  const char* name;
  std::variant<Cycles TimingModel::*, BytesPerCycle TimingModel::*> field;  // in its own unit
  const char* evidence;

  // Sets the constant to `value`, a number in the constant's unit (cycles, bytes per cycle).
  void set(TimingModel& timing, uint64_t value) const {
    std::visit([&](auto member) { timing.*member = value; }, field);
  }
};
inline constexpr TimingConstant kTimingConstants[] = {
    {"mac_cycles_per_iteration", &TimingModel::macCyclesPerIteration, "calibrated"},
    {"compute_packet_cycles", &TimingModel::computePacketCycles, "calibrated"},
    {"nlu_table_cycles", &TimingModel::nluTableCycles, "choice"},
    {"tile_dma_packet_cycles", &TimingModel::tileDmaPacketCycles, "calibrated"},
    {"narrow_bytes_per_cycle", &TimingModel::narrowBytesPerCycle, "calibrated"},
    {"wide_bytes_per_cycle", &TimingModel::wideBytesPerCycle, "choice"},
    {"ring_bytes_per_cycle", &TimingModel::ringBytesPerCycle, "choice"},
    {"infeed_bytes_per_cycle", &TimingModel::infeedBytesPerCycle, "choice"},
    {"outfeed_bytes_per_cycle", &TimingModel::outfeedBytesPerCycle, "choice"},
};

}  // namespace coralsim::models

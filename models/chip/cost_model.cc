#include "models/chip/cost_model.h"

#include "models/isa/packet_fields.h"

namespace coralsim::models {
namespace {

// A field read for timing only, at an absolute bit position (128 x word + bit).
struct LoopField {
  uint32_t lsb;
  uint8_t width;
};
// The output-position loop limits of word 5 [INF: found by diffing the compute packets of the
// RingCanary 12 x W convolutions (W = 128, 176: 31, 43 = W/4 - 1 with 4 tile columns) and of
// MobileNet v2 (783, 195, 48 = 28 x 28, 14 x 14, 7 x 7 positions per tile, minus 1)]. Not in
// models/isa/packet_fields.def because only the cost model reads them.
constexpr LoopField kOuterA{5 * 128 + 8, 10};
constexpr LoopField kOuterB{5 * 128 + 45, 10};

uint64_t read(const LoopField& f, std::span<const isa::Word128> words) {
  const uint32_t word = f.lsb / 128;
  const uint32_t bit = f.lsb % 128;
  if (word >= words.size() || bit + f.width > 128) return 0;
  return words[word].bits(bit, f.width);
}

}  // namespace

TileUnit tileUnitOf(isa::Opcode opcode) {
  const uint8_t op = static_cast<uint8_t>(opcode);
  if (op >= 0x10 && op <= 0x18) return static_cast<TileUnit>(static_cast<uint8_t>(TileUnit::kDma10) + (op - 0x10));
  switch (isa::opcodeInfo(opcode).cls) {
    case isa::PacketClass::TileCompute:
      return TileUnit::kMac;
    case isa::PacketClass::TileNlu:
      return TileUnit::kNlu;
    default:
      return TileUnit::kFence;
  }
}

ComputeLoops computeLoops(isa::Opcode opcode, std::span<const isa::Word128> words) {
  ComputeLoops loops;
  if (isa::opcodeInfo(opcode).cls != isa::PacketClass::TileCompute) return loops;
  if (const isa::FieldDef* k = isa::findPacketField(opcode, "k_w0")) loops.reduction = read({k->lsb, k->width}, words);
  loops.outerA = read(kOuterA, words);
  loops.outerB = read(kOuterB, words);
  return loops;
}

uint64_t computeLoopIterations(const ComputeLoops& loops) {
  return (loops.reduction + 1) * (loops.outerA + 1) * (loops.outerB + 1);
}

Cycles tilePacketCycles(const TimingModel& timing, isa::Opcode opcode, std::span<const isa::Word128> words) {
  switch (tileUnitOf(opcode)) {
    case TileUnit::kMac:
      // computePacketCycles + macCyclesPerIteration x loop iterations (header). Compute packets
      // without the K field (0x02, 0x03, 0x05) reduce over one group.
      return Cycles{timing.computePacketCycles +
                    timing.macCyclesPerIteration * computeLoopIterations(computeLoops(opcode, words))};
    case TileUnit::kNlu:
      return Cycles{timing.nluTableCycles};
    case TileUnit::kFence:
      return Cycles{0};
    default:  // the DMA engines
      return Cycles{timing.tileDmaPacketCycles};
  }
}

}  // namespace coralsim::models

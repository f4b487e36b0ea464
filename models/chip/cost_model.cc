#include "models/chip/cost_model.h"

namespace coralsim::models {

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
  // Nest29 rather than Nest37: in the 0x02 / 0x03 packets only Nest29 is set (Nest37 all 0), and
  // where both are set they give the same product (compute_loop_nest.def).
  loops.limits = isa::readComputeNestLimits(isa::ComputeNest::Nest29, words);
  return loops;
}

uint64_t computeLoopIterations(const ComputeLoops& loops) {
  uint64_t iterations = 1;
  for (const uint64_t limit : loops.limits) iterations *= limit + 1;
  return iterations;
}

std::optional<isa::TileTransfer> tileTransferOf(isa::Opcode opcode, std::span<const isa::Word128> words) {
  if (tileUnitOf(opcode) < TileUnit::kDma10 || tileUnitOf(opcode) > TileUnit::kDma18) return std::nullopt;
  return isa::readTileTransfer(static_cast<uint8_t>(opcode), words);
}

Cycles tilePacketCycles(const TimingModel& timing, isa::Opcode opcode, std::span<const isa::Word128> words) {
  switch (tileUnitOf(opcode)) {
    case TileUnit::kMac:
      // computePacketCycles + macCyclesPerIteration x loop iterations (header).
      return Cycles{timing.computePacketCycles +
                    timing.macCyclesPerIteration * computeLoopIterations(computeLoops(opcode, words))};
    case TileUnit::kNlu:
      return Cycles{timing.nluTableCycles};
    case TileUnit::kFence:
      return Cycles{0};
    default: {  // the DMA engines: tileDmaPacketCycles + ceil(bytes / bandwidth of the memory)
      const std::optional<isa::TileTransfer> transfer = tileTransferOf(opcode, words);
      if (!transfer) return Cycles{timing.tileDmaPacketCycles};
      const BytesPerCycle bandwidth = transfer->memory == isa::TileMemory::Wide   ? timing.wideBytesPerCycle
                                      : transfer->memory == isa::TileMemory::Ring ? timing.ringBytesPerCycle
                                                                                  : timing.narrowBytesPerCycle;
      return Cycles{timing.tileDmaPacketCycles} + transferCycles(Bytes{transfer->bytes}, bandwidth);
    }
  }
}

}  // namespace coralsim::models

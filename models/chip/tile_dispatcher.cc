#include "models/chip/tile_dispatcher.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "models/isa/packet_fields.h"

namespace coralsim::models {

TileDispatcher::TileDispatcher(const sc_core::sc_module_name& name, unsigned tileCount)
    : sc_core::sc_module(name), toTile("toTile", tileCount), tileStatus("tileStatus", tileCount) {}

void TileDispatcher::reset() {
  nextSequence_ = 0;
  dispatched_ = 0;
}

void TileDispatcher::dispatch(const DecodedPacket& packet, uint64_t cycle) {
  const std::string where = describePacketLocation(packet.pc, packet.words[0]);
  const std::string name(isa::opcodeInfo(packet.opcode).mnemonic);
  if (packet.tileMask == 0) {
    throw ChipFault(FaultKind::kTileSequence, "tile packet " + name + " at " + where + " has tile mask 0");
  }
  const unsigned tiles = static_cast<unsigned>(toTile.size());
  if (tiles < 16 && (packet.tileMask >> tiles) != 0) {
    throw ChipFault(FaultKind::kTileSequence, "tile packet " + name + " at " + where + " addresses tile mask " +
                                                  std::to_string(packet.tileMask) + " but the chip has " +
                                                  std::to_string(tiles) + " tiles");
  }
  const uint32_t modulus = uint32_t{1} << isa::tileSequenceWidth();
  const uint32_t expected = nextSequence_ % modulus;
  if (packet.tileSequence != expected) {
    throw ChipFault(FaultKind::kTileSequence, "tile packet " + name + " at " + where + " carries sequence number " +
                                                  std::to_string(packet.tileSequence) + ", expected " +
                                                  std::to_string(expected));
  }
  nextSequence_ = (nextSequence_ + 1) % modulus;
  ++dispatched_;

  const TilePacket out{packet.pc,
                       packet.opcode,
                       packet.length,
                       packet.tileMask,
                       packet.tileSequence,
                       cycle,
                       tileUnitOf(packet.opcode),
                       tilePacketCycles(timing_, packet.opcode, packet.words).value};
  for (unsigned t = 0; t < tiles; ++t) {
    if (((packet.tileMask >> t) & 1u) == 0) continue;
    // The core synchronises before every issue, so each tile has drained its FIFO by now.
    if (!toTile[t]->nb_write(out)) throw std::logic_error("tile FIFO " + std::to_string(t) + " overflowed");
  }
}

bool TileDispatcher::packetsInFlight() const {
  for (const auto& port : toTile) {
    if (port->num_free() < static_cast<int>(kTileFifoDepth)) return true;
  }
  return false;
}

uint64_t TileDispatcher::idleCycle() const {
  uint64_t idle = 0;
  for (const auto& port : tileStatus) idle = std::max(idle, port->busyUntil());
  return idle;
}

}  // namespace coralsim::models

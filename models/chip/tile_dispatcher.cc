#include "models/chip/tile_dispatcher.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "models/chip/pass_through_compute.h"
#include "models/isa/packet_fields.h"

namespace coralsim::models {

TileDispatcher::TileDispatcher(const sc_core::sc_module_name& name, unsigned tileCount)
    : sc_core::sc_module(name), toTile("toTile", tileCount), tileStatus("tileStatus", tileCount) {}

void TileDispatcher::reset() {
  nextSequence_ = 0;
  dispatched_ = 0;
}

std::string TileDispatcher::dispatch(const DecodedPacket& packet, uint64_t cycle) {
  // Nothing here refuses a packet (docs/refusal-rules.md): real Corals run compiled programs with
  // tile mask 0 (an LSTM from the public compiler, issue #14), and no evidence says hardware checks
  // the mask against its tiles or the sequence number. The oddities become notes instead.
  std::string note;
  const auto addNote = [&](const std::string& text) {
    if (note.empty()) {
      note = "tile packet " + std::string(isa::opcodeInfo(packet.opcode).mnemonic) + " at " +
             describePacketLocation(packet.pc, packet.words[0]) + ": ";
    } else {
      note += "; ";
    }
    note += text;
  };
  const unsigned tiles = static_cast<unsigned>(toTile.size());
  uint32_t mask = packet.tileMask;
  if (mask == 0) addNote("tile mask 0 addresses no tile, no tile acts on it");
  if (tiles < 32 && (mask >> tiles) != 0) {
    addNote("tile mask " + std::to_string(mask) + " names tiles the chip does not have (" + std::to_string(tiles) +
            " tiles): those bits are ignored");
    mask &= (uint32_t{1} << tiles) - 1;
  }
  // The sequence number still counts a packet no tile takes: the compiler numbers every tile packet.
  const uint32_t modulus = uint32_t{1} << isa::tileSequenceWidth();
  const uint32_t expected = nextSequence_ % modulus;
  if (packet.tileSequence != expected) {
    addNote("sequence number " + std::to_string(packet.tileSequence) + ", expected " + std::to_string(expected) +
            ": the count continues from the packet's number");
  }
  nextSequence_ = (packet.tileSequence + 1) % modulus;
  ++dispatched_;
  if (mask == 0) return note;

  const TilePacket out{packet.pc,
                       packet.opcode,
                       packet.length,
                       static_cast<uint16_t>(mask),
                       packet.tileSequence,
                       cycle,
                       tileUnitOf(packet.opcode),
                       tilePacketCycles(timing_, packet.opcode, packet.words).value(),
                       isPassThroughCompute(packet.opcode, packet.words)};
  for (unsigned t = 0; t < tiles; ++t) {
    if (((mask >> t) & 1u) == 0) continue;
    // The core synchronises before every issue, so each tile has drained its FIFO by now.
    if (!toTile[t]->nb_write(out)) throw std::logic_error("tile FIFO " + std::to_string(t) + " overflowed");
  }
  return note;
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

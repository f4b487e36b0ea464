#include "models/chip/tile.h"

#include <algorithm>

namespace coralsim::models {

std::ostream& operator<<(std::ostream& os, const TilePacket& packet) {
  return os << "tile packet op " << static_cast<unsigned>(packet.opcode) << " pc " << packet.pc << " seq "
            << packet.sequence << " mask " << packet.mask << " @" << packet.issueCycle;
}

Tile::Tile(const sc_core::sc_module_name& name, unsigned index) : sc_core::sc_module(name), in("in"), index_(index) {
  SC_METHOD(accept);
  sensitive << in.data_written();
  dont_initialize();
}

void Tile::reset() {
  TilePacket discard;
  while (in->nb_read(discard)) {
  }
  busyUntil_ = 0;
  packetsAccepted_ = 0;
  lastSequence_ = 0;
  csrs_.clear();
}

uint64_t Tile::csr(uint32_t address) const {
  const auto it = csrs_.find(address);
  return it == csrs_.end() ? 0 : it->second;
}

void Tile::accept() {
  TilePacket packet;
  while (in->nb_read(packet)) {
    // Cost model (header): busy for the packet's length, in order.
    const uint64_t start = std::max(packet.issueCycle, busyUntil_);
    busyUntil_ = start + packet.length;
    lastSequence_ = packet.sequence;
    ++packetsAccepted_;
  }
}

}  // namespace coralsim::models

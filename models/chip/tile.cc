#include "models/chip/tile.h"

#include <algorithm>

#include "models/isa/opcodes.h"
#include "traces/trace_event.h"

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
  unitBusy_.fill(0);
  fence_ = 0;
  packetsAccepted_ = 0;
  lastSequence_ = 0;
  csrs_.clear();
}

uint64_t Tile::csr(uint32_t address) const {
  const auto it = csrs_.find(address);
  return it == csrs_.end() ? 0 : it->second;
}

uint64_t Tile::busyUntil() const {
  uint64_t until = fence_;
  for (uint64_t busy : unitBusy_) until = std::max(until, busy);
  return until;
}

void Tile::accept() {
  TilePacket packet;
  while (in->nb_read(packet)) {
    // Cost model (header): units in parallel, in order per unit, fences join them.
    if (packet.unit == TileUnit::kFence) {
      fence_ = std::max(packet.issueCycle, busyUntil());
    } else {
      uint64_t& busy = unitBusy_[static_cast<unsigned>(packet.unit)];
      const uint64_t start = std::max({packet.issueCycle, busy, fence_});
      busy = start + packet.costCycles;
      if (tracer_ != nullptr && tracer_->events()) [[unlikely]] traceSpan(packet, start);
    }
    lastSequence_ = packet.sequence;
    ++packetsAccepted_;
  }
}

void Tile::traceSpan(const TilePacket& packet, uint64_t start) const {
  traces::TraceEvent e;
  e.kind = traces::TraceEventKind::kSpan;
  e.cycle = start;
  e.duration = packet.costCycles;
  e.unit = {packet.unit == TileUnit::kNlu ? traces::TraceUnitKind::kNlu : traces::TraceUnitKind::kTile,
            static_cast<uint16_t>(index_)};
  e.name = std::string(isa::opcodeInfo(packet.opcode).mnemonic);
  e.args = {{"pc", packet.pc}, {"sequence", packet.sequence}, {"issue_cycle", packet.issueCycle}};
  // The layer map reads it (sim/profile/compute_packet_log.h): a pass-through compute does no MAC work of a layer.
  if (packet.passThrough) e.args.push_back({"pass_through", 1});
  tracer_->record(e);
}

void Tile::traceSignals(sc_core::sc_trace_file* file, const std::string& prefix) const {
  sc_core::sc_trace(file, packetsAccepted_, prefix + ".packets");
  sc_core::sc_trace(file, lastSequence_, prefix + ".sequence");
  sc_core::sc_trace(file, fence_, prefix + ".fence");
}

}  // namespace coralsim::models

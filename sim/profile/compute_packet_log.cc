#include "sim/profile/compute_packet_log.h"

#include <algorithm>

#include "models/isa/opcodes.h"

namespace coralsim::sim {
namespace {

uint64_t argValue(const traces::TraceEvent& e, const char* key) {
  for (const traces::TraceArg& a : e.args) {
    if (a.key == key) return a.value;
  }
  return 0;
}

}  // namespace

void ComputePacketLog::record(const traces::TraceEvent& e) {
  if (e.kind != traces::TraceEventKind::kSpan) return;
  if (e.unit.kind == traces::TraceUnitKind::kScalarCore && e.name.starts_with("run ")) {
    runs_.push_back({e.cycle, e.cycle + e.duration});
    return;
  }
  if (e.unit.kind != traces::TraceUnitKind::kTile) return;
  const auto op = isa::opcodeByMnemonic(e.name);
  if (!op || isa::packetClass(*op) != isa::PacketClass::TileCompute) return;
  const uint64_t issue = argValue(e, "issue_cycle");
  const auto pc = static_cast<uint32_t>(argValue(e, "pc"));
  auto [it, inserted] = packets_.try_emplace({issue, pc});
  ComputePacket& p = it->second;
  if (inserted) {
    p.issueCycle = issue;
    p.pc = pc;
    p.mnemonic = e.name;
    p.start = e.cycle;
    p.cycles = e.duration;
    p.passThrough = argValue(e, "pass_through") != 0;
  }
  ++p.tiles;
  p.start = std::min(p.start, e.cycle);
  p.end = std::max(p.end, e.cycle + e.duration);
  p.iterations += (e.duration > fixed_ ? e.duration - fixed_ : 0) / perIteration_;
}

std::vector<ComputePacket> ComputePacketLog::packetsIn(const RunSpan& run) const {
  std::vector<ComputePacket> out;
  for (auto it = packets_.lower_bound({run.start, 0}); it != packets_.end() && it->first.first < run.end; ++it) {
    out.push_back(it->second);
  }
  return out;  // the map's order is (issue cycle, pc): issue order
}

}  // namespace coralsim::sim

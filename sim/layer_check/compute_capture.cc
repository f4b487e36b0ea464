#include "sim/layer_check/compute_capture.h"

namespace coralsim::sim {

void ComputeCapture::computed(const models::DecodedPacket& packet, unsigned tile, const lle::ComputeWrite& write) {
  const std::lock_guard lock(mutex_);
  // The rung reports a packet's tiles in ascending order, so a tile that is not above the last one
  // (or another packet) starts the next execution, even of the same packet inside a loop.
  const bool samePacket = !packets_.empty() && last_ == &packet && packets_.back().pc == packet.pc &&
                          packets_.back().tiles.back() < tile;
  if (!samePacket) packets_.push_back(CapturedCompute{packet.pc, write.form, write.bytesPerPosition, {}, {}, {}, {}});
  CapturedCompute& c = packets_.back();
  c.tiles.push_back(tile);
  c.positionAt.emplace_back(write.positionAt.begin(), write.positionAt.end());
  c.lanes.emplace_back(write.bytes.begin(), write.bytes.end());
  c.undefined.emplace_back(write.undefined.begin(), write.undefined.end());
  last_ = &packet;
}

std::vector<CapturedCompute> ComputeCapture::packets() const {
  const std::lock_guard lock(mutex_);
  return packets_;
}

}  // namespace coralsim::sim

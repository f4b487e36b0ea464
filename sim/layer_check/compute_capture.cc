#include "sim/layer_check/compute_capture.h"

namespace coralsim::sim {

void ComputeCapture::computed(const models::DecodedPacket& packet, unsigned tile, uint64_t narrowAddress,
                              std::span<const uint8_t> lanes) {
  const std::lock_guard lock(mutex_);
  // The rung reports a packet's tiles in ascending order, so a tile that is not above the last one
  // (or another packet) starts the next execution, even of the same packet inside a loop.
  const bool samePacket = !packets_.empty() && last_ == &packet && packets_.back().pc == packet.pc &&
                          packets_.back().tiles.back() < tile;
  if (!samePacket) packets_.push_back(CapturedCompute{packet.pc, narrowAddress, {}, {}});
  packets_.back().tiles.push_back(tile);
  packets_.back().lanes.emplace_back(lanes.begin(), lanes.end());
  last_ = &packet;
}

std::vector<CapturedCompute> ComputeCapture::packets() const {
  const std::lock_guard lock(mutex_);
  return packets_;
}

}  // namespace coralsim::sim

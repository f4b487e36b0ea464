// ComputeCapture: every compute packet the lle rung executed in a session, with the lane results
// each of its tiles wrote to narrow memory (models/lle/compute_observer.h), in issue order. The
// layer checker registers it as ChipConfig::lleComputeObserver and reads it after the run.
#pragma once

#include <cstdint>
#include <mutex>
#include <span>
#include <vector>

#include "models/lle/compute_observer.h"

namespace coralsim::sim {

// One executed compute packet.
struct CapturedCompute {
  uint32_t pc = 0;                           // word index in its instruction chunk
  uint64_t narrowAddress = 0;                // ComputeOutputAt: where its lane results went
  std::vector<unsigned> tiles;               // the tiles of its mask, ascending
  std::vector<std::vector<uint8_t>> lanes;   // per tile (same order): one byte per output lane
};

class ComputeCapture final : public lle::ComputeObserver {
 public:
  void computed(const models::DecodedPacket& packet, unsigned tile, uint64_t narrowAddress,
                std::span<const uint8_t> lanes) override;

  // The packets so far, in issue order (a copy: the simulator thread may still be appending).
  [[nodiscard]] std::vector<CapturedCompute> packets() const;

 private:
  mutable std::mutex mutex_;
  std::vector<CapturedCompute> packets_;
  const models::DecodedPacket* last_ = nullptr;  // the packet the last call came from
};

}  // namespace coralsim::sim

// ComputeCapture: every compute packet the lle rung executed in a session, with what each of its
// tiles wrote to narrow memory (models/lle/compute_observer.h: the form, each output position's
// address and result bytes), in issue order. The layer checker registers it as
// ChipConfig::lleComputeObserver and reads it after the run.
#pragma once

#include <cstdint>
#include <mutex>
#include <vector>

#include "models/lle/compute_observer.h"

namespace coralsim::sim {

// One executed compute packet.
struct CapturedCompute {
  uint32_t pc = 0;                                     // word index in its instruction chunk
  lle::ComputeForm form = lle::ComputeForm::kSinglePosition;
  unsigned bytesPerPosition = 0;                       // result bytes (lanes) of one output position
  std::vector<unsigned> tiles;                         // the tiles of its mask, ascending
  std::vector<std::vector<uint64_t>> positionAt;       // per tile (same order): each position's narrow address
  std::vector<std::vector<uint8_t>> lanes;             // per tile: positions x bytesPerPosition, position-major
  std::vector<std::vector<uint8_t>> undefined;         // per tile: 1 per undefined position, or empty (all defined)
};

class ComputeCapture final : public lle::ComputeObserver {
 public:
  void computed(const models::DecodedPacket& packet, unsigned tile, const lle::ComputeWrite& write) override;

  // The packets so far, in issue order (a copy: the simulator thread may still be appending).
  [[nodiscard]] std::vector<CapturedCompute> packets() const;

 private:
  mutable std::mutex mutex_;
  std::vector<CapturedCompute> packets_;
  const models::DecodedPacket* last_ = nullptr;  // the packet the last call came from
};

}  // namespace coralsim::sim

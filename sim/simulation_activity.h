// SimulationActivity: whether the process's simulation thread has been working, as a host-side
// waiter sees it. A transfer's wall-clock limit (hosting/in_process_transport.h) measures how long
// the chip sat idle waiting for the host, not how long the host machine took to simulate its work:
// the same program must not fail on a slower or busier machine. Runaway programs are bounded by
// the chip's cycle limit instead. Thread-safe snapshot; compare two to see if work happened between.
#pragma once

#include <cstdint>

namespace coralsim::sim {

struct SimulationActivity {
  uint64_t stepsBegun = 0;  // simulation steps (time slices, delta settles) the thread has begun
  bool inStep = false;      // one is running now

  // True when no step ran at any moment between `earlier` and this snapshot.
  [[nodiscard]] bool idleSince(const SimulationActivity& earlier) const {
    return !earlier.inStep && !inStep && stepsBegun == earlier.stepsBegun;
  }
};

}  // namespace coralsim::sim

// The published latencies the timing model is checked against (scripts/timing-references.json,
// also read by scripts/calibrate-timing.py): one entry per (corpus model, USB speed). Read once
// here for every test that needs them.
#pragma once

#include <string>
#include <vector>

namespace coralsim::testing {

struct TimingReference {
  std::string model;  // corpus path, relative to $CORALSIM_CORPUS
  std::string usb;    // "super" or "high"
  double ms = 0;      // measured steady-state latency
};

// Throws std::runtime_error naming the file when it is missing or an entry is incomplete.
[[nodiscard]] std::vector<TimingReference> loadTimingReferences();

}  // namespace coralsim::testing

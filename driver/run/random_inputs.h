// Reproducible random inputs for `coralsim run --random SEED`, tests and benchmarks: the same seed
// gives the same bytes on every platform (splitmix64, not <random> distributions, whose output is
// implementation-defined).
#pragma once

#include <cstdint>
#include <vector>

#include "driver/run/run_plan.h"

namespace coralsim::driver {

// Bytes a raw program's input and parameter streams get when random (reads past the end are 0).
inline constexpr uint64_t kRandomRawStreamBytes = 64 * 1024;

// One buffer per plan input, in order, each TensorSpec::sizeBytes long (raw streams:
// kRandomRawStreamBytes). Input i depends only on (seed, i).
std::vector<std::vector<uint8_t>> randomInputs(const RunPlan& plan, uint64_t seed);

}  // namespace coralsim::driver

#include "driver/run/random_inputs.h"

namespace coralsim::driver {
namespace {

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

std::vector<std::vector<uint8_t>> randomInputs(const RunPlan& plan, uint64_t seed) {
  std::vector<std::vector<uint8_t>> out;
  for (size_t i = 0; i < plan.inputs.size(); ++i) {
    const uint64_t size = plan.inputs[i].sizeBytes != 0 ? plan.inputs[i].sizeBytes : kRandomRawStreamBytes;
    uint64_t state = seed ^ (0xD1B54A32D192ED03ull * (i + 1));
    std::vector<uint8_t> bytes(size);
    for (uint64_t pos = 0; pos < size; pos += 8) {
      const uint64_t r = splitmix64(state);
      for (uint64_t k = 0; k < 8 && pos + k < size; ++k) bytes[pos + k] = static_cast<uint8_t>(r >> (8 * k));
    }
    out.push_back(std::move(bytes));
  }
  return out;
}

}  // namespace coralsim::driver

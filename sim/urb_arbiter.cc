#include "sim/urb_arbiter.h"

namespace coralsim::sim {

void UrbArbiter::expect(uint64_t id) {
  std::lock_guard lock(mutex_);
  states_[id] = State::kExpected;
}

bool UrbArbiter::withdraw(uint64_t id) {
  std::lock_guard lock(mutex_);
  const auto it = states_.find(id);
  if (it == states_.end() || it->second != State::kExpected) return false;  // taken, or unknown
  it->second = State::kWithdrawn;
  return true;
}

bool UrbArbiter::withdrawn(uint64_t id) const {
  std::lock_guard lock(mutex_);
  const auto it = states_.find(id);
  return it != states_.end() && it->second == State::kWithdrawn;
}

bool UrbArbiter::claim(uint64_t id) {
  std::lock_guard lock(mutex_);
  const auto it = states_.find(id);
  if (it == states_.end()) return true;  // never announced by a host
  const bool claimable = it->second == State::kExpected;
  states_.erase(it);
  return claimable;
}

void UrbArbiter::forget(uint64_t id) {
  std::lock_guard lock(mutex_);
  states_.erase(id);
}

void UrbArbiter::clear() {
  std::lock_guard lock(mutex_);
  states_.clear();
}

size_t UrbArbiter::trackedCount() const {
  std::lock_guard lock(mutex_);
  return states_.size();
}

}  // namespace coralsim::sim

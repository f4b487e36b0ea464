#include "usb/dfu_protocol.h"

#include <cstddef>
#include <iterator>

namespace coralsim::usb {

const DfuRequestInfo* findDfuRequest(uint8_t bRequest) {
  for (const DfuRequestInfo& info : kDfuRequests) {
    if (info.bRequest == bRequest) return &info;
  }
  return nullptr;
}

// The name tables are indexed by value: the .def lists every value in order from 0.
static_assert(std::size(kDfuStateNames) == static_cast<size_t>(DfuState::kError) + 1);
static_assert(std::size(kDfuStatusNames) == static_cast<size_t>(DfuStatus::kErrStalledPkt) + 1);

std::string_view dfuStateName(uint8_t state) {
  return state < std::size(kDfuStateNames) ? kDfuStateNames[state] : std::string_view{};
}

std::string_view dfuStatusName(uint8_t status) {
  return status < std::size(kDfuStatusNames) ? kDfuStatusNames[status] : std::string_view{};
}

}  // namespace coralsim::usb

#include "usb/dfu_protocol.h"

namespace coralsim::usb {

const DfuRequestInfo* findDfuRequest(uint8_t bRequest) {
  for (const DfuRequestInfo& info : kDfuRequests) {
    if (info.bRequest == bRequest) return &info;
  }
  return nullptr;
}

std::string_view dfuStateName(uint8_t state) {
  return state < kDfuStateNames.size() ? kDfuStateNames[state] : std::string_view{};
}

std::string_view dfuStatusName(uint8_t status) {
  return status < kDfuStatusNames.size() ? kDfuStatusNames[status] : std::string_view{};
}

}  // namespace coralsim::usb

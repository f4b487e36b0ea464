#include "usb/coral_usb_ids.h"

namespace coralsim::usb {

std::string vidPidText(uint16_t vendorId, uint16_t productId) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s(9, ':');
  for (int i = 0; i < 4; ++i) {
    s[static_cast<size_t>(i)] = kHex[(vendorId >> (12 - 4 * i)) & 0xF];
    s[static_cast<size_t>(5 + i)] = kHex[(productId >> (12 - 4 * i)) & 0xF];
  }
  return s;
}

}  // namespace coralsim::usb

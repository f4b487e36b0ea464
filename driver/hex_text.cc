#include "driver/hex_text.h"

namespace coralsim::driver {

std::string hexText(uint64_t value, int minDigits) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string digits;
  do {
    digits.insert(digits.begin(), kDigits[value & 0xF]);
    value >>= 4;
  } while (value != 0);
  while (static_cast<int>(digits.size()) < minDigits) digits.insert(digits.begin(), '0');
  return "0x" + digits;
}

}  // namespace coralsim::driver

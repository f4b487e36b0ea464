// Hex spellings used in driver messages and reports ("0x1a318", "0x0000001000000000").
#pragma once

#include <cstdint>
#include <string>

namespace coralsim::driver {

// "0x" + lowercase hex, at least `minDigits` digits.
std::string hexText(uint64_t value, int minDigits = 1);

}  // namespace coralsim::driver

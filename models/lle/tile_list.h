// A tile mask as the refusals name it: the tiles' numbers, comma-separated ("0,3,7"). One spelling for every
// message that names tiles, so a user can grep a log for a tile whatever packet refused.
#pragma once

#include <cstdint>
#include <string>

namespace coralsim::lle {

[[nodiscard]] inline std::string tileList(uint16_t mask) {
  std::string text;
  for (unsigned t = 0; t < 16; ++t) {
    if (!(mask & (1u << t))) continue;
    if (!text.empty()) text += ",";
    text += std::to_string(t);
  }
  return text;
}

}  // namespace coralsim::lle

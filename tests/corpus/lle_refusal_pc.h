// The PC an lle refusal names: "... opcode 0x11 (tile.dma11) at PC 0x0066 ..." -> 0x66; -1 when the
// text names no PC. The corpus floors compare it with the PC of the packet a decode let through.
#pragma once

#include <string>

namespace coralsim::testing {

inline long refusedPc(const std::string& text) {
  const size_t at = text.find("at PC 0x");
  return at == std::string::npos ? -1 : std::stol(text.substr(at + 8, 4), nullptr, 16);
}

}  // namespace coralsim::testing

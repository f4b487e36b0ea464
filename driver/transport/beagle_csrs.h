// Register addresses of the Beagle chip, by the names libedgetpu's beagle_csr_offsets.h uses, taken
// from the one register table usb/csr_table.def — the register map the host sees over the seam, which
// the chip model's CsrBlock is generated from too: writing the addresses a second time here would let
// the two sides drift apart.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace coralsim::driver::csr {

// csr::scu_ctrl_3 == 0x1A318, csr::scalarCoreRunControl == 0x44018, ...
#define CORAL_CSR(name, address, count, width, reset, access, accessMask, domain, effect, note) \
  inline constexpr uint32_t name = address;
#include "usb/csr_table.def"
#undef CORAL_CSR

struct CsrInfo {
  std::string_view name;
  uint32_t address = 0;
  uint32_t count = 1;  // > 1 for register arrays (scalarRegisterFile)
  unsigned width = 64;
};

// The table row covering `address` (for arrays: any element), nullopt for addresses not in it.
std::optional<CsrInfo> findCsr(uint32_t address);

}  // namespace coralsim::driver::csr

namespace coralsim::driver {

// "scu_ctrl_3 (0x1a318)", "scalarRegisterFile[3] (0x44418)", or "0x12345" when not in the table.
std::string describeCsr(uint32_t address);

}  // namespace coralsim::driver

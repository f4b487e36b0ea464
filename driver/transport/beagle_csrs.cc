#include "driver/transport/beagle_csrs.h"

#include <array>

#include "driver/hex_text.h"

namespace coralsim::driver {
namespace csr {
namespace {

constexpr CsrInfo kTable[] = {
#define CORAL_CSR(name, address, count, width, reset, access, accessMask, domain, effect, note) \
  CsrInfo{#name, address, count, width},
#include "usb/csr_table.def"
#undef CORAL_CSR
};

}  // namespace

std::optional<CsrInfo> findCsr(uint32_t address) {
  for (const CsrInfo& info : kTable) {
    const uint32_t stride = info.width / 8;
    if (address >= info.address && address < info.address + info.count * stride &&
        (address - info.address) % stride == 0) {
      return info;
    }
  }
  return std::nullopt;
}

}  // namespace csr

std::string describeCsr(uint32_t address) {
  const auto info = csr::findCsr(address);
  if (!info) return hexText(address);
  std::string name(info->name);
  if (info->count > 1) name += "[" + std::to_string((address - info->address) / (info->width / 8)) + "]";
  return name + " (" + hexText(address) + ")";
}

}  // namespace coralsim::driver

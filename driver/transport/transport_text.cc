#include "driver/transport/transport_text.h"

#include "driver/transport/beagle_csrs.h"
#include "driver/hex_text.h"

namespace coralsim::driver {

std::string endpointText(uint8_t endpoint) { return "EP " + hexText(endpoint, 2); }

std::string bulkOutText(uint8_t endpoint, size_t bytes) {
  return "bulk OUT " + endpointText(endpoint) + " (" + std::to_string(bytes) + " bytes)";
}

std::string bulkInText(uint8_t endpoint, uint32_t maxLength) {
  return "bulk IN " + endpointText(endpoint) + " (" + std::to_string(maxLength) + " bytes)";
}

std::string csrAccessText(bool read, CsrWidth width, uint32_t address) {
  return std::string(read ? "read" : "write") + (width == CsrWidth::k32 ? "32 " : "64 ") + describeCsr(address);
}

std::string controlText(const usb::ControlSetup& s) {
  // A CSR access is whatever csrSetup() would build for its address (the length aside), so the
  // vendor request codes stay in one place.
  const uint32_t address = uint32_t{s.wIndex} << 16 | s.wValue;
  for (const CsrWidth width : {CsrWidth::k32, CsrWidth::k64}) {
    for (const bool read : {true, false}) {
      const usb::ControlSetup csr = csrSetup(address, width, read);
      if (csr.bmRequestType == s.bmRequestType && csr.bRequest == s.bRequest) return csrAccessText(read, width, address);
    }
  }
  return "control request bmRequestType " + hexText(s.bmRequestType, 2) + " bRequest " + hexText(s.bRequest, 2) +
         " wValue " + hexText(s.wValue, 4) + " wIndex " + hexText(s.wIndex, 4) + " wLength " + std::to_string(s.wLength);
}

}  // namespace coralsim::driver

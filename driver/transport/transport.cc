#include "driver/transport/transport.h"

#include <array>

#include "driver/transport/transport_text.h"

namespace coralsim::driver {
namespace {

// Vendor request types (docs/usb-protocol.md §2).
constexpr uint8_t kVendorDeviceToHost = 0xC0;
constexpr uint8_t kVendorHostToDevice = 0x40;
constexpr uint8_t kRequest64 = 0;
constexpr uint8_t kRequest32 = 1;

uint64_t readCsr(Transport& t, uint32_t address, CsrWidth width) {
  const usb::ControlSetup setup = csrSetup(address, width, /*read=*/true);
  const std::vector<uint8_t> data = t.control(setup, {});
  if (data.size() != setup.wLength) {
    throw TransportError(t.name(), csrAccessText(/*read=*/true, width, address),
                         "device returned " + std::to_string(data.size()) + " bytes, expected " +
                             std::to_string(setup.wLength));
  }
  uint64_t value = 0;
  for (size_t i = 0; i < data.size(); ++i) value |= uint64_t{data[i]} << (8 * i);
  return value;
}

void writeCsr(Transport& t, uint32_t address, CsrWidth width, uint64_t value) {
  const usb::ControlSetup setup = csrSetup(address, width, /*read=*/false);
  std::array<uint8_t, 8> data{};
  for (size_t i = 0; i < setup.wLength; ++i) data[i] = static_cast<uint8_t>(value >> (8 * i));
  t.control(setup, std::span<const uint8_t>(data.data(), setup.wLength));
}

}  // namespace

TransportError::TransportError(std::string_view transport, std::string_view operation, std::string_view cause)
    : std::runtime_error(std::string(transport) + ": " + std::string(operation) + ": " + std::string(cause)) {}

usb::ControlSetup csrSetup(uint32_t address, CsrWidth width, bool read) {
  usb::ControlSetup s;
  s.bmRequestType = read ? kVendorDeviceToHost : kVendorHostToDevice;
  s.bRequest = width == CsrWidth::k32 ? kRequest32 : kRequest64;
  s.wValue = static_cast<uint16_t>(address & 0xFFFF);
  s.wIndex = static_cast<uint16_t>(address >> 16);
  s.wLength = width == CsrWidth::k32 ? 4 : 8;
  return s;
}

void Transport::resetDevice(std::chrono::milliseconds /*reenumerationTimeout*/) {
  throw TransportError(name(), "USB port reset", "not supported by this transport");
}

uint32_t Transport::read32(uint32_t address) {
  return static_cast<uint32_t>(readCsr(*this, address, CsrWidth::k32));
}
uint64_t Transport::read64(uint32_t address) { return readCsr(*this, address, CsrWidth::k64); }
void Transport::write32(uint32_t address, uint32_t value) { writeCsr(*this, address, CsrWidth::k32, value); }
void Transport::write64(uint32_t address, uint64_t value) { writeCsr(*this, address, CsrWidth::k64, value); }

}  // namespace coralsim::driver

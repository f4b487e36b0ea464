#include "driver/transport/recording_transport.h"

#include <string>

#include "driver/transport/beagle_csrs.h"

namespace coralsim::driver {

traces::RegisterNamer csrRegisterNamer() {
  return [](uint32_t address) -> std::string {
    const std::optional<csr::CsrInfo> info = csr::findCsr(address);
    if (!info) return "";
    std::string name(info->name);
    if (info->count > 1) {
      const uint32_t stride = info->width / 8;
      name += "[" + std::to_string((address - info->address) / stride) + "]";
    }
    return name;
  };
}

RecordingTransport::RecordingTransport(Transport& inner, traces::UsbLog& log)
    : inner_(inner), builder_(log, csrRegisterNamer()), start_(std::chrono::steady_clock::now()) {}

void RecordingTransport::stamp(traces::UsbLogBuilder::Transfer& t) const {
  if (const DeviceIntrospection* sim = inner_.introspection()) {
    // A failed transfer has no instant on the device: no time, rather than a guess.
    const std::optional<usb::SimulatedInstant> at = sim->lastTransferInstant();
    if (!at) return;
    t.cycle = at->chipCycle;
    // Microseconds with nanosecond resolution, from whole nanoseconds: the text is reproducible.
    constexpr uint64_t kPicosecondsPerNanosecond = 1000;
    t.timeUs = static_cast<double>(at->picoseconds / kPicosecondsPerNanosecond) / 1000.0;
  } else {
    t.timeUs = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start_).count();
  }
}

std::vector<uint8_t> RecordingTransport::control(const usb::ControlSetup& setup, std::span<const uint8_t> outData) {
  traces::UsbLogBuilder::Transfer t;
  t.type = traces::UsbTransferType::kControl;
  t.setup = traces::UsbSetupPacket{setup.bmRequestType, setup.bRequest, setup.wValue, setup.wIndex, setup.wLength};
  t.endpoint = setup.isDeviceToHost() ? 0x80 : 0x00;
  std::vector<uint8_t> result;
  try {
    result = inner_.control(setup, outData);
  } catch (const TransportError&) {
    t.status = "error";
    t.length = 0;
    stamp(t);
    builder_.add(t);
    throw;
  }
  const std::span<const uint8_t> data = setup.isDeviceToHost() ? std::span<const uint8_t>(result) : outData;
  t.length = static_cast<uint32_t>(data.size());
  t.data = data;
  stamp(t);
  builder_.add(t);
  return result;
}

void RecordingTransport::bulkOut(uint8_t endpoint, std::span<const uint8_t> bytes) {
  traces::UsbLogBuilder::Transfer t;
  t.type = traces::UsbTransferType::kBulk;
  t.endpoint = endpoint;
  t.length = static_cast<uint32_t>(bytes.size());
  t.data = bytes;
  try {
    inner_.bulkOut(endpoint, bytes);
  } catch (const TransportError&) {
    t.status = "error";
    stamp(t);
    builder_.add(t);
    throw;
  }
  stamp(t);
  builder_.add(t);
}

std::vector<uint8_t> RecordingTransport::bulkIn(uint8_t endpoint, uint32_t maxLength) {
  traces::UsbLogBuilder::Transfer t;
  // EP 0x83 is the interrupt endpoint (docs/usb-protocol.md §4); the rest are bulk.
  t.type = endpoint == usb::endpoint::kInterruptIn ? traces::UsbTransferType::kInterrupt
                                                    : traces::UsbTransferType::kBulk;
  t.endpoint = endpoint;
  std::vector<uint8_t> result;
  try {
    result = inner_.bulkIn(endpoint, maxLength);
  } catch (const TransportError&) {
    t.status = "error";
    t.length = 0;
    t.dataKnown = false;
    stamp(t);
    builder_.add(t);
    throw;
  }
  t.length = static_cast<uint32_t>(result.size());
  t.data = result;
  stamp(t);
  builder_.add(t);
  return result;
}

}  // namespace coralsim::driver

#include "driver/transport/usbip_client_transport.h"

#include <algorithm>
#include <cerrno>

#include "driver/transport/transport_text.h"
#include "usb/interrupt_packet.h"
#include "usbip/client.h"

namespace coralsim::driver {
namespace {

// How long an unlink may take to be answered before the connection is considered dead.
constexpr std::chrono::milliseconds kUnlinkTimeout{5000};

std::string statusText(int32_t status) {
  switch (-status) {
    case EPIPE: return "stalled (-EPIPE)";
    case ECONNRESET: return "unlinked (-ECONNRESET)";
    case ESHUTDOWN: return "device shut down (-ESHUTDOWN)";
    case ENODEV: return "no device (-ENODEV)";
    case EOVERFLOW: return "babble (-EOVERFLOW)";
    case EREMOTEIO: return "short transfer (-EREMOTEIO)";
    case EINVAL: return "invalid request (-EINVAL)";
    default: return "status " + std::to_string(status);
  }
}

}  // namespace

struct UsbipClientTransport::Answer {
  int32_t status = 0;
  uint32_t actualLength = 0;
  std::vector<uint8_t> data;
};

UsbipClientTransport::UsbipClientTransport(const std::string& host, uint16_t port, const std::string& busId,
                                           std::chrono::milliseconds timeout)
    : name_("usbip " + host + ":" + std::to_string(port) + "/" + busId), timeout_(timeout) {
  try {
    client_ = std::make_unique<usbip::UsbipClient>(host, port, busId);
  } catch (const usbip::UsbipClientError& e) {
    throw TransportError(name_, "import", e.what());
  }
}

UsbipClientTransport::~UsbipClientTransport() = default;  // closing the connection unplugs

usb::UsbSpeed UsbipClientTransport::linkSpeed() const { return client_->speed(); }

UsbipClientTransport::Answer UsbipClientTransport::await(uint32_t seqnum, const std::string& operation) {
  try {
    std::optional<usbip::RetSubmit> r = client_->wait(seqnum, timeout_);
    if (!r) {
      // Unlink it; if the device completed it meanwhile, its answer (and data) counts.
      usbip::UsbipClient::UnlinkOutcome outcome = client_->unlink(seqnum, kUnlinkTimeout);
      if (!outcome.completed) {
        throw TransportError(name_, operation, "timed out after " + std::to_string(timeout_.count()) + " ms (URB unlinked)");
      }
      r = std::move(outcome.completed);
    }
    return Answer{r->params.status, r->params.actualLength, std::move(r->transferBuffer)};
  } catch (const usbip::UsbipClientError& e) {
    throw TransportError(name_, operation, e.what());
  }
}

std::vector<uint8_t> UsbipClientTransport::control(const usb::ControlSetup& setup, std::span<const uint8_t> outData) {
  const std::string operation = controlText(setup);
  if (!setup.isDeviceToHost() && outData.size() != setup.wLength) {
    throw TransportError(name_, operation,
                         "data stage of " + std::to_string(outData.size()) + " bytes for wLength " + std::to_string(setup.wLength));
  }
  uint32_t seqnum = 0;
  try {
    seqnum = client_->submitControl(setup, outData);
  } catch (const usbip::UsbipClientError& e) {
    throw TransportError(name_, operation, e.what());
  }
  Answer a = await(seqnum, operation);
  if (a.status != 0) throw TransportError(name_, operation, "failed: " + statusText(a.status));
  return setup.isDeviceToHost() ? std::move(a.data) : std::vector<uint8_t>{};
}

void UsbipClientTransport::ensureInterruptUrb() {
  if (interruptUrb_) return;
  try {
    interruptUrb_ = client_->submitIn(usb::endpoint::kInterruptIn, usb::kInterruptPacketBytes);
  } catch (const usbip::UsbipClientError& e) {
    throw TransportError(name_, "posting the interrupt URB on EP 0x83", e.what());
  }
}

void UsbipClientTransport::checkInterrupt(const std::string& operation) {
  if (interruptUrb_) {
    std::optional<usbip::RetSubmit> r;
    try {
      r = client_->poll(*interruptUrb_);
    } catch (const usbip::UsbipClientError& e) {
      throw TransportError(name_, operation, e.what());
    }
    if (r) {
      interruptUrb_.reset();
      const std::optional<uint32_t> bits = usb::decodeInterruptPacket(r->transferBuffer);
      if (r->params.status == 0 && bits && (*bits & usb::interrupt_bit::kFatalError)) faulted_ = true;
    }
  }
  if (faulted_) throw DeviceFaultError(name_, operation, kFatalInterruptCause);
}

void UsbipClientTransport::bulkOut(uint8_t endpoint, std::span<const uint8_t> bytes) {
  const std::string operation = bulkOutText(endpoint, bytes.size());
  ensureInterruptUrb();
  checkInterrupt(operation);
  uint32_t seqnum = 0;
  try {
    seqnum = client_->submitOut(endpoint, bytes);
  } catch (const usbip::UsbipClientError& e) {
    throw TransportError(name_, operation, e.what());
  }
  const Answer a = await(seqnum, operation);
  checkInterrupt(operation);
  if (a.status != 0) throw TransportError(name_, operation, "failed: " + statusText(a.status));
  if (a.actualLength != bytes.size()) {
    throw TransportError(name_, operation, "device accepted " + std::to_string(a.actualLength) + " bytes");
  }
}

std::vector<uint8_t> UsbipClientTransport::bulkIn(uint8_t endpoint, uint32_t maxLength) {
  const std::string operation = bulkInText(endpoint, maxLength);
  ensureInterruptUrb();
  checkInterrupt(operation);
  uint32_t seqnum = 0;
  try {
    seqnum = client_->submitIn(endpoint, maxLength);
  } catch (const usbip::UsbipClientError& e) {
    throw TransportError(name_, operation, e.what());
  }
  Answer a = await(seqnum, operation);
  checkInterrupt(operation);
  if (a.status != 0) throw TransportError(name_, operation, "failed: " + statusText(a.status));
  return std::move(a.data);
}

void UsbipClientTransport::resetDevice(std::chrono::milliseconds reenumerationTimeout) {
  cancelAsyncTransfers();
  const std::chrono::milliseconds saved = timeout_;
  timeout_ = std::min(timeout_, reenumerationTimeout);
  try {
    const bool super = linkSpeed() == usb::UsbSpeed::kSuper;
    auto getDescriptor = [&](uint8_t type, uint16_t length) {
      return control({0x80, 6, static_cast<uint16_t>(type << 8), 0, length}, {});
    };
    (void)getDescriptor(1, super ? 8 : 64);  // the first request after every reset
    const std::vector<uint8_t> device = getDescriptor(1, 18);
    const uint16_t bcdUsb = device.size() >= 4 ? static_cast<uint16_t>(device[2] | device[3] << 8) : 0;
    if (bcdUsb >= 0x0201) {
      const std::vector<uint8_t> bosHead = getDescriptor(0x0F, 5);
      if (bosHead.size() >= 4) (void)getDescriptor(0x0F, static_cast<uint16_t>(bosHead[2] | bosHead[3] << 8));
    }
    const std::vector<uint8_t> configHead = getDescriptor(2, 9);
    if (configHead.size() >= 4) (void)getDescriptor(2, static_cast<uint16_t>(configHead[2] | configHead[3] << 8));
    (void)control({0x00, 9, 1, 0, 0}, {});  // SET_CONFIGURATION(1)
  } catch (...) {
    timeout_ = saved;
    throw;
  }
  timeout_ = saved;
}

void UsbipClientTransport::cancelAsyncTransfers() {
  if (interruptUrb_) {
    try {
      (void)client_->unlink(*interruptUrb_, kUnlinkTimeout);
    } catch (const usbip::UsbipClientError& e) {
      throw TransportError(name_, "unlinking the interrupt URB on EP 0x83", e.what());
    }
    interruptUrb_.reset();
  }
  faulted_ = false;  // the close sequence resets the chip; a new session starts without the fault
}

}  // namespace coralsim::driver

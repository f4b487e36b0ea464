#include "driver/transport/libusb_transport.h"

#include <libusb.h>

#include <algorithm>
#include <array>
#include <tuple>
#include <thread>

#include "driver/transport/transport_text.h"
#include "usb/interrupt_packet.h"

namespace coralsim::driver {
namespace {

constexpr uint8_t kInterfaceNumber = 0;
constexpr uint16_t kFallbackMaxPacket = 512;
// Event-loop slice: how quickly a wait notices a fatal interrupt.
constexpr timeval kEventSlice{0, 50'000};
// After a cancel, libusb must give the transfer back; if it does not within this, the device
// or the kernel is gone and the transfer's memory is abandoned rather than freed under it.
constexpr auto kCancelGrace = std::chrono::seconds(5);
// How often resetDevice() looks for the re-enumerated device.
constexpr auto kReopenPoll = std::chrono::milliseconds(100);

std::string libusbText(int rc) { return std::string(libusb_error_name(rc)) + " (" + libusb_strerror(rc) + ")"; }

std::string speedName(int speed) {
  switch (speed) {
    case LIBUSB_SPEED_LOW: return "low";
    case LIBUSB_SPEED_FULL: return "full";
    case LIBUSB_SPEED_HIGH: return "high";
    case LIBUSB_SPEED_SUPER: return "super";
    case LIBUSB_SPEED_SUPER_PLUS: return "super-plus";
    default: return "unknown";
  }
}

// Owns a libusb context for a listing.
struct ContextGuard {
  libusb_context* context = nullptr;
  ContextGuard() {
    const int rc = libusb_init(&context);
    if (rc != 0) throw TransportError("libusb", "initialise", libusbText(rc));
  }
  ~ContextGuard() { libusb_exit(context); }
  ContextGuard(const ContextGuard&) = delete;
  ContextGuard& operator=(const ContextGuard&) = delete;
};

struct DeviceList {
  libusb_device** devices = nullptr;
  ssize_t count = 0;
  explicit DeviceList(libusb_context* context) {
    count = libusb_get_device_list(context, &devices);
    if (count < 0) throw TransportError("libusb", "list USB devices", libusbText(static_cast<int>(count)));
  }
  ~DeviceList() { libusb_free_device_list(devices, 1); }
  DeviceList(const DeviceList&) = delete;
  DeviceList& operator=(const DeviceList&) = delete;
};

std::optional<UsbDeviceLocation> describeCoral(libusb_device* device) {
  libusb_device_descriptor d{};
  if (libusb_get_device_descriptor(device, &d) != 0) return std::nullopt;
  const auto personality = usb::coralPersonalityOf(d.idVendor, d.idProduct);
  if (!personality) return std::nullopt;
  UsbDeviceLocation loc;
  loc.busNumber = libusb_get_bus_number(device);
  std::array<uint8_t, 8> ports{};
  const int n = libusb_get_port_numbers(device, ports.data(), static_cast<int>(ports.size()));
  if (n > 0) loc.ports.assign(ports.begin(), ports.begin() + n);
  loc.address = libusb_get_device_address(device);
  loc.vendorId = d.idVendor;
  loc.productId = d.idProduct;
  loc.personality = *personality;
  loc.speedName = speedName(libusb_get_device_speed(device));
  return loc;
}

std::vector<std::pair<libusb_device*, UsbDeviceLocation>> coralsIn(const DeviceList& list) {
  std::vector<std::pair<libusb_device*, UsbDeviceLocation>> found;
  for (ssize_t i = 0; i < list.count; ++i) {
    if (auto loc = describeCoral(list.devices[i])) found.emplace_back(list.devices[i], std::move(*loc));
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
    return std::tie(a.second.busNumber, a.second.ports) < std::tie(b.second.busNumber, b.second.ports);
  });
  return found;
}

std::string describeLocation(const UsbDeviceLocation& loc) {
  return loc.path() + " " + usb::vidPidText(loc.vendorId, loc.productId) + " (" +
         std::string(usb::coralUsbId(loc.personality).name) + ", " + loc.speedName + " speed)";
}

std::string wantedText(const std::optional<std::string>& path) {
  std::string s = "a Coral USB Accelerator (" + usb::vidPidText(usb::kCoralUsbIds[0].vendorId, usb::kCoralUsbIds[0].productId) + " or " +
                  usb::vidPidText(usb::kCoralUsbIds[1].vendorId, usb::kCoralUsbIds[1].productId) + ")";
  if (path) s += " at " + *path;
  return s;
}

void LIBUSB_CALL markCompleted(libusb_transfer* transfer) { *static_cast<int*>(transfer->user_data) = 1; }

}  // namespace

// ---- UsbDeviceLocation ----

std::string UsbDeviceLocation::path() const {
  std::string s = std::to_string(busNumber);
  for (size_t i = 0; i < ports.size(); ++i) s += (i == 0 ? "-" : ".") + std::to_string(ports[i]);
  return s;
}

std::vector<UsbDeviceLocation> listCoralDevices() {
  ContextGuard guard;
  DeviceList list(guard.context);
  std::vector<UsbDeviceLocation> out;
  for (auto& [device, loc] : coralsIn(list)) out.push_back(std::move(loc));
  return out;
}

// ---- transfers ----

// One submitted transfer: its buffer and completion flag live on the heap so that a transfer
// libusb never gives back can be abandoned (leaked) instead of freed while the kernel holds it.
struct LibusbTransport::Pending {
  libusb_transfer* transfer = nullptr;
  std::vector<uint8_t> buffer;
  int completed = 0;

  Pending() : transfer(libusb_alloc_transfer(0)) {
    if (!transfer) throw std::bad_alloc();
  }
  ~Pending() { libusb_free_transfer(transfer); }
  Pending(const Pending&) = delete;
  Pending& operator=(const Pending&) = delete;
};

struct LibusbTransport::InterruptUrb {
  std::unique_ptr<Pending> pending = std::make_unique<Pending>();
  bool inFlight = false;
};

LibusbTransport::LibusbTransport(LibusbOptions options) : options_(std::move(options)) {
  try {
    openAt(options_.path);
  } catch (...) {
    closeHandle();
    throw;
  }
}

LibusbTransport::~LibusbTransport() { closeHandle(); }

std::string LibusbTransport::name() const {
  if (!handle_) return "libusb (not open)";
  return "libusb " + location_.path() + " " + usb::vidPidText(location_.vendorId, location_.productId);
}

void LibusbTransport::openAt(const std::optional<std::string>& path) {
  int rc = libusb_init(&context_);
  if (rc != 0) {
    context_ = nullptr;
    throw TransportError("libusb", "initialise", libusbText(rc));
  }
  DeviceList list(context_);
  const auto corals = coralsIn(list);
  std::vector<std::pair<libusb_device*, UsbDeviceLocation>> matches;
  for (const auto& c : corals) {
    if (!path || c.second.path() == *path) matches.push_back(c);
  }
  if (matches.size() != 1) {
    std::string cause;
    if (matches.empty()) {
      cause = "none found among " + std::to_string(list.count) + " USB devices";
      if (!corals.empty()) {
        cause += "; Corals present:";
        for (const auto& c : corals) cause += " " + describeLocation(c.second);
      }
    } else {
      cause = std::to_string(matches.size()) + " found, choose one by its path:";
      for (const auto& c : matches) cause += " " + describeLocation(c.second);
    }
    throw TransportError("libusb", "find " + wantedText(path), cause);
  }
  libusb_device* device = matches.front().first;
  location_ = matches.front().second;
  const std::string where = describeLocation(location_);

  rc = libusb_open(device, &handle_);
  if (rc != 0) {
    handle_ = nullptr;
    std::string hint = rc == LIBUSB_ERROR_ACCESS ? "; run as root or give your user access to the device node" : "";
    throw TransportError("libusb", "open " + where, libusbText(rc) + hint);
  }
  // A kernel driver on interface 0 (none is expected for a Coral) would keep us from claiming it.
  libusb_set_auto_detach_kernel_driver(handle_, 1);
  int configuration = 0;
  rc = libusb_get_configuration(handle_, &configuration);
  if (rc == 0 && configuration == 0) {
    // The kernel configures a new device itself right after enumeration; only an unconfigured
    // device (no kernel configuration policy) needs SET_CONFIGURATION(1) from us.
    rc = libusb_set_configuration(handle_, 1);
    if (rc != 0) throw TransportError(name(), "SET_CONFIGURATION(1)", libusbText(rc));
  }
  rc = libusb_claim_interface(handle_, kInterfaceNumber);
  if (rc != 0) {
    std::string hint = rc == LIBUSB_ERROR_BUSY ? "; another program is using the device" : "";
    throw TransportError(name(), "claim interface 0", libusbText(rc) + hint);
  }
  claimed_ = true;

  maxPacket_.clear();
  libusb_config_descriptor* config = nullptr;
  if (libusb_get_active_config_descriptor(device, &config) == 0 && config) {
    for (int i = 0; i < config->bNumInterfaces; ++i) {
      const libusb_interface& itf = config->interface[i];
      if (itf.num_altsetting < 1 || itf.altsetting[0].bInterfaceNumber != kInterfaceNumber) continue;
      const libusb_interface_descriptor& alt = itf.altsetting[0];
      for (int e = 0; e < alt.bNumEndpoints; ++e) {
        maxPacket_[alt.endpoint[e].bEndpointAddress] = static_cast<uint16_t>(alt.endpoint[e].wMaxPacketSize & 0x7FF);
      }
    }
    libusb_free_config_descriptor(config);
  }
}

void LibusbTransport::closeHandle() {
  if (handle_) {
    cancelAsyncTransfers();
    if (claimed_) libusb_release_interface(handle_, kInterfaceNumber);
    libusb_close(handle_);
  }
  claimed_ = false;
  handle_ = nullptr;
  if (context_) libusb_exit(context_);
  context_ = nullptr;
  inSurplus_.clear();
}

usb::UsbSpeed LibusbTransport::linkSpeed() const {
  // libedgetpu: Super or Unknown → SuperSpeed settings; anything slower → the USB 2 settings.
  return location_.speedName == "super" || location_.speedName == "super-plus" || location_.speedName == "unknown"
             ? usb::UsbSpeed::kSuper
             : usb::UsbSpeed::kHigh;
}

uint16_t LibusbTransport::maxPacketSize(uint8_t endpoint) const {
  const auto it = maxPacket_.find(endpoint);
  return it == maxPacket_.end() || it->second == 0 ? kFallbackMaxPacket : it->second;
}

void LibusbTransport::throwIfFaulted(const std::string& operation) const {
  if (faulted_) throw DeviceFaultError(name(), operation, kFatalInterruptCause);
}

int LibusbTransport::submitAndWait(libusb_transfer* transfer, Pending& pending, const std::string& operation) {
  pending.completed = 0;
  int rc = libusb_submit_transfer(transfer);
  if (rc != 0) throw TransportError(name(), operation, "submit failed: " + libusbText(rc));
  bool cancelled = false;
  std::chrono::steady_clock::time_point cancelDeadline;
  while (!pending.completed) {
    // The interrupt URB's callback runs inside this loop; a fatal bit ends the wait early.
    if (!cancelled && interrupt_ && !interrupt_->inFlight && interrupt_->pending->completed) {
      const auto& t = *interrupt_->pending->transfer;
      if (t.status == LIBUSB_TRANSFER_COMPLETED && t.actual_length >= 0) {
        const std::span<const uint8_t> packet(interrupt_->pending->buffer.data(), static_cast<size_t>(t.actual_length));
        const std::optional<uint32_t> bits = usb::decodeInterruptPacket(packet);
        if (bits && (*bits & usb::interrupt_bit::kFatalError)) faulted_ = true;
      }
      interrupt_->pending->completed = 0;  // consumed; ensureInterruptUrb() posts it again
    }
    if (!cancelled && faulted_) {
      libusb_cancel_transfer(transfer);
      cancelled = true;
      cancelDeadline = std::chrono::steady_clock::now() + kCancelGrace;
    }
    timeval slice = kEventSlice;
    rc = libusb_handle_events_timeout_completed(context_, &slice, &pending.completed);
    if (rc != 0 && rc != LIBUSB_ERROR_INTERRUPTED && !cancelled) {
      libusb_cancel_transfer(transfer);
      cancelled = true;
      cancelDeadline = std::chrono::steady_clock::now() + kCancelGrace;
    }
    if (cancelled && !pending.completed && std::chrono::steady_clock::now() > cancelDeadline) {
      // libusb never gave the transfer back: abandon its memory rather than free it under the
      // kernel. The caller's unique_ptr is released by the throw path below.
      throw TransportError(name(), operation, "libusb did not give back a cancelled transfer (device gone?)");
    }
  }
  if (faulted_ && transfer->status == LIBUSB_TRANSFER_CANCELLED) {
    throw DeviceFaultError(name(), operation, std::string(kFatalInterruptCause) + " (transfer cancelled)");
  }
  return transfer->status;
}

void LibusbTransport::ensureInterruptUrb() {
  if (!maxPacket_.count(usb::endpoint::kInterruptIn)) return;  // bootloader: no such endpoint
  if (!interrupt_) interrupt_ = std::make_unique<InterruptUrb>();
  if (interrupt_->inFlight) return;
  Pending& p = *interrupt_->pending;
  p.buffer.assign(usb::kInterruptPacketBytes, 0);
  p.completed = 0;
  InterruptUrb* urb = interrupt_.get();
  libusb_fill_interrupt_transfer(
      p.transfer, handle_, usb::endpoint::kInterruptIn, p.buffer.data(), static_cast<int>(usb::kInterruptPacketBytes),
      [](libusb_transfer* t) {
        auto* u = static_cast<InterruptUrb*>(t->user_data);
        u->inFlight = false;
        u->pending->completed = 1;
      },
      urb, /*timeout: none, it stays posted*/ 0);
  const int rc = libusb_submit_transfer(p.transfer);
  if (rc != 0) throw TransportError(name(), "post interrupt URB on EP 0x83", libusbText(rc));
  interrupt_->inFlight = true;
}

void LibusbTransport::cancelAsyncTransfers() {
  if (interrupt_ && interrupt_->inFlight && context_) {
    libusb_cancel_transfer(interrupt_->pending->transfer);
    const auto deadline = std::chrono::steady_clock::now() + kCancelGrace;
    while (interrupt_->inFlight && std::chrono::steady_clock::now() < deadline) {
      timeval slice = kEventSlice;
      libusb_handle_events_timeout_completed(context_, &slice, nullptr);
    }
    if (interrupt_->inFlight) {
      // Never given back: abandon it (its callback only touches the abandoned object).
      static_cast<void>(interrupt_.release());
    }
  }
  interrupt_.reset();
  // The close sequence resets the chip; a new session starts without the old fault.
  faulted_ = false;
}

std::vector<uint8_t> LibusbTransport::control(const usb::ControlSetup& setup, std::span<const uint8_t> outData) {
  const std::string operation = controlText(setup);
  if (!handle_) throw TransportError(name(), operation, "device not open");
  if (!setup.isDeviceToHost() && outData.size() != setup.wLength) {
    throw TransportError(name(), operation,
                         "data stage of " + std::to_string(outData.size()) + " bytes for wLength " + std::to_string(setup.wLength));
  }
  std::vector<uint8_t> data(setup.wLength);
  if (!setup.isDeviceToHost()) std::copy(outData.begin(), outData.end(), data.begin());
  const int rc = libusb_control_transfer(handle_, setup.bmRequestType, setup.bRequest, setup.wValue, setup.wIndex,
                                         data.data(), setup.wLength,
                                         static_cast<unsigned>(options_.timeout.count()));
  if (rc < 0) {
    const std::string cause = rc == LIBUSB_ERROR_PIPE      ? "STALL (the device refused the request)"
                              : rc == LIBUSB_ERROR_TIMEOUT ? "timed out after " + std::to_string(options_.timeout.count()) + " ms"
                                                           : libusbText(rc);
    throw TransportError(name(), operation, cause);
  }
  if (!setup.isDeviceToHost()) {
    if (rc != setup.wLength) {
      throw TransportError(name(), operation, "device accepted " + std::to_string(rc) + " of " +
                                                  std::to_string(setup.wLength) + " bytes");
    }
    return {};
  }
  data.resize(static_cast<size_t>(rc));
  return data;
}

namespace {

std::string statusText(int status, std::chrono::milliseconds timeout) {
  switch (status) {
    case LIBUSB_TRANSFER_TIMED_OUT: return "timed out after " + std::to_string(timeout.count()) + " ms";
    case LIBUSB_TRANSFER_STALL: return "STALL (endpoint halted)";
    case LIBUSB_TRANSFER_NO_DEVICE: return "the device was disconnected";
    case LIBUSB_TRANSFER_OVERFLOW: return "overflow (the device sent more than requested)";
    case LIBUSB_TRANSFER_CANCELLED: return "cancelled";
    case LIBUSB_TRANSFER_ERROR: return "transfer error";
    default: return "libusb transfer status " + std::to_string(status);
  }
}

}  // namespace

int LibusbTransport::submitOwnedAndWait(std::unique_ptr<Pending>& pending, const std::string& operation) {
  try {
    return submitAndWait(pending->transfer, *pending, operation);
  } catch (const DeviceFaultError&) {
    throw;
  } catch (const TransportError&) {
    if (!pending->completed) static_cast<void>(pending.release());  // still owned by libusb
    throw;
  }
}

void LibusbTransport::bulkOut(uint8_t endpoint, std::span<const uint8_t> bytes) {
  const std::string operation = bulkOutText(endpoint, bytes.size());
  if (!handle_) throw TransportError(name(), operation, "device not open");
  ensureInterruptUrb();
  throwIfFaulted(operation);
  auto pending = std::make_unique<Pending>();
  pending->buffer.assign(bytes.begin(), bytes.end());
  libusb_fill_bulk_transfer(pending->transfer, handle_, endpoint, pending->buffer.data(),
                            static_cast<int>(pending->buffer.size()), markCompleted, &pending->completed,
                            static_cast<unsigned>(options_.timeout.count()));
  const int status = submitOwnedAndWait(pending, operation);
  const int actual = pending->transfer->actual_length;
  if (status != LIBUSB_TRANSFER_COMPLETED) {
    throw TransportError(name(), operation,
                         statusText(status, options_.timeout) + " after " + std::to_string(actual) + " bytes");
  }
  if (static_cast<size_t>(actual) != bytes.size()) {
    throw TransportError(name(), operation, "device accepted " + std::to_string(actual) + " bytes");
  }
}

std::vector<uint8_t> LibusbTransport::bulkIn(uint8_t endpoint, uint32_t maxLength) {
  const std::string operation = bulkInText(endpoint, maxLength);
  if (!handle_) throw TransportError(name(), operation, "device not open");
  std::vector<uint8_t>& surplus = inSurplus_[endpoint];
  if (!surplus.empty()) {
    const size_t n = std::min<size_t>(surplus.size(), maxLength);
    std::vector<uint8_t> out(surplus.begin(), surplus.begin() + static_cast<ptrdiff_t>(n));
    surplus.erase(surplus.begin(), surplus.begin() + static_cast<ptrdiff_t>(n));
    return out;
  }
  ensureInterruptUrb();
  throwIfFaulted(operation);
  // Whole packets: a device may always send a full max-size packet (docs/usb-protocol.md §4.1).
  const uint32_t mps = maxPacketSize(endpoint);
  const uint64_t rounded = (uint64_t{maxLength} + mps - 1) / mps * mps;
  auto pending = std::make_unique<Pending>();
  pending->buffer.assign(std::max<uint64_t>(rounded, mps), 0);
  const bool interrupt = endpoint == usb::endpoint::kInterruptIn;
  if (interrupt) {
    libusb_fill_interrupt_transfer(pending->transfer, handle_, endpoint, pending->buffer.data(),
                                   static_cast<int>(pending->buffer.size()), markCompleted, &pending->completed,
                                   static_cast<unsigned>(options_.timeout.count()));
  } else {
    libusb_fill_bulk_transfer(pending->transfer, handle_, endpoint, pending->buffer.data(),
                              static_cast<int>(pending->buffer.size()), markCompleted, &pending->completed,
                              static_cast<unsigned>(options_.timeout.count()));
  }
  const int status = submitOwnedAndWait(pending, operation);
  const auto actual = static_cast<size_t>(std::max(pending->transfer->actual_length, 0));
  std::vector<uint8_t>& data = pending->buffer;
  data.resize(actual);
  if (status != LIBUSB_TRANSFER_COMPLETED) {
    // Bytes that did arrive are device data all the same: keep them for the next read.
    surplus.assign(data.begin(), data.end());
    throw TransportError(name(), operation, statusText(status, options_.timeout) +
                                                (actual ? " (" + std::to_string(actual) + " bytes kept)" : ""));
  }
  if (data.size() > maxLength) {
    surplus.assign(data.begin() + maxLength, data.end());
    data.resize(maxLength);
  }
  return std::move(data);
}

void LibusbTransport::resetDevice(std::chrono::milliseconds reenumerationTimeout) {
  const std::string operation = "USB port reset";
  if (!handle_) throw TransportError(name(), operation, "device not open");
  cancelAsyncTransfers();
  inSurplus_.clear();
  const UsbDeviceLocation before = location_;
  const std::string beforeName = name();
  const int rc = libusb_reset_device(handle_);
  if (rc == 0) return;  // same descriptors: the same device, still open and claimed
  // LIBUSB_ERROR_NOT_FOUND: the descriptors changed (the Coral after a DFU download), the kernel
  // re-enumerates the device at the same port under a new address. Other errors: it may have.
  const bool mustChangeAddress = rc == LIBUSB_ERROR_NOT_FOUND;
  closeHandle();
  const auto deadline = std::chrono::steady_clock::now() + reenumerationTimeout;
  std::string lastError = "no device seen yet";
  while (true) {
    try {
      openAt(before.path());
      if (!mustChangeAddress || location_.address != before.address) return;
      lastError = "still the old device (address " + std::to_string(before.address) + ")";
    } catch (const TransportError& e) {
      lastError = e.what();
    }
    closeHandle();
    if (std::chrono::steady_clock::now() >= deadline) break;
    std::this_thread::sleep_for(kReopenPoll);
  }
  throw TransportError(beforeName, operation,
                       "libusb_reset_device returned " + libusbText(rc) + "; no Coral came back at " + before.path() +
                           " within " + std::to_string(reenumerationTimeout.count()) + " ms (last: " + lastError + ")");
}

}  // namespace coralsim::driver

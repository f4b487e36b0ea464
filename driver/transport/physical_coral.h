// Opening a Coral on the USB bus — a physical accelerator, or an emulated one the kernel attached
// over USB/IP — the way libedgetpu brings one up: find it (waiting for it to appear if asked),
// and give a device still in its bootloader personality (1a6e:089a) the runtime firmware over DFU
// first. One place for `coralsim-usb run` and the drop-in libedgetpu.so.1.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "driver/transport/dfu_download.h"
#include "driver/transport/libusb_transport.h"

namespace coralsim::driver {

struct PhysicalCoralOptions {
  LibusbOptions usb;                           // which device (bus-port path), transfer timeout
  std::chrono::milliseconds wait{0};           // how long to wait for a device to appear
  std::optional<std::vector<uint8_t>> firmware;  // for a device in the bootloader personality
  bool alwaysDfu = false;                      // flash a runtime device again (libedgetpu's Usb.AlwaysDfu)
  DfuDownloadOptions dfu;
  std::function<void(const std::string&)> progress;  // one line per step; empty: silent
};

// Throws TransportError when no device appears in time, DfuError when a bootloader-mode device
// has no firmware to load or the download fails.
[[nodiscard]] std::unique_ptr<LibusbTransport> openPhysicalCoral(const PhysicalCoralOptions& options);

// "2-1 18d1:9302 runtime (bus 2 address 5, super speed)".
[[nodiscard]] std::string describeCoral(const UsbDeviceLocation& device);

}  // namespace coralsim::driver

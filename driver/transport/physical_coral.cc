#include "driver/transport/physical_coral.h"

#include <thread>

#include "driver/transport/transport.h"

namespace coralsim::driver {
namespace {

void say(const PhysicalCoralOptions& options, const std::string& line) {
  if (options.progress) options.progress(line);
}

std::unique_ptr<LibusbTransport> waitForDevice(const PhysicalCoralOptions& options) {
  const auto deadline = std::chrono::steady_clock::now() + options.wait;
  while (true) {
    try {
      return std::make_unique<LibusbTransport>(options.usb);
    } catch (const TransportError&) {
      if (std::chrono::steady_clock::now() >= deadline) throw;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

}  // namespace

std::string describeCoral(const UsbDeviceLocation& d) {
  return d.path() + " " + usb::vidPidText(d.vendorId, d.productId) + " " + std::string(usb::coralUsbId(d.personality).name) +
         " (bus " + std::to_string(d.busNumber) + " address " + std::to_string(d.address) + ", " + d.speedName +
         " speed)";
}

std::unique_ptr<LibusbTransport> openPhysicalCoral(const PhysicalCoralOptions& options) {
  if (options.alwaysDfu && !options.firmware) throw DfuError("always-DFU needs a firmware image");
  auto transport = waitForDevice(options);
  say(options, "found " + describeCoral(transport->device()));
  if (options.alwaysDfu && transport->personality() == usb::CoralPersonality::kRuntime) {
    detachToBootloader(*transport, options.dfu.reenumerationTimeout);
    say(options, "DFU_DETACH and USB reset: now " + describeCoral(transport->device()));
  }
  if (transport->personality() == usb::CoralPersonality::kBootloader) {
    if (!options.firmware) {
      throw DfuError(transport->name() + " is in bootloader mode (1a6e:089a): it needs the runtime firmware "
                     "(libedgetpu's apex_latest_single_ep.bin) loaded first: coralsim-usb --firmware FILE, or the "
                     "firmware option of coralsim's libedgetpu.so.1");
    }
    const auto t0 = std::chrono::steady_clock::now();
    const DfuDownloadResult dfu = downloadFirmware(*transport, *options.firmware, options.dfu);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0);
    say(options, "DFU: downloaded " + std::to_string(dfu.imageBytes) + " bytes in " + std::to_string(dfu.dataBlocks) +
                     " blocks" + (dfu.verified ? ", verified" : "") + ", " + std::to_string(ms.count()) + " ms; now " +
                     describeCoral(transport->device()));
  } else if (options.firmware) {
    say(options, "device already runs firmware (18d1:9302): not flashing it again (libedgetpu's default)");
  }
  return transport;
}

}  // namespace coralsim::driver

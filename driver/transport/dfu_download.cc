#include "driver/transport/dfu_download.h"

#include <algorithm>
#include <fstream>
#include <thread>

#include "driver/hex_text.h"
#include "usb/dfu_protocol.h"

namespace coralsim::driver {
namespace {

// Standard and DFU class requests (USB 2.0 §9.4, DFU 1.1 §3).
constexpr uint8_t kStandardDeviceToHost = 0x80;
constexpr uint8_t kGetDescriptor = 6;
constexpr uint8_t kDescriptorDevice = 1;
constexpr uint8_t kDescriptorConfiguration = 2;
constexpr uint8_t kDescriptorInterface = 4;
constexpr uint16_t kDeviceDescriptorBytes = 18;
// libedgetpu asks for 9 + 512 bytes of configuration; the bootloader's is 27.
constexpr uint16_t kConfigurationRequestBytes = 521;

constexpr uint16_t kDetachTimeoutMs = 100;  // what libedgetpu sends
using usb::DfuState;
constexpr uint16_t kMaxTransferSize = 4096;
constexpr size_t kMaxBlocks = 65536;          // wValue is the 16-bit block number
constexpr size_t kMaxUploadBytes = 1 << 20;   // verification never reads more than this
constexpr size_t kMaxFirmwareFileBytes = 16 << 20;
constexpr uint32_t kMaxPollStepMs = 1000;

// The device reports `state` (its bState byte).
bool isIn(const DfuStatusReport& report, DfuState state) { return report.state == static_cast<uint8_t>(state); }

uint16_t le16(std::span<const uint8_t> b, size_t at) { return static_cast<uint16_t>(b[at] | b[at + 1] << 8); }

std::string where(Transport& t, const std::string& step) { return "DFU download to " + t.name() + ": " + step + ": "; }

std::string describeStatus(const DfuStatusReport& s) {
  return "status " + dfuStatusName(s.status) + ", state " + dfuStateName(s.state) + ", poll " +
         std::to_string(s.pollTimeoutMs) + " ms";
}

usb::ControlSetup dfuRequest(uint8_t type, uint8_t request, uint16_t value, uint8_t interfaceNumber, uint16_t length) {
  usb::ControlSetup s;
  s.bmRequestType = type;
  s.bRequest = request;
  s.wValue = value;
  s.wIndex = interfaceNumber;
  s.wLength = length;
  return s;
}

// Runs a transport call, turning its failure into a DfuError that names the step.
template <typename F>
auto step(Transport& t, const std::string& what, F&& f) {
  try {
    return f();
  } catch (const TransportError& e) {
    throw DfuError(where(t, what) + e.what());
  }
}

// GETSTATUS until the device leaves the transient states in `waitOut`, each time after its
// bwPollTimeout (capped), within `budget`.
DfuStatusReport settle(Transport& t, uint8_t interfaceNumber, const std::string& what,
                       std::initializer_list<DfuState> waitOut, std::chrono::milliseconds budget) {
  const auto deadline = std::chrono::steady_clock::now() + budget;
  DfuStatusReport s = step(t, what + ", DFU_GETSTATUS", [&] { return dfuGetStatus(t, interfaceNumber); });
  while (std::find(waitOut.begin(), waitOut.end(), static_cast<DfuState>(s.state)) != waitOut.end()) {
    if (std::chrono::steady_clock::now() >= deadline) {
      throw DfuError(where(t, what) + "device still in " + dfuStateName(s.state) + " after " +
                     std::to_string(budget.count()) + " ms");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(std::clamp<uint32_t>(s.pollTimeoutMs, 1, kMaxPollStepMs)));
    s = step(t, what + ", DFU_GETSTATUS", [&] { return dfuGetStatus(t, interfaceNumber); });
  }
  return s;
}

}  // namespace

std::string dfuStateName(uint8_t state) {
  const std::string_view name = usb::dfuStateName(state);
  if (!name.empty()) return std::string(name) + " (" + std::to_string(state) + ")";
  return "unknown state " + std::to_string(state);
}

std::string dfuStatusName(uint8_t status) {
  const std::string_view name = usb::dfuStatusName(status);
  if (!name.empty()) return std::string(name);
  return "unknown status " + hexText(status, 2);
}

UsbDeviceIdentity readDeviceIdentity(Transport& transport) {
  usb::ControlSetup s;
  s.bmRequestType = kStandardDeviceToHost;
  s.bRequest = kGetDescriptor;
  s.wValue = kDescriptorDevice << 8;
  s.wLength = kDeviceDescriptorBytes;
  const std::vector<uint8_t> d = transport.control(s, {});
  if (d.size() < kDeviceDescriptorBytes || d[0] < kDeviceDescriptorBytes || d[1] != kDescriptorDevice) {
    throw TransportError(transport.name(), "GET_DESCRIPTOR(DEVICE)",
                         "not a device descriptor (" + std::to_string(d.size()) + " bytes, bLength " +
                             (d.empty() ? std::string("-") : std::to_string(d[0])) + ", type " +
                             (d.size() < 2 ? std::string("-") : std::to_string(d[1])) + ")");
  }
  UsbDeviceIdentity id;
  id.bcdUsb = le16(d, 2);
  id.vendorId = le16(d, 8);
  id.productId = le16(d, 10);
  id.personality = usb::coralPersonalityOf(id.vendorId, id.productId);
  return id;
}

DfuInterface parseDfuInterface(std::span<const uint8_t> config) {
  if (config.size() < 9 || config[1] != kDescriptorConfiguration) {
    throw DfuError("configuration descriptor: " + std::to_string(config.size()) + " bytes" +
                   (config.size() >= 2 ? ", type " + std::to_string(config[1]) : std::string()) +
                   " is not a configuration");
  }
  const size_t total = std::min<size_t>(le16(config, 2), config.size());
  std::optional<DfuInterface> candidate;
  for (size_t at = 0; at + 2 <= total;) {
    const uint8_t length = config[at];
    const uint8_t type = config[at + 1];
    if (length < 2 || at + length > total) {
      throw DfuError("configuration descriptor: descriptor at offset " + std::to_string(at) + " has bLength " +
                     std::to_string(length) + " (" + std::to_string(total) + " bytes in all)");
    }
    if (type == kDescriptorInterface && length >= 9) {
      candidate.reset();
      // An interface with no endpoints, class FE subclass 01 (the protocol is not checked, as
      // libedgetpu does not).
      if (config[at + 4] == 0 && config[at + 5] == usb::kDfuInterfaceClass && config[at + 6] == usb::kDfuInterfaceSubClass) {
        candidate = DfuInterface{};
        candidate->interfaceNumber = config[at + 2];
      }
    } else if (type == usb::kDfuFunctionalDescriptorType && candidate && length >= 7) {
      candidate->attributes = config[at + 2];
      candidate->detachTimeoutMs = le16(config, at + 3);
      candidate->transferSize = le16(config, at + 5);
      candidate->dfuVersion = length >= 9 ? le16(config, at + 7) : 0;
      return *candidate;
    }
    at += length;
  }
  throw DfuError("configuration descriptor (" + std::to_string(total) +
                 " bytes): no DFU interface (class FE/01, no endpoints, with a DFU functional descriptor)");
}

DfuInterface readDfuInterface(Transport& transport) {
  usb::ControlSetup s;
  s.bmRequestType = kStandardDeviceToHost;
  s.bRequest = kGetDescriptor;
  s.wValue = kDescriptorConfiguration << 8;
  s.wLength = kConfigurationRequestBytes;
  const std::vector<uint8_t> config = transport.control(s, {});
  try {
    return parseDfuInterface(config);
  } catch (const DfuError& e) {
    throw DfuError(transport.name() + ": " + e.what());
  }
}

DfuStatusReport dfuGetStatus(Transport& transport, uint8_t interfaceNumber) {
  const std::vector<uint8_t> b =
      transport.control(dfuRequest(usb::kDfuDeviceToHost, usb::dfu_request::kGetStatus, 0, interfaceNumber, usb::kDfuStatusBytes), {});
  if (b.size() != usb::kDfuStatusBytes) {
    throw TransportError(transport.name(), "DFU_GETSTATUS",
                         "device returned " + std::to_string(b.size()) + " bytes, expected 6");
  }
  DfuStatusReport r;
  r.status = b[0];
  r.pollTimeoutMs = uint32_t{b[1]} | uint32_t{b[2]} << 8 | uint32_t{b[3]} << 16;
  r.state = b[4];
  r.statusString = b[5];
  return r;
}

DfuDownloadResult downloadFirmware(Transport& t, std::span<const uint8_t> image, const DfuDownloadOptions& options) {
  auto log = [&](const std::string& line) {
    if (options.log) options.log(line);
  };
  DfuDownloadResult result;
  result.imageBytes = image.size();
  if (image.empty()) throw DfuError(where(t, "image") + "the firmware image is empty");

  const UsbDeviceIdentity before = step(t, "GET_DESCRIPTOR(DEVICE)", [&] { return readDeviceIdentity(t); });
  if (before.personality != usb::CoralPersonality::kBootloader) {
    throw DfuError(where(t, "identity") + "device is " + usb::vidPidText(before.vendorId, before.productId) +
                   (before.personality ? " (the runtime personality: firmware already loaded)" : " (not a Coral)") +
                   ", not the bootloader " +
                   usb::vidPidText(usb::coralUsbId(usb::CoralPersonality::kBootloader).vendorId,
                              usb::coralUsbId(usb::CoralPersonality::kBootloader).productId));
  }
  const DfuInterface dfu = step(t, "GET_DESCRIPTOR(CONFIGURATION)", [&] { return readDfuInterface(t); });
  result.interfaceNumber = dfu.interfaceNumber;
  result.transferSize = dfu.transferSize >= 1 && dfu.transferSize <= kMaxTransferSize ? dfu.transferSize
                                                                                     : usb::kCoralDfuTransferSize;
  log("DFU interface " + std::to_string(dfu.interfaceNumber) + ", wTransferSize " + std::to_string(dfu.transferSize) +
      ", bmAttributes " + hexText(dfu.attributes, 2) + "; sending " + std::to_string(image.size()) + " bytes in " +
      std::to_string(result.transferSize) + "-byte blocks");
  const size_t blocks = (image.size() + result.transferSize - 1) / result.transferSize;
  if (blocks >= kMaxBlocks) {
    throw DfuError(where(t, "image") + std::to_string(image.size()) + " bytes need " + std::to_string(blocks) +
                   " blocks of " + std::to_string(result.transferSize) + "; DFU block numbers stop at 65535");
  }

  for (size_t block = 0; block < blocks; ++block) {
    const size_t offset = block * result.transferSize;
    const auto data = image.subspan(offset, std::min<size_t>(result.transferSize, image.size() - offset));
    const std::string what = "block " + std::to_string(block) + " (bytes " + std::to_string(offset) + ".." +
                             std::to_string(offset + data.size()) + ")";
    step(t, what + ", DFU_DNLOAD", [&] {
      return t.control(dfuRequest(usb::kDfuHostToDevice, usb::dfu_request::kDnload, static_cast<uint16_t>(block), dfu.interfaceNumber,
                                  static_cast<uint16_t>(data.size())),
                       data);
    });
    const DfuStatusReport s = settle(t, dfu.interfaceNumber, what, {DfuState::kDnloadSync, DfuState::kDnBusy}, options.busyTimeout);
    if (s.status != 0 || !isIn(s, DfuState::kDnloadIdle)) {
      throw DfuError(where(t, what) + "expected status OK, state dfuDNLOAD-IDLE (5); device says " + describeStatus(s));
    }
    ++result.dataBlocks;
  }
  log("sent " + std::to_string(result.dataBlocks) + " blocks; ending the image with a zero-length DFU_DNLOAD (block " +
      std::to_string(blocks) + ")");

  const std::string endWhat = "end of image (zero-length block " + std::to_string(blocks) + ")";
  step(t, endWhat + ", DFU_DNLOAD", [&] {
    return t.control(dfuRequest(usb::kDfuHostToDevice, usb::dfu_request::kDnload, static_cast<uint16_t>(blocks), dfu.interfaceNumber, 0), {});
  });
  const DfuStatusReport end =
      settle(t, dfu.interfaceNumber, endWhat, {DfuState::kManifestSync, DfuState::kManifest}, options.busyTimeout);
  if (end.status != 0 || (!isIn(end, DfuState::kIdle) && !isIn(end, DfuState::kManifestWaitReset))) {
    throw DfuError(where(t, endWhat) + "expected status OK, state dfuIDLE (2); device says " + describeStatus(end) +
                   (isIn(end, DfuState::kDnloadIdle) ? " (the device did not take the zero-length block as the end)" : ""));
  }

  if (options.verify && isIn(end, DfuState::kIdle)) {
    std::vector<uint8_t> readBack;
    for (uint16_t block = 0;; ++block) {
      const std::string what = "verification, DFU_UPLOAD block " + std::to_string(block);
      const std::vector<uint8_t> got = step(t, what, [&] {
        return t.control(dfuRequest(usb::kDfuDeviceToHost, usb::dfu_request::kUpload, block, dfu.interfaceNumber, result.transferSize), {});
      });
      readBack.insert(readBack.end(), got.begin(), got.end());
      if (got.size() < result.transferSize) break;
      if (readBack.size() >= kMaxUploadBytes || block == 0xFFFF) {
        throw DfuError(where(t, what) + "the device keeps returning full blocks (" + std::to_string(readBack.size()) +
                       " bytes read back, no short block)");
      }
    }
    result.uploadedBytes = readBack.size();
    if (readBack.size() < image.size()) {
      throw DfuError(where(t, "verification") + "the device read back " + std::to_string(readBack.size()) +
                     " bytes, fewer than the " + std::to_string(image.size()) + "-byte image");
    }
    const auto mismatch = std::mismatch(image.begin(), image.end(), readBack.begin());
    if (mismatch.first != image.end()) {
      const auto at = static_cast<size_t>(mismatch.first - image.begin());
      throw DfuError(where(t, "verification") + "byte " + std::to_string(at) + " reads back as " +
                     hexText(*mismatch.second, 2) + ", the image has " + hexText(*mismatch.first, 2));
    }
    result.verified = true;
    log("verified: DFU_UPLOAD read back " + std::to_string(readBack.size()) + " bytes, the image is their prefix");
  }

  if (options.resetAfter) {
    log("USB port reset; waiting up to " + std::to_string(options.reenumerationTimeout.count()) +
        " ms for the device to re-enumerate");
    step(t, "USB port reset", [&] {
      t.resetDevice(options.reenumerationTimeout);
      return 0;
    });
    const UsbDeviceIdentity after = step(t, "after reset, GET_DESCRIPTOR(DEVICE)", [&] { return readDeviceIdentity(t); });
    result.afterReset = after;
    if (after.personality != usb::CoralPersonality::kRuntime) {
      throw DfuError(where(t, "after reset") + "device is " + usb::vidPidText(after.vendorId, after.productId) +
                     ", not the runtime personality 18d1:9302: the firmware did not start");
    }
    log("device re-enumerated as " + usb::vidPidText(after.vendorId, after.productId) + " (runtime)");
  }
  return result;
}

void detachToBootloader(Transport& t, std::chrono::milliseconds reenumerationTimeout) {
  const UsbDeviceIdentity before = step(t, "GET_DESCRIPTOR(DEVICE)", [&] { return readDeviceIdentity(t); });
  if (before.personality == usb::CoralPersonality::kBootloader) return;
  if (before.personality != usb::CoralPersonality::kRuntime) {
    throw DfuError(where(t, "identity") + "device is " + usb::vidPidText(before.vendorId, before.productId) + ", not a Coral");
  }
  step(t, "DFU_DETACH", [&] {
    return t.control(dfuRequest(usb::kDfuHostToDevice, usb::dfu_request::kDetach, kDetachTimeoutMs, 0, 0), {});
  });
  step(t, "USB port reset after DFU_DETACH", [&] {
    t.resetDevice(reenumerationTimeout);
    return 0;
  });
  const UsbDeviceIdentity after = step(t, "after reset, GET_DESCRIPTOR(DEVICE)", [&] { return readDeviceIdentity(t); });
  if (after.personality != usb::CoralPersonality::kBootloader) {
    throw DfuError(where(t, "after DFU_DETACH and reset") + "device is " + usb::vidPidText(after.vendorId, after.productId) +
                   ", not the bootloader 1a6e:089a");
  }
}

std::vector<uint8_t> readFirmwareFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DfuError(path + ": cannot open the firmware image");
  std::vector<uint8_t> bytes;
  char buffer[65536];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    bytes.insert(bytes.end(), buffer, buffer + in.gcount());
    if (bytes.size() > kMaxFirmwareFileBytes) {
      throw DfuError(path + ": firmware image larger than " + std::to_string(kMaxFirmwareFileBytes >> 20) +
                     " MiB (a Coral image is about 11 KiB)");
    }
  }
  if (bytes.empty()) throw DfuError(path + ": the firmware image is empty");
  return bytes;
}

}  // namespace coralsim::driver

// DFU firmware download to a Coral USB Accelerator in bootloader mode (1a6e:089a), over any
// Transport, the way libedgetpu's UsbUpdateDfuDevice does it (docs/usb-protocol.md §1.3-1.5):
//
//   1. GET_DESCRIPTOR(DEVICE) with wLength 18 (the length user space uses: it never looks like the
//      kernel's post-reset enumeration to the device) — the device must be the bootloader;
//   2. GET_DESCRIPTOR(CONFIGURATION 0) with wLength 521: the interface with no endpoints and class
//      FE/01 followed by a DFU functional descriptor (0x21) gives the interface number and
//      wTransferSize (256 on the Coral);
//   3. DFU_DNLOAD of blocks 0, 1, 2, ... of wTransferSize bytes, each followed by DFU_GETSTATUS,
//      which must say OK / dfuDNLOAD-IDLE (5) (dfuDNLOAD-SYNC / dfuDNBUSY are waited out for
//      bwPollTimeout, as DFU 1.1 says);
//   4. the zero-length DFU_DNLOAD (wValue = the next block number), then DFU_GETSTATUS, which must
//      say OK / dfuIDLE (2) — the Coral's manifestation-tolerant answer (dfuMANIFEST-WAIT-RESET,
//      the answer of a DFU device that is not, is accepted too);
//   5. optionally verification by DFU_UPLOAD of blocks 0, 1, ... until a short block: the bytes
//      read back must start with the image;
//   6. a USB port reset (Transport::resetDevice), which makes the device re-enumerate as
//      18d1:9302, and GET_DESCRIPTOR(DEVICE) again to check that it did.
// Every failure throws DfuError naming the step, the block and what the device said.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "driver/transport/transport.h"
#include "usb/coral_usb_ids.h"

namespace coralsim::driver {

class DfuError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What GET_DESCRIPTOR(DEVICE) says.
struct UsbDeviceIdentity {
  uint16_t vendorId = 0;
  uint16_t productId = 0;
  uint16_t bcdUsb = 0;
  std::optional<usb::CoralPersonality> personality;  // nullopt: not a Coral
};
[[nodiscard]] UsbDeviceIdentity readDeviceIdentity(Transport& transport);

// The DFU interface of the bootloader's configuration (DFU 1.1 §4.2.1, §4.2.4).
struct DfuInterface {
  uint8_t interfaceNumber = 0;
  uint8_t attributes = 0;         // bit 0 CanDnload, 1 CanUpload, 2 ManifestationTolerant, 3 WillDetach
  uint16_t detachTimeoutMs = 0;
  uint16_t transferSize = 0;
  uint16_t dfuVersion = 0;  // 0 when the functional descriptor is the 7-byte DFU 1.0 form
};
// Parses a configuration descriptor set; throws DfuError when it has no DFU interface.
[[nodiscard]] DfuInterface parseDfuInterface(std::span<const uint8_t> configuration);
[[nodiscard]] DfuInterface readDfuInterface(Transport& transport);

// The 6-byte answer to DFU_GETSTATUS.
struct DfuStatusReport {
  uint8_t status = 0;  // bStatus, 0 = OK
  uint32_t pollTimeoutMs = 0;
  uint8_t state = 0;  // bState
  uint8_t statusString = 0;
};
[[nodiscard]] DfuStatusReport dfuGetStatus(Transport& transport, uint8_t interfaceNumber);

// DFU 1.1 state and status names ("dfuDNLOAD-IDLE", "errTARGET"), for messages.
[[nodiscard]] std::string dfuStateName(uint8_t state);
[[nodiscard]] std::string dfuStatusName(uint8_t status);

struct DfuDownloadOptions {
  bool verify = true;      // read the image back with DFU_UPLOAD (libedgetpu does)
  bool resetAfter = true;  // USB port reset and wait for the runtime personality
  std::chrono::milliseconds reenumerationTimeout{10'000};
  // Bound of the waits for dfuDNBUSY / dfuMANIFEST states (bwPollTimeout steps).
  std::chrono::milliseconds busyTimeout{5'000};
  // One line per step (what was sent, what came back); empty: silent.
  std::function<void(const std::string&)> log;
};

struct DfuDownloadResult {
  size_t imageBytes = 0;
  size_t dataBlocks = 0;
  uint16_t transferSize = 0;
  uint8_t interfaceNumber = 0;
  bool verified = false;
  size_t uploadedBytes = 0;  // what DFU_UPLOAD returned in total
  std::optional<UsbDeviceIdentity> afterReset;
};

// Downloads `image` (non-empty, at most 65,536 blocks) to the bootloader behind `transport`.
[[nodiscard]] DfuDownloadResult downloadFirmware(Transport& transport, std::span<const uint8_t> image,
                                                 const DfuDownloadOptions& options = {});

// libedgetpu's "always DFU" path for a device already in the runtime personality (§1.6):
// DFU_DETACH (0x21, bRequest 0, wValue 100 ms, interface 0), then a USB port reset, after which
// the device must come back as the bootloader 1a6e:089a. Throws DfuError otherwise.
void detachToBootloader(Transport& transport, std::chrono::milliseconds reenumerationTimeout);

// Reads a firmware image file; DfuError names the file when it is missing, empty or too large.
[[nodiscard]] std::vector<uint8_t> readFirmwareFile(const std::string& path);

}  // namespace coralsim::driver

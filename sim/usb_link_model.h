// UsbLinkModel: how long a run's USB traffic takes on a High-speed (USB 2) or SuperSpeed (USB 3)
// link, as a pure function of the transfers libedgetpu makes — no wall clocks, so the prediction
// is deterministic. The device clock (sim/device_clock.h) charges every transfer with it inside the
// simulation; the chip's own work is counted in chip cycles (models/timing_model.h).
//
// Formula (seconds):
//   usb = bulkOutBytes / bulkOutBytesPerSecond + bulkInBytes / bulkInBytesPerSecond
//       + bulkOutTransfers x outTransferSeconds + bulkInTransfers x inTransferSeconds
//       + controlTransfers x controlTransferSeconds
// where the transfer counts follow libedgetpu's pattern (docs/usb-protocol.md §3, §4.1): each
// bulk-OUT record is a header transfer plus its payload in pieces of at most 1 MiB; each output
// DMA is read in URBs of 1,024 bytes (SuperSpeed, outfeed_chunk_length 0x80) or 256 bytes (High
// speed, 0x20); each event is one 16-byte IN transfer.
#pragma once

#include <cstdint>

#include "usb/usb_types.h"

namespace coralsim::sim {

struct UsbLinkParameters {
  usb::UsbSpeed speed = usb::UsbSpeed::kSuper;
  double bulkOutBytesPerSecond = 0;
  double bulkInBytesPerSecond = 0;
  double outTransferSeconds = 0;      // one bulk-OUT transfer: submission, completion, host turnaround
  double inTransferSeconds = 0;       // one bulk-IN URB (libedgetpu reads outputs 1 KiB at a time)
  double controlTransferSeconds = 0;  // one EP0 CSR access (SETUP, data, status)
  uint64_t outPieceBytes = 0;         // libedgetpu's largest bulk-OUT payload transfer
  uint64_t inUrbBytes = 0;            // libedgetpu's EP 0x81 URB size
  // Per executable run, the time the device sits idle while the host prepares the request and
  // handles the completion event (libedgetpu's per-invocation work between transfers).
  double hostTurnaroundSeconds = 0;
};

// The table for each speed, with the evidence for every figure (usb_link_model.cc).
[[nodiscard]] UsbLinkParameters usbLinkParameters(usb::UsbSpeed speed);

// The transfers of one run on the link.
struct UsbTraffic {
  uint64_t controlTransfers = 0;
  uint64_t bulkOutTransfers = 0;
  uint64_t bulkOutBytes = 0;  // header and payload bytes
  uint64_t bulkInTransfers = 0;
  uint64_t bulkInBytes = 0;

  // A tag-0/1/2 record of `payloadBytes`: an 8-byte header transfer, then the payload in pieces.
  void addOutRecord(uint64_t payloadBytes, const UsbLinkParameters& link);
  // An output DMA of `bytes` read from EP 0x81 in URBs of link.inUrbBytes.
  void addOutputDma(uint64_t bytes, const UsbLinkParameters& link);
  // One 16-byte event from EP 0x82.
  void addEvent();
  void addControl(uint64_t count = 1) { controlTransfers += count; }

  friend bool operator==(const UsbTraffic&, const UsbTraffic&) = default;
};

// The formula in the header comment.
[[nodiscard]] double usbTransferSeconds(const UsbTraffic& traffic, const UsbLinkParameters& link);

}  // namespace coralsim::sim

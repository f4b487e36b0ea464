// UsbLinkModel: how long a run's USB traffic takes on a High-speed (USB 2) or SuperSpeed (USB 3)
// link, as a pure function of the transfers libedgetpu makes — no wall clocks, so the prediction
// is deterministic. The device clock (sim/device_clock.h) charges every transfer with it inside the
// simulation; the chip's own work is counted in chip cycles (models/timing_model.h).
//
// Formula (typed units, units/units.h):
//   usb = bulkOutBytes / bulkOutRate + bulkInBytes / bulkInRate
//       + bulkOutTransfers x outTransferTime + bulkInTransfers x inTransferTime
//       + controlTransfers x controlTransferTime
// where the transfer counts follow libedgetpu's pattern (docs/usb-protocol.md §3, §4.1): each
// bulk-OUT record is a header transfer plus its payload in pieces of at most 1 MiB; each output
// DMA is read in URBs of 1,024 bytes (SuperSpeed, outfeed_chunk_length 0x80) or 256 bytes (High
// speed, 0x20); each event is one 16-byte IN transfer.
#pragma once

#include <cstdint>

#include "units/units.h"
#include "usb/usb_types.h"

namespace coralsim::sim {

struct UsbLinkParameters {
  usb::UsbSpeed speed = usb::UsbSpeed::kSuper;
  units::ByteRate bulkOutRate;
  units::ByteRate bulkInRate;
  units::Duration outTransferTime;      // one bulk-OUT transfer: submission, completion, host turnaround
  units::Duration inTransferTime;       // one bulk-IN URB (libedgetpu reads outputs 1 KiB at a time)
  units::Duration controlTransferTime;  // one EP0 CSR access (SETUP, data, status)
  units::Bytes outPieceBytes;           // libedgetpu's largest bulk-OUT payload transfer
  units::Bytes inUrbBytes;              // libedgetpu's EP 0x81 URB size
  // Per executable run, the time the device sits idle while the host prepares the request and
  // handles the completion event (libedgetpu's per-invocation work between transfers).
  units::Duration hostTurnaroundTime;
};

// The table for each speed, with the evidence for every figure (usb_link_model.cc).
[[nodiscard]] UsbLinkParameters usbLinkParameters(usb::UsbSpeed speed);

// The transfers of one run on the link.
struct UsbTraffic {
  uint64_t controlTransfers = 0;
  uint64_t bulkOutTransfers = 0;
  units::Bytes bulkOutBytes;  // header and payload bytes
  uint64_t bulkInTransfers = 0;
  units::Bytes bulkInBytes;

  // A tag-0/1/2 record of `payload` bytes: an 8-byte header transfer, then the payload in pieces.
  void addOutRecord(units::Bytes payload, const UsbLinkParameters& link);
  // An output DMA of `bytes` read from EP 0x81 in URBs of link.inUrbBytes.
  void addOutputDma(units::Bytes bytes, const UsbLinkParameters& link);
  // One 16-byte event from EP 0x82.
  void addEvent();
  void addControl(uint64_t count = 1) { controlTransfers += count; }

  friend bool operator==(const UsbTraffic&, const UsbTraffic&) = default;
};

// The formula in the header comment.
[[nodiscard]] units::Duration usbTransferTime(const UsbTraffic& traffic, const UsbLinkParameters& link);

}  // namespace coralsim::sim

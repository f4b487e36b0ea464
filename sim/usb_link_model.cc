#include "sim/usb_link_model.h"

#include "usb/record_header.h"

// [calibrated] figures come from scripts/calibrate-timing.py on scripts/timing-references.json
// (published latencies of corpus models); the report it writes holds the fit and its residuals.

namespace coralsim::sim {
namespace {

using usb::kRecordHeaderBytes;
constexpr units::Bytes kEventBytes = 16;          // EP 0x82 event (§4.2)
constexpr units::Bytes kOutPieceBytes = 1 << 20;  // libedgetpu sends payloads in <= 1 MiB pieces (§3)

// The transfers `bytes` take in pieces of at most `piece` (a piece of 0 is taken as 1 byte).
uint64_t pieces(units::Bytes bytes, units::Bytes piece) {
  if (bytes == 0) return 0;
  const uint64_t pieceBytes = piece == 0 ? 1 : piece.value();
  return (bytes.value() + pieceBytes - 1) / pieceBytes;
}

}  // namespace

UsbLinkParameters usbLinkParameters(usb::UsbSpeed speed) {
  UsbLinkParameters p;
  p.speed = speed;
  p.outPieceBytes = kOutPieceBytes;
  if (speed == usb::UsbSpeed::kSuper) {
    // ~310 MB/s host-to-device: iwatake's stride models on USB 3 take 0.63 ms more for 196,608
    // more input bytes (InOut_stride.csv); LibrEdgeTPU's Dense-2048 upload gives ~300 MB/s
    // (docs/latency.md §3.3, derived). The same figure is used for device-to-host. [doc, derived]
    p.bulkOutRate = 310e6;
    p.bulkInRate = 310e6;
    p.outTransferTime = 0;           // [calibrated: the bandwidth term covers it]
    p.inTransferTime = 30.68e-6;     // [calibrated: 1 KiB URBs read one after the other]
    p.controlTransferTime = 125e-6;  // [choice: not in the per-inference traffic, not fitted]
    p.inUrbBytes = 1024;             // outfeed_chunk_length 0x80 x 8, 1,024-byte URBs (§4.1)
    p.hostTurnaroundTime = 206.6e-6; // [calibrated]
  } else {
    // ~36-40 MB/s: "USB 2.0 ~40 MB/s effective" (LibrEdgeTPU §17); iwatake's stride models on
    // USB 2: 5.44 ms more for 196,608 more bytes = 36 MB/s (docs/latency.md §3.3). [doc, derived]
    p.bulkOutRate = 36e6;
    p.bulkInRate = 36e6;
    p.outTransferTime = 0;           // [calibrated: the bandwidth term covers it]
    p.inTransferTime = 14.86e-6;     // [calibrated: 256-byte URBs]
    p.controlTransferTime = 375e-6;  // [choice: three stages of one 125 us microframe; not fitted]
    p.inUrbBytes = 256;              // outfeed_chunk_length 0x20 x 8 on High speed (§1.2, §4.1)
    p.hostTurnaroundTime = 203.1e-6; // [calibrated]
  }
  return p;
}

void UsbTraffic::addOutRecord(units::Bytes payload, const UsbLinkParameters& link) {
  bulkOutTransfers += 1 + pieces(payload, link.outPieceBytes);
  bulkOutBytes += units::Bytes(kRecordHeaderBytes) + payload;
}

void UsbTraffic::addOutputDma(units::Bytes bytes, const UsbLinkParameters& link) {
  bulkInTransfers += pieces(bytes, link.inUrbBytes);
  bulkInBytes += bytes;
}

void UsbTraffic::addEvent() {
  bulkInTransfers += 1;
  bulkInBytes += kEventBytes;
}

units::Duration usbTransferTime(const UsbTraffic& t, const UsbLinkParameters& link) {
  // Bytes at a rate of 0 cost no time (units/units.h): a table without a figure adds nothing.
  return t.bulkOutBytes / link.bulkOutRate + t.bulkInBytes / link.bulkInRate + t.bulkOutTransfers * link.outTransferTime +
         t.bulkInTransfers * link.inTransferTime + t.controlTransfers * link.controlTransferTime;
}

}  // namespace coralsim::sim

#include "sim/usb_link_model.h"

#include "usb/record_header.h"

// [calibrated] figures come from scripts/calibrate-timing.py on scripts/timing-references.json
// (published latencies of corpus models); the report it writes holds the fit and its residuals.

namespace coralsim::sim {
namespace {

using usb::kRecordHeaderBytes;
constexpr uint64_t kEventBytes = 16;         // EP 0x82 event (§4.2)
constexpr uint64_t kOutPieceBytes = 1 << 20;  // libedgetpu sends payloads in <= 1 MiB pieces (§3)

uint64_t pieces(uint64_t bytes, uint64_t pieceBytes) {
  if (bytes == 0) return 0;
  const uint64_t piece = pieceBytes == 0 ? 1 : pieceBytes;
  return (bytes + piece - 1) / piece;
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
    p.bulkOutBytesPerSecond = 310e6;
    p.bulkInBytesPerSecond = 310e6;
    p.outTransferSeconds = 0;           // [calibrated: the bandwidth term covers it]
    p.inTransferSeconds = 30.68e-6;     // [calibrated: 1 KiB URBs read one after the other]
    p.controlTransferSeconds = 125e-6;  // [choice: not in the per-inference traffic, not fitted]
    p.inUrbBytes = 1024;                // outfeed_chunk_length 0x80 x 8, 1,024-byte URBs (§4.1)
    p.hostTurnaroundSeconds = 206.6e-6;  // [calibrated]
  } else {
    // ~36-40 MB/s: "USB 2.0 ~40 MB/s effective" (LibrEdgeTPU §17); iwatake's stride models on
    // USB 2: 5.44 ms more for 196,608 more bytes = 36 MB/s (docs/latency.md §3.3). [doc, derived]
    p.bulkOutBytesPerSecond = 36e6;
    p.bulkInBytesPerSecond = 36e6;
    p.outTransferSeconds = 0;           // [calibrated: the bandwidth term covers it]
    p.inTransferSeconds = 14.86e-6;     // [calibrated: 256-byte URBs]
    p.controlTransferSeconds = 375e-6;  // [choice: three stages of one 125 us microframe; not fitted]
    p.inUrbBytes = 256;                 // outfeed_chunk_length 0x20 x 8 on High speed (§1.2, §4.1)
    p.hostTurnaroundSeconds = 203.1e-6;  // [calibrated]
  }
  return p;
}

void UsbTraffic::addOutRecord(uint64_t payloadBytes, const UsbLinkParameters& link) {
  bulkOutTransfers += 1 + pieces(payloadBytes, link.outPieceBytes);
  bulkOutBytes += kRecordHeaderBytes + payloadBytes;
}

void UsbTraffic::addOutputDma(uint64_t bytes, const UsbLinkParameters& link) {
  bulkInTransfers += pieces(bytes, link.inUrbBytes);
  bulkInBytes += bytes;
}

void UsbTraffic::addEvent() {
  bulkInTransfers += 1;
  bulkInBytes += kEventBytes;
}

double usbTransferSeconds(const UsbTraffic& t, const UsbLinkParameters& link) {
  const double out = link.bulkOutBytesPerSecond > 0 ? static_cast<double>(t.bulkOutBytes) / link.bulkOutBytesPerSecond : 0;
  const double in = link.bulkInBytesPerSecond > 0 ? static_cast<double>(t.bulkInBytes) / link.bulkInBytesPerSecond : 0;
  return out + in + static_cast<double>(t.bulkOutTransfers) * link.outTransferSeconds +
         static_cast<double>(t.bulkInTransfers) * link.inTransferSeconds +
         static_cast<double>(t.controlTransfers) * link.controlTransferSeconds;
}

}  // namespace coralsim::sim

// Importers: captures of real Coral USB sessions -> the USB transaction log (traces/usb_log.h).
//
// Formats (each the form a real session in the shared corpus takes):
//  - usbmon text, the Linux kernel's 'u' format (Documentation/usb/usbmon.rst; the older 't'
//    format's "Bo:004:01" address is accepted too): cat /sys/kernel/debug/usb/usbmon/2u
//  - libusb call logs: one line per libusb_control_transfer / libusb_submit_transfer call with its
//    arguments and data bytes, continuation lines of hex for long data (the dumps of a
//    coral-in-python session). The data printed for IN transfers is the buffer at the call, before
//    the device filled it, so IN data is treated as unknown.
//  - tshark text exports of usbmon captures: the one-line summary (`tshark -r X.pcap`, optionally
//    with the "# URB length, Data length, Leftover Capture Data" custom columns) and the verbose
//    packet details (`tshark -V`).
// Only the device(s) that made bulk transfers are kept (the Coral): hubs and other devices on the
// same bus are dropped and counted in ImportStats::otherDeviceTransfers.
//
// Bad input throws CaptureFormatError naming the file, the line and what is wrong. Text lines that
// are not transfers (program output interleaved with a dump, preambles) are skipped and counted.
#pragma once

#include <cstdint>
#include <istream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "traces/usb_log.h"

namespace coralsim::traces {

enum class CaptureFormat : uint8_t { kAuto, kCoralsimLog, kUsbmonText, kLibusbLog, kTsharkSummary, kTsharkDetail };

[[nodiscard]] std::string_view captureFormatName(CaptureFormat format);
// "auto", "coralsim", "usbmon", "libusb", "tshark", "tshark-detail"; false on anything else.
[[nodiscard]] bool parseCaptureFormat(std::string_view text, CaptureFormat& out);

class CaptureFormatError : public std::runtime_error {
 public:
  CaptureFormatError(const std::string& file, size_t line, const std::string& what);
  [[nodiscard]] size_t line() const { return line_; }

 private:
  size_t line_;
};

struct ImportStats {
  size_t lines = 0;                 // lines read
  size_t skippedLines = 0;          // text that is not a transfer
  size_t otherDeviceTransfers = 0;  // transfers of hubs and other devices, dropped
  size_t unmatchedSubmissions = 0;  // submitted, never completed in the capture
};

struct ImportedCapture {
  UsbLog log;
  CaptureFormat format = CaptureFormat::kAuto;
  ImportStats stats;
};

// Guesses the format from the first lines of a file; kAuto when none fits.
[[nodiscard]] CaptureFormat detectCaptureFormat(std::string_view head);

ImportedCapture importUsbmonText(std::istream& in, const std::string& name, const RegisterNamer& namer = {});
ImportedCapture importLibusbLog(std::istream& in, const std::string& name, const RegisterNamer& namer = {});
// Both tshark text forms (summary and -V details); the form is recognised per file.
ImportedCapture importTsharkText(std::istream& in, const std::string& name, const RegisterNamer& namer = {});

// Opens `path`, detects (or takes) its format and imports it; a coralsim USB log is read as is.
// Throws CaptureFormatError (std::runtime_error when the file cannot be opened).
ImportedCapture loadUsbSession(const std::string& path, const RegisterNamer& namer = {},
                               CaptureFormat format = CaptureFormat::kAuto);

}  // namespace coralsim::traces

// Shared by the capture importers (traces/import_*.cc), not a public header: the text helpers and
// the assembler that turns captured transfers of several devices into the Coral's USB log.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "traces/usb_import.h"
#include "traces/usb_log.h"

namespace coralsim::traces::import_detail {

// Splits on spaces and tabs.
std::vector<std::string_view> tokens(std::string_view line);
std::string_view trim(std::string_view s);

// Unsigned integers: decimal, or hex with "0x" (or without, when `hex`). nullopt when not a number
// or out of range of uint64_t.
std::optional<uint64_t> parseUnsigned(std::string_view text, bool hex = false);

// A run of hex digits ("59000f00") as bytes; nullopt on an odd count or a non-hex digit.
std::optional<std::vector<uint8_t>> parseHexRun(std::string_view text);

// Byte tokens "59 00 0f 00": appends to `out` while the tokens are two hex digits; returns the
// number of tokens consumed.
size_t appendHexByteTokens(const std::vector<std::string_view>& toks, size_t from, std::vector<uint8_t>& out);

struct CapturedTransfer {
  std::string device;  // "bus.address"; "" when the capture names none (a single device)
  UsbTransferType type = UsbTransferType::kBulk;
  uint8_t endpoint = 0;
  std::optional<UsbSetupPacket> setup;
  std::string request;  // a standard request known by name only
  uint32_t length = 0;
  bool lengthExact = true;
  bool dataKnown = false;
  std::vector<uint8_t> data;
  std::string status = "ok";
  std::optional<double> timeSeconds;  // absolute capture time
  std::string note;
};

class CaptureAssembler {
 public:
  void add(CapturedTransfer transfer) { transfers_.push_back(std::move(transfer)); }
  // Keeps the devices that made bulk transfers (all of them when none did), rebases time on the
  // first kept transfer and derives the protocol fields.
  ImportedCapture finish(std::string origin, const std::string& source, CaptureFormat format,
                         const RegisterNamer& namer, ImportStats stats);

 private:
  std::vector<CapturedTransfer> transfers_;
};

}  // namespace coralsim::traces::import_detail

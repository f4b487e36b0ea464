// Linux usbmon text ('u' format, Documentation/usb/usbmon.rst), one event per line:
//   URB-tag timestamp-us event address [setup | status] length [data-tag data-words...]
//   ffff8f0a2c3e1840 3575914555 S Ci:2:004:0 s c0 01 a30c 0001 0004 4 <
//   ffff8f0a2c3e1840 3575914690 C Ci:2:004:0 0 4 = 59000f00
//   ffff8f0a2c3e1900 3575914700 S Bo:2:004:1 -115 8 = 50270000 00000000
// event S submission, C completion, E submission error; address type C control, Z isochronous,
// I interrupt, B bulk, then i/o, bus, device, endpoint ('t' format: device:endpoint only). A
// submission and its completion share the URB tag (a kernel pointer, reused once completed).
#include <algorithm>
#include <map>

#include "traces/import_support.h"

namespace coralsim::traces {

using namespace import_detail;

namespace {

struct Pending {
  CapturedTransfer transfer;
  size_t line = 0;
};

}  // namespace

ImportedCapture importUsbmonText(std::istream& in, const std::string& name, const RegisterNamer& namer) {
  CaptureAssembler assembler;
  ImportStats stats;
  std::map<std::string, Pending, std::less<>> pending;
  std::string line;
  size_t lineNo = 0;
  auto fail = [&](const std::string& what) -> void { throw CaptureFormatError(name, lineNo, what); };

  while (std::getline(in, line)) {
    ++lineNo;
    ++stats.lines;
    const std::vector<std::string_view> tok = tokens(line);
    if (tok.empty()) continue;
    if (tok.size() < 5) fail("usbmon line needs at least 5 fields (tag, timestamp, event, address, status), got " +
                             std::to_string(tok.size()));
    const std::string_view tag = tok[0];
    const std::optional<uint64_t> stamp = parseUnsigned(tok[1]);
    if (!stamp) fail("timestamp '" + std::string(tok[1]) + "' is not a decimal number of microseconds");
    const std::string_view event = tok[2];
    if (event != "S" && event != "C" && event != "E") fail("event '" + std::string(event) + "' is not S, C or E");
    // Address: Xd:bus:dev:ep ('u') or Xd:dev:ep ('t').
    const std::string_view addr = tok[3];
    if (addr.size() < 4 || addr[2] != ':') fail("address '" + std::string(addr) + "' is not like Bo:2:004:1");
    const char kind = addr[0];
    const char dir = addr[1];
    if ((kind != 'C' && kind != 'Z' && kind != 'I' && kind != 'B') || (dir != 'i' && dir != 'o')) {
      fail("address '" + std::string(addr) + "': transfer type must be C, Z, I or B and direction i or o");
    }
    std::vector<std::string_view> parts;
    for (size_t start = 3;;) {
      const size_t colon = addr.find(':', start);
      parts.push_back(addr.substr(start, colon == std::string_view::npos ? std::string_view::npos : colon - start));
      if (colon == std::string_view::npos) break;
      start = colon + 1;
    }
    if (parts.size() != 2 && parts.size() != 3) fail("address '" + std::string(addr) + "' must have 2 or 3 numbers");
    for (std::string_view p : parts) {
      if (!parseUnsigned(p)) fail("address '" + std::string(addr) + "' has a non-numeric part");
    }
    const uint64_t epNumber = *parseUnsigned(parts.back());
    if (epNumber > 15) fail("endpoint number " + std::to_string(epNumber) + " out of range 0..15");
    const std::string device = parts.size() == 3 ? std::string(parts[0]) + "." + std::to_string(*parseUnsigned(parts[1]))
                                                 : std::to_string(*parseUnsigned(parts[0]));
    if (kind == 'Z') {  // isochronous: not used by the Coral
      ++stats.skippedLines;
      continue;
    }

    size_t i = 4;
    std::optional<UsbSetupPacket> setup;
    std::string status = "ok";
    if (tok[i] == "s") {
      if (tok.size() < i + 6) fail("setup packet needs 5 hex fields after 's'");
      const auto rt = parseUnsigned(tok[i + 1], true), rq = parseUnsigned(tok[i + 2], true),
                 wv = parseUnsigned(tok[i + 3], true), wi = parseUnsigned(tok[i + 4], true),
                 wl = parseUnsigned(tok[i + 5], true);
      if (!rt || !rq || !wv || !wi || !wl || *rt > 0xFF || *rq > 0xFF || *wv > 0xFFFF || *wi > 0xFFFF || *wl > 0xFFFF) {
        fail("malformed setup packet (expected: s bmRequestType bRequest wValue wIndex wLength, in hex)");
      }
      setup = UsbSetupPacket{static_cast<uint8_t>(*rt), static_cast<uint8_t>(*rq), static_cast<uint16_t>(*wv),
                             static_cast<uint16_t>(*wi), static_cast<uint16_t>(*wl)};
      i += 6;
    } else {
      // status, possibly with ":interval[:start_frame[:errors]]"
      const std::string_view word = tok[i].substr(0, tok[i].find(':'));
      const bool negative = !word.empty() && word[0] == '-';
      const auto magnitude = parseUnsigned(negative ? word.substr(1) : word);
      if (!magnitude) fail("status '" + std::string(tok[i]) + "' is not a number");
      if (negative) status = "errno -" + std::to_string(*magnitude);
      if (*magnitude == 0) status = "ok";
      if (negative && *magnitude == 32) status = "stall";
      if (negative && *magnitude == 104) status = "cancelled";
      if (negative && *magnitude == 108) status = "shutdown";
      if (negative && *magnitude == 75) status = "overflow";
      i += 1;
    }
    if (i >= tok.size()) fail("missing data length");
    const std::optional<uint64_t> length = parseUnsigned(tok[i]);
    if (!length || *length > UINT32_MAX) fail("data length '" + std::string(tok[i]) + "' is not a number");
    ++i;
    bool dataKnown = false;
    std::vector<uint8_t> data;
    if (i < tok.size()) {
      if (tok[i] == "=") {
        dataKnown = true;
        for (size_t k = i + 1; k < tok.size(); ++k) {
          const auto bytes = parseHexRun(tok[k]);
          if (!bytes) fail("data word '" + std::string(tok[k]) + "' is not hex");
          data.insert(data.end(), bytes->begin(), bytes->end());
        }
      } else if (tok[i].size() != 1) {
        fail("data tag '" + std::string(tok[i]) + "' is not '=' or a one-character flag");
      }
    }

    const uint8_t endpoint = static_cast<uint8_t>(epNumber | (dir == 'i' ? 0x80 : 0x00));
    const std::string key = std::string(tag) + "/" + std::string(addr);
    const double seconds = static_cast<double>(*stamp) / 1e6;
    if (event == "S") {
      Pending p;
      p.line = lineNo;
      CapturedTransfer& t = p.transfer;
      t.device = device;
      t.type = kind == 'C' ? UsbTransferType::kControl : kind == 'I' ? UsbTransferType::kInterrupt : UsbTransferType::kBulk;
      t.endpoint = endpoint;
      t.setup = setup;
      t.length = static_cast<uint32_t>(*length);
      if (dir == 'o') {
        t.dataKnown = dataKnown;
        t.data = std::move(data);
      }
      t.timeSeconds = seconds;
      t.note = "usbmon line " + std::to_string(lineNo);
      pending[key] = std::move(p);
      continue;
    }
    auto it = pending.find(key);
    CapturedTransfer t;
    if (it != pending.end()) {
      t = std::move(it->second.transfer);
      pending.erase(it);
    } else {
      t.device = device;
      t.type = kind == 'C' ? UsbTransferType::kControl : kind == 'I' ? UsbTransferType::kInterrupt : UsbTransferType::kBulk;
      t.endpoint = endpoint;
      t.note = "usbmon line " + std::to_string(lineNo) + " (completion without submission)";
    }
    t.status = event == "E" ? "submit error" : status;
    t.timeSeconds = seconds;
    // Completion length = actual length. For OUT the submission carried the data (usbmon prints
    // at most 32 bytes), so it is exact only when all of it was printed.
    t.length = static_cast<uint32_t>(*length);
    if (dir == 'i') {
      t.dataKnown = dataKnown;
      t.data = std::move(data);
    }
    t.lengthExact = true;
    if (t.dataKnown && t.data.size() > t.length) t.data.resize(t.length);
    assembler.add(std::move(t));
  }
  stats.unmatchedSubmissions = pending.size();
  // Submissions never completed (the capture ended first) are kept with an unknown status, in
  // submission order.
  std::vector<Pending> rest;
  for (auto& [k, p] : pending) rest.push_back(std::move(p));
  std::sort(rest.begin(), rest.end(), [](const Pending& a, const Pending& b) { return a.line < b.line; });
  for (Pending& p : rest) {
    p.transfer.status = "";
    p.transfer.lengthExact = p.transfer.endpoint < 0x80;
    if (p.transfer.endpoint >= 0x80) p.transfer.dataKnown = false;
    assembler.add(std::move(p.transfer));
  }
  return assembler.finish("usbmon", name, CaptureFormat::kUsbmonText, namer, stats);
}

}  // namespace coralsim::traces

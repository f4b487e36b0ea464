// libusb call logs: one line per call, as a Python libusb wrapper printed them in the
// coral-in-python dumps of a real session:
//   libusb_control_transfer(RequestType: 0x40, Request: 0x01, Value: 0xa30c, Index: 0x0001, Length:    4) : 59 00 0f 00
//   libusb_submit_transfer(Endpoint: 0x01, Type: 2, Lenght:   10064) : 80 0f 00 cc 09 ... 00
// Long data continues on indented lines of hex bytes; "... XX" elides the middle and ends with
// the last byte. Type is the libusb transfer type (2 bulk, 3 interrupt). The bytes of IN calls
// are the buffer before the device filled it (a device descriptor read shows no 0x12 0x01), so
// IN data is unknown. Lines of program output interleaved with the log are skipped; when the
// output cut into a data field, the bytes before the cut are kept and the rest is unknown.
#include "traces/import_support.h"

namespace coralsim::traces {

using namespace import_detail;

namespace {

// Parses "Key: value, Key: value" into values in the order given by `keys`.
bool parseArguments(std::string_view args, std::initializer_list<std::string_view> keys, std::vector<uint64_t>& out) {
  out.clear();
  for (std::string_view key : keys) {
    // "Key:" preceded by "(", "," or a space, so "Request" does not match inside "RequestType".
    size_t at = 0;
    for (;;) {
      at = args.find(key, at);
      if (at == std::string_view::npos) return false;
      const bool startsWord = at == 0 || args[at - 1] == '(' || args[at - 1] == ',' || args[at - 1] == ' ';
      if (startsWord && args.substr(at + key.size(), 1) == ":") break;
      at += key.size();
    }
    std::string_view rest = args.substr(at + key.size() + 1);
    const size_t end = rest.find_first_of(",)");
    const auto v = parseUnsigned(trim(rest.substr(0, end)));
    if (!v) return false;
    out.push_back(*v);
  }
  return true;
}

}  // namespace

ImportedCapture importLibusbLog(std::istream& in, const std::string& name, const RegisterNamer& namer) {
  CaptureAssembler assembler;
  ImportStats stats;
  std::optional<CapturedTransfer> current;  // the call whose data may continue on the next lines
  bool currentElided = false;
  std::string line;
  size_t lineNo = 0;
  auto fail = [&](const std::string& what) { throw CaptureFormatError(name, lineNo, what); };
  auto flush = [&] {
    if (!current) return;
    CapturedTransfer t = std::move(*current);
    current.reset();
    if (t.dataKnown && !currentElided && t.data.size() < t.length && t.endpoint < 0x80) {
      // Cut short (interleaved output or a missing continuation): what we have is a prefix.
      t.note += " (data cut after " + std::to_string(t.data.size()) + " bytes)";
    }
    if (t.dataKnown && t.data.size() > t.length) t.data.resize(t.length);
    assembler.add(std::move(t));
  };

  while (std::getline(in, line)) {
    ++lineNo;
    ++stats.lines;
    const std::string_view text = line;
    if (!text.empty() && (text[0] == ' ' || text[0] == '\t')) {
      // Continuation of the previous call's data, or indented program output.
      const std::vector<std::string_view> tok = tokens(text);
      if (current && current->dataKnown && !tok.empty()) {
        const size_t used = appendHexByteTokens(tok, 0, current->data);
        if (used == tok.size()) continue;
      }
      if (!tok.empty()) ++stats.skippedLines;
      continue;
    }
    const bool control = text.starts_with("libusb_control_transfer(");
    const bool submit = text.starts_with("libusb_submit_transfer(");
    if (!control && !submit) {
      if (text.starts_with("libusb_")) fail("unknown libusb call: " + std::string(text.substr(0, 60)));
      if (!trim(text).empty()) ++stats.skippedLines;
      continue;
    }
    flush();
    const size_t close = text.find(')');
    if (close == std::string_view::npos) fail("call without closing parenthesis");
    const std::string_view args = text.substr(0, close);
    CapturedTransfer t;
    t.note = "line " + std::to_string(lineNo);
    std::vector<uint64_t> v;
    if (control) {
      if (!parseArguments(args, {"RequestType", "Request", "Value", "Index", "Length"}, v)) {
        fail("libusb_control_transfer needs RequestType, Request, Value, Index and Length as numbers");
      }
      if (v[0] > 0xFF || v[1] > 0xFF || v[2] > 0xFFFF || v[3] > 0xFFFF || v[4] > 0xFFFF) {
        fail("libusb_control_transfer argument out of range for a SETUP packet");
      }
      t.type = UsbTransferType::kControl;
      t.setup = UsbSetupPacket{static_cast<uint8_t>(v[0]), static_cast<uint8_t>(v[1]), static_cast<uint16_t>(v[2]),
                               static_cast<uint16_t>(v[3]), static_cast<uint16_t>(v[4])};
      t.endpoint = t.setup->deviceToHost() ? 0x80 : 0x00;
      t.length = t.setup->wLength;
    } else {
      // "Lenght" is the dump's own spelling; accept the correct one too.
      const bool misspelt = args.find("Lenght") != std::string_view::npos;
      if (!parseArguments(args, {"Endpoint", "Type", misspelt ? "Lenght" : "Length"}, v)) {
        fail("libusb_submit_transfer needs Endpoint, Type and Length as numbers");
      }
      if (v[0] > 0xFF || (v[0] & 0x70) != 0) fail("endpoint " + std::to_string(v[0]) + " is not a USB endpoint address");
      if (v[1] != 2 && v[1] != 3) fail("transfer type " + std::to_string(v[1]) + " is not 2 (bulk) or 3 (interrupt)");
      if (v[2] > UINT32_MAX) fail("length out of range");
      t.type = v[1] == 2 ? UsbTransferType::kBulk : UsbTransferType::kInterrupt;
      t.endpoint = static_cast<uint8_t>(v[0]);
      t.length = static_cast<uint32_t>(v[2]);
    }
    // Data after " : ".
    std::string_view rest = text.substr(close + 1);
    const size_t colon = rest.find(':');
    if (colon == std::string_view::npos) fail("missing ' : ' before the data bytes");
    const std::vector<std::string_view> tok = tokens(rest.substr(colon + 1));
    const bool inbound = (t.endpoint & 0x80) != 0;
    currentElided = false;
    if (inbound) {
      // An IN call's bytes are the buffer before the transfer; only the requested size is known.
      t.dataKnown = false;
      t.lengthExact = false;
    } else {
      t.dataKnown = true;
      const size_t used = appendHexByteTokens(tok, 0, t.data);
      if (used < tok.size() && tok[used] == "...") {
        currentElided = true;  // head only
      }
    }
    current = std::move(t);
  }
  flush();
  return assembler.finish("libusb", name, CaptureFormat::kLibusbLog, namer, stats);
}

}  // namespace coralsim::traces

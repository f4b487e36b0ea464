// tshark text exports of usbmon captures, in the two forms the real Coral sessions come in.
//
// Summary (one line per frame; `tshark -r capture.pcap`, optionally with custom columns):
//   329   8.535792   host → 2.4.1   USB 72 URB_BULK out     # 8,8,f0ff030000000000
//   frame, seconds, source, arrow, destination, protocol, frame length, info [# URB length,
//   data length, first captured bytes]. host → device is a submission, device → host a
//   completion; the device column is bus.device.endpoint. Without the custom columns only the
//   frame length is known (64 bytes of usbmon header + the captured data), so lengths are lower
//   bounds and data is unknown.
//
// Details (`tshark -V`): blocks starting "Frame N:" with "URB type: URB_SUBMIT ('S')", "URB id",
// "URB transfer type", "Endpoint: 0x81, Direction: IN", "Device", "URB bus id", "URB status",
// "URB length [bytes]", the "URB setup" fields and the data ("Data Fragment", "CONTROL response
// data", "Leftover Capture Data"). Submission and completion pair by URB id.
#include <algorithm>
#include <cmath>
#include <deque>
#include <map>

#include "traces/import_support.h"

namespace coralsim::traces {

using namespace import_detail;

namespace {

constexpr uint32_t kUsbmonHeaderBytes = 64;  // "USB packets with Linux header and padding"
// The most data these usbmon captures hold per frame (the custom columns show 262128-byte URBs
// captured as 61440 bytes): a frame with this much data may stand for a longer transfer.
constexpr uint32_t kUsbmonCaptureCutoff = 61440;

class TsharkImporter {
 public:
  TsharkImporter(std::istream& in, const std::string& name) : in_(in), name_(name) {}

  ImportedCapture run(const RegisterNamer& namer) {
    std::string line;
    bool detail = false;
    bool decided = false;
    while (std::getline(in_, line)) {
      ++lineNo_;
      ++stats_.lines;
      if (!decided) {
        if (line.starts_with("Frame ")) {
          detail = true;
          decided = true;
        } else if (summaryLine(line, /*probeOnly=*/true)) {
          decided = true;
        } else {
          ++stats_.skippedLines;  // preamble (a header row, notes)
          continue;
        }
      }
      if (detail) detailLine(line);
      else summaryLine(line, false);
    }
    if (detail) finishFrame();
    if (!decided) throw CaptureFormatError(name_, lineNo_, "no tshark frame found (neither summary lines nor 'Frame N:' blocks)");
    for (auto& [id, p] : submitted_) {
      ++stats_.unmatchedSubmissions;
      p.status = "";
      pendingOut_.push_back(std::move(p));
    }
    for (CapturedTransfer& t : pendingOut_) assembler_.add(std::move(t));
    return assembler_.finish("tshark", name_, detail ? CaptureFormat::kTsharkDetail : CaptureFormat::kTsharkSummary,
                             namer, stats_);
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { throw CaptureFormatError(name_, lineNo_, what); }

  // ---- summary ----
  // Returns whether the line is a frame line; with probeOnly, only checks the shape.
  bool summaryLine(const std::string& line, bool probeOnly) {
    std::string_view text = line;
    std::string_view columns;
    if (const size_t hash = text.find('#'); hash != std::string_view::npos) {
      columns = trim(text.substr(hash + 1));
      text = text.substr(0, hash);
    }
    const std::vector<std::string_view> tok = tokens(text);
    if (tok.empty()) return false;
    // The arrow column is "→" (some exports mangle its encoding): recognise the frame by the
    // "host" end instead.
    const bool frameShape = tok.size() >= 8 && parseUnsigned(tok[0]) && (tok[2] == "host" || tok[4] == "host");
    if (probeOnly) return frameShape;
    if (!frameShape) {
      if (tok.size() >= 1 && parseUnsigned(tok[0])) fail("frame line needs: number, time, source, arrow, destination, protocol, length, info");
      ++stats_.skippedLines;
      return false;
    }
    double seconds = 0;
    try {
      size_t used = 0;
      seconds = std::stod(std::string(tok[1]), &used);
      if (used != tok[1].size() || !std::isfinite(seconds)) throw std::invalid_argument("not a time");
    } catch (const std::exception&) {
      fail("time '" + std::string(tok[1]) + "' is not a number of seconds");
    }
    const std::string_view src = tok[2];
    const std::string_view dst = tok[4];
    const bool fromHost = src == "host";
    if (!fromHost && dst != "host") fail("neither source nor destination is 'host'");
    const std::string_view devicePart = fromHost ? dst : src;
    // bus.device.endpoint
    const size_t d1 = devicePart.find('.');
    const size_t d2 = devicePart.rfind('.');
    if (d1 == std::string_view::npos || d1 == d2) fail("device '" + std::string(devicePart) + "' is not bus.device.endpoint");
    const auto epNumber = parseUnsigned(devicePart.substr(d2 + 1));
    if (!parseUnsigned(devicePart.substr(0, d1)) || !parseUnsigned(devicePart.substr(d1 + 1, d2 - d1 - 1)) || !epNumber ||
        *epNumber > 15) {
      fail("device '" + std::string(devicePart) + "' is not bus.device.endpoint");
    }
    const auto frameLength = parseUnsigned(tok[6]);
    if (!frameLength) fail("frame length '" + std::string(tok[6]) + "' is not a number");
    const std::string_view info = tok[7];
    const std::string device(devicePart.substr(0, d2));

    if (!info.starts_with("URB_")) {
      // A dissected standard request ("GET DESCRIPTOR Request DEVICE", hub class requests):
      // control transfers we know only by name; the submission stands for the transfer.
      if (fromHost && line.find("Request") != std::string::npos) {
        CapturedTransfer t;
        t.device = device;
        t.type = UsbTransferType::kControl;
        const std::string_view rest = trim(text.substr(text.find(info)));
        t.request = std::string(trim(rest.substr(0, rest.find("Request"))));
        t.endpoint = t.request.starts_with("GET") ? 0x80 : 0x00;
        t.lengthExact = false;
        t.timeSeconds = seconds;
        t.note = "frame " + std::string(tok[0]) + ": " + std::string(trim(text.substr(text.find(info))));
        pendingOut_.push_back(std::move(t));
      } else {
        ++stats_.skippedLines;
      }
      return true;
    }
    if (tok.size() < 9) fail("URB line needs a direction after the transfer type");
    const std::string_view kind = info;
    const bool in = tok[8] == "in";
    if (!in && tok[8] != "out") fail("direction '" + std::string(tok[8]) + "' is not in or out");
    UsbTransferType type;
    if (kind == "URB_BULK") type = UsbTransferType::kBulk;
    else if (kind == "URB_INTERRUPT") type = UsbTransferType::kInterrupt;
    else if (kind == "URB_CONTROL") type = UsbTransferType::kControl;
    else if (kind == "URB_ISOCHRONOUS") {
      ++stats_.skippedLines;
      return true;
    } else fail("unknown transfer type '" + std::string(kind) + "'");

    // Custom columns: URB length, data length, hex data.
    std::optional<uint64_t> urbLength;
    std::optional<std::vector<uint8_t>> data;
    if (!columns.empty()) {
      std::vector<std::string_view> cols;
      for (size_t start = 0;;) {
        const size_t comma = columns.find(',', start);
        cols.push_back(trim(columns.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start)));
        if (comma == std::string_view::npos) break;
        start = comma + 1;
      }
      if (cols.size() != 3) fail("expected 3 columns after '#' (URB length, data length, data), got " + std::to_string(cols.size()));
      urbLength = parseUnsigned(cols[0]);
      const auto dataLength = parseUnsigned(cols[1]);
      if (!urbLength || !dataLength || *urbLength > UINT32_MAX) fail("URB length and data length must be numbers");
      data = parseHexRun(cols[2]);
      if (!data) fail("captured data '" + std::string(cols[2].substr(0, 40)) + "' is not hex");
    }
    const uint8_t endpoint = static_cast<uint8_t>(*epNumber | (in ? 0x80 : 0));
    const bool hasData = data && !data->empty();
    // Which frame stands for the transfer: the one that carries its data (OUT: submission, IN:
    // completion); control transfers: the submission (the setup goes out then).
    const bool represent = type == UsbTransferType::kControl ? fromHost : (in ? !fromHost : fromHost);
    if (!represent) return true;
    CapturedTransfer t;
    t.device = device;
    t.type = type;
    t.endpoint = type == UsbTransferType::kControl ? (in ? 0x80 : 0x00) : endpoint;
    t.timeSeconds = seconds;
    t.note = "frame " + std::string(tok[0]);
    if (urbLength) {
      t.length = static_cast<uint32_t>(*urbLength);
      t.lengthExact = type != UsbTransferType::kControl;
      t.dataKnown = hasData || *urbLength == 0;
      if (data) t.data = std::move(*data);
    } else {
      // Only the frame length: the captured bytes. Bulk and interrupt frames below the capture's
      // cut-off are whole transfers; at the cut-off the transfer may be longer.
      t.length = *frameLength > kUsbmonHeaderBytes ? static_cast<uint32_t>(*frameLength - kUsbmonHeaderBytes) : 0;
      t.lengthExact = type != UsbTransferType::kControl && t.length < kUsbmonCaptureCutoff;
      t.dataKnown = false;
    }
    pendingOut_.push_back(std::move(t));
    return true;
  }

  // ---- details ----
  struct Frame {
    size_t line = 0;
    std::optional<double> epoch;
    std::string source, destination;
    std::string urbId;
    char urbType = 0;  // 'S' or 'C'
    std::optional<UsbTransferType> type;
    bool isochronous = false;
    std::optional<uint8_t> endpoint;
    std::optional<uint64_t> device, bus;
    std::string status;
    std::optional<uint64_t> urbLength;
    bool inSetup = false;
    std::optional<uint64_t> bmRequestType, bRequest, wValue, wIndex, wLength, descriptorIndex, descriptorType, languageId;
    std::optional<std::vector<uint8_t>> data;
  };

  static std::string_view valueAfter(std::string_view text, std::string_view key) {
    return trim(text.substr(key.size()));
  }

  std::optional<uint64_t> numberField(std::string_view value, std::string_view field) const {
    // "4", "0xa30c", "1 (0x0001)", "GET DESCRIPTOR (6)", "URB_CONTROL (0x02)"
    if (const size_t open = value.rfind('('); open != std::string_view::npos && value.back() == ')') {
      if (auto v = parseUnsigned(value.substr(open + 1, value.size() - open - 2))) return v;
    }
    const std::string_view first = value.substr(0, value.find(' '));
    auto v = parseUnsigned(first);
    if (!v) fail(std::string(field) + " '" + std::string(value) + "' is not a number");
    return v;
  }

  void detailLine(const std::string& line) {
    std::string_view text = line;
    if (text.starts_with("Frame ")) {
      finishFrame();
      frame_ = Frame{};
      frame_->line = lineNo_;
      return;
    }
    if (!frame_) return;
    const std::string_view t = trim(text);
    if (t.empty()) return;
    const bool topLevel = text[0] != ' ';
    if (topLevel) {
      frame_->inSetup = t == "URB setup";
      if (t.starts_with("CONTROL response data:")) setData(valueAfter(t, "CONTROL response data:"));
      else if (t.starts_with("Leftover Capture Data:")) setData(valueAfter(t, "Leftover Capture Data:"));
      return;
    }
    auto is = [&](std::string_view key) { return t.starts_with(key); };
    Frame& f = *frame_;
    if (is("Epoch Time:")) {
      const std::string_view v = valueAfter(t, "Epoch Time:");
      try {
        f.epoch = std::stod(std::string(v.substr(0, v.find(' '))));
        if (!std::isfinite(*f.epoch)) throw std::invalid_argument("not a time");
      } catch (const std::exception&) {
        fail("Epoch Time '" + std::string(v) + "' is not a number");
      }
    } else if (is("[Source:")) {
      f.source = std::string(trim(t.substr(8, t.size() - 9)));
    } else if (is("[Destination:")) {
      f.destination = std::string(trim(t.substr(13, t.size() - 14)));
    } else if (is("URB id:")) {
      f.urbId = std::string(valueAfter(t, "URB id:"));
    } else if (is("URB type:")) {
      const std::string_view v = valueAfter(t, "URB type:");
      if (v.find("('S')") != std::string_view::npos) f.urbType = 'S';
      else if (v.find("('C')") != std::string_view::npos) f.urbType = 'C';
      else if (v.find("('E')") != std::string_view::npos) f.urbType = 'E';
      else fail("URB type '" + std::string(v) + "' is not a submission, completion or error");
    } else if (is("URB transfer type:")) {
      const std::string_view v = valueAfter(t, "URB transfer type:");
      if (v.starts_with("URB_CONTROL")) f.type = UsbTransferType::kControl;
      else if (v.starts_with("URB_BULK")) f.type = UsbTransferType::kBulk;
      else if (v.starts_with("URB_INTERRUPT")) f.type = UsbTransferType::kInterrupt;
      else if (v.starts_with("URB_ISOCHRONOUS")) f.isochronous = true;
      else fail("unknown URB transfer type '" + std::string(v) + "'");
    } else if (is("Endpoint:") && !f.endpoint) {
      const std::string_view v = valueAfter(t, "Endpoint:");
      const auto ep = parseUnsigned(v.substr(0, v.find(',')));
      if (!ep || *ep > 0xFF) fail("endpoint '" + std::string(v) + "' is not an endpoint address");
      f.endpoint = static_cast<uint8_t>(*ep);
    } else if (is("Device:")) {
      f.device = numberField(valueAfter(t, "Device:"), "Device");
    } else if (is("URB bus id:")) {
      f.bus = numberField(valueAfter(t, "URB bus id:"), "URB bus id");
    } else if (is("URB status:")) {
      f.status = std::string(valueAfter(t, "URB status:"));
    } else if (is("URB length [bytes]:")) {
      f.urbLength = numberField(valueAfter(t, "URB length [bytes]:"), "URB length");
      if (*f.urbLength > UINT32_MAX) fail("URB length out of range");
    } else if (f.inSetup) {
      if (is("bmRequestType:")) f.bmRequestType = numberField(valueAfter(t, "bmRequestType:"), "bmRequestType");
      else if (is("bRequest:")) f.bRequest = numberField(valueAfter(t, "bRequest:"), "bRequest");
      else if (is("wValue:")) f.wValue = numberField(valueAfter(t, "wValue:"), "wValue");
      else if (is("wIndex:")) f.wIndex = numberField(valueAfter(t, "wIndex:"), "wIndex");
      else if (is("wLength:")) f.wLength = numberField(valueAfter(t, "wLength:"), "wLength");
      else if (is("Descriptor Index:")) f.descriptorIndex = numberField(valueAfter(t, "Descriptor Index:"), "Descriptor Index");
      else if (is("bDescriptorType:")) f.descriptorType = numberField(valueAfter(t, "bDescriptorType:"), "bDescriptorType");
      else if (is("Language Id:")) f.languageId = numberField(valueAfter(t, "Language Id:"), "Language Id");
      else if (is("Data Fragment:")) setData(valueAfter(t, "Data Fragment:"));
    }
  }

  void setData(std::string_view hex) {
    // tshark elides long fields with "..." (or the "…" character): the bytes before it are a prefix.
    if (hex.ends_with("...")) hex.remove_suffix(3);
    else if (hex.ends_with("\u2026")) hex.remove_suffix(3);
    if (hex.size() % 2 != 0) hex.remove_suffix(1);
    auto bytes = parseHexRun(hex);
    if (!bytes) fail("data '" + std::string(hex.substr(0, 40)) + "' is not hex");
    frame_->data = std::move(*bytes);
  }

  void finishFrame() {
    if (!frame_) return;
    Frame f = std::move(*frame_);
    frame_.reset();
    if (f.isochronous) {
      ++stats_.skippedLines;
      return;
    }
    if (f.urbType == 0 || !f.type || !f.endpoint || !f.device || !f.urbLength) {
      throw CaptureFormatError(name_, f.line,
                               "frame lacks one of URB type, URB transfer type, Endpoint, Device, URB length");
    }
    const std::string device = (f.bus ? std::to_string(*f.bus) : std::string("?")) + "." + std::to_string(*f.device);
    const std::string key = device + "/" + f.urbId;
    if (f.urbType == 'S') {
      CapturedTransfer t;
      t.device = device;
      t.type = *f.type;
      t.endpoint = *f.endpoint;
      t.length = static_cast<uint32_t>(*f.urbLength);
      t.timeSeconds = f.epoch;
      t.note = "frame line " + std::to_string(f.line);
      if (f.bmRequestType) {
        UsbSetupPacket s;
        s.bmRequestType = static_cast<uint8_t>(*f.bmRequestType);
        s.bRequest = static_cast<uint8_t>(f.bRequest.value_or(0));
        // Standard descriptor requests are shown dissected: rebuild wValue / wIndex.
        s.wValue = static_cast<uint16_t>(f.wValue ? *f.wValue
                                                  : (f.descriptorType.value_or(0) << 8) | f.descriptorIndex.value_or(0));
        s.wIndex = static_cast<uint16_t>(f.wIndex ? *f.wIndex : f.languageId.value_or(0));
        s.wLength = static_cast<uint16_t>(f.wLength.value_or(*f.urbLength));
        t.setup = s;
        t.endpoint = s.deviceToHost() ? 0x80 : 0x00;
      }
      if ((t.endpoint & 0x80) == 0) {
        t.dataKnown = f.data.has_value() || t.length == 0;
        if (f.data) t.data = std::move(*f.data);
      }
      submitted_[key] = std::move(t);
      return;
    }
    CapturedTransfer t;
    if (auto it = submitted_.find(key); it != submitted_.end()) {
      t = std::move(it->second);
      submitted_.erase(it);
    } else {
      t.device = device;
      t.type = *f.type;
      t.endpoint = *f.endpoint;
      t.note = "frame line " + std::to_string(f.line) + " (completion without submission)";
    }
    t.timeSeconds = f.epoch;
    t.status = f.status.starts_with("Success") ? "ok" : f.status;
    if (f.urbType == 'E') t.status = "submit error: " + f.status;
    t.length = static_cast<uint32_t>(*f.urbLength);  // actual length
    t.lengthExact = true;
    if (t.endpoint & 0x80) {
      t.dataKnown = f.data.has_value() || t.length == 0;
      if (f.data) t.data = std::move(*f.data);
    }
    if (t.dataKnown && t.data.size() > t.length) t.data.resize(t.length);
    pendingOut_.push_back(std::move(t));
  }

  std::istream& in_;
  const std::string& name_;
  size_t lineNo_ = 0;
  ImportStats stats_;
  CaptureAssembler assembler_;
  std::optional<Frame> frame_;
  std::map<std::string, CapturedTransfer> submitted_;
  std::vector<CapturedTransfer> pendingOut_;
};

}  // namespace

ImportedCapture importTsharkText(std::istream& in, const std::string& name, const RegisterNamer& namer) {
  return TsharkImporter(in, name).run(namer);
}

}  // namespace coralsim::traces

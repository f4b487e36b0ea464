#include "traces/usb_import.h"

#include <fstream>
#include <sstream>

#include "traces/import_support.h"

namespace coralsim::traces {

using namespace import_detail;

CaptureFormatError::CaptureFormatError(const std::string& file, size_t line, const std::string& what)
    : std::runtime_error(file + ":" + std::to_string(line) + ": " + what), line_(line) {}

std::string_view captureFormatName(CaptureFormat format) {
  switch (format) {
    case CaptureFormat::kAuto: return "auto";
    case CaptureFormat::kCoralsimLog: return "coralsim";
    case CaptureFormat::kUsbmonText: return "usbmon";
    case CaptureFormat::kLibusbLog: return "libusb";
    case CaptureFormat::kTsharkSummary: return "tshark";
    case CaptureFormat::kTsharkDetail: return "tshark-detail";
  }
  return "?";
}

bool parseCaptureFormat(std::string_view text, CaptureFormat& out) {
  for (CaptureFormat f : {CaptureFormat::kAuto, CaptureFormat::kCoralsimLog, CaptureFormat::kUsbmonText,
                          CaptureFormat::kLibusbLog, CaptureFormat::kTsharkSummary, CaptureFormat::kTsharkDetail}) {
    if (captureFormatName(f) == text) {
      out = f;
      return true;
    }
  }
  return false;
}

namespace {

bool looksLikeUsbmon(std::string_view line) {
  const auto tok = tokens(line);
  if (tok.size() < 5) return false;
  if (!parseUnsigned(tok[0], true) || !parseUnsigned(tok[1])) return false;
  if (tok[2] != "S" && tok[2] != "C" && tok[2] != "E") return false;
  const std::string_view a = tok[3];
  return a.size() >= 4 && a[2] == ':' && std::string_view("CZIB").find(a[0]) != std::string_view::npos &&
         (a[1] == 'i' || a[1] == 'o');
}

bool looksLikeTsharkSummary(std::string_view line) {
  const auto tok = tokens(line.substr(0, line.find('#')));
  return tok.size() >= 8 && parseUnsigned(tok[0]) && (tok[2] == "host" || tok[4] == "host") &&
         parseUnsigned(tok[6]);
}

}  // namespace

CaptureFormat detectCaptureFormat(std::string_view head) {
  size_t start = 0;
  int lines = 0;
  while (start < head.size() && lines < 200) {
    const size_t end = head.find('\n', start);
    const std::string_view line = head.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    start = end == std::string_view::npos ? head.size() : end + 1;
    ++lines;
    const std::string_view t = trim(line);
    if (t.empty()) continue;
    if (t.starts_with("{\"coralsim_usb_log\"")) return CaptureFormat::kCoralsimLog;
    if (line.starts_with("libusb_control_transfer(") || line.starts_with("libusb_submit_transfer(")) {
      return CaptureFormat::kLibusbLog;
    }
    if (line.starts_with("Frame ") && line.find("bytes on wire") != std::string_view::npos) {
      return CaptureFormat::kTsharkDetail;
    }
    if (looksLikeTsharkSummary(line)) return CaptureFormat::kTsharkSummary;
    if (looksLikeUsbmon(line)) return CaptureFormat::kUsbmonText;
  }
  return CaptureFormat::kAuto;
}

ImportedCapture loadUsbSession(const std::string& path, const RegisterNamer& namer, CaptureFormat format) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error(path + ": cannot open");
  if (format == CaptureFormat::kAuto) {
    std::string head(64 * 1024, '\0');
    file.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<size_t>(file.gcount()));
    format = detectCaptureFormat(head);
    if (format == CaptureFormat::kAuto) {
      throw CaptureFormatError(path, 1,
                               "not a recognised USB session: expected a coralsim USB log, usbmon text, a libusb call "
                               "log or a tshark text export (give --format to force one)");
    }
    file.clear();
    file.seekg(0);
  }
  switch (format) {
    case CaptureFormat::kCoralsimLog: {
      ImportedCapture out;
      out.format = format;
      out.log = readUsbLog(file, path);  // UsbLogFormatError names the file and line
      return out;
    }
    case CaptureFormat::kUsbmonText: return importUsbmonText(file, path, namer);
    case CaptureFormat::kLibusbLog: return importLibusbLog(file, path, namer);
    case CaptureFormat::kTsharkSummary:
    case CaptureFormat::kTsharkDetail: return importTsharkText(file, path, namer);
    case CaptureFormat::kAuto: break;
  }
  throw std::logic_error("loadUsbSession: unhandled format");
}

}  // namespace coralsim::traces

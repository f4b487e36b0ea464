// Shared by the capture-importer fuzz targets: any bytes as a capture of the given format. The
// importer must either produce a log or throw its format error (naming file and line); the log it
// produced must survive the coralsim USB log format unchanged (write, read back, write again) and
// compare equal to itself in trace-diff.
#pragma once

#include <cstdint>
#include <optional>
#include <sstream>
#include <string>

#include "traces/usb_diff.h"
#include "traces/usb_import.h"
#include "traces/usb_log.h"

namespace coralsim::traces::fuzz {

inline std::optional<std::string> checkLog(const UsbLog& log) {
  std::ostringstream first;
  writeUsbLog(log, first);
  std::istringstream in(first.str());
  UsbLog back;
  try {
    back = readUsbLog(in, "roundtrip");
  } catch (const std::exception& e) {
    return std::string("written log does not read back: ") + e.what();
  }
  std::ostringstream second;
  writeUsbLog(back, second);
  if (first.str() != second.str()) return std::string("log changed across write/read/write");
  if (diffUsbLogs(log, back).hasRelevant()) return std::string("a log differs from itself in trace-diff");
  return std::nullopt;
}

inline std::optional<std::string> exerciseImport(CaptureFormat format, const uint8_t* data, size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  ImportedCapture c;
  try {
    switch (format) {
      case CaptureFormat::kUsbmonText: c = importUsbmonText(in, "fuzz"); break;
      case CaptureFormat::kLibusbLog: c = importLibusbLog(in, "fuzz"); break;
      case CaptureFormat::kTsharkSummary:
      case CaptureFormat::kTsharkDetail: c = importTsharkText(in, "fuzz"); break;
      case CaptureFormat::kCoralsimLog: c.log = readUsbLog(in, "fuzz"); break;
      case CaptureFormat::kAuto: return std::string("bad harness format");
    }
  } catch (const CaptureFormatError& e) {
    if (std::string(e.what()).rfind("fuzz:", 0) != 0) return std::string("error without file name: ") + e.what();
    return std::nullopt;
  } catch (const UsbLogFormatError& e) {
    if (std::string(e.what()).rfind("fuzz", 0) != 0) return std::string("error without file name: ") + e.what();
    return std::nullopt;
  }
  return checkLog(c.log);
}

}  // namespace coralsim::traces::fuzz

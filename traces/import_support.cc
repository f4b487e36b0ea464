#include "traces/import_support.h"

#include <cmath>

#include <charconv>
#include <set>

namespace coralsim::traces::import_detail {

namespace {
constexpr double kMaxSessionSeconds = 365.0 * 24 * 3600;
}  // namespace

std::vector<std::string_view> tokens(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    const size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::optional<uint64_t> parseUnsigned(std::string_view text, bool hex) {
  int base = hex ? 16 : 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    text.remove_prefix(2);
    base = 16;
  }
  if (text.empty()) return std::nullopt;
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v, base);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

namespace {
int hexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
}  // namespace

std::optional<std::vector<uint8_t>> parseHexRun(std::string_view text) {
  if (text.size() % 2 != 0) return std::nullopt;
  std::vector<uint8_t> out;
  out.reserve(text.size() / 2);
  for (size_t i = 0; i < text.size(); i += 2) {
    const int hi = hexDigit(text[i]);
    const int lo = hexDigit(text[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out.push_back(static_cast<uint8_t>(hi << 4 | lo));
  }
  return out;
}

size_t appendHexByteTokens(const std::vector<std::string_view>& toks, size_t from, std::vector<uint8_t>& out) {
  size_t i = from;
  for (; i < toks.size(); ++i) {
    const std::string_view t = toks[i];
    if (t.size() != 2) break;
    const int hi = hexDigit(t[0]);
    const int lo = hexDigit(t[1]);
    if (hi < 0 || lo < 0) break;
    out.push_back(static_cast<uint8_t>(hi << 4 | lo));
  }
  return i - from;
}

ImportedCapture CaptureAssembler::finish(std::string origin, const std::string& source, CaptureFormat format,
                                         const RegisterNamer& namer, ImportStats stats) {
  std::set<std::string> bulkDevices;
  for (const CapturedTransfer& t : transfers_) {
    if (t.type == UsbTransferType::kBulk) bulkDevices.insert(t.device);
  }
  ImportedCapture out;
  out.format = format;
  out.log.origin = std::move(origin);
  out.log.source = source;
  UsbLogBuilder builder(out.log, namer);
  std::optional<double> firstTime;
  for (const CapturedTransfer& c : transfers_) {
    if (!bulkDevices.empty() && bulkDevices.count(c.device) == 0) {
      ++stats.otherDeviceTransfers;
      continue;
    }
    UsbLogBuilder::Transfer t;
    t.type = c.type;
    t.endpoint = c.endpoint;
    t.setup = c.setup;
    t.request = c.request;
    t.length = c.length;
    t.lengthExact = c.lengthExact;
    t.data = c.data;
    t.dataKnown = c.dataKnown;
    t.status = c.status;
    t.note = c.note;
    if (c.timeSeconds) {
      if (!firstTime) firstTime = c.timeSeconds;
      const double since = *c.timeSeconds - *firstTime;
      // A real session lasts seconds to hours; a span beyond a year is a malformed timestamp (and
      // would overflow the integer rounding below).
      if (!(std::fabs(since) < kMaxSessionSeconds)) {
        throw CaptureFormatError(source, 0, "transfer " + std::to_string(out.log.transactions.size() + 1) +
                                                " has a timestamp " + std::to_string(since) +
                                                " s away from the first one (more than a year): malformed time");
      }
      // Microseconds, rounded to 0.001 us so that the text form is stable.
      t.timeUs = static_cast<double>(static_cast<int64_t>(since * 1e9 + 0.5)) / 1e3;
    }
    builder.add(t);
  }
  out.stats = stats;
  return out;
}

}  // namespace coralsim::traces::import_detail

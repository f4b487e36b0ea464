#include "traces/usb_log.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "traces/json_value.h"
#include "traces/json_writer.h"
#include "traces/sha256.h"
#include "usb/event_packet.h"
#include "usb/interrupt_packet.h"
#include "usb/record_header.h"
#include "usb/usb_types.h"

namespace coralsim::traces {
namespace {

constexpr size_t kHeadBytes = 16;

uint64_t littleEndian(std::span<const uint8_t> bytes) {
  uint64_t v = 0;
  for (size_t i = bytes.size(); i-- > 0;) v = (v << 8) | bytes[i];
  return v;
}

std::string hexNumber(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%" PRIx64, v);
  return buf;
}

}  // namespace

std::string_view usbTransferTypeName(UsbTransferType type) {
  switch (type) {
    case UsbTransferType::kControl: return "control";
    case UsbTransferType::kBulk: return "bulk";
    case UsbTransferType::kInterrupt: return "interrupt";
  }
  return "?";
}

std::string hexBytes(std::span<const uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  s.reserve(bytes.size() * 2);
  for (uint8_t b : bytes) {
    s += kDigits[b >> 4];
    s += kDigits[b & 15];
  }
  return s;
}

UsbTransaction& UsbLogBuilder::add(const Transfer& transfer) {
  UsbTransaction t;
  t.seq = log_.transactions.size();
  t.timeUs = transfer.timeUs;
  t.cycle = transfer.cycle;
  t.type = transfer.type;
  t.endpoint = transfer.endpoint;
  t.setup = transfer.setup;
  t.request = transfer.request;
  t.length = transfer.length;
  t.lengthExact = transfer.lengthExact;
  t.status = transfer.status;
  t.note = transfer.note;
  const std::span<const uint8_t> data =
      transfer.dataKnown ? transfer.data.first(std::min<size_t>(transfer.data.size(), transfer.length))
                         : std::span<const uint8_t>{};
  if (transfer.dataKnown) t.dataHead = hexBytes(data.first(std::min(data.size(), kHeadBytes)));
  const bool complete = transfer.dataKnown && transfer.lengthExact && data.size() == transfer.length;
  if (complete && transfer.type != UsbTransferType::kControl && transfer.length > kHeadBytes) {
    t.sha256 = Sha256::hex(data);
  }

  if (t.setup && t.setup->isVendor() && (t.setup->bRequest == 0 || t.setup->bRequest == 1)) {
    CsrAccess csr;
    csr.address = (static_cast<uint32_t>(t.setup->wIndex) << 16) | t.setup->wValue;
    csr.width = t.setup->bRequest == 1 ? 32 : 64;
    if (namer_) csr.name = namer_(csr.address);
    const size_t bytes = csr.width / 8;
    if (transfer.dataKnown && data.size() >= bytes) csr.value = littleEndian(data.first(bytes));
    t.csr = std::move(csr);
  }
  if (t.type == UsbTransferType::kBulk && t.endpoint == usb::endpoint::kBulkOut) deriveRecords(t, transfer);
  if (t.endpoint == usb::endpoint::kEventIn && transfer.dataKnown && data.size() >= usb::kEventPacketBytes &&
      t.status == "ok") {
    const usb::EventPacket e = usb::decodeEventPacket(data.first(usb::kEventPacketBytes));
    t.event = EventDescriptorRecord{e.address, e.length, e.tag};
  }
  if (t.endpoint == usb::endpoint::kInterruptIn && transfer.dataKnown && data.size() >= usb::kInterruptPacketBytes &&
      t.status == "ok") {
    t.interrupt = usb::decodeInterruptPacket(data.first(usb::kInterruptPacketBytes));
  }
  log_.transactions.push_back(std::move(t));
  return log_.transactions.back();
}

void UsbLogBuilder::deriveRecords(UsbTransaction& t, const Transfer& transfer) {
  if (t.status != "ok" && t.status != "") return;
  if (!transfer.lengthExact) {
    // We cannot know where the next record starts.
    streamLost_ = true;
    return;
  }
  const std::span<const uint8_t> data = transfer.dataKnown ? transfer.data : std::span<const uint8_t>{};
  uint64_t pos = 0;
  const uint64_t length = transfer.length;
  if (streamLost_) {
    // Re-synchronise on a transfer of exactly one header: libedgetpu sends each header on its own.
    if (length != usb::kRecordHeaderBytes) return;
    streamLost_ = false;
    recordBytesLeft_ = 0;
    headerFill_ = 0;
  }
  while (pos < length) {
    if (recordBytesLeft_ > 0) {
      const uint64_t n = std::min(recordBytesLeft_, length - pos);
      recordBytesLeft_ -= n;
      pos += n;
      continue;
    }
    // Header bytes.
    if (pos >= data.size()) {
      // The header is not in the known data (truncated capture): lose track until the next
      // header-only transfer.
      streamLost_ = true;
      headerFill_ = 0;
      return;
    }
    header_[headerFill_++] = data[pos++];
    if (headerFill_ == usb::kRecordHeaderBytes) {
      headerFill_ = 0;
      const usb::RecordHeader header = usb::decodeRecordHeader(header_);
      RecordHeader h;
      h.size = header.payloadLength;
      h.tag = header.tag;
      t.records.push_back(h);
      recordBytesLeft_ = h.size;
    }
  }
}

void writeUsbLogHeader(std::string_view origin, std::string_view source, std::ostream& out) {
  JsonWriter w(out);
  w.beginObject().field("coralsim_usb_log", 1).field("origin", origin).field("source", source).endObject();
  out << '\n';
}

void writeUsbTransaction(const UsbTransaction& t, std::ostream& out) {
  JsonWriter w(out);
  w.beginObject();
  w.field("seq", t.seq);
  if (t.timeUs) w.field("t_us", *t.timeUs);
  if (t.cycle) w.field("cycle", *t.cycle);
  w.field("type", usbTransferTypeName(t.type));
  w.field("ep", hexNumber(t.endpoint));
  w.field("dir", t.in() ? "in" : "out");
  if (t.setup) {
    w.key("setup").beginObject();
    w.field("bmRequestType", hexNumber(t.setup->bmRequestType));
    w.field("bRequest", t.setup->bRequest);
    w.field("wValue", hexNumber(t.setup->wValue));
    w.field("wIndex", hexNumber(t.setup->wIndex));
    w.field("wLength", t.setup->wLength);
    w.endObject();
  }
  if (!t.request.empty()) w.field("request", t.request);
  if (t.csr) {
    w.key("csr").beginObject();
    w.field("address", hexNumber(t.csr->address));
    if (!t.csr->name.empty()) w.field("name", t.csr->name);
    w.field("width", t.csr->width);
    if (t.csr->value) w.field("value", hexNumber(*t.csr->value));
    w.endObject();
  }
  w.field("length", t.length);
  if (!t.lengthExact) w.field("length_exact", false);
  w.field("status", t.status);
  if (!t.records.empty()) {
    w.key("records").beginArray();
    for (const RecordHeader& r : t.records) w.beginObject().field("tag", r.tag).field("size", r.size).endObject();
    w.endArray();
  }
  if (t.event) {
    w.key("event").beginObject();
    w.field("tag", t.event->tag).field("address", hexNumber(t.event->address)).field("length", t.event->length);
    w.endObject();
  }
  if (t.interrupt) w.field("interrupt", hexNumber(*t.interrupt));
  if (!t.dataHead.empty()) w.field("data_head", t.dataHead);
  if (t.sha256) w.field("sha256", *t.sha256);
  if (!t.note.empty()) w.field("note", t.note);
  w.endObject();
  out << '\n';
}

void writeUsbLog(const UsbLog& log, std::ostream& out) {
  writeUsbLogHeader(log.origin, log.source, out);
  for (const UsbTransaction& t : log.transactions) writeUsbTransaction(t, out);
}

namespace {

class LineReader {
 public:
  LineReader(const std::string& name, size_t line) : name_(name), line_(line) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw UsbLogFormatError(name_ + ":" + std::to_string(line_) + ": " + what);
  }

  const JsonValue& need(const JsonValue& obj, std::string_view key) const {
    const JsonValue* v = obj.find(key);
    if (v == nullptr) fail("missing field '" + std::string(key) + "'");
    return *v;
  }
  std::string string(const JsonValue& obj, std::string_view key) const {
    const std::string* s = need(obj, key).asString();
    if (s == nullptr) fail("field '" + std::string(key) + "' must be a string");
    return *s;
  }
  uint64_t number(const JsonValue& obj, std::string_view key, uint64_t max) const {
    const std::optional<uint64_t> n = need(obj, key).asUint();
    if (!n || *n > max) fail("field '" + std::string(key) + "' must be an integer 0.." + std::to_string(max));
    return *n;
  }
  // "0x..." strings, as writeUsbTransaction writes addresses and values.
  uint64_t hex(const JsonValue& obj, std::string_view key, uint64_t max) const {
    const std::string s = string(obj, key);
    if (s.size() < 3 || s.size() > 18 || s[0] != '0' || s[1] != 'x') {
      fail("field '" + std::string(key) + "' must be a hex string like \"0x1a30c\", got \"" + s + "\"");
    }
    uint64_t v = 0;
    for (size_t i = 2; i < s.size(); ++i) {
      const char c = s[i];
      unsigned d;
      if (c >= '0' && c <= '9') d = static_cast<unsigned>(c - '0');
      else if (c >= 'a' && c <= 'f') d = static_cast<unsigned>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') d = static_cast<unsigned>(c - 'A' + 10);
      else fail("field '" + std::string(key) + "' has a bad hex digit: \"" + s + "\"");
      v = (v << 4) | d;
    }
    if (v > max) fail("field '" + std::string(key) + "' out of range: " + s);
    return v;
  }

 private:
  const std::string& name_;
  size_t line_;
};

UsbTransaction parseTransaction(const JsonValue& v, const LineReader& r) {
  if (!v.isObject()) r.fail("a transaction must be a JSON object");
  UsbTransaction t;
  t.seq = r.number(v, "seq", UINT64_MAX);
  if (const JsonValue* tu = v.find("t_us")) {
    if (!tu->asDouble()) r.fail("field 't_us' must be a number");
    t.timeUs = *tu->asDouble();
  }
  if (v.find("cycle")) t.cycle = r.number(v, "cycle", UINT64_MAX);
  const std::string type = r.string(v, "type");
  if (type == "control") t.type = UsbTransferType::kControl;
  else if (type == "bulk") t.type = UsbTransferType::kBulk;
  else if (type == "interrupt") t.type = UsbTransferType::kInterrupt;
  else r.fail("field 'type' must be control, bulk or interrupt, got \"" + type + "\"");
  t.endpoint = static_cast<uint8_t>(r.hex(v, "ep", 0xFF));
  if (const JsonValue* s = v.find("setup")) {
    if (!s->isObject()) r.fail("field 'setup' must be an object");
    UsbSetupPacket p;
    p.bmRequestType = static_cast<uint8_t>(r.hex(*s, "bmRequestType", 0xFF));
    p.bRequest = static_cast<uint8_t>(r.number(*s, "bRequest", 0xFF));
    p.wValue = static_cast<uint16_t>(r.hex(*s, "wValue", 0xFFFF));
    p.wIndex = static_cast<uint16_t>(r.hex(*s, "wIndex", 0xFFFF));
    p.wLength = static_cast<uint16_t>(r.number(*s, "wLength", 0xFFFF));
    t.setup = p;
  }
  if (v.find("request")) t.request = r.string(v, "request");
  if (const JsonValue* c = v.find("csr")) {
    if (!c->isObject()) r.fail("field 'csr' must be an object");
    CsrAccess a;
    a.address = static_cast<uint32_t>(r.hex(*c, "address", 0xFFFFFFFF));
    a.width = static_cast<unsigned>(r.number(*c, "width", 64));
    if (a.width != 32 && a.width != 64) r.fail("csr 'width' must be 32 or 64");
    if (c->find("name")) a.name = r.string(*c, "name");
    if (c->find("value")) a.value = r.hex(*c, "value", UINT64_MAX);
    t.csr = std::move(a);
  }
  t.length = static_cast<uint32_t>(r.number(v, "length", UINT32_MAX));
  if (const JsonValue* e = v.find("length_exact")) {
    if (!e->asBool()) r.fail("field 'length_exact' must be true or false");
    t.lengthExact = *e->asBool();
  }
  t.status = r.string(v, "status");
  if (const JsonValue* recs = v.find("records")) {
    if (!recs->isArray()) r.fail("field 'records' must be an array");
    for (const JsonValue& rec : *recs->asArray()) {
      if (!rec.isObject()) r.fail("each record must be an object");
      t.records.push_back(RecordHeader{static_cast<uint8_t>(r.number(rec, "tag", 15)),
                                       static_cast<uint32_t>(r.number(rec, "size", UINT32_MAX))});
    }
  }
  if (const JsonValue* e = v.find("event")) {
    if (!e->isObject()) r.fail("field 'event' must be an object");
    t.event = EventDescriptorRecord{r.hex(*e, "address", UINT64_MAX),
                                    static_cast<uint32_t>(r.number(*e, "length", UINT32_MAX)),
                                    static_cast<uint8_t>(r.number(*e, "tag", 15))};
  }
  if (v.find("interrupt")) t.interrupt = static_cast<uint32_t>(r.hex(v, "interrupt", UINT32_MAX));
  if (v.find("data_head")) t.dataHead = r.string(v, "data_head");
  if (v.find("sha256")) t.sha256 = r.string(v, "sha256");
  if (v.find("note")) t.note = r.string(v, "note");
  return t;
}

}  // namespace

UsbLog readUsbLog(std::istream& in, const std::string& name) {
  UsbLog log;
  std::string line;
  size_t lineNo = 0;
  bool header = false;
  while (std::getline(in, line)) {
    ++lineNo;
    if (line.empty() || line == "\r") continue;
    const LineReader r(name, lineNo);
    JsonValue v;
    try {
      v = JsonValue::parse(line);
    } catch (const JsonParseError& e) {
      r.fail(std::string("not valid JSON: ") + e.what());
    }
    if (!header) {
      if (!v.isObject() || v.find("coralsim_usb_log") == nullptr) {
        r.fail("not a coralsim USB log: the first line must be the header {\"coralsim_usb_log\":1,...}");
      }
      if (r.number(v, "coralsim_usb_log", UINT64_MAX) != 1) r.fail("unsupported coralsim_usb_log version");
      log.origin = r.string(v, "origin");
      log.source = r.string(v, "source");
      header = true;
      continue;
    }
    log.transactions.push_back(parseTransaction(v, r));
  }
  if (!header) throw UsbLogFormatError(name + ": empty file, not a coralsim USB log");
  return log;
}

}  // namespace coralsim::traces

// The USB transaction log, its importers and trace-diff, on small hand-written sessions whose
// expected fields follow from the protocol documents (docs/usb-protocol.md), not from the code.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>

#include "traces/json_value.h"
#include "traces/timeline_writer.h"
#include "traces/usb_diff.h"
#include "traces/usb_import.h"
#include "traces/usb_log.h"

namespace coralsim::traces::usb_traces_test {
namespace {

std::vector<uint8_t> header(uint32_t size, uint8_t tag) {
  return {static_cast<uint8_t>(size), static_cast<uint8_t>(size >> 8), static_cast<uint8_t>(size >> 16),
          static_cast<uint8_t>(size >> 24), tag, 0, 0, 0};
}

UsbLogBuilder::Transfer bulkOut(std::span<const uint8_t> data) {
  UsbLogBuilder::Transfer t;
  t.type = UsbTransferType::kBulk;
  t.endpoint = 0x01;
  t.length = static_cast<uint32_t>(data.size());
  t.data = data;
  return t;
}

UsbLogBuilder::Transfer csrWrite(uint32_t address, uint32_t value) {
  static std::vector<std::vector<uint8_t>> keep;  // the builder copies what it needs
  keep.push_back({static_cast<uint8_t>(value), static_cast<uint8_t>(value >> 8), static_cast<uint8_t>(value >> 16),
                  static_cast<uint8_t>(value >> 24)});
  UsbLogBuilder::Transfer t;
  t.type = UsbTransferType::kControl;
  t.endpoint = 0x00;
  t.setup = UsbSetupPacket{0x40, 1, static_cast<uint16_t>(address), static_cast<uint16_t>(address >> 16), 4};
  t.length = 4;
  t.data = keep.back();
  return t;
}

UsbLogBuilder::Transfer csrRead(uint32_t address, uint32_t value) {
  UsbLogBuilder::Transfer t = csrWrite(address, value);
  t.endpoint = 0x80;
  t.setup->bmRequestType = 0xC0;
  return t;
}

TEST(JsonValue, ParsesAndRejects) {
  const JsonValue v = JsonValue::parse(R"({"a":[1,2.5,"x\u00e9"],"b":{"c":null,"d":true},"e":18446744073709551615})");
  ASSERT_TRUE(v.isObject());
  EXPECT_EQ(v.find("a")->asArray()->size(), 3u);
  EXPECT_EQ(*v.find("a")->asArray()->at(0).asUint(), 1u);
  EXPECT_DOUBLE_EQ(*v.find("a")->asArray()->at(1).asDouble(), 2.5);
  EXPECT_EQ(*v.find("a")->asArray()->at(2).asString(), "x\xc3\xa9");
  EXPECT_TRUE(v.find("b")->find("c")->isNull());
  EXPECT_EQ(*v.find("e")->asUint(), UINT64_MAX);
  for (const char* bad : {"", "{", "[1,]", "{\"a\" 1}", "tru", "\"abc", "1 2", "{\"a\":01x}"}) {
    EXPECT_THROW(JsonValue::parse(bad), JsonParseError) << bad;
  }
  std::string deep(100, '[');
  EXPECT_THROW(JsonValue::parse(deep), JsonParseError);
}

TEST(JsonValue, NumbersKeepTheirLiteralAndNonFiniteTokensNeedThePythonDialect) {
  const JsonValue v = JsonValue::parse(R"([-0.50, 1e3, 12345678901234567890])");
  EXPECT_EQ(*v.asArray()->at(0).numberText(), "-0.50");
  EXPECT_EQ(*v.asArray()->at(1).numberText(), "1e3");
  EXPECT_EQ(*v.asArray()->at(2).numberText(), "12345678901234567890");
  EXPECT_EQ(JsonValue::parse(R"("1")").numberText(), nullptr);
  for (const char* token : {"NaN", "Infinity", "-Infinity", "[1, NaN]"}) {
    EXPECT_THROW(JsonValue::parse(token), JsonParseError) << token;
  }
  const JsonValue python = JsonValue::parse("[NaN, Infinity, -Infinity, -1]", JsonDialect::kPythonNonFinite);
  EXPECT_TRUE(std::isnan(*python.asArray()->at(0).asDouble()));
  EXPECT_EQ(*python.asArray()->at(1).asDouble(), std::numeric_limits<double>::infinity());
  EXPECT_EQ(*python.asArray()->at(2).asDouble(), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(*python.asArray()->at(2).numberText(), "-Infinity");
  EXPECT_EQ(*python.asArray()->at(3).asDouble(), -1.0);
}

TEST(UsbLogBuilder, DerivesCsrRecordsEventsAndInterrupts) {
  UsbLog log;
  UsbLogBuilder b(log, [](uint32_t a) { return a == 0x1a318 ? std::string("scu_ctrl_3") : std::string(); });
  b.add(csrWrite(0x1a318, 0x00850004));
  // A record split over three transfers (header on its own, payload 4 + 12 bytes); the payload
  // starts with bytes that look like a header and must not be taken for one.
  const std::vector<uint8_t> h = header(16, 0x10 | 2);  // tag nibble 2 (libedgetpu masks & 0xF)
  b.add(bulkOut(h));
  const std::vector<uint8_t> p1 = header(99, 1);
  b.add(bulkOut(std::span<const uint8_t>(p1).first(4)));
  std::vector<uint8_t> p2(12, 0xAB);
  b.add(bulkOut(p2));
  // Two records in one transfer: header + 2 payload bytes, header + 0 payload.
  std::vector<uint8_t> two = header(2, 1);
  two.push_back(7);
  two.push_back(8);
  for (uint8_t x : header(0, 0)) two.push_back(x);
  b.add(bulkOut(two));
  // An event: address 0x1000, length 0x20, tag 3 (docs/usb-protocol.md §4.2).
  const std::vector<uint8_t> ev = {0x00, 0x10, 0, 0, 0, 0, 0, 0, 0x20, 0, 0, 0, 3, 0, 0, 0};
  UsbLogBuilder::Transfer e;
  e.type = UsbTransferType::kBulk;
  e.endpoint = 0x82;
  e.length = 16;
  e.data = ev;
  b.add(e);
  const std::vector<uint8_t> irq = {1, 0, 0, 0};
  UsbLogBuilder::Transfer i;
  i.type = UsbTransferType::kInterrupt;
  i.endpoint = 0x83;
  i.length = 4;
  i.data = irq;
  b.add(i);

  ASSERT_EQ(log.transactions.size(), 7u);
  const UsbTransaction& w = log.transactions[0];
  ASSERT_TRUE(w.csr);
  EXPECT_EQ(w.csr->address, 0x1a318u);
  EXPECT_EQ(w.csr->name, "scu_ctrl_3");
  EXPECT_EQ(w.csr->width, 32u);
  EXPECT_EQ(*w.csr->value, 0x00850004u);
  ASSERT_EQ(log.transactions[1].records.size(), 1u);
  EXPECT_EQ(log.transactions[1].records[0], (RecordHeader{2, 16}));
  EXPECT_TRUE(log.transactions[2].records.empty());
  EXPECT_TRUE(log.transactions[3].records.empty());
  ASSERT_EQ(log.transactions[4].records.size(), 2u);
  EXPECT_EQ(log.transactions[4].records[0], (RecordHeader{1, 2}));
  EXPECT_EQ(log.transactions[4].records[1], (RecordHeader{0, 0}));
  ASSERT_TRUE(log.transactions[5].event);
  EXPECT_EQ(*log.transactions[5].event, (EventDescriptorRecord{0x1000, 0x20, 3}));
  EXPECT_EQ(*log.transactions[6].interrupt, 1u);
}

TEST(UsbLog, WritesAndReadsBackIdentically) {
  UsbLog log;
  log.origin = "driver";
  log.source = "test \"model\"";
  UsbLogBuilder b(log);
  b.add(csrWrite(0x44018, 1));
  auto r = csrRead(0x1a30c, 0xf0059);
  r.timeUs = 12.5;
  r.cycle = 6250;
  b.add(r);
  const std::vector<uint8_t> h = header(3, 0);
  b.add(bulkOut(h));
  std::ostringstream first;
  writeUsbLog(log, first);
  std::istringstream in(first.str());
  const UsbLog back = readUsbLog(in, "x.jsonl");
  std::ostringstream second;
  writeUsbLog(back, second);
  EXPECT_EQ(first.str(), second.str());
  EXPECT_EQ(back.source, log.source);
}

TEST(UsbLog, ReadErrorsNameFileAndLine) {
  auto message = [](const std::string& text) {
    std::istringstream in(text);
    try {
      readUsbLog(in, "s.jsonl");
    } catch (const UsbLogFormatError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("").find("s.jsonl: empty file"), std::string::npos);
  EXPECT_NE(message("{\"x\":1}\n").find("s.jsonl:1: not a coralsim USB log"), std::string::npos);
  const std::string h = "{\"coralsim_usb_log\":1,\"origin\":\"o\",\"source\":\"s\"}\n";
  EXPECT_NE(message(h + "{\"seq\":0}\n").find("s.jsonl:2: missing field 'type'"), std::string::npos);
  EXPECT_NE(message(h + "{\"seq\":0,\"type\":\"bulk\",\"ep\":\"1\",\"length\":0,\"status\":\"ok\"}\n").find("s.jsonl:2: field 'ep'"),
            std::string::npos);
  EXPECT_NE(message(h + "[1,\n").find("s.jsonl:2: not valid JSON"), std::string::npos);
}

TEST(Importers, UsbmonText) {
  std::istringstream in(
      "ffff8801 1000 S Ci:2:004:0 s c0 01 a30c 0001 0004 4 <\n"
      "ffff8801 1100 C Ci:2:004:0 0 4 = 59000f00\n"
      "ffff8802 1200 S Co:2:004:0 s 40 00 4018 0004 0008 8 = 01000000 00000000\n"
      "ffff8802 1300 C Co:2:004:0 0 8 >\n"
      "ffff8803 1400 S Bo:2:004:1 -115 8 = 50270000 00000000\n"
      "ffff8803 1500 C Bo:2:004:1 0 8 >\n"
      "ffff8804 1600 S Bi:2:004:2 -115 16 <\n"
      "ffff8804 1700 C Bi:2:004:2 0 16 = 00000000 00000000 00000000 04000000\n"
      "ffff8805 1800 S Ii:2:001:1 -115:2048 4 <\n"  // the hub: dropped
      "ffff8805 1900 C Ii:2:001:1 0 4 = 01000000\n");
  const ImportedCapture c = importUsbmonText(in, "cap.txt");
  ASSERT_EQ(c.log.transactions.size(), 4u);
  EXPECT_EQ(c.stats.otherDeviceTransfers, 1u);
  const auto& t = c.log.transactions;
  EXPECT_EQ(t[0].csr->address, 0x1a30cu);
  EXPECT_EQ(*t[0].csr->value, 0x000f0059u);
  EXPECT_TRUE(t[0].in());
  EXPECT_EQ(t[1].csr->address, 0x44018u);
  EXPECT_EQ(t[1].csr->width, 64u);
  EXPECT_EQ(*t[1].csr->value, 1u);
  ASSERT_EQ(t[2].records.size(), 1u);
  EXPECT_EQ(t[2].records[0], (RecordHeader{0, 0x2750}));
  ASSERT_TRUE(t[3].event);
  EXPECT_EQ(t[3].event->tag, 4u);
  EXPECT_DOUBLE_EQ(*t[0].timeUs, 0.0);
  EXPECT_DOUBLE_EQ(*t[3].timeUs, 600.0);
}

TEST(Importers, LibusbCallLog) {
  std::istringstream in(
      "libusb_control_transfer(RequestType: 0xc0, Request: 0x01, Value: 0xa30c, Index: 0x0001, Length:    4) : 01 00 00 00 \n"
      "libusb_control_transfer(RequestType: 0x40, Request: 0x01, Value: 0xa30c, Index: 0x0001, Length:    4) : 59 00 0f 00 \n"
      "some program output\n"
      "libusb_control_transfer(RequestType: 0x21, Request: 0x01, Value: 0x0000, Index: 0x0000, Length:   40) : \n"
      "    00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 10 11 12 13 14 15 16 17 18 19 1a 1b 1c 1d 1e 1f \n"
      "    20 21 22 23 24 25 26 27 \n"
      "libusb_submit_transfer(Endpoint: 0x01, Type: 2, Lenght:       8) : 50 27 00 00 00 00 00 00 \n"
      "libusb_submit_transfer(Endpoint: 0x01, Type: 2, Lenght:   10064) : 80 0f 00 cc 09 00 00 00 ... 00\n"
      "libusb_submit_transfer(Endpoint: 0x82, Type: 2, Lenght:      16) : 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 \n");
  const ImportedCapture c = importLibusbLog(in, "dump.txt");
  ASSERT_EQ(c.log.transactions.size(), 6u);
  EXPECT_EQ(c.stats.skippedLines, 1u);
  const auto& t = c.log.transactions;
  EXPECT_FALSE(t[0].csr->value);  // an IN call's bytes are the buffer before the transfer
  EXPECT_EQ(*t[1].csr->value, 0x000f0059u);
  EXPECT_FALSE(t[2].csr);  // DFU class request
  EXPECT_EQ(t[2].dataHead, "000102030405060708090a0b0c0d0e0f");
  EXPECT_EQ(t[3].records[0], (RecordHeader{0, 10064}));
  EXPECT_EQ(t[4].length, 10064u);
  EXPECT_TRUE(t[4].records.empty());
  EXPECT_FALSE(t[5].event);
  EXPECT_FALSE(t[5].lengthExact);
}

// Found by fuzz_import_tshark: a timestamp 1e10 s after the first one overflowed the integer
// rounding of the relative time (undefined behaviour); it is now a format error naming the file.
TEST(Importers, ATimestampYearsAwayIsAFormatErrorNotAnOverflow) {
  std::istringstream summary(
      "                      # URB length [bytes], Data length [bytes], Leftover Capture Data\n"
      "  281   6.533366         host → 2.4.1        USB 72 URB_BULK out     # 8,8,5043010000000000\n"
      "  282   6.533444        2.4.1 → host         USB 64 URB_BULK out     # 8,0,\n"
      "  290   9956121000.5    2.4.2 → host         USB 80 URB_BULK in      # 16,16,00000000000000000000000004000000\n"
      "  291   9956121000.6     host → 2.4.2        USB 64 URB_BULK in      # 16,0,\n");
  try {
    (void)importTsharkText(summary, "far.txt");
    FAIL() << "expected a CaptureFormatError";
  } catch (const CaptureFormatError& e) {
    EXPECT_NE(std::string(e.what()).find("far.txt"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("timestamp"), std::string::npos) << e.what();
  }
}

TEST(Importers, TsharkSummaryAndDetail) {
  std::istringstream summary(
      "                      # URB length [bytes], Data length [bytes], Leftover Capture Data\n"
      "  281   6.533366         host → 2.4.1        USB 72 URB_BULK out     # 8,8,5043010000000000\n"
      "  282   6.533444        2.4.1 → host         USB 64 URB_BULK out     # 8,0,\n"
      "  283   6.533482         host → 2.4.1        USB 61504 URB_BULK out  # 82768,61440,800f00cc5000\n"
      "  290   6.535746        2.4.2 → host         USB 80 URB_BULK in      # 16,16,00000000000000000000000004000000\n"
      "  291   6.535793         host → 2.4.2        USB 64 URB_BULK in      # 16,0,\n");
  const ImportedCapture s = importTsharkText(summary, "s.txt");
  EXPECT_EQ(s.format, CaptureFormat::kTsharkSummary);
  ASSERT_EQ(s.log.transactions.size(), 3u);
  EXPECT_EQ(s.log.transactions[0].records[0], (RecordHeader{0, 0x14350}));
  EXPECT_EQ(s.log.transactions[1].length, 82768u);
  EXPECT_EQ(s.log.transactions[2].event->tag, 4u);

  std::istringstream detail(
      "Frame 1: 64 bytes on wire\n"
      "    Epoch Time: 100.000000000 seconds\n"
      "USB URB\n"
      "    URB id: 0xffff1\n"
      "    URB type: URB_SUBMIT ('S')\n"
      "    URB transfer type: URB_CONTROL (0x02)\n"
      "    Endpoint: 0x00, Direction: OUT\n"
      "    Device: 4\n"
      "    URB bus id: 2\n"
      "    URB status: Operation now in progress (-EINPROGRESS) (-115)\n"
      "    URB length [bytes]: 4\n"
      "URB setup\n"
      "    bmRequestType: 0x40\n"
      "    bRequest: 1\n"
      "    wValue: 0xa30c\n"
      "    wIndex: 1 (0x0001)\n"
      "    wLength: 4\n"
      "    Data Fragment: 59000f00\n"
      "\n"
      "Frame 2: 64 bytes on wire\n"
      "    Epoch Time: 100.000124000 seconds\n"
      "USB URB\n"
      "    URB id: 0xffff1\n"
      "    URB type: URB_COMPLETE ('C')\n"
      "    URB transfer type: URB_CONTROL (0x02)\n"
      "    Endpoint: 0x00, Direction: OUT\n"
      "    Device: 4\n"
      "    URB bus id: 2\n"
      "    URB status: Success (0)\n"
      "    URB length [bytes]: 4\n");
  const ImportedCapture d = importTsharkText(detail, "d.txt");
  EXPECT_EQ(d.format, CaptureFormat::kTsharkDetail);
  ASSERT_EQ(d.log.transactions.size(), 1u);
  EXPECT_EQ(*d.log.transactions[0].csr->value, 0x000f0059u);
  EXPECT_DOUBLE_EQ(*d.log.transactions[0].timeUs, 0.0);  // the first transaction is the time origin
}

TEST(Importers, MalformedInputNamesFileAndLine) {
  auto error = [](auto importer, const std::string& text) {
    std::istringstream in(text);
    try {
      importer(in, "bad.txt", RegisterNamer{});
    } catch (const CaptureFormatError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  auto usbmon = [](std::istream& i, const std::string& n, const RegisterNamer& r) { return importUsbmonText(i, n, r); };
  auto libusb = [](std::istream& i, const std::string& n, const RegisterNamer& r) { return importLibusbLog(i, n, r); };
  auto tshark = [](std::istream& i, const std::string& n, const RegisterNamer& r) { return importTsharkText(i, n, r); };
  EXPECT_NE(error(usbmon, "ffff 1 S Bo:2:004:1 -115 8 = 5027\nffff 2 X Bo:2:004:1 0 8\n").find("bad.txt:2: event 'X'"),
            std::string::npos);
  EXPECT_NE(error(usbmon, "ffff 1 S Bo:2:004:1 -115 8 = zz\n").find("bad.txt:1: data word 'zz'"), std::string::npos);
  EXPECT_NE(error(usbmon, "ffff 1 S Qo:2:004:1 -115 8\n").find("bad.txt:1:"), std::string::npos);
  EXPECT_NE(error(libusb, "\nlibusb_control_transfer(RequestType: 0x40, Request: 0x01) : 00\n").find("bad.txt:2:"),
            std::string::npos);
  EXPECT_NE(error(libusb, "libusb_bulk_transfer(x)\n").find("bad.txt:1: unknown libusb call"), std::string::npos);
  EXPECT_NE(error(tshark, "    1   0.5   host → 2.4.1   USB 72 URB_BULK sideways # 8,8,00\n").find("bad.txt:1: direction"),
            std::string::npos);
  EXPECT_NE(error(tshark, "    1   0.5   host → 2.4.1   USB 72 URB_BULK out # 8,8\n").find("bad.txt:1: expected 3 columns"),
            std::string::npos);
  EXPECT_NE(error(tshark, "nothing here\n").find("bad.txt:1: no tshark frame"), std::string::npos);
}

TEST(Importers, DetectsFormats) {
  EXPECT_EQ(detectCaptureFormat("ffff8801 1000 S Ci:2:004:0 s c0 01 a30c 0001 0004 4 <\n"), CaptureFormat::kUsbmonText);
  EXPECT_EQ(detectCaptureFormat("libusb_submit_transfer(Endpoint: 0x01, Type: 2, Lenght: 8) : 00\n"), CaptureFormat::kLibusbLog);
  EXPECT_EQ(detectCaptureFormat("Frame 1: 64 bytes on wire (512 bits)\n"), CaptureFormat::kTsharkDetail);
  EXPECT_EQ(detectCaptureFormat("    1   0.000000  host → 2.4.0   USB 64 GET DESCRIPTOR Request DEVICE\n"),
            CaptureFormat::kTsharkSummary);
  EXPECT_EQ(detectCaptureFormat("{\"coralsim_usb_log\":1}\n"), CaptureFormat::kCoralsimLog);
  EXPECT_EQ(detectCaptureFormat("hello\n"), CaptureFormat::kAuto);
}

UsbLog session(uint32_t writtenValue, uint32_t readValue, uint32_t recordSize, bool extraCsr) {
  UsbLog log;
  UsbLogBuilder b(log);
  b.add(csrRead(0x1a318, readValue));
  b.add(csrWrite(0x1a318, writtenValue));
  if (extraCsr) b.add(csrWrite(0x1907c, 0xf));
  static std::vector<std::vector<uint8_t>> keep;
  keep.push_back(header(recordSize, 0));
  b.add(bulkOut(keep.back()));
  keep.emplace_back(recordSize, 0);
  b.add(bulkOut(keep.back()));
  b.add(csrWrite(0x44018, 0));
  return log;
}

TEST(UsbDiff, RelevantAndInformationalDifferences) {
  const UsbLog base = session(0x850004, 0x5c, 64, false);
  EXPECT_FALSE(diffUsbLogs(base, session(0x850004, 0x5c, 64, false)).hasRelevant());
  // A value read back differs: informational, unless asked.
  const UsbDiffReport reads = diffUsbLogs(base, session(0x850004, 0x5d, 64, false));
  EXPECT_FALSE(reads.hasRelevant());
  ASSERT_EQ(reads.differences.size(), 1u);
  EXPECT_EQ(reads.differences[0].category, "csr-read");
  UsbDiffOptions strict;
  strict.compareReadValues = true;
  EXPECT_TRUE(diffUsbLogs(base, session(0x850004, 0x5d, 64, false), strict).hasRelevant());
  // A written value, an extra access, a record size: relevant, each reported once.
  const UsbDiffReport written = diffUsbLogs(base, session(0x850005, 0x5c, 64, false));
  EXPECT_EQ(written.relevantCount(), 1u);
  EXPECT_EQ(written.differences[0].category, "csr-value");
  const UsbDiffReport extra = diffUsbLogs(base, session(0x850004, 0x5c, 64, true));
  EXPECT_EQ(extra.relevantCount(), 1u);
  EXPECT_NE(extra.differences[0].what.find("only in B: write 0x1907c = 0xf"), std::string::npos);
  const UsbDiffReport record = diffUsbLogs(base, session(0x850004, 0x5c, 80, false));
  EXPECT_EQ(record.relevantCount(), 2u);  // one record only in A, one only in B
  std::ostringstream json;
  writeUsbDiffJson(record, base, base, json, 0);
  const JsonValue v = JsonValue::parse(json.str());
  EXPECT_EQ(*v.find("relevant_differences")->asUint(), 2u);
}

TEST(Timeline, DeterministicChromeJson) {
  auto render = [] {
    TimelineWriter w(500'000'000);
    w.record(TraceEvent{10, 5, {TraceUnitKind::kTile, 3}, TraceEventKind::kSpan, "mac", {{"pc", 7}}});
    w.record(TraceEvent{2, 0, {TraceUnitKind::kDmaEngine, 2}, TraceEventKind::kInstant, "descriptor", {}});
    std::ostringstream out;
    w.write(out);
    return out.str();
  };
  const std::string text = render();
  EXPECT_EQ(text, render());
  const JsonValue v = JsonValue::parse(text);
  const auto* events = v.find("traceEvents")->asArray();
  ASSERT_NE(events, nullptr);
  // process name + 2 tracks x (name, sort index) + 2 events
  ASSERT_EQ(events->size(), 7u);
  const JsonValue& first = events->at(5);  // sorted by cycle: the descriptor at cycle 2 first
  EXPECT_EQ(*first.find("name")->asString(), "descriptor");
  EXPECT_DOUBLE_EQ(*first.find("ts")->asDouble(), 0.004);  // 2 cycles at 500 MHz = 4 ns
  EXPECT_DOUBLE_EQ(*events->at(6).find("dur")->asDouble(), 0.010);
}

}  // namespace
}  // namespace coralsim::traces::usb_traces_test

// USB/IP codec: the layout table against the offsets docs/usb-protocol.md §10 prints, round trips
// of every PDU through the serializer and the streaming decoders under every kind of split, bytes
// written by hand from the protocol description, and malformed input (each error naming the PDU,
// the field and the stream offset).
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "usbip/codec_error.h"
#include "usbip/pdu_serializer.h"
#include "usbip/stream_decoder.h"

namespace coralsim::usbip::usbip_codec_test {
namespace {

// ---------------------------------------------------------------- layout table

size_t kindWidth(FieldKind kind) {
  switch (kind) {
    case FieldKind::kU8: return 1;
    case FieldKind::kU16: return 2;
    case FieldKind::kU32:
    case FieldKind::kS32: return 4;
    case FieldKind::kBYTES:
    case FieldKind::kPAD: return 0;  // any width
  }
  return 0;
}

TEST(UsbipLayouts, EveryBlockIsCoveredExactlyByItsFields) {
  ASSERT_EQ(allLayouts().size(), 10u);
  for (const LayoutInfo& layout : allLayouts()) {
    size_t next = layout.base;
    for (const FieldInfo& f : layout.fields) {
      EXPECT_EQ(f.offset, next) << layout.name << "." << f.name << ": gap or overlap";
      if (kindWidth(f.kind) != 0) {
        EXPECT_EQ(f.bytes, kindWidth(f.kind)) << layout.name << "." << f.name;
      }
      EXPECT_GT(f.bytes, 0u);
      next = f.offset + f.bytes;
    }
    EXPECT_EQ(next, layout.base + layout.size) << layout.name << ": fields do not end at the block end";
  }
}

// Offsets as docs/usb-protocol.md §10.1-10.2 print them (written here from the document).
TEST(UsbipLayouts, OffsetsMatchTheProtocolDocument) {
  EXPECT_EQ(UsbDeviceRecord::kSize, 0x138u);
  EXPECT_EQ(field::UsbDeviceRecord::path.offset, 0x000u);
  EXPECT_EQ(field::UsbDeviceRecord::busid.offset, 0x100u);
  EXPECT_EQ(field::UsbDeviceRecord::busnum.offset, 0x120u);
  EXPECT_EQ(field::UsbDeviceRecord::devnum.offset, 0x124u);
  EXPECT_EQ(field::UsbDeviceRecord::speed.offset, 0x128u);
  EXPECT_EQ(field::UsbDeviceRecord::idVendor.offset, 0x12Cu);
  EXPECT_EQ(field::UsbDeviceRecord::idProduct.offset, 0x12Eu);
  EXPECT_EQ(field::UsbDeviceRecord::bcdDevice.offset, 0x130u);
  EXPECT_EQ(field::UsbDeviceRecord::bDeviceClass.offset, 0x132u);
  EXPECT_EQ(field::UsbDeviceRecord::bNumInterfaces.offset, 0x137u);
  EXPECT_EQ(UsbInterfaceRecord::kSize, 4u);
  EXPECT_EQ(UrbBasicHeader::kSize, 20u);
  EXPECT_EQ(CmdSubmitParams::kBase + CmdSubmitParams::kSize, 48u);
  EXPECT_EQ(RetSubmitParams::kBase + RetSubmitParams::kSize, 48u);
  EXPECT_EQ(CmdUnlinkParams::kBase + CmdUnlinkParams::kSize, 48u);
  EXPECT_EQ(RetUnlinkParams::kBase + RetUnlinkParams::kSize, 48u);
  EXPECT_EQ(field::CmdSubmitParams::transferFlags.offset, 0x14u);
  EXPECT_EQ(field::CmdSubmitParams::setup.offset, 0x28u);
  EXPECT_EQ(field::RetSubmitParams::actualLength.offset, 0x18u);
  EXPECT_EQ(field::CmdUnlinkParams::unlinkSeqnum.offset, 0x14u);
  EXPECT_EQ(kUrbHeaderBytes, 48u);
}

// ---------------------------------------------------------------- sample messages

UsbDeviceRecord sampleRecord(uint32_t devnum, uint8_t interfaces) {
  UsbDeviceRecord r;
  r.path = fixedText<kPathBytes>("/sys/devices/platform/coralsim/usb1/1-" + std::to_string(devnum));
  r.busid = fixedText<kBusIdBytes>("1-" + std::to_string(devnum));
  r.busnum = 1;
  r.devnum = devnum;
  r.speed = usb_speed_code::kSuper;
  r.idVendor = 0x18D1;
  r.idProduct = 0x9302;
  r.bcdDevice = 0x0100;
  r.bConfigurationValue = 1;
  r.bNumConfigurations = 1;
  r.bNumInterfaces = interfaces;
  return r;
}

CmdSubmit sampleSubmit(uint32_t seqnum, bool in, uint8_t ep, uint32_t length) {
  CmdSubmit m;
  m.header.seqnum = seqnum;
  m.header.devid = 0x00010002;
  m.header.direction = in ? urb_direction::kIn : urb_direction::kOut;
  m.header.ep = ep;
  m.params.transferFlags = in ? transfer_flag::kDirIn : 0;
  m.params.transferBufferLength = length;
  m.params.interval = ep == 3 ? 4 : 0;
  if (ep == 0) m.params.setup = {static_cast<uint8_t>(in ? 0xC0 : 0x40), 1, 0x18, 0xA3, 0x01, 0x00, 4, 0};
  if (!in) {
    m.transferBuffer.resize(length);
    for (uint32_t i = 0; i < length; ++i) m.transferBuffer[i] = static_cast<uint8_t>(i * 7 + seqnum);
  }
  return m;
}

RetSubmit sampleRet(uint32_t seqnum, int32_t status, uint32_t actual, bool withData) {
  RetSubmit m;
  m.header.seqnum = seqnum;
  m.params.status = status;
  m.params.actualLength = actual;
  if (withData) {
    m.transferBuffer.resize(actual);
    for (uint32_t i = 0; i < actual; ++i) m.transferBuffer[i] = static_cast<uint8_t>(255 - i);
  }
  return m;
}

std::vector<Request> sampleRequests() {
  std::vector<Request> out;
  OpReqImport imp;
  imp.body.busid = fixedText<kBusIdBytes>("1-2");
  out.push_back(imp);
  out.push_back(sampleSubmit(1, true, 0, 4));          // control IN
  out.push_back(sampleSubmit(2, false, 0, 4));         // control OUT with data
  out.push_back(sampleSubmit(3, false, 1, 3000));      // bulk OUT
  out.push_back(sampleSubmit(4, true, 1, 1024));       // bulk IN
  out.push_back(sampleSubmit(5, true, 3, 4));          // interrupt IN
  out.push_back(sampleSubmit(6, false, 1, 0));         // zero-length OUT
  CmdUnlink unlink;
  unlink.header.seqnum = 7;
  unlink.params.unlinkSeqnum = 4;
  out.push_back(unlink);
  return out;
}

// Pending table for the reply samples below.
std::optional<PendingSubmit> sampleLookup(uint32_t seqnum) {
  switch (seqnum) {
    case 1: return PendingSubmit{true, 4};
    case 2: return PendingSubmit{false, 4};
    case 3: return PendingSubmit{false, 3000};
    case 4: return PendingSubmit{true, 1024};
    case 5: return PendingSubmit{true, 4};
    default: return std::nullopt;
  }
}

std::vector<Reply> sampleReplies() {
  std::vector<Reply> out;
  OpRepImport imp;
  imp.device = sampleRecord(2, 0);
  out.push_back(imp);
  out.push_back(sampleRet(1, 0, 4, true));
  out.push_back(sampleRet(2, 0, 4, false));
  out.push_back(sampleRet(3, 0, 3000, false));
  out.push_back(sampleRet(4, 0, 700, true));
  out.push_back(sampleRet(5, -32, 0, true));
  RetUnlink unlink;
  unlink.header.seqnum = 7;
  unlink.params.status = -104;
  out.push_back(unlink);
  return out;
}

std::vector<uint8_t> concat(const auto& messages) {
  std::vector<uint8_t> out;
  for (const auto& m : messages) {
    const auto bytes = serialize(m);
    out.insert(out.end(), bytes.begin(), bytes.end());
  }
  return out;
}

bool opensUrbPhase(const Request& m) { return std::holds_alternative<OpReqImport>(m); }
bool opensUrbPhase(const Reply& m) {
  return std::holds_alternative<OpRepImport>(m) && std::get<OpRepImport>(m).common.status == 0;
}

// Feeds `bytes` in chunks chosen by `nextChunk`; switches to the URB phase after an import.
template <typename Decoder, typename Message>
std::vector<Message> decodeAll(Decoder& d, std::span<const uint8_t> bytes, const std::function<size_t()>& nextChunk) {
  std::vector<Message> out;
  size_t at = 0;
  while (at < bytes.size() || d.hasMessage()) {
    if (d.hasMessage()) {
      out.push_back(d.take());
      if (opensUrbPhase(out.back())) d.setPhase(StreamPhase::kUrb);
      continue;
    }
    const size_t n = std::min(nextChunk(), bytes.size() - at);
    at += d.feed(bytes.subspan(at, n));
  }
  EXPECT_TRUE(d.atMessageBoundary());
  return out;
}

// ---------------------------------------------------------------- round trips

TEST(UsbipCodec, RequestsRoundTripUnderEverySplit) {
  const std::vector<Request> messages = sampleRequests();
  const std::vector<uint8_t> bytes = concat(messages);
  std::mt19937 rng(1234);
  const std::vector<std::function<size_t()>> splits = {
      [] { return size_t{1}; },                                       // one byte at a time
      [] { return size_t{1} << 30; },                                 // everything at once
      [&] { return size_t{1} + rng() % 61; },                         // random small
      [&] { return size_t{1} + rng() % 5000; },                       // random large
  };
  for (const auto& split : splits) {
    RequestDecoder d;
    EXPECT_EQ((decodeAll<RequestDecoder, Request>(d, bytes, split)), messages);
    EXPECT_EQ(d.position(), bytes.size());
  }
}

TEST(UsbipCodec, DevlistRequestIsEightBytes) {
  const std::vector<uint8_t> bytes = serialize(OpReqDevlist{});
  EXPECT_EQ(bytes, (std::vector<uint8_t>{0x01, 0x11, 0x80, 0x05, 0, 0, 0, 0}));
  RequestDecoder d;
  EXPECT_EQ(d.feed(bytes), 8u);
  ASSERT_TRUE(d.hasMessage());
  EXPECT_TRUE(std::holds_alternative<OpReqDevlist>(d.take()));
}

TEST(UsbipCodec, RepliesRoundTripUnderEverySplit) {
  const std::vector<Reply> messages = sampleReplies();
  const std::vector<uint8_t> bytes = concat(messages);
  std::mt19937 rng(99);
  for (int round = 0; round < 20; ++round) {
    ReplyDecoder d(sampleLookup);
    auto split = [&] { return round == 0 ? size_t{1} : size_t{1} + rng() % (round * 50); };
    EXPECT_EQ((decodeAll<ReplyDecoder, Reply>(d, bytes, split)), messages);
  }
}

TEST(UsbipCodec, DevlistReplyWithInterfacesRoundTrips) {
  OpRepDevlist rep;
  for (uint32_t i = 1; i <= 3; ++i) {
    ExportedDeviceEntry e{sampleRecord(i, static_cast<uint8_t>(i - 1)), {}};
    for (uint32_t k = 0; k + 1 < i; ++k) e.interfaces.push_back({0xFF, static_cast<uint8_t>(k), 0xFF});
    rep.devices.push_back(e);
  }
  const auto bytes = serialize(rep);
  EXPECT_EQ(bytes.size(), 8u + 4u + 3u * 0x138u + (0u + 1u + 2u) * 4u);
  ReplyDecoder d(nullptr);
  auto one = [] { return size_t{1}; };
  const auto decoded = decodeAll<ReplyDecoder, Reply>(d, bytes, one);
  ASSERT_EQ(decoded.size(), 1u);
  EXPECT_EQ(std::get<OpRepDevlist>(decoded[0]), rep);
}

TEST(UsbipCodec, FailedImportReplyHasNoBody) {
  OpRepImport rep;
  rep.common.status = op_status::kDeviceBusy;
  const auto bytes = serialize(rep);
  EXPECT_EQ(bytes.size(), 8u);
  ReplyDecoder d(nullptr);
  EXPECT_EQ(d.feed(bytes), 8u);
  ASSERT_TRUE(d.hasMessage());
  EXPECT_EQ(std::get<OpRepImport>(d.take()), rep);
}

// A CMD_SUBMIT written byte by byte from the protocol description (big-endian header, raw setup).
TEST(UsbipCodec, HandWrittenControlSubmitDecodes) {
  const std::vector<uint8_t> bytes = {
      0x00, 0x00, 0x00, 0x01,  // command CMD_SUBMIT
      0x00, 0x00, 0x01, 0x02,  // seqnum 258
      0x00, 0x01, 0x00, 0x03,  // devid bus 1 dev 3
      0x00, 0x00, 0x00, 0x01,  // direction IN
      0x00, 0x00, 0x00, 0x00,  // ep 0
      0x00, 0x00, 0x02, 0x00,  // transfer_flags DIR_IN
      0x00, 0x00, 0x00, 0x12,  // transfer_buffer_length 18
      0x00, 0x00, 0x00, 0x00,  // start_frame
      0xFF, 0xFF, 0xFF, 0xFF,  // number_of_packets: "not ISO" as the document shows it
      0x00, 0x00, 0x00, 0x00,  // interval
      0x80, 0x06, 0x00, 0x01, 0x00, 0x00, 0x12, 0x00,  // GET_DESCRIPTOR(DEVICE), wLength 18
  };
  RequestDecoder d;
  d.setPhase(StreamPhase::kUrb);
  EXPECT_EQ(d.feed(bytes), bytes.size());
  ASSERT_TRUE(d.hasMessage());
  const CmdSubmit m = std::get<CmdSubmit>(d.take());
  EXPECT_EQ(m.header.seqnum, 258u);
  EXPECT_EQ(m.header.devid, 0x00010003u);
  EXPECT_EQ(m.header.direction, urb_direction::kIn);
  EXPECT_EQ(m.params.transferFlags, transfer_flag::kDirIn);
  EXPECT_EQ(m.params.transferBufferLength, 18u);
  EXPECT_EQ(m.params.setup[1], 0x06);
  EXPECT_TRUE(m.transferBuffer.empty());
  // And back: the serializer writes the same bytes.
  EXPECT_EQ(serialize(m), bytes);
}

TEST(UsbipCodec, RetSubmitHeaderIsBigEndianWithZeroedAddressFields) {
  RetSubmit r = sampleRet(0x01020304, -104, 0, false);
  const auto bytes = serialize(r);
  ASSERT_EQ(bytes.size(), 48u);
  EXPECT_EQ((std::vector<uint8_t>(bytes.begin(), bytes.begin() + 8)),
            (std::vector<uint8_t>{0, 0, 0, 3, 1, 2, 3, 4}));
  EXPECT_EQ((std::vector<uint8_t>(bytes.begin() + 0x14, bytes.begin() + 0x18)),
            (std::vector<uint8_t>{0xFF, 0xFF, 0xFF, 0x98}));  // -104
  for (size_t i = 0x18; i < 48; ++i) EXPECT_EQ(bytes[i], 0) << i;
}

TEST(UsbipCodec, PayloadCanBeReceivedInPlace) {
  const CmdSubmit m = sampleSubmit(9, false, 1, 100000);
  const auto bytes = serialize(m);
  RequestDecoder d;
  d.setPhase(StreamPhase::kUrb);
  EXPECT_EQ(d.feed(std::span(bytes).first(60)), 60u);
  size_t at = 60;
  while (!d.hasMessage()) {
    std::span<uint8_t> space = d.payloadSpace();
    ASSERT_FALSE(space.empty());
    const size_t n = std::min<size_t>(space.size(), 7777);
    std::copy_n(bytes.begin() + static_cast<ptrdiff_t>(at), n, space.begin());
    d.commitPayload(n);
    at += n;
  }
  EXPECT_EQ(at, bytes.size());
  EXPECT_EQ(std::get<CmdSubmit>(d.take()), m);
  EXPECT_TRUE(d.payloadSpace().empty());
}

// ---------------------------------------------------------------- malformed input

template <typename Decoder>
CodecError expectRejected(Decoder& d, std::span<const uint8_t> bytes) {
  try {
    size_t at = 0;
    while (at < bytes.size()) {
      if (d.hasMessage()) {
        (void)d.take();
        continue;
      }
      at += d.feed(bytes.subspan(at));
    }
  } catch (const CodecError& e) {
    return e;
  }
  ADD_FAILURE() << "accepted";
  return CodecError("", "", 0, "");
}

std::vector<uint8_t> urbPrefix(size_t messages) {
  // `messages` small valid CMD_UNLINKs before the bad PDU, so stream offsets are not trivially 0.
  std::vector<uint8_t> out;
  for (size_t i = 0; i < messages; ++i) {
    CmdUnlink u;
    u.header.seqnum = static_cast<uint32_t>(100 + i);
    const auto b = serialize(u);
    out.insert(out.end(), b.begin(), b.end());
  }
  return out;
}

struct BadRequestCase {
  std::string name;
  size_t fieldOffset;  // inside the PDU
  std::string pdu;
  std::string field;
  std::function<void(std::vector<uint8_t>&)> corrupt;  // applied to a valid bulk-OUT CMD_SUBMIT
  std::string mentions;
};

TEST(UsbipCodec, MalformedSubmitsNameThePduFieldAndOffset) {
  const std::vector<BadRequestCase> cases = {
      {"unknown command", 0x00, "URB request", "command", [](auto& b) { b[3] = 9; }, "unknown"},
      {"reply from a client", 0x00, "USBIP_RET_SUBMIT", "command", [](auto& b) { b[3] = 3; }, "is a reply"},
      {"direction 2", 0x0C, "USBIP_CMD_SUBMIT", "direction", [](auto& b) { b[0x0F] = 2; }, "neither"},
      {"endpoint 16", 0x10, "USBIP_CMD_SUBMIT", "ep", [](auto& b) { b[0x13] = 16; }, "above 15"},
      {"huge length", 0x18, "USBIP_CMD_SUBMIT", "transfer_buffer_length", [](auto& b) { b[0x18] = 0x7F; },
       "exceeds the limit of 16777216"},
      {"iso packets", 0x20, "USBIP_CMD_SUBMIT", "number_of_packets", [](auto& b) { b[0x23] = 3; }, "isochronous"},
      {"control direction", 0x0C, "USBIP_CMD_SUBMIT", "direction",
       [](auto& b) {
         b[0x13] = 0;     // ep 0
         b[0x28] = 0xC0;  // bmRequestType says IN, direction says OUT
       },
       "disagrees with bmRequestType"},
  };
  const std::vector<uint8_t> prefix = urbPrefix(3);
  for (const auto& c : cases) {
    std::vector<uint8_t> pdu = serialize(sampleSubmit(1, false, 1, 16));
    c.corrupt(pdu);
    std::vector<uint8_t> stream = prefix;
    stream.insert(stream.end(), pdu.begin(), pdu.end());
    RequestDecoder d;
    d.setPhase(StreamPhase::kUrb);
    const CodecError e = expectRejected(d, stream);
    EXPECT_EQ(e.pdu(), c.pdu) << c.name << ": " << e.what();
    EXPECT_EQ(e.field(), c.field) << c.name << ": " << e.what();
    EXPECT_EQ(e.streamOffset(), prefix.size() + c.fieldOffset) << c.name << ": " << e.what();
    EXPECT_NE(std::string(e.what()).find(c.mentions), std::string::npos) << c.name << ": " << e.what();
    // The decoder stays failed.
    EXPECT_THROW(d.feed(std::vector<uint8_t>{0}), CodecError) << c.name;
  }
}

TEST(UsbipCodec, ConfigurableTransferLimit) {
  const auto bytes = serialize(sampleSubmit(1, true, 1, 4097));
  RequestDecoder strict(DecoderLimits{4096, 1});
  strict.setPhase(StreamPhase::kUrb);
  EXPECT_THROW(strict.feed(bytes), CodecError);
  RequestDecoder relaxed(DecoderLimits{4097, 1});
  relaxed.setPhase(StreamPhase::kUrb);
  EXPECT_EQ(relaxed.feed(bytes), bytes.size());
}

TEST(UsbipCodec, MalformedOperationsAreRejected) {
  {
    std::vector<uint8_t> b = serialize(OpReqDevlist{});
    b[1] = 0x06;  // version 0x0106
    RequestDecoder d;
    const CodecError e = expectRejected(d, b);
    EXPECT_EQ(e.field(), "version");
    EXPECT_EQ(e.streamOffset(), 0u);
  }
  {
    std::vector<uint8_t> b = serialize(OpReqDevlist{});
    b[3] = 0x07;  // code 0x8007
    RequestDecoder d;
    const CodecError e = expectRejected(d, b);
    EXPECT_EQ(e.field(), "code");
    EXPECT_EQ(e.streamOffset(), 2u);
  }
  {
    // A URB before any import: read as an OP header, its version is wrong.
    RequestDecoder d;
    const CodecError e = expectRejected(d, serialize(sampleSubmit(1, true, 1, 8)));
    EXPECT_EQ(e.field(), "version");
  }
  {
    OpRepDevlist rep;
    rep.devices.push_back({sampleRecord(1, 0), {}});
    std::vector<uint8_t> b = serialize(rep);
    b[8] = 0x10;  // 0x10000001 devices
    ReplyDecoder d(nullptr);
    const CodecError e = expectRejected(d, b);
    EXPECT_EQ(e.pdu(), "OP_REP_DEVLIST");
    EXPECT_EQ(e.field(), "number_of_exported_devices");
    EXPECT_EQ(e.streamOffset(), 8u);
  }
  {
    std::vector<uint8_t> b = serialize(OpReqDevlist{});
    ReplyDecoder d(nullptr);  // a request where a reply belongs
    const CodecError e = expectRejected(d, b);
    EXPECT_EQ(e.pdu(), "OP_REQ_DEVLIST");
    EXPECT_NE(std::string(e.what()).find("is a request"), std::string::npos) << e.what();
  }
}

TEST(UsbipCodec, MalformedRetSubmitsAreRejected) {
  const std::vector<uint8_t> prefix = [] {
    RetUnlink u;
    return serialize(u);
  }();
  auto reject = [&](RetSubmit r) {
    std::vector<uint8_t> stream = prefix;
    const auto b = serialize(r);
    stream.insert(stream.end(), b.begin(), b.end());
    ReplyDecoder d(sampleLookup);
    d.setPhase(StreamPhase::kUrb);
    return expectRejected(d, stream);
  };
  {
    const CodecError e = reject(sampleRet(42, 0, 0, false));  // nothing pending under 42
    EXPECT_EQ(e.field(), "seqnum");
    EXPECT_EQ(e.streamOffset(), 48u + 4u);
  }
  {
    const CodecError e = reject(sampleRet(4, 0, 1025, true));  // capacity 1024
    EXPECT_EQ(e.field(), "actual_length");
    EXPECT_EQ(e.streamOffset(), 48u + 0x18u);
    EXPECT_NE(std::string(e.what()).find("transfer_buffer_length 1024"), std::string::npos) << e.what();
  }
  {
    RetSubmit r = sampleRet(4, 0, 0, false);
    r.params.numberOfPackets = 2;
    const CodecError e = reject(r);
    EXPECT_EQ(e.field(), "number_of_packets");
  }
}

TEST(UsbipCodec, TruncatedStreamsWaitForMoreBytes) {
  const auto bytes = concat(sampleRequests());
  for (size_t cut = 1; cut < bytes.size(); cut += 37) {
    RequestDecoder d;
    auto everything = [] { return size_t{1} << 30; };
    size_t messages = 0;
    size_t at = 0;
    const auto part = std::span(bytes).first(cut);
    while (at < part.size() || d.hasMessage()) {
      if (d.hasMessage()) {
        const Request m = d.take();
        if (std::holds_alternative<OpReqImport>(m)) d.setPhase(StreamPhase::kUrb);
        ++messages;
        continue;
      }
      at += d.feed(part.subspan(at, std::min(everything(), part.size() - at)));
    }
    EXPECT_LT(messages, sampleRequests().size());
    EXPECT_EQ(d.position(), cut);
  }
}

TEST(UsbipCodec, SerializerRefusesInconsistentMessages) {
  CmdSubmit out = sampleSubmit(1, false, 1, 10);
  out.transferBuffer.pop_back();
  EXPECT_THROW((void)serialize(out), CodecError);
  CmdSubmit in = sampleSubmit(1, true, 1, 10);
  in.transferBuffer.push_back(1);
  EXPECT_THROW((void)serialize(in), CodecError);
  OpRepDevlist rep;
  rep.devices.push_back({sampleRecord(1, 2), {}});
  EXPECT_THROW((void)serialize(rep), CodecError);
  OpRepImport imp;  // status OK without a record
  EXPECT_THROW((void)serialize(imp), CodecError);
  RetSubmit ret = sampleRet(1, 0, 5, true);
  ret.transferBuffer.push_back(0);
  EXPECT_THROW((void)serialize(ret), CodecError);
  CmdUnlink wrong;
  wrong.header.command = urb_command::kCmdSubmit;
  EXPECT_THROW((void)serialize(wrong), CodecError);
}

TEST(UsbipCodec, FixedTextFieldsArePaddedAndTruncated) {
  const auto busid = fixedText<kBusIdBytes>("1-1");
  EXPECT_EQ(textOf(busid), "1-1");
  EXPECT_EQ(busid[3], 0);
  const auto full = fixedText<4>("abcdef");
  EXPECT_EQ(textOf(full), "abcd");
  EXPECT_EQ(devidOf(sampleRecord(7, 0)), 0x00010007u);
}

}  // namespace
}  // namespace coralsim::usbip::usbip_codec_test

// Writes the committed inputs of the USB/IP codec fuzz target (tests/fuzz/inputs/fuzz_usbip_codec),
// made only from PDUs our own serializer produced: realistic client and server streams (devlist,
// import, control/bulk/interrupt submits, unlinks, and the replies to them), then truncated,
// bit-flipped, with size fields inflated, commands and codes swapped, bytes dropped or inserted,
// and streams spliced. Each file starts with the two harness bytes (decoder + phase, split seed;
// see tests/fuzz/usbip_fuzz_harness.h).
// Deterministic: a fixed seed and raw std::mt19937 output, so a re-run reproduces the directory
// byte for byte.
//
//   make_usbip_fuzz_inputs tests/fuzz/inputs/fuzz_usbip_codec
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "usbip/pdu_serializer.h"

namespace {

using namespace coralsim::usbip;
using Bytes = std::vector<uint8_t>;

void append(Bytes& out, const Bytes& more) { out.insert(out.end(), more.begin(), more.end()); }

UsbDeviceRecord record(uint32_t devnum, bool bootloader) {
  UsbDeviceRecord r;
  r.path = fixedText<kPathBytes>("/sys/devices/coralsim/usb1/1-" + std::to_string(devnum));
  r.busid = fixedText<kBusIdBytes>("1-" + std::to_string(devnum));
  r.busnum = 1;
  r.devnum = devnum;
  r.speed = usb_speed_code::kSuper;
  r.idVendor = bootloader ? 0x1A6E : 0x18D1;
  r.idProduct = bootloader ? 0x089A : 0x9302;
  r.bcdDevice = 0x0100;
  r.bConfigurationValue = 1;
  r.bNumConfigurations = 1;
  r.bNumInterfaces = 1;
  return r;
}

CmdSubmit submit(uint32_t seqnum, bool in, uint8_t ep, uint32_t length, std::array<uint8_t, 8> setup = {}) {
  CmdSubmit m;
  m.header.seqnum = seqnum;
  m.header.devid = 0x00010001;
  m.header.direction = in ? urb_direction::kIn : urb_direction::kOut;
  m.header.ep = ep;
  m.params.transferFlags = in ? transfer_flag::kDirIn : 0;
  m.params.transferBufferLength = length;
  m.params.setup = setup;
  if (!in) {
    m.transferBuffer.resize(length);
    for (uint32_t i = 0; i < length; ++i) m.transferBuffer[i] = static_cast<uint8_t>(i ^ seqnum);
  }
  return m;
}

// What a client sends: import, the enumeration-style control reads, CSR writes, bulk traffic,
// unlinks. Seqnums follow the harness's lookup convention (odd = IN) so the replies line up.
Bytes clientStream(bool withImport) {
  Bytes s;
  if (withImport) {
    OpReqImport imp;
    imp.body.busid = fixedText<kBusIdBytes>("1-1");
    append(s, serialize(imp));
  }
  append(s, serialize(submit(1, true, 0, 18, {0x80, 6, 0, 1, 0, 0, 18, 0})));
  append(s, serialize(submit(2, false, 0, 4, {0x40, 1, 0x18, 0xA3, 1, 0, 4, 0})));
  append(s, serialize(submit(3, true, 1, 1024)));
  append(s, serialize(submit(4, false, 1, 200)));
  append(s, serialize(submit(5, true, 2, 16)));
  append(s, serialize(submit(9, true, 3, 4)));
  CmdUnlink u;
  u.header.seqnum = 10;
  u.params.unlinkSeqnum = 3;
  append(s, serialize(u));
  return s;
}

Bytes serverStream(bool withImport) {
  Bytes s;
  if (withImport) {
    OpRepImport imp;
    imp.device = record(1, false);
    append(s, serialize(imp));
  }
  auto ret = [](uint32_t seqnum, int32_t status, uint32_t actual, bool data) {
    RetSubmit r;
    r.header.seqnum = seqnum;
    r.params.status = status;
    r.params.actualLength = actual;
    if (data) r.transferBuffer.assign(actual, static_cast<uint8_t>(seqnum));
    return serialize(r);
  };
  append(s, ret(1, 0, 18, true));    // IN, capacity 64 << 1
  append(s, ret(2, 0, 4, false));    // OUT
  append(s, ret(3, 0, 300, true));   // IN, capacity 64 << 3
  append(s, ret(4, 0, 200, false));  // OUT
  append(s, ret(5, -32, 0, true));   // IN, stalled
  RetUnlink u;
  u.header.seqnum = 10;
  u.params.status = -104;
  append(s, serialize(u));
  append(s, ret(9, 0, 4, true));
  return s;
}

Bytes devlistReply() {
  OpRepDevlist rep;
  for (uint32_t i = 1; i <= 2; ++i) {
    ExportedDeviceEntry e{record(i, i == 2), {}};
    e.interfaces.push_back({static_cast<uint8_t>(i == 2 ? 0xFE : 0xFF), static_cast<uint8_t>(i == 2 ? 1 : 0xFF),
                            static_cast<uint8_t>(i == 2 ? 2 : 0xFF)});
    rep.devices.push_back(e);
  }
  return serialize(rep);
}

struct Seed {
  std::string name;
  uint8_t mode;  // harness byte 0
  Bytes stream;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_usbip_fuzz_inputs OUTPUT_DIR\n");
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  for (const auto& e : std::filesystem::directory_iterator(dir)) std::filesystem::remove(e.path());

  const std::vector<Seed> seeds = {
      {"client_import", 0, clientStream(true)},
      {"client_urbs", 2, clientStream(false)},
      {"client_devlist", 0, serialize(OpReqDevlist{})},
      {"server_import", 1, serverStream(true)},
      {"server_urbs", 3, serverStream(false)},
      {"server_devlist", 1, devlistReply()},
  };

  std::mt19937 rng(20261121);
  int written = 0;
  auto write = [&](const std::string& name, uint8_t mode, const Bytes& stream) {
    Bytes file{mode, static_cast<uint8_t>(rng())};
    append(file, stream);
    std::ofstream(dir / (name + ".bin"), std::ios::binary)
        .write(reinterpret_cast<const char*>(file.data()), static_cast<std::streamsize>(file.size()));
    ++written;
  };

  for (const Seed& seed : seeds) {
    const Bytes& s = seed.stream;
    write(seed.name + "_valid", seed.mode, s);
    for (int i = 0; i < 3; ++i) {  // truncated
      write(seed.name + "_cut_" + std::to_string(i), seed.mode, Bytes(s.begin(), s.begin() + static_cast<ptrdiff_t>(rng() % s.size())));
    }
    for (int i = 0; i < 4; ++i) {  // bit flips
      Bytes b = s;
      for (int k = 0; k < 1 + i; ++k) b[rng() % b.size()] ^= static_cast<uint8_t>(1u << (rng() % 8));
      write(seed.name + "_flip_" + std::to_string(i), seed.mode, b);
    }
    for (int i = 0; i < 3; ++i) {  // a 32-bit word at a 4-aligned offset set to a large or odd value
      Bytes b = s;
      const size_t at = (rng() % (b.size() / 4)) * 4;
      const uint32_t values[] = {0xFFFFFFFFu, 0x01000001u, 0x80000000u, 3u, 0x7FFFFFFFu};
      const uint32_t v = values[rng() % 5];
      for (int k = 0; k < 4 && at + k < b.size(); ++k) b[at + k] = static_cast<uint8_t>(v >> (24 - 8 * k));
      write(seed.name + "_word_" + std::to_string(i), seed.mode, b);
    }
    {  // dropped bytes
      Bytes b = s;
      b.erase(b.begin() + static_cast<ptrdiff_t>(rng() % b.size()));
      write(seed.name + "_drop", seed.mode, b);
    }
    {  // inserted bytes
      Bytes b = s;
      b.insert(b.begin() + static_cast<ptrdiff_t>(rng() % b.size()), static_cast<uint8_t>(rng()));
      write(seed.name + "_insert", seed.mode, b);
    }
    // the same bytes read by the other side / in the other phase
    write(seed.name + "_wrong_side", static_cast<uint8_t>(seed.mode ^ 1), s);
    write(seed.name + "_wrong_phase", static_cast<uint8_t>(seed.mode ^ 2), s);
  }
  // Targeted inflations of the size fields of URB PDUs.
  const Bytes urbs = clientStream(false);
  const Bytes replies = serverStream(false);
  const size_t offsets[] = {0x00, 0x0C, 0x10, 0x18, 0x20};
  for (size_t field : offsets) {
    for (int which = 0; which < 2; ++which) {
      Bytes b = which == 0 ? urbs : replies;
      b[field] = 0x7F;  // in the first PDU
      write("inflate_" + std::string(which == 0 ? "cmd" : "ret") + "_" + std::to_string(field), static_cast<uint8_t>(2 + which), b);
    }
  }
  // Splices: the head of one stream, the tail of another.
  for (int i = 0; i < 6; ++i) {
    const Seed& a = seeds[rng() % seeds.size()];
    const Seed& b = seeds[rng() % seeds.size()];
    Bytes s(a.stream.begin(), a.stream.begin() + static_cast<ptrdiff_t>(rng() % a.stream.size()));
    s.insert(s.end(), b.stream.begin() + static_cast<ptrdiff_t>(rng() % b.stream.size()), b.stream.end());
    write("splice_" + std::to_string(i), a.mode, s);
  }
  // Pure noise, and the empty stream.
  for (int i = 0; i < 4; ++i) {
    Bytes b(1 + rng() % 200);
    for (auto& x : b) x = static_cast<uint8_t>(rng());
    write("noise_" + std::to_string(i), static_cast<uint8_t>(i), b);
  }
  write("empty", 0, {});
  std::printf("make_usbip_fuzz_inputs: wrote %d inputs to %s\n", written, dir.c_str());
  return 0;
}

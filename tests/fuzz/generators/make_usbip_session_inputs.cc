// Writes the committed inputs of fuzz_usbip_session (tests/fuzz/inputs/fuzz_usbip_session): whole
// client sessions made only from PDUs our own serializer produced and programs our own assembler
// produced (never corpus bytes) — the device list; an import of the runtime Coral with enumeration,
// a libedgetpu-like CSR bring-up, the demo program and a runaway program as bulk OUT records, reads
// of EP 0x81/0x82/0x83 and unlinks; an import of the bootloader with a DFU download; imports of
// unknown bus ids, wrong devids, duplicate seqnums, a second OP request after the import, record
// headers announcing 4 GiB — then truncated, bit-flipped, with 32-bit fields inflated, and spliced.
// Each file starts with the harness's split-seed byte (tests/fuzz/usbip_session_fuzz_harness.h).
// Deterministic: a fixed seed and raw std::mt19937 output.
//
//   make_usbip_session_inputs tests/fuzz/inputs/fuzz_usbip_session
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "models/csr/csr_block.h"
#include "models/isa/assembler.h"
#include "models/isa/demo/demo_program.h"
#include "models/isa/word128.h"
#include "usbip/pdu_serializer.h"

namespace {

namespace csr = coralsim::models::csr;
using namespace coralsim::usbip;
using Bytes = std::vector<uint8_t>;

constexpr uint32_t kDevidRuntime = 0x00010001;     // bus 1, device 1 ("1-1")
constexpr uint32_t kDevidBootloader = 0x00010002;  // "1-2"

void append(Bytes& out, const Bytes& more) { out.insert(out.end(), more.begin(), more.end()); }

Bytes program(const std::string& text) {
  return coralsim::isa::bytesFromWords(coralsim::isa::assemble(text, "generator").words);
}

Bytes record(uint8_t tag, const Bytes& payload, uint32_t announced) {
  Bytes out{static_cast<uint8_t>(announced), static_cast<uint8_t>(announced >> 8),
            static_cast<uint8_t>(announced >> 16), static_cast<uint8_t>(announced >> 24), tag, 0, 0, 0};
  append(out, payload);
  return out;
}

// One client's byte stream, with seqnums counted for it.
class Session {
 public:
  explicit Session(uint32_t devid) : devid_(devid) {}

  void import(const std::string& busId) {
    OpReqImport m;
    m.body.busid = fixedText<kBusIdBytes>(busId);
    append(bytes, serialize(m));
  }
  void devlist() { append(bytes, serialize(OpReqDevlist{})); }

  uint32_t control(uint8_t type, uint8_t request, uint16_t value, uint16_t index, const Bytes& data, uint16_t inLength = 0) {
    const bool in = (type & 0x80) != 0;
    const auto length = static_cast<uint16_t>(in ? inLength : data.size());
    CmdSubmit m = header(in, 0);
    m.params.transferBufferLength = length;
    m.params.setup = {type, request, static_cast<uint8_t>(value), static_cast<uint8_t>(value >> 8),
                      static_cast<uint8_t>(index), static_cast<uint8_t>(index >> 8), static_cast<uint8_t>(length),
                      static_cast<uint8_t>(length >> 8)};
    if (!in) m.transferBuffer = data;
    append(bytes, serialize(m));
    return m.header.seqnum;
  }
  void csrWrite(uint32_t address, uint64_t value, bool wide) {
    Bytes data(wide ? 8 : 4);
    for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(value >> (8 * i));
    control(0x40, wide ? 0 : 1, static_cast<uint16_t>(address & 0xFFFF), static_cast<uint16_t>(address >> 16), data);
  }
  uint32_t out(uint8_t ep, const Bytes& data) {
    CmdSubmit m = header(false, ep);
    m.params.transferBufferLength = static_cast<uint32_t>(data.size());
    m.transferBuffer = data;
    append(bytes, serialize(m));
    return m.header.seqnum;
  }
  void outChunked(const Bytes& data, size_t chunk) {
    for (size_t from = 0; from < data.size(); from += chunk) {
      out(1, Bytes(data.begin() + static_cast<ptrdiff_t>(from),
                   data.begin() + static_cast<ptrdiff_t>(std::min(data.size(), from + chunk))));
    }
  }
  uint32_t in(uint8_t ep, uint32_t length) {
    CmdSubmit m = header(true, ep);
    m.params.transferFlags = transfer_flag::kDirIn;
    m.params.transferBufferLength = length;
    append(bytes, serialize(m));
    return m.header.seqnum;
  }
  void unlink(uint32_t target) {
    CmdUnlink m;
    m.header.seqnum = next_++;
    m.header.devid = devid_;
    m.params.unlinkSeqnum = target;
    append(bytes, serialize(m));
  }
  void setDevid(uint32_t devid) { devid_ = devid; }
  void repeatSeqnum() { --next_; }

  Bytes bytes;

 private:
  CmdSubmit header(bool in, uint8_t ep) {
    CmdSubmit m;
    m.header.seqnum = next_++;
    m.header.devid = devid_;
    m.header.direction = in ? urb_direction::kIn : urb_direction::kOut;
    m.header.ep = ep;
    return m;
  }
  uint32_t devid_;
  uint32_t next_ = 1;
};

void bringUp(Session& s) {
  s.control(0x80, 6, 0x0100, 0, {}, 18);   // GET_DESCRIPTOR(DEVICE)
  s.control(0x80, 6, 0x0200, 0, {}, 255);  // GET_DESCRIPTOR(CONFIGURATION)
  s.control(0x00, 9, 1, 0, {});            // SET_CONFIGURATION 1
  s.csrWrite(csr::scu_ctrl_3, 0x00C50000u, false);  // force_sleep 0: wake the GCB
  for (uint32_t a : {csr::scalarCoreRunControl, csr::avDataPopRunControl, csr::parameterPopRunControl,
                     csr::infeedRunControl, csr::outfeedRunControl}) {
    s.csrWrite(a, 1, true);
  }
  s.csrWrite(csr::descr_ep, 0xF0, true);
  s.csrWrite(csr::outfeed_chunk_length, 0x80, true);
  s.csrWrite(csr::fatal_err_int_control, 1, true);
}

void write(const std::filesystem::path& dir, const std::string& name, uint8_t splitSeed, const Bytes& stream) {
  Bytes file{splitSeed};
  append(file, stream);
  std::ofstream(dir / name, std::ios::binary)
      .write(reinterpret_cast<const char*>(file.data()), static_cast<std::streamsize>(file.size()));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_usbip_session_inputs OUTPUT_DIR\n");
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  for (const auto& e : std::filesystem::directory_iterator(dir)) std::filesystem::remove(e.path());

  const Bytes demo = program(std::string(coralsim::isa::demoProgramText()));
  const Bytes spin = program("program {\nagain: br again\n}\n");

  struct Seed {
    std::string name;
    Bytes stream;
  };
  std::vector<Seed> seeds;
  {
    Session s(0);
    s.devlist();
    seeds.push_back({"devlist", s.bytes});
  }
  {  // the runtime Coral: bring-up, the demo program, its event, interrupt and output reads
    Session s(kDevidRuntime);
    s.import("1-1");
    bringUp(s);
    const uint32_t output = s.in(1, 512);
    const uint32_t event = s.in(2, 16);
    s.in(3, 4);
    s.outChunked(record(0, demo, static_cast<uint32_t>(demo.size())), 1000);
    s.in(2, 16);
    s.unlink(output);
    s.unlink(event);
    s.unlink(999);  // unknown target
    seeds.push_back({"runtime_demo", s.bytes});
  }
  {  // a runaway program, stopped by the cycle limit (fatal interrupt on EP 0x83)
    Session s(kDevidRuntime);
    s.import("1-1");
    bringUp(s);
    s.out(1, record(0, spin, static_cast<uint32_t>(spin.size())));
    s.in(3, 4);
    s.in(2, 16);
    seeds.push_back({"runtime_runaway", s.bytes});
  }
  {  // record headers announcing 4 GiB, unknown tags, multi-EP endpoints that are not modelled
    Session s(kDevidRuntime);
    s.import("1-1");
    bringUp(s);
    s.out(1, record(0, demo, 0xFFFFFFFFu));
    s.out(1, record(1, Bytes(64, 1), 0xFFFFFFF0u));
    s.out(1, record(2, Bytes(64, 2), 0x80000000u));
    s.out(1, record(7, Bytes(32, 3), 32));
    s.out(2, Bytes(16, 4));
    s.in(4, 64);
    s.in(1, 16u << 20);  // the largest transfer the default limits take
    seeds.push_back({"runtime_huge_records", s.bytes});
  }
  {  // the bootloader: DFU download of a 1000-byte image in 256-byte blocks, then re-enumeration
    Session s(kDevidBootloader);
    s.import("1-2");
    s.control(0x80, 6, 0x0100, 0, {}, 18);
    s.control(0x80, 6, 0x0200, 0, {}, 255);
    Bytes image(1000);
    for (size_t i = 0; i < image.size(); ++i) image[i] = static_cast<uint8_t>(i * 7 + 1);
    uint16_t block = 0;
    for (size_t from = 0; from < image.size(); from += 256, ++block) {
      s.control(0x21, 1, block, 0, Bytes(image.begin() + static_cast<ptrdiff_t>(from),
                                          image.begin() + static_cast<ptrdiff_t>(std::min(image.size(), from + 256))));
      s.control(0xA1, 3, 0, 0, {}, 6);  // DFU_GETSTATUS
    }
    s.control(0x21, 1, block, 0, {});  // the zero-length DNLOAD ends the download
    s.control(0xA1, 3, 0, 0, {}, 6);
    s.control(0xA1, 2, 0, 0, {}, 256);  // DFU_UPLOAD
    s.control(0x80, 6, 0x0100, 0, {}, 18);
    s.in(1, 64);  // no bulk endpoints in the bootloader: stalled
    seeds.push_back({"bootloader_dfu", s.bytes});
  }
  {  // refusals: unknown bus id
    Session s(0);
    s.import("1-9");
    seeds.push_back({"import_unknown", s.bytes});
  }
  {  // a URB for the other device's devid
    Session s(kDevidRuntime);
    s.import("1-1");
    s.control(0x80, 6, 0x0100, 0, {}, 18);
    s.setDevid(kDevidBootloader);
    s.in(1, 16);
    seeds.push_back({"wrong_devid", s.bytes});
  }
  {  // a seqnum already in flight, then an OP request after the import
    Session s(kDevidRuntime);
    s.import("1-1");
    s.in(1, 16);
    s.repeatSeqnum();
    s.in(1, 16);
    s.import("1-2");
    seeds.push_back({"duplicate_seqnum", s.bytes});
  }
  {  // a control OUT whose data stage is not wLength bytes, and an OP request after the import
    Session s(kDevidRuntime);
    s.import("1-1");
    s.control(0x40, 1, 0, 0, Bytes(3, 0));
    s.import("1-1");
    seeds.push_back({"op_after_import", s.bytes});
  }

  std::mt19937 rng(20261121);
  size_t written = 0;
  auto emit = [&](const std::string& name, uint8_t splitSeed, const Bytes& stream) {
    write(dir, name, splitSeed, stream);
    ++written;
  };
  for (const Seed& seed : seeds) {
    const Bytes& s = seed.stream;
    emit(seed.name + "_whole", 0, s);
    emit(seed.name + "_split", static_cast<uint8_t>(1 + rng() % 255), s);
    for (int i = 0; i < 2; ++i) {  // truncated
      emit(seed.name + "_cut_" + std::to_string(i), static_cast<uint8_t>(rng()),
           Bytes(s.begin(), s.begin() + static_cast<ptrdiff_t>(rng() % s.size())));
    }
    for (int i = 0; i < 2; ++i) {  // bit flips
      Bytes b = s;
      for (int k = 0; k < 1 + 2 * i; ++k) b[rng() % b.size()] ^= static_cast<uint8_t>(1u << (rng() % 8));
      emit(seed.name + "_flip_" + std::to_string(i), static_cast<uint8_t>(rng()), b);
    }
    {  // a 32-bit big-endian word at a 4-aligned offset set to a large or odd value
      Bytes b = s;
      const size_t at = (rng() % (b.size() / 4)) * 4;
      const uint32_t values[] = {0xFFFFFFFFu, 0x01000001u, 0x80000000u, 3u, 0x7FFFFFFFu};
      const uint32_t v = values[rng() % 5];
      for (size_t k = 0; k < 4 && at + k < b.size(); ++k) b[at + k] = static_cast<uint8_t>(v >> (24 - 8 * k));
      emit(seed.name + "_word", 0, b);
    }
  }
  for (int i = 0; i < 6; ++i) {  // splices: the head of one session, the tail of another
    const Seed& a = seeds[rng() % seeds.size()];
    const Seed& b = seeds[rng() % seeds.size()];
    Bytes s(a.stream.begin(), a.stream.begin() + static_cast<ptrdiff_t>(rng() % a.stream.size()));
    s.insert(s.end(), b.stream.begin() + static_cast<ptrdiff_t>(rng() % b.stream.size()), b.stream.end());
    emit("splice_" + std::to_string(i), static_cast<uint8_t>(rng()), s);
  }
  emit("empty", 0, {});
  std::printf("make_usbip_session_inputs: wrote %zu inputs to %s\n", written, dir.c_str());
  return 0;
}

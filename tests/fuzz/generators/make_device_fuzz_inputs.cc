// Writes the committed inputs of fuzz_device (the script format of tests/fuzz/device_fuzz_harness.h),
// made only from the project's own tables and assembler (never corpus bytes): a libedgetpu-like
// bring-up (CSR writes through vendor requests), the demo program and small programs framed as
// tag-0 records and split into bulk OUT chunks, input/parameter records, reads of EP 0x81/0x82/0x83,
// standard requests (GET_DESCRIPTOR, GET_STATUS), unlinks and bus resets — then cut, bit-flipped,
// and with record headers announcing huge lengths; then programs through the scalar core and the
// tiles (tile packets, syncs, tile faults). Deterministic (fixed seeds, raw std::mt19937).
//
//   make_device_fuzz_inputs tests/fuzz/inputs/fuzz_device
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

namespace {

namespace csr = coralsim::models::csr;
using Bytes = std::vector<uint8_t>;

class Script {
 public:
  void u8(uint8_t v) { bytes.push_back(v); }
  void u16(uint16_t v) {
    u8(static_cast<uint8_t>(v));
    u8(static_cast<uint8_t>(v >> 8));
  }
  void control(uint8_t type, uint8_t request, uint16_t value, uint16_t index, const Bytes& data, uint16_t inLength = 0) {
    u8(0);
    u8(type);
    u8(request);
    u16(value);
    u16(index);
    u16((type & 0x80) ? inLength : static_cast<uint16_t>(data.size()));
    if (!(type & 0x80)) bytes.insert(bytes.end(), data.begin(), data.end());
  }
  void csrWrite(uint32_t address, uint64_t value, bool wide) {
    Bytes data(wide ? 8 : 4);
    for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(value >> (8 * i));
    control(0x40, wide ? 0 : 1, static_cast<uint16_t>(address & 0xFFFF), static_cast<uint16_t>(address >> 16), data);
  }
  void csrRead(uint32_t address, bool wide) {
    control(0xC0, wide ? 0 : 1, static_cast<uint16_t>(address & 0xFFFF), static_cast<uint16_t>(address >> 16), {},
            wide ? 8 : 4);
  }
  void out(const Bytes& data, size_t chunk) {
    for (size_t from = 0; from < data.size(); from += chunk) {
      const size_t n = std::min(chunk, data.size() - from);
      u8(1);
      u8(0);  // EP 0x01
      u16(static_cast<uint16_t>(n));
      bytes.insert(bytes.end(), data.begin() + static_cast<std::ptrdiff_t>(from),
                   data.begin() + static_cast<std::ptrdiff_t>(from + n));
    }
  }
  void in(uint8_t endpointPick, uint16_t length) {
    u8(2);
    u8(endpointPick);
    u16(length);
  }
  void unlink(uint8_t index) {
    u8(3);
    u8(index);
  }
  void busReset() { u8(4); }
  Bytes bytes;
};

Bytes record(uint8_t tag, const Bytes& payload, uint32_t announced) {
  Bytes out{static_cast<uint8_t>(announced), static_cast<uint8_t>(announced >> 8),
            static_cast<uint8_t>(announced >> 16), static_cast<uint8_t>(announced >> 24), tag, 0, 0, 0};
  out.insert(out.end(), payload.begin(), payload.end());
  return out;
}
Bytes record(uint8_t tag, const Bytes& payload) { return record(tag, payload, static_cast<uint32_t>(payload.size())); }

Bytes program(const std::string& text) {
  return coralsim::isa::bytesFromWords(coralsim::isa::assemble(text, "generator").words);
}

void bringUp(Script& s) {
  s.csrRead(csr::scu_ctrl_3, false);
  s.csrWrite(csr::scu_ctrl_3, 0x00C50000u, false);  // force_sleep 0: wake the GCB
  for (uint32_t a : {csr::scalarCoreRunControl, csr::avDataPopRunControl, csr::parameterPopRunControl,
                     csr::infeedRunControl, csr::outfeedRunControl}) {
    s.csrWrite(a, 1, true);
  }
  s.csrWrite(csr::descr_ep, 0xF0, true);
  s.csrWrite(csr::outfeed_chunk_length, 0x80, true);
  s.csrWrite(csr::fatal_err_int_control, 1, true);
}

void write(const std::filesystem::path& dir, size_t index, const Bytes& bytes) {
  std::ofstream out(dir / ("input_" + std::to_string(index)), std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_device_fuzz_inputs OUTPUT_DIR\n");
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);

  const Bytes demo = program(std::string(coralsim::isa::demoProgramText()));
  const Bytes spin = program("program {\nagain: br again\n}\n");
  const Bytes input = program(
      "program {\n s1 = mov 0x40\n s2 = mov 0x1\n desc[2] = s1\n desc[3] = s2\n push\n sc.sync mask=0xffff\n"
      " s3 = mov 0x4\n desc[2] = s0\n desc[3] = s3\n push\n}\n");

  std::vector<Bytes> bases;
  {  // bring-up, the demo program in one chunk, its completion event and interrupt
    Script s;
    bringUp(s);
    s.out(record(0, demo), 4096);
    s.in(1, 16);
    s.in(2, 4);
    bases.push_back(s.bytes);
  }
  {  // the demo program in 7-byte chunks (headers split), reads before the data
    Script s;
    bringUp(s);
    s.in(1, 16);
    s.out(record(0, demo), 7);
    bases.push_back(s.bytes);
  }
  {  // a program waiting for input, then the input record and the output stream
    Script s;
    bringUp(s);
    s.out(record(0, input), 512);
    s.out(record(1, Bytes(0x40, 0x5A)), 16);
    s.in(0, 512);
    s.in(1, 16);
    bases.push_back(s.bytes);
  }
  {  // a runaway program: stopped by the cycle limit, fatal interrupt on EP 0x83
    Script s;
    bringUp(s);
    s.out(record(0, spin), 4096);
    s.in(2, 4);
    s.in(1, 16);
    bases.push_back(s.bytes);
  }
  {  // record headers announcing 4 GiB (instructions, input, parameters) and unknown tags
    Script s;
    bringUp(s);
    s.out(record(0, demo, 0xFFFFFFFFu), 4096);
    s.out(record(1, Bytes(64, 1), 0xFFFFFFF0u), 64);
    s.out(record(2, Bytes(64, 2), 0x80000000u), 64);
    s.out(record(7, Bytes(32, 3)), 32);
    bases.push_back(s.bytes);
  }
  {  // standard requests and the other endpoints
    Script s;
    s.control(0x80, 6, 0x0100, 0, {}, 18);   // GET_DESCRIPTOR(DEVICE)
    s.control(0x80, 6, 0x0200, 0, {}, 255);  // GET_DESCRIPTOR(CONFIGURATION)
    s.control(0x80, 6, 0x0F00, 0, {}, 64);   // GET_DESCRIPTOR(BOS)
    s.control(0x00, 9, 1, 0, {});            // SET_CONFIGURATION 1
    s.control(0x80, 0, 0, 0, {}, 2);         // GET_STATUS
    s.in(3, 64);
    s.u8(1);
    s.u8(1);  // EP 0x02
    s.u16(8);
    for (int i = 0; i < 8; ++i) s.u8(static_cast<uint8_t>(i));
    bases.push_back(s.bytes);
  }
  {  // unlinks and bus resets in the middle of a transfer
    Script s;
    bringUp(s);
    s.in(1, 16);
    s.in(0, 4096);
    s.unlink(0);
    s.out(record(0, demo), 100);
    s.busReset();
    s.unlink(1);
    s.out(record(0, demo), 4096);
    bases.push_back(s.bytes);
  }

  std::mt19937 rng(20261121);
  size_t count = 0;
  for (const Bytes& b : bases) write(dir, count++, b);
  while (count < 50) {
    Bytes b = bases[rng() % bases.size()];
    switch (rng() % 3) {
      case 0:
        for (unsigned i = 0, n = 1 + rng() % 6; i < n; ++i) b[rng() % b.size()] ^= static_cast<uint8_t>(1u << (rng() % 8));
        break;
      case 1:
        b.resize(rng() % b.size());
        break;
      default: {  // splice two scripts
        const Bytes& other = bases[rng() % bases.size()];
        b.resize(rng() % b.size());
        b.insert(b.end(), other.begin() + static_cast<std::ptrdiff_t>(rng() % other.size()), other.end());
        break;
      }
    }
    write(dir, count++, b);
  }

  // Programs through the scalar core AND the tiles (tile packets dispatched by mask, synchronised,
  // sequence-numbered), then a tile fault (a sequence break, a zero mask): the executor must end
  // each in a completion or a clean fault within the cycle limit. Appended after the 50 files
  // above with a PRNG of their own, so those stay byte for byte what they were.
  const Bytes tiles = program(
      "program {\n"
      "  s1 = mov 96\n  s2 = mov 0x1\n  desc[2] = s1\n  desc[3] = s2\n  push\n"
      "  tile.compute mask=0xffff\n  tile.dma14 mask=0x000f\n  tile.compute mask=0x00f0\n"
      "  sc.sync mask=0xffff\n  tile.compute mask=0xffff\n  tile.sync mask=0xffff\n"
      "  s1 = mov 0x8\n  s2 = mov 0x3\n  desc[2] = s1\n  desc[3] = s2\n  push\n"
      "  s3 = mov 0x1234\n  stream s3\n  stream s3\n"
      "  s5 = mov 0x4\n  desc[2] = s0\n  desc[3] = s5\n  push\n"
      "}\n");
  const Bytes tileFault = program("program {\n tile.sync mask=0xffff\n tile.sync mask=0xffff seq=5\n tile.dma10 mask=0x0000\n}\n");
  std::vector<Bytes> tileBases;
  {  // tiles busy while the input arrives, a fence, the output streamed, the completion
    Script s;
    bringUp(s);
    s.in(1, 16);
    s.out(record(0, tiles), 512);
    s.out(record(1, Bytes(96, 0x3C)), 32);
    s.in(0, 64);
    s.in(1, 16);
    s.in(2, 4);
    tileBases.push_back(s.bytes);
  }
  {  // the same program twice, the second while the first still waits for its input
    Script s;
    bringUp(s);
    s.out(record(0, tiles), 4096);
    s.out(record(0, tiles), 4096);
    s.out(record(1, Bytes(96, 1)), 96);
    s.out(record(1, Bytes(96, 2)), 96);
    s.in(0, 4096);
    s.in(1, 16);
    tileBases.push_back(s.bytes);
  }
  {  // tile faults: the fatal interrupt on EP 0x83
    Script s;
    bringUp(s);
    s.in(2, 4);
    s.out(record(0, tileFault), 64);
    s.in(1, 16);
    tileBases.push_back(s.bytes);
  }
  std::mt19937 tileRng(20261122);
  for (const Bytes& b : tileBases) write(dir, count++, b);
  for (int i = 0; i < 12; ++i) {
    Bytes b = tileBases[tileRng() % tileBases.size()];
    if (i % 2 == 0) {
      for (unsigned k = 0, n = 1 + tileRng() % 6; k < n; ++k) b[tileRng() % b.size()] ^= static_cast<uint8_t>(1u << (tileRng() % 8));
    } else {
      b.resize(tileRng() % b.size());
    }
    write(dir, count++, b);
  }
  std::printf("make_device_fuzz_inputs: %zu inputs in %s\n", count, dir.c_str());
  return 0;
}

// Writes the committed inputs of the ISA fuzz targets, made only from programs OUR assembler
// produced (never corpus bytes):
//   fuzz_segmenter/  the demo program and a synthetic program using every packet class, assembled,
//                    then truncated, bit-flipped, opcode-swapped, with words dropped/duplicated and
//                    START lengths broken;
//   fuzz_assembler/  the two source texts, their disassembly listings, and edited variants (lines
//                    dropped or swapped, characters flipped, text cut, junk inserted).
// Deterministic: a fixed seed and raw std::mt19937 output (specified by the standard), so a re-run
// reproduces both directories byte for byte.
//
//   make_isa_fuzz_inputs tests/fuzz/inputs
#include <bit>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "models/isa/assembler.h"
#include "models/isa/demo/demo_program.h"
#include "models/isa/disassembler.h"
#include "models/isa/number_text.h"

namespace {

using coralsim::isa::Word128;
using Bytes = std::vector<uint8_t>;

// Every packet class at least once, with field values of the kind compiled code uses.
std::string synthesizedProgram() {
  std::string nlu = "tile.nlu mask=0x0001 coef=[";
  for (int i = 0; i < 40; ++i) {
    const float c = (i % 5 == 0) ? 128.0f - static_cast<float>(i) : 64.0f / static_cast<float>(1 + i);
    nlu += (i ? "," : "") + coralsim::isa::formatF32(std::bit_cast<uint32_t>(c));
  }
  nlu += "] bp=[-8.0,-4.0,-2.0,0.0,2.0,4.0,8.0] tail=3\n";
  return "// synthetic program: every packet class (made by make_isa_fuzz_inputs)\n"
         "program {\n"
         "  tile.sync mask=0xffff\n"
         "  sc.sync mask=0xffff w1=0x03000000000000000000000000000000\n"
         "  s1 = mov 0x0\n"
         "  s0 = mov 0x0 ; s3 = ld [0xfff]\n"
         "  sc.infeed offset32=0x28 len8_m1=31\n"
         "  p0 = lt s12, 0x0\n"
         "  p1 = ne s12, s12\n"
         "  s6 = and s12, 0x7fffffff\n"
         "  (p0) s6 = add s6, 0x0\n"
         "  desc[0] = s6\n"
         "  s8 = mov 0x100 ; desc[1] = s7\n"
         "  s9 = mov 0x1 ; desc[2] = s8\n"
         "  desc[3] = s9\n"
         "  push\n"
         "  tile.dma14 mask=0x1111 w2=0x00000000000000000000000008060000\n"
         "  tile.dma11 mask=0x000f w2=0x0c0103ff015980000000000000000000\n"
         "  sc.pop offset16=0x420 w1=0x00000000000000000001000120000000\n"
         "  tile.dma17 mask=0xffff w5=0x00000000018000000000000000000000\n"
         "  tile.dma15 mask=0x8888\n"
         "  tile.dma16 mask=0x6666\n"
         "  tile.dma18 mask=0x1111\n"
         "  tile.dma12 mask=0x0505\n"
         "  tile.dma13 mask=0xffff w1=0xffe80007fff40003fffa0001fffd0000\n" +
         nlu +
         "  tile.compute mask=0x000f k_w0=63 k_w1=63 n_w4=256 k_w7=63 k_w10=63 zp_in=127 mode=0x30c008 mult=1.0 "
         "clamp_hi=126.0 clamp_lo=-129.0 zp_out=129\n"
         "  tile.compute02 mask=0x000f\n"
         "  tile.compute03 mask=0x000f\n"
         "  tile.compute05 mask=0x000f\n"
         "  sc.outfeed arg=0x1\n"
         "  tile.dma10 mask=0x0001\n"
         "  s6 = mov 0x0\n"
         "  s7 = ld [s6], s6 += 1\n"
         "  loop n=3 body=2\n"
         "  stream s7 ; s7 = ld [s6], s6 += 1\n"
         "  mem[s3] = s7, s3 += 1\n"
         "  s9 = i2f s9\n"
         "  s9 = fmul s9, 28.0\n"
         "  s9 = f2i s9 ; hi=0xa53\n"
         "again:\n"
         "  s1 = add s1, 0x1\n"
         "  p0 = lt s1, 0x4\n"
         "  (p0) br again\n"
         "  mem[0x100] = s1\n"
         "  tile.sync mask=0xfff9\n"
         "}\n";
}

Bytes toBytes(const std::vector<Word128>& words) { return coralsim::isa::bytesFromWords(words); }

void write(const std::filesystem::path& path, const void* data, size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!out) {
    std::fprintf(stderr, "cannot write %s\n", path.c_str());
    std::exit(1);
  }
}

void writeBinaryVariants(const std::filesystem::path& dir, const std::string& name, const Bytes& base,
                         std::mt19937& rng) {
  const size_t words = base.size() / 16;
  auto emit = [&](const std::string& kind, int n, const Bytes& b) {
    write(dir / (name + "_" + kind + "_" + std::to_string(n) + ".coral"), b.data(), b.size());
  };
  emit("valid", 0, base);
  for (int i = 0; i < 10; ++i) {  // truncations, also mid-word
    Bytes b(base.begin(), base.begin() + static_cast<long>(rng() % base.size()));
    emit("truncated", i, b);
  }
  for (int i = 0; i < 16; ++i) {  // 1..4 bit flips
    Bytes b = base;
    const unsigned flips = 1 + rng() % 4;
    for (unsigned f = 0; f < flips; ++f) b[rng() % b.size()] ^= static_cast<uint8_t>(1u << (rng() % 8));
    emit("bitflip", i, b);
  }
  for (int i = 0; i < 14; ++i) {  // opcode swaps: bits 11:6 of a random word
    Bytes b = base;
    const size_t w = rng() % words;
    const unsigned op = rng() % 64;
    uint16_t low = static_cast<uint16_t>(b[w * 16] | (b[w * 16 + 1] << 8));
    low = static_cast<uint16_t>((low & ~0x0fc0u) | (op << 6));
    b[w * 16] = static_cast<uint8_t>(low);
    b[w * 16 + 1] = static_cast<uint8_t>(low >> 8);
    emit("opswap", i, b);
  }
  for (int i = 0; i < 6; ++i) {  // a word dropped or duplicated
    Bytes b = base;
    const size_t w = rng() % words;
    if (i % 2 == 0) {
      b.erase(b.begin() + static_cast<long>(w * 16), b.begin() + static_cast<long>(w * 16 + 16));
    } else {
      b.insert(b.begin() + static_cast<long>(w * 16), base.begin() + static_cast<long>(w * 16),
               base.begin() + static_cast<long>(w * 16 + 16));
    }
    emit(i % 2 == 0 ? "dropword" : "dupword", i, b);
  }
  for (int i = 0; i < 3; ++i) {  // START length off by a little
    Bytes b = base;
    b[2] = static_cast<uint8_t>(b[2] ^ (0x08u << i));  // bits 19..21: the length field's low bits
    emit("startlen", i, b);
  }
}

void writeTextVariants(const std::filesystem::path& dir, const std::string& name, const std::string& text,
                       std::mt19937& rng) {
  auto emit = [&](const std::string& kind, int n, const std::string& t) {
    write(dir / (name + "_" + kind + "_" + std::to_string(n) + ".s"), t.data(), t.size());
  };
  std::vector<std::string> lines;
  for (size_t pos = 0; pos < text.size();) {
    const size_t eol = text.find('\n', pos);
    lines.push_back(text.substr(pos, eol == std::string::npos ? std::string::npos : eol - pos));
    pos = eol == std::string::npos ? text.size() : eol + 1;
  }
  auto join = [](const std::vector<std::string>& ls) {
    std::string t;
    for (const auto& l : ls) t += l + "\n";
    return t;
  };
  emit("valid", 0, text);
  for (int i = 0; i < 3; ++i) {
    auto ls = lines;
    ls.erase(ls.begin() + static_cast<long>(rng() % ls.size()));
    emit("dropline", i, join(ls));
  }
  for (int i = 0; i < 2; ++i) {
    auto ls = lines;
    std::swap(ls[rng() % ls.size()], ls[rng() % ls.size()]);
    emit("swaplines", i, join(ls));
  }
  const std::string junk = "=;[](),.:+-!xsp0123456789abcdef \t{}";
  for (int i = 0; i < 4; ++i) {
    std::string t = text;
    for (int k = 0; k < 3; ++k) t[rng() % t.size()] = junk[rng() % junk.size()];
    emit("charflip", i, t);
  }
  emit("cut", 0, text.substr(0, rng() % text.size()));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_isa_fuzz_inputs OUT_DIR   (e.g. tests/fuzz/inputs)\n");
    return 2;
  }
  const std::filesystem::path out = argv[1];
  const auto segDir = out / "fuzz_segmenter";
  const auto asmDir = out / "fuzz_assembler";
  std::filesystem::create_directories(segDir);
  std::filesystem::create_directories(asmDir);

  std::mt19937 rng(0x15a5eedu);
  const std::string demo(coralsim::isa::demoProgramText());
  const std::string synth = synthesizedProgram();
  size_t count = 0;
  for (const auto& [name, text] : {std::pair<std::string, std::string>{"demo", demo}, {"synth", synth}}) {
    const auto program = coralsim::isa::assemble(text, name);
    writeBinaryVariants(segDir, name, toBytes(program.words), rng);
    writeTextVariants(asmDir, name + "_source", text, rng);
    writeTextVariants(asmDir, name + "_listing", coralsim::isa::disassemble(program.words), rng);
    count += 2;
  }
  std::printf("wrote %zu files to %s and %zu to %s\n",
              static_cast<size_t>(std::distance(std::filesystem::directory_iterator(segDir), {})), segDir.c_str(),
              static_cast<size_t>(std::distance(std::filesystem::directory_iterator(asmDir), {})), asmDir.c_str());
  return count > 0 ? 0 : 1;
}

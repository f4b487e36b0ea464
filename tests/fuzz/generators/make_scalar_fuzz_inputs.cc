// Writes the committed inputs of fuzz_scalar_engine: program BODIES (no START/HALT/NOPs/END: the
// harness frames them) made only by OUR assembler (never corpus bytes) — the demo program and
// small programs exercising ALU ops, predicates, memory forms, branches, hardware loops,
// descriptor pushes, stream-out stores, tile packets and chunk-end HALTs — then bit-flipped,
// truncated and with words dropped or duplicated. Deterministic: fixed seed, raw std::mt19937
// output, so a re-run reproduces the directory byte for byte.
//
//   make_scalar_fuzz_inputs tests/fuzz/inputs/fuzz_scalar_engine
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "models/isa/assembler.h"
#include "models/isa/demo/demo_program.h"
#include "models/isa/word128.h"

namespace {

using coralsim::isa::Word128;
using Bytes = std::vector<uint8_t>;

// The body words of an assembled "program { body }": START is word 0, and the assembler appends
// HALT final, 4 NOPs and END (6 words) at "}".
Bytes bodyOf(const std::string& programText) {
  const auto words = coralsim::isa::assemble(programText, "generator").words;
  if (words.size() < 7) return {};
  const std::vector<Word128> body(words.begin() + 1, words.end() - 6);
  return coralsim::isa::bytesFromWords(body);
}

Bytes bodyOfSnippet(const std::string& snippet) { return bodyOf("program {\n" + snippet + "\n}\n"); }

void write(const std::filesystem::path& dir, const std::string& name, const Bytes& bytes) {
  std::ofstream out(dir / name, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_scalar_fuzz_inputs OUTPUT_DIR\n");
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);

  std::vector<Bytes> bases;
  bases.push_back(bodyOf(std::string(coralsim::isa::demoProgramText())));
  const char* snippets[] = {
      "s1 = mov 0x7\ns2 = add s1, 0x3\ns3 = sub s2, s1\np1 = eq s3, 0x3\n",
      "s1 = mov 0x1\np0 = lt s1, 0x5\n(p0) br +2\ns2 = mov 0x2\ns3 = mov 0x3\n",
      "loop n=7 body=2\ns1 = add s1, 0x1\ns2 = add s2, 0x2\n",
      "loop n=3 body=1\ns3 = add s3, 0x3\n",
      "s1 = mov 0x10\nmem[0x20] = s1\ns2 = ld [0x20]\n",
      "s1 = mov 0x3ff\nmem[0x3ff] = s1\n",
      "s1 = mov 0x1\nmem[0x1fff] = s1\n",
      "br -1\n",
      "br +2\ntile.dma10 mask=0x0001\n",
      "tile.sync mask=0xffff\n",
      "s1 = mov 0x4\np11 = eq s1, 0x4\np31 = ne s1, 0x4\n",
      "s4 = mov 0x9\nst.op9 0x12, s1\n",
  };
  for (const char* s : snippets) {
    try {
      bases.push_back(bodyOfSnippet(s));
    } catch (const coralsim::isa::AsmError& e) {
      std::fprintf(stderr, "make_scalar_fuzz_inputs: skipping a snippet: %s\n", e.what());
    }
  }

  std::mt19937 rng(20261121);
  size_t count = 0;
  auto emit = [&](const Bytes& b) { write(dir, "input_" + std::to_string(count++), b); };
  for (const Bytes& b : bases) emit(b);
  while (count < 50) {
    Bytes b = bases[rng() % bases.size()];
    if (b.empty()) continue;
    switch (rng() % 4) {
      case 0:  // flip a few bits
        for (unsigned i = 0, n = 1 + rng() % 4; i < n; ++i) b[rng() % b.size()] ^= static_cast<uint8_t>(1u << (rng() % 8));
        break;
      case 1:  // cut anywhere (the harness pads the last word with zeros)
        b.resize(rng() % b.size());
        break;
      case 2: {  // drop one word
        const size_t w = rng() % (b.size() / Word128::kBytes);
        b.erase(b.begin() + static_cast<std::ptrdiff_t>(w * Word128::kBytes),
                b.begin() + static_cast<std::ptrdiff_t>((w + 1) * Word128::kBytes));
        break;
      }
      default: {  // duplicate one word
        const size_t w = rng() % (b.size() / Word128::kBytes);
        const Bytes word(b.begin() + static_cast<std::ptrdiff_t>(w * Word128::kBytes),
                         b.begin() + static_cast<std::ptrdiff_t>((w + 1) * Word128::kBytes));
        b.insert(b.begin() + static_cast<std::ptrdiff_t>(w * Word128::kBytes), word.begin(), word.end());
        break;
      }
    }
    emit(b);
  }
  std::printf("make_scalar_fuzz_inputs: %zu inputs in %s\n", count, dir.c_str());
  return 0;
}

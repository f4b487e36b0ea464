// Writes the committed bad inputs of the fuzz_model_loader target: small valid models of every
// kind the loader accepts, built from OUR schemas (tests/support/test_models.h, never corpus
// bytes), plus truncated and bit-flipped variants of each. Deterministic: a fixed seed and raw
// std::mt19937 output (its sequence is specified by the standard), so re-running reproduces the
// directory byte for byte.
//
//   make_model_loader_inputs tests/fuzz/inputs/fuzz_model_loader
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/test_models.h"

namespace {

using Bytes = std::vector<uint8_t>;
using namespace coralsim::testing;

std::vector<std::pair<std::string, Bytes>> seeds() {
  ExecutableSpec pc;
  pc.type = 1;
  pc.parameterBytes = 64;
  pc.withLayers = false;
  ExecutableSpec chunks;
  chunks.chunkBytes = {64, 32};
  TfliteSpec large;
  large.customOptions = buildCustomOptions(buildPackage({buildExecutable({})}));
  large.largeCustomOptions = true;
  std::vector<uint8_t> raw(64);
  for (size_t i = 0; i < raw.size(); ++i) raw[i] = static_cast<uint8_t>(i * 13);
  return {
      {"tflite", buildDefaultTflite()},
      {"tflite_pc_eo", buildTfliteWithOptions(buildCustomOptions(buildPackage({buildExecutable({}), buildExecutable(pc)})))},
      {"tflite_cpu_twin", buildTflite(TfliteSpec{})},
      {"tflite_key7", buildTfliteWithOptions(buildCustomOptions(buildPackage({buildExecutable(chunks)}), "7"))},
      {"tflite_legacy", buildTfliteWithOptions(buildCustomOptions(buildExecutable({})))},
      {"tflite_large_options", buildTflite(large)},
      {"package", buildPackage({buildExecutable({})})},
      {"executable", buildExecutable(chunks)},
      {"raw", raw},
  };
}

void write(const std::filesystem::path& path, const Bytes& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) {
    std::fprintf(stderr, "cannot write %s\n", path.c_str());
    std::exit(1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT_DIR\n", argv[0]);
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  std::mt19937 rng(20240521);
  size_t written = 0;
  for (const auto& [name, bytes] : seeds()) {
    write(dir / (name + "_valid.bin"), bytes);
    ++written;
    // Truncations: near the start (headers, root offsets), the middle, and near the end.
    const size_t n = bytes.size();
    for (size_t cut : {size_t{3}, size_t{11}, n / 3, n / 2, n - 1 - rng() % (n / 4 + 1)}) {
      if (cut >= n) continue;
      write(dir / (name + "_trunc_" + std::to_string(cut) + ".bin"), Bytes(bytes.begin(), bytes.begin() + cut));
      ++written;
    }
    // Bit flips: one to four random bits, anywhere.
    for (int variant = 0; variant < 11; ++variant) {
      Bytes flipped = bytes;
      const int flips = 1 + static_cast<int>(rng() % 4);
      for (int f = 0; f < flips; ++f) {
        const size_t bit = rng() % (flipped.size() * 8);
        flipped[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
      }
      write(dir / (name + "_flip_" + std::to_string(variant) + ".bin"), flipped);
      ++written;
    }
  }
  std::printf("wrote %zu inputs to %s\n", written, dir.c_str());
  return 0;
}

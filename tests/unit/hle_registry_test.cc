// The hle program registry's chunk identification and the hle rung's device byte order, on a
// hand-built one-op program (RESHAPE, which copies bytes), so every expected byte is written out.
#include <gtest/gtest.h>

#include <numeric>
#include <string>

#include "models/chip/block_interfaces.h"
#include "models/chip/datapath_rung.h"
#include "models/hle/hle_rung.h"
#include "models/hle/program_registry.h"

namespace {

namespace hle = coralsim::hle;
using coralsim::models::ChipConfig;
using coralsim::models::DatapathRung;

TEST(HleRegistry, FnvOfKnownText) {
  // FNV-1a 64 test vectors (Fowler/Noll/Vo reference): "" and "a".
  EXPECT_EQ(hle::rawChunkHash({}), 0xcbf29ce484222325ULL);
  const uint8_t a = 'a';
  EXPECT_EQ(hle::rawChunkHash(std::span<const uint8_t>(&a, 1)), 0xaf63dc4c8601ec8cULL);
}

TEST(HleRegistry, MaskedHashIgnoresExactlyTheLinkedField) {
  std::vector<uint8_t> chunk(32);
  std::iota(chunk.begin(), chunk.end(), 1);
  const std::vector<int64_t> linked = {44};  // bits 44..75: the top nibble of byte 5 .. low nibble of byte 9
  const uint64_t base = hle::maskedChunkHash(chunk, linked);
  auto flip = [&](int64_t bit) {
    std::vector<uint8_t> c = chunk;
    c[static_cast<size_t>(bit / 8)] ^= static_cast<uint8_t>(1U << (bit % 8));
    return hle::maskedChunkHash(c, linked);
  };
  EXPECT_EQ(flip(44), base);
  EXPECT_EQ(flip(60), base);
  EXPECT_EQ(flip(75), base);
  EXPECT_NE(flip(43), base);
  EXPECT_NE(flip(76), base);
  EXPECT_NE(hle::rawChunkHash(chunk), base);  // the field's own bits are not zero here
}

// One executable: chunk of 16 bytes with a linked field at bit 32; input int8 [1,2,3,4]; output
// int8 [1,2,3,4] = RESHAPE of the input, tile-major (tile 0: x = 0, 1; tile 1 at +16: x = 2), sent
// in two output DMAs of 16 and 8 bytes.
std::shared_ptr<const hle::ProgramRegistry> reshapeRegistry(std::vector<uint8_t>& chunk) {
  auto graph = std::make_shared<hle::Graph>();
  hle::Tensor t;
  t.shape = {1, 2, 3, 4};
  t.type = hle::ElementType::Int8;
  t.scale = {0.5F};
  t.zeroPoint = {0};
  t.name = "in";
  graph->tensors.push_back(t);
  t.name = "out";
  graph->tensors.push_back(t);
  hle::Op op;
  op.builtinCode = 22;  // RESHAPE
  op.name = "RESHAPE";
  op.inputs = {0};
  op.outputs = {1};
  graph->ops.push_back(op);
  graph->inputs = {0};
  graph->outputs = {1};

  chunk.assign(16, 0);
  std::iota(chunk.begin(), chunk.end(), 0x40);
  hle::ProgramExecutable exe;
  exe.label = "executable 0 (EXECUTION_ONLY)";
  exe.role = hle::ExecutableRole::kExecutionOnly;
  exe.chunks.push_back({16, {32}, hle::maskedChunkHash(chunk, std::vector<int64_t>{32})});
  hle::LayerBinding in{"in", 24, 24, 0, "in", true, 2, 3, 4, std::nullopt, "name", ""};
  hle::LayerBinding out{"out", 24, 24, 1, "out", true, 2, 3, 4,
                        hle::TileLayout{{0, 0}, {0, 0, 1}, {0, 16}, {0, 4, 0}, {0, 1}, {8, 8, 4}}, "name", ""};
  exe.inputs.push_back(in);
  exe.outputs.push_back(out);
  exe.inputStream = {{0, 0, 24}};
  exe.outputStream = {{0, 0, 16}, {0, 16, 8}};
  hle::Program program;
  program.name = "reshape";
  program.graph = graph;
  program.executables.push_back(exe);
  std::vector<hle::Program> programs;
  programs.push_back(program);
  return std::make_shared<const hle::ProgramRegistry>(std::move(programs));
}

class FixedStreams : public coralsim::models::RunStreams {
 public:
  explicit FixedStreams(std::vector<uint8_t> input) : input_(std::move(input)) {}
  std::span<const uint8_t> inputBytes() const override { return input_; }
  std::span<const uint8_t> parameterBytes() const override { return {}; }

 private:
  std::vector<uint8_t> input_;
};

TEST(HleRung, RecognisesTheLinkedChunkAndSendsDeviceOrder) {
  std::vector<uint8_t> chunk;
  ChipConfig config;
  config.hlePrograms = reshapeRegistry(chunk);
  std::unique_ptr<DatapathRung> rung = coralsim::models::makeHleRung(config);
  ASSERT_TRUE(rung);
  rung->reset();
  rung->beginRun();

  // The host linked an address into bits 32..63: still the same program.
  std::vector<uint8_t> linked = chunk;
  linked[4] = 0xaa;
  linked[7] = 0x55;
  EXPECT_EQ(rung->acceptChunk(linked), "");

  // Device input bytes = TFLite int8 values XOR 0x80; TFLite values 0..23.
  std::vector<uint8_t> device(24);
  for (size_t i = 0; i < 24; ++i) device[i] = static_cast<uint8_t>(i ^ 0x80);
  const FixedStreams streams(device);
  // The output goes back XOR 0x80, tile-major: TFLite elements (0,0) (0,1) (1,0) (1,1) | (0,2) (1,2).
  const std::vector<uint8_t> order = {0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 14, 15, 16, 17, 18, 19, 8, 9, 10, 11, 20, 21, 22, 23};
  std::vector<uint8_t> expected;
  for (uint8_t v : order) expected.push_back(static_cast<uint8_t>(v ^ 0x80));

  const std::vector<uint8_t> first = rung->windowTail(0, 16, 0, streams);
  EXPECT_EQ(first, std::vector<uint8_t>(expected.begin(), expected.begin() + 16));
  // The second window's first 4 bytes came from scalar stream words: the rung sends the rest and
  // overwrites the streamed head with the computed bytes.
  const std::vector<uint8_t> second = rung->windowTail(1, 8, 4, streams);
  EXPECT_EQ(second, std::vector<uint8_t>(expected.begin() + 20, expected.end()));
  std::vector<uint8_t> head = {0, 0, 0, 0};
  rung->overwriteStreamedHead(1, head);
  EXPECT_EQ(head, std::vector<uint8_t>(expected.begin() + 16, expected.begin() + 20));
  rung->endRun();
}

TEST(HleRung, RefusesAnUnknownChunkNamingItsHash) {
  std::vector<uint8_t> chunk;
  ChipConfig config;
  config.hlePrograms = reshapeRegistry(chunk);
  std::unique_ptr<DatapathRung> rung = coralsim::models::makeHleRung(config);
  rung->beginRun();
  std::vector<uint8_t> other = chunk;
  other[0] ^= 1;  // outside the linked field
  const std::string why = rung->acceptChunk(other);
  EXPECT_NE(why.find("matches none of the 1 registered executables"), std::string::npos) << why;
  EXPECT_NE(why.find("0x"), std::string::npos) << why;
  // A second chunk the executable does not have is refused too.
  rung->beginRun();
  EXPECT_EQ(rung->acceptChunk(chunk), "");
  EXPECT_NE(rung->acceptChunk(chunk), "");
}

TEST(HleRung, NoRegistryNoRung) {
  ChipConfig config;
  EXPECT_EQ(coralsim::models::makeHleRung(config), nullptr);
  config.hlePrograms = std::make_shared<const hle::ProgramRegistry>(std::vector<hle::Program>{});
  EXPECT_EQ(coralsim::models::makeHleRung(config), nullptr);
}

TEST(HleRung, InputShorterThanTheProgramNeedsIsAChipFault) {
  std::vector<uint8_t> chunk;
  ChipConfig config;
  config.hlePrograms = reshapeRegistry(chunk);
  std::unique_ptr<DatapathRung> rung = coralsim::models::makeHleRung(config);
  rung->beginRun();
  ASSERT_EQ(rung->acceptChunk(chunk), "");
  // A streaming program may open early windows before all input is in; the last one may not.
  const FixedStreams shortInput(std::vector<uint8_t>(10));
  EXPECT_EQ(rung->windowTail(0, 16, 0, shortInput).size(), 16U);
  try {
    (void)rung->windowTail(1, 8, 0, shortInput);
    FAIL() << "expected a ChipFault";
  } catch (const coralsim::models::ChipFault& f) {
    EXPECT_EQ(f.kind(), coralsim::models::FaultKind::kUnsupported);
    EXPECT_NE(std::string(f.what()).find("after 10 of the 24 input stream bytes"), std::string::npos) << f.what();
  }
}

}  // namespace

// Model loader on models built in memory from our own schemas (tests/support/test_models.h):
// every container the loader accepts, and malformed variants whose LoadError must name the place.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "driver/model/model_loader.h"
#include "driver/model/schema/executable_generated.h"
#include "tests/support/test_models.h"

namespace coralsim::driver::driver_loader_test {
namespace {

using testing::buildCustomOptions;
using testing::buildExecutable;
using testing::buildPackage;
using testing::buildTflite;
using testing::buildTfliteWithOptions;
using testing::ExecutableSpec;
using testing::TfliteSpec;

ModelFile load(const std::vector<uint8_t>& bytes, const std::string& name = "test.tflite") {
  return loadModelFromMemory(bytes, name);
}

// The LoadError message of loading `bytes`, or "" when it loads.
std::string loadError(const std::vector<uint8_t>& bytes, const std::string& name = "bad.tflite") {
  try {
    load(bytes, name);
  } catch (const LoadError& e) {
    return e.what();
  }
  return "";
}

std::vector<uint8_t> tfliteWith(const ExecutableSpec& spec) {
  return buildTfliteWithOptions(buildCustomOptions(buildPackage({buildExecutable(spec)})));
}

void expectDefaultExecutable(const Executable& e, const ExecutableSpec& spec) {
  EXPECT_EQ(e.type, ExecutableType::ExecutionOnly);
  EXPECT_EQ(e.name, spec.name);
  EXPECT_EQ(e.chip, spec.chip);
  EXPECT_EQ(e.parameterCachingToken, spec.parameterCachingToken);
  EXPECT_EQ(e.estimatedCycles, spec.estimatedCycles);
  EXPECT_EQ(e.estimatedCycles64, spec.estimatedCycles64);
  EXPECT_EQ(e.usedNarrowMemoryBytesPerTile, spec.usedNarrowMemoryBytesPerTile);
  EXPECT_EQ(e.parameters.size(), spec.parameterBytes);
  EXPECT_EQ(e.parameters.at(1), 0xA1);
  ASSERT_EQ(e.bitstreams.size(), 1u);
  EXPECT_EQ(e.bitstreams[0].bytes.size(), 64u);
  EXPECT_EQ(e.bitstreams[0].bytes[3], 3 * 7 + 1);
  ASSERT_EQ(e.bitstreams[0].fieldOffsets.size(), 4u);
  const auto& in = e.bitstreams[0].fieldOffsets[2];
  ASSERT_TRUE(in.target);
  EXPECT_EQ(in.offsetBit, 2 * 128 + 70);
  EXPECT_EQ(in.target->kind, BufferKind::Input);
  EXPECT_EQ(in.target->name, testing::kTestInputName);
  EXPECT_EQ(e.bitstreams[0].fieldOffsets[1].target->half, AddressHalf::Upper32);

  ASSERT_TRUE(e.dmaHints);
  EXPECT_TRUE(e.dmaHints->fullyDeterministic);
  ASSERT_EQ(e.dmaHints->hints.size(), 5u);
  EXPECT_EQ(e.dmaHints->hints[0].kind, HintKind::Instruction);
  EXPECT_EQ(e.dmaHints->hints[1].kind, HintKind::Dma);
  EXPECT_EQ(e.dmaHints->hints[1].buffer->kind, BufferKind::Parameter);
  EXPECT_EQ(e.dmaHints->hints[1].size, 32);
  EXPECT_EQ(e.dmaHints->hints[3].direction, DmaDirection::Outfeed);
  EXPECT_EQ(e.dmaHints->hints[4].kind, HintKind::Interrupt);

  ASSERT_EQ(e.inputLayers.size(), 1u);
  ASSERT_EQ(e.outputLayers.size(), 1u);
  const Layer& out = e.outputLayers[0];
  EXPECT_EQ(out.name, testing::kTestOutputName);
  EXPECT_EQ(out.kind, LayerKind::Output);
  EXPECT_EQ(out.zDim, 8);
  ASSERT_TRUE(out.numerics);
  EXPECT_EQ(out.numerics->zeroPoint, 5);
  EXPECT_FLOAT_EQ(out.numerics->dequantizationFactor, 0.25f);
  ASSERT_TRUE(out.shape);
  EXPECT_EQ(out.shape->at(1).end, 7);
  ASSERT_TRUE(out.outputLayout);
  EXPECT_EQ(out.outputLayout->xCoordinateToLocalYRowSize, std::vector<int32_t>{8});
  EXPECT_EQ(e.inputLayers[0].kind, LayerKind::Input);
  EXPECT_FALSE(e.inputLayers[0].outputLayout);
}

TEST(ModelLoader, LoadsCompiledTfliteWithPackage) {
  const ExecutableSpec spec;
  const ModelFile m = load(tfliteWith(spec));
  EXPECT_EQ(m.kind, ModelKind::Tflite);
  ASSERT_TRUE(m.tflite);
  ASSERT_EQ(m.tflite->subgraphs.size(), 1u);
  const auto& sg = m.tflite->subgraphs[0];
  ASSERT_EQ(sg.operators.size(), 2u);
  EXPECT_EQ(sg.operators[0].name, "edgetpu-custom-op");
  EXPECT_TRUE(sg.operators[0].runsOnEdgeTpu);
  EXPECT_EQ(sg.operators[1].name, "DEQUANTIZE");
  EXPECT_EQ(m.tflite->cpuOps, std::vector<std::string>{"DEQUANTIZE"});
  EXPECT_EQ(sg.tensors[0].scale, std::vector<float>{0.5f});
  EXPECT_EQ(sg.tensors[0].zeroPoint, std::vector<int64_t>{3});
  EXPECT_EQ(sg.tensors[0].shape, (std::vector<int32_t>{1, 8}));
  EXPECT_EQ(m.tflite->buffers.at(1), (std::vector<uint8_t>{1, 2, 3, 4}));

  ASSERT_EQ(m.edgeTpuOps.size(), 1u);
  const auto& op = m.edgeTpuOps[0];
  EXPECT_EQ(op.inputs, std::vector<int32_t>{0});
  ASSERT_NE(op.options.find("5"), nullptr);
  EXPECT_EQ(op.options.find("5")->intValue, -1);
  ASSERT_EQ(op.packages.size(), 1u);
  EXPECT_EQ(op.packages[0].flexKey, "4");
  EXPECT_EQ(op.packages[0].fileIdentifier, "DWN1");
  EXPECT_EQ(op.packages[0].compilerVersion, "coralsim-test");
  ASSERT_EQ(op.packages[0].executables.size(), 1u);
  expectDefaultExecutable(op.packages[0].executables[0], spec);
  EXPECT_EQ(allExecutables(m).size(), 1u);
}

TEST(ModelLoader, LoadsCpuOnlyTwin) {
  const ModelFile m = load(buildTflite(TfliteSpec{}));
  EXPECT_EQ(m.kind, ModelKind::Tflite);
  EXPECT_TRUE(m.edgeTpuOps.empty());
  EXPECT_EQ(m.tflite->cpuOps, (std::vector<std::string>{"DEQUANTIZE", "QUANTIZE"}));
}

TEST(ModelLoader, LoadsPackageAndCachingExecutablePair) {
  ExecutableSpec pc;
  pc.type = 1;
  pc.name = "Unknown";
  pc.parameterBytes = 256;
  pc.withLayers = false;
  const ModelFile m = load(buildTfliteWithOptions(buildCustomOptions(buildPackage({buildExecutable({}), buildExecutable(pc)}))));
  const auto exes = allExecutables(m);
  ASSERT_EQ(exes.size(), 2u);
  EXPECT_EQ(exes[1]->type, ExecutableType::ParameterCaching);
  EXPECT_EQ(exes[1]->parameters.size(), 256u);
  EXPECT_EQ(exes[0]->parameterCachingToken, exes[1]->parameterCachingToken);
}

TEST(ModelLoader, LoadsPackagesFromKey7Vector) {
  const ModelFile m = load(buildTfliteWithOptions(buildCustomOptions(buildPackage({buildExecutable({})}), "7")));
  ASSERT_EQ(m.edgeTpuOps.at(0).packages.size(), 1u);
  EXPECT_EQ(m.edgeTpuOps[0].packages[0].flexKey, "7[0]");
}

TEST(ModelLoader, LoadsLegacyBareExecutableInCustomOptions) {
  const ModelFile m = load(buildTfliteWithOptions(buildCustomOptions(buildExecutable({}))));
  const auto& pkg = m.edgeTpuOps.at(0).packages.at(0);
  EXPECT_TRUE(pkg.legacyBareExecutable);
  EXPECT_EQ(pkg.executables.size(), 1u);
}

TEST(ModelLoader, LoadsLargeCustomOptionsStoredAfterTheFlatbuffer) {
  TfliteSpec spec;
  spec.customOptions = buildCustomOptions(buildPackage({buildExecutable({})}));
  spec.largeCustomOptions = true;
  const ModelFile m = load(buildTflite(spec));
  expectDefaultExecutable(m.edgeTpuOps.at(0).packages.at(0).executables.at(0), ExecutableSpec{});
}

TEST(ModelLoader, LoadsBarePackageAndBareExecutable) {
  const ModelFile p = load(buildPackage({buildExecutable({})}), "x.bin");
  EXPECT_EQ(p.kind, ModelKind::DarwinnPackage);
  expectDefaultExecutable(p.packages.at(0).executables.at(0), ExecutableSpec{});
  const ModelFile e = load(buildExecutable({}), "serialized_executable_000.bin");
  EXPECT_EQ(e.kind, ModelKind::DarwinnExecutable);
  expectDefaultExecutable(e.executables.at(0), ExecutableSpec{});
}

TEST(ModelLoader, LoadsRawProgramOnlyByItsName) {
  std::vector<uint8_t> words(48, 0x5a);
  const ModelFile m = load(words, "prog.coral");
  EXPECT_EQ(m.kind, ModelKind::RawBitstream);
  ASSERT_TRUE(m.rawBitstream);
  EXPECT_EQ(m.rawBitstream->bytes, words);
  EXPECT_NE(loadError(words, "prog.bin").find("prog.bin: not a TFLite model"), std::string::npos);
  words.resize(40);
  EXPECT_NE(loadError(words, "prog.coral").find("prog.coral: raw program of 40 bytes is not a whole number"),
            std::string::npos);
}

TEST(ModelLoader, ErrorsNameTheFileAndPlace) {
  // Too short to hold anything.
  EXPECT_NE(loadError({1, 2, 3}).find("bad.tflite: file of 3 bytes is too small"), std::string::npos);

  // A TFLite file cut in half fails verification of the Model table.
  auto cut = testing::buildDefaultTflite();
  cut.resize(cut.size() / 2);
  EXPECT_NE(loadError(cut).find("bad.tflite: TFLite Model: flatbuffer verification failed"), std::string::npos);

  // custom_options that are not a FlexBuffer at all.
  EXPECT_NE(loadError(buildTfliteWithOptions(std::vector<uint8_t>(40, 0xff)))
                .find("bad.tflite: custom op 0 (subgraph 0, operator 0): custom_options: FlexBuffer verification failed"),
            std::string::npos);

  // A FlexBuffer map without any program blob.
  EXPECT_NE(loadError(buildTfliteWithOptions(buildCustomOptions({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, "9")))
                .find("custom op 0 (subgraph 0, operator 0): custom_options hold no DarwiNN Package"),
            std::string::npos);

  // Index fields of the graph.
  TfliteSpec badOpcode;
  badOpcode.customOptions = buildCustomOptions(buildPackage({buildExecutable({})}));
  badOpcode.badOpcodeIndex = 7;
  EXPECT_NE(loadError(buildTflite(badOpcode)).find("subgraph 0: operator 1: opcode_index 7 out of range"),
            std::string::npos);
  TfliteSpec badTensor;
  badTensor.badTensorIndex = 42;
  EXPECT_NE(loadError(buildTflite(badTensor)).find("subgraph 0: operator 1: inputs[0] = 42 is not a tensor index"),
            std::string::npos);
}

TEST(ModelLoader, CorruptPackageIsReportedAtItsOffsetInCustomOptions) {
  auto pkg = buildPackage({buildExecutable({})});
  const auto options = buildCustomOptions(pkg);
  // Where the package starts inside custom_options: found by content, independent of the loader.
  const auto at = std::search(options.begin(), options.end(), pkg.begin(), pkg.end()) - options.begin();
  ASSERT_LT(static_cast<size_t>(at), options.size());
  pkg[3] = 0x7F;  // root offset far outside the buffer; the identifier stays intact
  const std::string error = loadError(buildTfliteWithOptions(buildCustomOptions(pkg)));
  EXPECT_NE(error.find("bad.tflite: custom op 0 (subgraph 0, operator 0): Package at custom_options+" +
                       std::to_string(at) + " (key 4): Package: flatbuffer verification failed"),
            std::string::npos)
      << error;
}

TEST(ModelLoader, ExecutableCrossReferencesAreChecked) {
  ExecutableSpec oddChunk;
  oddChunk.chunkBytes = {64, 17};
  EXPECT_NE(loadError(tfliteWith(oddChunk))
                .find("MultiExecutable: executable 0: instruction_bitstreams[1]: 17 bytes is not a whole number"),
            std::string::npos);

  ExecutableSpec badBit;
  badBit.badFieldOffsetBit = 64 * 8 - 16;
  EXPECT_NE(loadError(tfliteWith(badBit)).find("instruction_bitstreams[0]: field_offsets[0]: offset_bit 496"),
            std::string::npos);

  ExecutableSpec badChunk;
  badChunk.badInstructionChunk = 5;
  EXPECT_NE(loadError(tfliteWith(badChunk)).find("dma_hints.hints[0]: instruction_bitstream_index 5 names no chunk"),
            std::string::npos);

  ExecutableSpec badParams;
  badParams.badParameterDmaSize = 33;
  EXPECT_NE(loadError(tfliteWith(badParams)).find("dma_hints.hints[1]: parameter block [0, +33) runs past the 32"),
            std::string::npos);
}

// The printed names in driver/model/darwinn_enums.def must match the enumerators of our schema.
TEST(DarwinnEnums, NamesMatchTheSchema) {
  namespace fb = coralsim::fbs::darwinn;
  for (int v = 0; v <= 2; ++v) {
    EXPECT_EQ(executableTypeName(static_cast<ExecutableType>(v)).value(),
              fb::EnumNameExecutableType(static_cast<fb::ExecutableType>(v)));
  }
  for (int v = 0; v <= 1; ++v) {
    EXPECT_EQ(addressHalfName(static_cast<AddressHalf>(v)).value(), fb::EnumNamePosition(static_cast<fb::Position>(v)));
  }
  for (int v = 0; v <= 3; ++v) {
    EXPECT_EQ(interruptTypeName(static_cast<InterruptType>(v)).value(),
              fb::EnumNameInterruptType(static_cast<fb::InterruptType>(v)));
  }
  for (int v : {0, 1, 2, 3, 4, 5, 8, 9}) {
    EXPECT_EQ(layerDataTypeName(static_cast<LayerDataType>(v)).value(),
              fb::EnumNameDataType(static_cast<fb::DataType>(v)));
  }
  EXPECT_FALSE(executableTypeName(static_cast<ExecutableType>(7)));
  EXPECT_FALSE(layerDataTypeName(static_cast<LayerDataType>(6)));
}

}  // namespace
}  // namespace coralsim::driver::driver_loader_test

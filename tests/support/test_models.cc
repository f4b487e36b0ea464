#include "tests/support/test_models.h"

#include <flatbuffers/flatbuffers.h>
#include <flatbuffers/flexbuffers.h>

#include "driver/model/schema/executable_generated.h"
#include "driver/model/schema/tflite_generated.h"

namespace coralsim::testing {
namespace dw = coralsim::fbs::darwinn;
namespace tfl = coralsim::fbs::tflite;

namespace {

template <typename T>
flatbuffers::Offset<flatbuffers::Vector<T>> vec(flatbuffers::FlatBufferBuilder& b, const std::vector<T>& v) {
  return b.CreateVector(v);
}

std::vector<uint8_t> finished(flatbuffers::FlatBufferBuilder& b) {
  return {b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize()};
}

flatbuffers::Offset<dw::FieldOffsetMeta> meta(flatbuffers::FlatBufferBuilder& b, dw::Description desc,
                                              const char* name, dw::Position pos = dw::Position_LOWER_32BIT) {
  return dw::CreateFieldOffsetMetaDirect(b, desc, 0, name, pos);
}

flatbuffers::Offset<dw::DmaHint> dmaHint(flatbuffers::FlatBufferBuilder& b, dw::Description desc, const char* name,
                                         int32_t offset, int32_t size, dw::Direction dir) {
  const auto h = dw::CreateDmaDescriptorHint(b, meta(b, desc, name), offset, size);
  return dw::CreateDmaHint(b, dw::AnyHint_DmaDescriptorHint, h.Union(), dir);
}

flatbuffers::Offset<dw::Layer> layer(flatbuffers::FlatBufferBuilder& b, bool output) {
  const auto numerics = dw::CreateNumerics(b, output ? 5 : 3, output ? 0.25f : 0.5f);
  std::vector<dw::Range> dims = {dw::Range(0, 0), dw::Range(0, 7)};
  const auto shape = dw::CreateTensorShapeDirect(b, &dims);
  flatbuffers::Offset<void> any;
  if (output) {
    // One statement per vector: argument evaluation order is unspecified, and the generated
    // fuzz inputs must be byte-identical whichever compiler built the generator.
    const auto yTile = vec<int32_t>(b, {0});
    const auto xTile = vec<int32_t>(b, {0});
    const auto tileOffset = vec<int32_t>(b, {0});
    const auto xLocal = vec<int32_t>(b, {0});
    const auto yLocal = vec<int32_t>(b, {0});
    const auto rowSize = vec<int32_t>(b, {8});
    const auto layout = dw::CreateOutputLayout(b, yTile, xTile, tileOffset, xLocal, yLocal, rowSize);
    any = dw::CreateOutputLayer(b, layout).Union();
  } else {
    any = dw::CreateInputLayer(b).Union();
  }
  return dw::CreateLayerDirect(b, output ? kTestOutputName : kTestInputName, 8, 1, 1, 8, numerics,
                               dw::DataType_FIXED_POINT8, output ? dw::AnyLayer_OutputLayer : dw::AnyLayer_InputLayer,
                               any, 1, false, shape);
}

}  // namespace

std::vector<uint8_t> buildExecutable(const ExecutableSpec& spec) {
  flatbuffers::FlatBufferBuilder b;
  std::vector<flatbuffers::Offset<dw::InstructionBitstream>> chunks;
  for (size_t c = 0; c < spec.chunkBytes.size(); ++c) {
    std::vector<uint8_t> bytes(spec.chunkBytes[c]);
    for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 7 + c + 1);
    std::vector<flatbuffers::Offset<dw::FieldOffset>> offsets;
    if (spec.withFieldOffsets && c == 0) {
      // One link point per word at bit 70 (the MOVI immediate), as the compiler places them.
      const struct {
        dw::Description desc;
        const char* name;
        dw::Position pos;
      } points[] = {{dw::Description_PARAMETER, "", dw::Position_LOWER_32BIT},
                    {dw::Description_PARAMETER, "", dw::Position_UPPER_32BIT},
                    {dw::Description_INPUT, kTestInputName, dw::Position_LOWER_32BIT},
                    {dw::Description_OUTPUT, kTestOutputName, dw::Position_UPPER_32BIT}};
      for (size_t p = 0; p < 4 && p < bytes.size() / 16; ++p) {
        int32_t bit = static_cast<int32_t>(p * 128 + 70);
        if (p == 0 && spec.badFieldOffsetBit) bit = *spec.badFieldOffsetBit;
        offsets.push_back(dw::CreateFieldOffset(b, meta(b, points[p].desc, points[p].name, points[p].pos), bit));
      }
    }
    chunks.push_back(dw::CreateInstructionBitstreamDirect(b, &bytes, &offsets));
  }
  std::vector<uint8_t> parameters(spec.parameterBytes);
  for (size_t i = 0; i < parameters.size(); ++i) parameters[i] = static_cast<uint8_t>(0xA0 + i);

  flatbuffers::Offset<dw::DmaHints> hints = 0;
  if (spec.withHints) {
    std::vector<flatbuffers::Offset<dw::DmaHint>> list;
    const int32_t chunk0 = spec.badInstructionChunk.value_or(0);
    list.push_back(dw::CreateDmaHint(b, dw::AnyHint_InstructionHint, dw::CreateInstructionHint(b, chunk0).Union(),
                                     dw::Direction_INFEED));
    const auto paramSize = spec.badParameterDmaSize.value_or(static_cast<int32_t>(spec.parameterBytes));
    if (paramSize > 0) list.push_back(dmaHint(b, dw::Description_PARAMETER, "", 0, paramSize, dw::Direction_INFEED));
    list.push_back(dmaHint(b, dw::Description_INPUT, kTestInputName, 0, 8, dw::Direction_INFEED));
    for (size_t c = 1; c < spec.chunkBytes.size(); ++c) {
      list.push_back(dw::CreateDmaHint(b, dw::AnyHint_InstructionHint,
                                       dw::CreateInstructionHint(b, static_cast<int32_t>(c)).Union(),
                                       dw::Direction_INFEED));
    }
    list.push_back(dmaHint(b, dw::Description_OUTPUT, kTestOutputName, 0, 8, dw::Direction_OUTFEED));
    list.push_back(dw::CreateDmaHint(b, dw::AnyHint_InterruptHint,
                                     dw::CreateInterruptHint(b, dw::InterruptType_SCALAR_CORE_INT_0).Union(),
                                     dw::Direction_OUTFEED));
    hints = dw::CreateDmaHintsDirect(b, &list, true);
  }
  std::vector<flatbuffers::Offset<dw::Layer>> inputs, outputs;
  if (spec.withLayers) {
    inputs.push_back(layer(b, false));
    outputs.push_back(layer(b, true));
  }
  const auto exe = dw::CreateExecutableDirect(
      b, 0, spec.name.c_str(), nullptr, 1, 0, &chunks, &parameters, hints, &inputs, &outputs, spec.chip.c_str(),
      spec.estimatedCycles, spec.usedNarrowMemoryBytesPerTile, static_cast<dw::ExecutableType>(spec.type),
      spec.parameterCachingToken, false, spec.estimatedCycles64);
  b.Finish(exe);
  return finished(b);
}

std::vector<uint8_t> buildPackage(const std::vector<std::vector<uint8_t>>& executables) {
  flatbuffers::FlatBufferBuilder mb;
  std::vector<flatbuffers::Offset<flatbuffers::String>> serialized;
  for (const auto& e : executables) serialized.push_back(mb.CreateString(reinterpret_cast<const char*>(e.data()), e.size()));
  mb.Finish(dw::CreateMultiExecutableDirect(mb, &serialized));
  const std::vector<uint8_t> multi = finished(mb);

  flatbuffers::FlatBufferBuilder b;
  b.Finish(dw::CreatePackageDirect(b, 14, &multi, nullptr, 0, "coralsim-test", 0, nullptr, ""),
           dw::PackageIdentifier());
  return finished(b);
}

std::vector<uint8_t> buildCustomOptions(const std::vector<uint8_t>& program, const std::string& key) {
  flexbuffers::Builder fb;
  fb.Map([&] {
    fb.Int("1", 0);
    if (key == "7") {
      fb.Vector("7", [&] { fb.Blob(program.data(), program.size()); });
    } else {
      // Compiled models store the program as a FlexBuffer string; the loader accepts both.
      // (Through std::string: the builder copies the terminating NUL from its source.)
      fb.String(key.c_str(), std::string(program.begin(), program.end()));
      fb.Vector("7", [] {});
    }
    fb.Int("5", -1);
    fb.Vector("6", [&] { fb.Int(18); });
  });
  fb.Finish();
  return fb.GetBuffer();
}

std::vector<uint8_t> buildTflite(const TfliteSpec& spec) {
  const bool compiled = spec.customOptions.has_value();
  const std::vector<uint8_t> empty;
  const std::vector<uint8_t>& options = compiled ? *spec.customOptions : empty;
  // Options stored after the flatbuffer need their final offset inside it: build once to learn
  // the size (a placeholder offset keeps the layout identical), then again with the real offset.
  uint64_t largeOffset = spec.largeCustomOptions ? (uint64_t{1} << 40) : 0;
  for (int pass = 0;; ++pass) {
    flatbuffers::FlatBufferBuilder b;
    b.ForceDefaults(spec.largeCustomOptions);
    const std::vector<float> inScale = {0.5f}, outScale = {0.25f};
    const std::vector<int64_t> inZp = {3}, outZp = {5};
    const std::vector<int32_t> shape = {1, 8};
    std::vector<flatbuffers::Offset<tfl::Tensor>> tensors;
    std::vector<flatbuffers::Offset<tfl::OperatorCode>> codes;
    std::vector<flatbuffers::Offset<tfl::Operator>> ops;
    const uint32_t cpuOpcode = spec.badOpcodeIndex.value_or(1);
    const int32_t cpuInput = spec.badTensorIndex.value_or(1);
    if (compiled) {
      tensors.push_back(tfl::CreateTensorDirect(b, &shape, tfl::TensorType_UINT8, 0, kTestInputName,
                                                tfl::CreateQuantizationParametersDirect(b, nullptr, nullptr, &inScale, &inZp)));
      tensors.push_back(tfl::CreateTensorDirect(b, &shape, tfl::TensorType_UINT8, 0, kTestOutputName,
                                                tfl::CreateQuantizationParametersDirect(b, nullptr, nullptr, &outScale, &outZp)));
      tensors.push_back(tfl::CreateTensorDirect(b, &shape, tfl::TensorType_FLOAT32, 1, "dequantized"));
      codes.push_back(tfl::CreateOperatorCodeDirect(b, 32, "edgetpu-custom-op", 1, 32));
      codes.push_back(tfl::CreateOperatorCodeDirect(b, 6, nullptr, 1, 6));  // DEQUANTIZE
      const std::vector<int32_t> in0 = {0}, out0 = {1}, in1 = {cpuInput}, out1 = {2};
      if (spec.largeCustomOptions) {
        ops.push_back(tfl::CreateOperatorDirect(b, 0, &in0, &out0, tfl::BuiltinOptions_NONE, 0, nullptr,
                                                tfl::CustomOptionsFormat_FLEXBUFFERS, nullptr, nullptr, largeOffset,
                                                options.size()));
      } else {
        ops.push_back(tfl::CreateOperatorDirect(b, 0, &in0, &out0, tfl::BuiltinOptions_NONE, 0, &options));
      }
      ops.push_back(tfl::CreateOperatorDirect(b, cpuOpcode, &in1, &out1));
    } else {
      tensors.push_back(tfl::CreateTensorDirect(b, &shape, tfl::TensorType_FLOAT32, 0, "float_input"));
      tensors.push_back(tfl::CreateTensorDirect(b, &shape, tfl::TensorType_UINT8, 0, "quantized",
                                                tfl::CreateQuantizationParametersDirect(b, nullptr, nullptr, &inScale, &inZp)));
      tensors.push_back(tfl::CreateTensorDirect(b, &shape, tfl::TensorType_FLOAT32, 1, "float_output"));
      codes.push_back(tfl::CreateOperatorCodeDirect(b, 114, nullptr, 1, 114));  // QUANTIZE
      codes.push_back(tfl::CreateOperatorCodeDirect(b, 6, nullptr, 1, 6));      // DEQUANTIZE
      const std::vector<int32_t> in0 = {0}, out0 = {1}, in1 = {cpuInput}, out1 = {2};
      ops.push_back(tfl::CreateOperatorDirect(b, 0, &in0, &out0));
      ops.push_back(tfl::CreateOperatorDirect(b, cpuOpcode, &in1, &out1));
    }
    const std::vector<int32_t> sgInputs = {0}, sgOutputs = {2};
    std::vector<flatbuffers::Offset<tfl::SubGraph>> subgraphs = {
        tfl::CreateSubGraphDirect(b, &tensors, &sgInputs, &sgOutputs, &ops, "main")};
    const std::vector<uint8_t> constant = {1, 2, 3, 4};
    std::vector<flatbuffers::Offset<tfl::Buffer>> buffers = {tfl::CreateBuffer(b),
                                                             tfl::CreateBufferDirect(b, &constant)};
    b.Finish(tfl::CreateModelDirect(b, 3, &codes, &subgraphs, "coralsim test model", &buffers),
             tfl::ModelIdentifier());
    std::vector<uint8_t> out = finished(b);
    if (!spec.largeCustomOptions) return out;
    const uint64_t aligned = (out.size() + 15) / 16 * 16;
    if (pass == 0) {
      largeOffset = aligned;
      continue;
    }
    out.resize(aligned, 0);
    out.insert(out.end(), options.begin(), options.end());
    return out;
  }
}

std::vector<uint8_t> buildTfliteWithOptions(const std::vector<uint8_t>& customOptions) {
  TfliteSpec spec;
  spec.customOptions = customOptions;
  return buildTflite(spec);
}

std::vector<uint8_t> buildDefaultTflite() { return buildTfliteWithOptions(buildCustomOptions(buildPackage({buildExecutable({})}))); }

}  // namespace coralsim::testing

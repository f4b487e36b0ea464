// builtin_options of a TFLite operator reach driver::TfliteOperator and, through the adapter,
// the hle graph: a model is built with our schema's generated builder (field ids are the on-disk
// TFLite numbering, see driver/model/schema/tflite.fbs) and read back by the verified loader.
#include <gtest/gtest.h>

#include <flatbuffers/flatbuffers.h>

#include "sim/hle_host/hle_graph.h"
#include "driver/model/model_loader.h"
#include "driver/model/schema/tflite_generated.h"
#include "tests/support/test_models.h"

namespace tfl = coralsim::fbs::tflite;

namespace {

std::vector<uint8_t> buildConvPoolModel() {
  flatbuffers::FlatBufferBuilder b;
  const std::vector<int32_t> inShape = {1, 4, 4, 1}, fShape = {1, 2, 2, 1}, outShape = {1, 2, 2, 1}, poolShape = {1, 1, 1, 1};
  const std::vector<float> scale = {0.5F};
  const std::vector<int64_t> zp = {3};
  auto q = [&] { return tfl::CreateQuantizationParametersDirect(b, nullptr, nullptr, &scale, &zp); };
  std::vector<flatbuffers::Offset<tfl::Tensor>> tensors = {
      tfl::CreateTensorDirect(b, &inShape, tfl::TensorType_UINT8, 0, "in", q()),
      tfl::CreateTensorDirect(b, &fShape, tfl::TensorType_UINT8, 1, "filter", q()),
      tfl::CreateTensorDirect(b, &outShape, tfl::TensorType_UINT8, 0, "conv", q()),
      tfl::CreateTensorDirect(b, &poolShape, tfl::TensorType_UINT8, 0, "pool", q())};
  std::vector<flatbuffers::Offset<tfl::OperatorCode>> codes = {tfl::CreateOperatorCodeDirect(b, 3, nullptr, 1, 3),
                                                               tfl::CreateOperatorCodeDirect(b, 17, nullptr, 1, 17)};
  const auto conv = tfl::CreateConv2DOptions(b, tfl::Padding_VALID, 2, 3, tfl::ActivationFunctionType_RELU6, 1, 2);
  const auto pool = tfl::CreatePool2DOptions(b, tfl::Padding_SAME, 1, 1, 2, 2, tfl::ActivationFunctionType_RELU);
  const std::vector<int32_t> convIn = {0, 1}, convOut = {2}, poolIn = {2}, poolOut = {3};
  std::vector<flatbuffers::Offset<tfl::Operator>> ops = {
      tfl::CreateOperatorDirect(b, 0, &convIn, &convOut, tfl::BuiltinOptions_Conv2DOptions, conv.Union()),
      tfl::CreateOperatorDirect(b, 1, &poolIn, &poolOut, tfl::BuiltinOptions_Pool2DOptions, pool.Union())};
  const std::vector<int32_t> sgIn = {0}, sgOut = {3};
  std::vector<flatbuffers::Offset<tfl::SubGraph>> subgraphs = {tfl::CreateSubGraphDirect(b, &tensors, &sgIn, &sgOut, &ops, "main")};
  const std::vector<uint8_t> weights = {4, 5, 6, 7};
  std::vector<flatbuffers::Offset<tfl::Buffer>> buffers = {tfl::CreateBuffer(b), tfl::CreateBufferDirect(b, &weights)};
  b.Finish(tfl::CreateModelDirect(b, 3, &codes, &subgraphs, "options test", &buffers), tfl::ModelIdentifier());
  return {b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize()};
}

TEST(DriverBuiltinOptions, ConvAndPoolOptionsAreRead) {
  const auto bytes = buildConvPoolModel();
  const auto model = coralsim::driver::loadModelFromMemory(bytes, "options.tflite");
  ASSERT_TRUE(model.tflite);
  const auto& ops = model.tflite->subgraphs.at(0).operators;
  ASSERT_EQ(ops.size(), 2U);
  const auto& c = ops[0].builtinOptions;
  EXPECT_EQ(c.unionType, 1);  // Conv2DOptions
  EXPECT_EQ(c.padding, 1);    // VALID
  EXPECT_EQ(c.strideW, 2);
  EXPECT_EQ(c.strideH, 3);
  EXPECT_EQ(c.activation, 3);  // RELU6
  EXPECT_EQ(c.dilationW, 1);
  EXPECT_EQ(c.dilationH, 2);
  const auto& p = ops[1].builtinOptions;
  EXPECT_EQ(p.unionType, 5);  // Pool2DOptions
  EXPECT_EQ(p.padding, 0);
  EXPECT_EQ(p.filterW, 2);
  EXPECT_EQ(p.filterH, 2);
  EXPECT_EQ(p.activation, 1);

  const coralsim::hle::Graph g = coralsim::sim::hleGraphFromTflite(*model.tflite);
  ASSERT_EQ(g.ops.size(), 2U);
  EXPECT_EQ(g.ops[0].builtinCode, 3);
  EXPECT_EQ(g.ops[0].options.padding, coralsim::hle::Padding::Valid);
  EXPECT_EQ(g.ops[0].options.strideH, 3);
  EXPECT_EQ(g.ops[0].options.activation, coralsim::hle::Activation::Relu6);
  EXPECT_EQ(g.ops[1].options.filterW, 2);
  EXPECT_TRUE(g.tensors[1].constant);
  EXPECT_EQ(g.tensors[1].data, std::vector<uint8_t>({4, 5, 6, 7}));
  EXPECT_FALSE(g.tensors[0].constant);
  EXPECT_EQ(g.tensors[0].zeroPoint, std::vector<int64_t>({3}));
  EXPECT_EQ(g.inputs, std::vector<int32_t>({0}));
  EXPECT_THROW(coralsim::sim::hleGraphFromTflite(*model.tflite, 1), std::runtime_error);
}

TEST(DriverBuiltinOptions, OperatorsWithoutOptionsKeepTfliteDefaults) {
  // The shared test twin (QUANTIZE -> DEQUANTIZE) carries no builtin_options at all.
  const auto model = coralsim::driver::loadModelFromMemory(coralsim::testing::buildTflite({}), "twin.tflite");
  ASSERT_TRUE(model.tflite);
  for (const auto& op : model.tflite->subgraphs.at(0).operators) {
    EXPECT_EQ(op.builtinOptions.unionType, 0);
    EXPECT_EQ(op.builtinOptions.strideW, 1);
    EXPECT_EQ(op.builtinOptions.dilationH, 1);
    EXPECT_FLOAT_EQ(op.builtinOptions.beta, 1.0F);
  }
  const coralsim::hle::Graph g = coralsim::sim::hleGraphFromTflite(*model.tflite);
  ASSERT_EQ(g.ops.size(), 2U);
  EXPECT_EQ(g.ops[0].builtinCode, 114);  // QUANTIZE
  EXPECT_EQ(g.ops[0].options.padding, coralsim::hle::Padding::Same);
}

}  // namespace

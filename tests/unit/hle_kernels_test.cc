// The 8-bit reference kernels on small cases computed by hand (the arithmetic is written out next
// to each expectation), and the executor's ordering and errors.
#include <gtest/gtest.h>

#include <cstring>

#include "models/hle/fixed_point.h"
#include "models/hle/graph_executor.h"

namespace hle = coralsim::hle;
using hle::ElementType;

namespace {

// A graph under construction: tensors are added with their quantisation and (for constants) data.
struct GraphBuilder {
  hle::Graph g;
  int32_t tensor(std::vector<int32_t> shape, ElementType type, std::vector<float> scale = {}, std::vector<int64_t> zp = {},
                 std::vector<uint8_t> data = {}, bool constant = false) {
    hle::Tensor t;
    t.name = "t" + std::to_string(g.tensors.size());
    t.shape = std::move(shape);
    t.type = type;
    t.scale = std::move(scale);
    t.zeroPoint = std::move(zp);
    t.constant = constant;
    t.data = std::move(data);
    g.tensors.push_back(std::move(t));
    return static_cast<int32_t>(g.tensors.size() - 1);
  }
  int32_t constant(std::vector<int32_t> shape, ElementType type, std::vector<uint8_t> data, std::vector<float> scale = {},
                   std::vector<int64_t> zp = {}) {
    return tensor(std::move(shape), type, std::move(scale), std::move(zp), std::move(data), true);
  }
  int32_t int32Constant(std::vector<int32_t> shape, const std::vector<int32_t>& values) {
    std::vector<uint8_t> bytes(values.size() * 4);
    std::memcpy(bytes.data(), values.data(), bytes.size());
    return constant(std::move(shape), ElementType::Int32, bytes);
  }
  hle::Op& op(int32_t code, const char* name, std::vector<int32_t> inputs, std::vector<int32_t> outputs) {
    hle::Op o;
    o.builtinCode = code;
    o.name = name;
    o.inputs = std::move(inputs);
    o.outputs = std::move(outputs);
    g.ops.push_back(o);
    return g.ops.back();
  }
  std::vector<uint8_t> run(int32_t in, std::vector<uint8_t> bytes, int32_t out) {
    hle::GraphExecutor ex(g);
    return ex.run({{in, std::move(bytes)}}, {out}).at(0);
  }
};

std::vector<uint8_t> s8(std::initializer_list<int> v) {
  std::vector<uint8_t> out;
  for (int x : v) out.push_back(static_cast<uint8_t>(static_cast<int8_t>(x)));
  return out;
}

constexpr int32_t kAdd = 0, kAvgPool = 1, kConcat = 2, kConv = 3, kDepthwise = 4, kDequantize = 6, kFc = 9, kLogistic = 14, kMaxPool = 17,
                  kMul = 18, kReshape = 22, kSoftmax = 25, kTanh = 28, kPad = 34, kSub = 41, kQuantize = 114;

TEST(HleFixedPoint, QuantizeMultiplierSplitsMantissaAndExponent) {
  EXPECT_EQ(hle::quantizeMultiplier(0.5).multiplier, 1 << 30);  // 0.5 = 0.5 * 2^0
  EXPECT_EQ(hle::quantizeMultiplier(0.5).shift, 0);
  EXPECT_EQ(hle::quantizeMultiplier(1.0).multiplier, 1 << 30);  // 1.0 = 0.5 * 2^1
  EXPECT_EQ(hle::quantizeMultiplier(1.0).shift, 1);
  EXPECT_EQ(hle::quantizeMultiplier(1.5).multiplier, 1610612736);  // 0.75 * 2^31
  EXPECT_EQ(hle::quantizeMultiplier(0.0).multiplier, 0);
  EXPECT_EQ(hle::quantizeMultiplier(1e-12).multiplier, 0);  // exponent < -31 flushes to zero
}

TEST(HleFixedPoint, MultiplyRoundsHalfAwayFromZeroInTheShift) {
  const auto quarter = hle::quantizeMultiplier(0.25);  // 2^30, shift -1
  EXPECT_EQ(hle::multiplyByQuantizedMultiplier(6, quarter), 2);    // 1.5 -> 2
  EXPECT_EQ(hle::multiplyByQuantizedMultiplier(-6, quarter), -2);  // -1.5 -> -2
  // Double rounding (TFLite's default): the high multiply gives 2.5 -> 3, the shift 1.5 -> 2,
  // although 5 x 0.25 = 1.25.
  EXPECT_EQ(hle::multiplyByQuantizedMultiplier(5, quarter), 2);
  EXPECT_EQ(hle::multiplyByQuantizedMultiplier(3, quarter), 1);  // 1.5 -> 2 -> 1
  EXPECT_EQ(hle::multiplyByQuantizedMultiplier(100, hle::quantizeMultiplier(1.5)), 150);
  EXPECT_EQ(hle::roundingDivideByPot(-5, 1), -3);  // -2.5 -> -3
  EXPECT_EQ(hle::roundingDivideByPot(5, 1), 3);
  EXPECT_EQ(hle::saturatingRoundingDoublingHighMul(INT32_MIN, INT32_MIN), INT32_MAX);
}

TEST(HleKernels, Conv2dUint8PerTensorValid) {
  GraphBuilder b;
  // input real = 0.5 * (q - 128) = {1, 2, -1, 0}; filter {1,2,3,4}; bias 4 (scale 0.5).
  const int32_t in = b.tensor({1, 2, 2, 1}, ElementType::UInt8, {0.5F}, {128});
  const int32_t f = b.constant({1, 2, 2, 1}, ElementType::UInt8, {1, 2, 3, 4}, {1.0F}, {0});
  const int32_t bias = b.int32Constant({1}, {4});
  const int32_t out = b.tensor({1, 1, 1, 1}, ElementType::UInt8, {0.25F}, {10});
  b.op(kConv, "CONV_2D", {in, f, bias}, {out}).options.padding = hle::Padding::Valid;
  // acc = 2*1 + 4*2 - 2*3 + 0*4 + 4 = 8; x (0.5 * 1 / 0.25) = 16; + 10 = 26
  EXPECT_EQ(b.run(in, {130, 132, 126, 128}, out), std::vector<uint8_t>({26}));
}

TEST(HleKernels, Conv2dInt8PerChannelSameStride2) {
  GraphBuilder b;
  const int32_t in = b.tensor({1, 3, 3, 1}, ElementType::Int8, {1.0F}, {0});
  // two output channels: all-ones (scale 1) and all-twos (scale 0.5)
  const int32_t f = b.constant({2, 2, 2, 1}, ElementType::Int8, s8({1, 1, 1, 1, 2, 2, 2, 2}), {1.0F, 0.5F}, {0, 0});
  const int32_t out = b.tensor({1, 2, 2, 2}, ElementType::Int8, {1.0F}, {0});
  hle::Op& op = b.op(kConv, "CONV_2D", {in, f, -1}, {out});
  op.options.strideH = op.options.strideW = 2;  // SAME: total padding 1, all of it after
  // windows: {1,2,4,5}=12, {3,6}=9, {7,8}=15, {9}=9; channel 1: 2x the sum x 0.5
  EXPECT_EQ(b.run(in, s8({1, 2, 3, 4, 5, 6, 7, 8, 9}), out), s8({12, 12, 9, 9, 15, 15, 9, 9}));
}

TEST(HleKernels, DepthwiseConvWithMultiplierAndRelu6) {
  GraphBuilder b;
  const int32_t in = b.tensor({1, 1, 2, 2}, ElementType::Int8, {1.0F}, {0});
  const int32_t f = b.constant({1, 1, 2, 4}, ElementType::Int8, s8({1, 2, 3, 4, 5, 6, 7, 8}), {1.0F}, {0});
  const int32_t out = b.tensor({1, 1, 1, 4}, ElementType::Int8, {1.0F}, {0});
  hle::Op& op = b.op(kDepthwise, "DEPTHWISE_CONV_2D", {in, f}, {out});
  op.options.padding = hle::Padding::Valid;
  op.options.depthMultiplier = 2;
  // oc0 = 1*1 + 3*5 = 16, oc1 = 1*2 + 3*6 = 20, oc2 = 2*3 + 4*7 = 34, oc3 = 2*4 + 4*8 = 40
  EXPECT_EQ(b.run(in, s8({1, 2, 3, 4}), out), s8({16, 20, 34, 40}));
  b.g.ops[0].options.activation = hle::Activation::Relu6;  // clamp to quantize(6) = 6
  EXPECT_EQ(b.run(in, s8({1, 2, 3, 4}), out), s8({6, 6, 6, 6}));
}

TEST(HleKernels, FullyConnectedUint8WithZeroPoints) {
  GraphBuilder b;
  const int32_t in = b.tensor({1, 3}, ElementType::UInt8, {1.0F}, {1});
  const int32_t w = b.constant({2, 3}, ElementType::UInt8, {3, 4, 5, 1, 1, 1}, {1.0F}, {2});
  const int32_t bias = b.int32Constant({2}, {0, 10});
  const int32_t out = b.tensor({1, 2}, ElementType::UInt8, {2.0F}, {0});
  b.op(kFc, "FULLY_CONNECTED", {in, w, bias}, {out});
  // x = {1,2,3}; rows {1,2,3}, {-1,-1,-1}: 14 and -6 + 10 = 4; x 0.5 -> 7, 2
  EXPECT_EQ(b.run(in, {2, 3, 4}, out), std::vector<uint8_t>({7, 2}));
}

TEST(HleKernels, AddSubBroadcastAcrossScales) {
  for (const bool sub : {false, true}) {
    GraphBuilder b;
    const int32_t x = b.tensor({1, 2}, ElementType::UInt8, {0.5F}, {0});
    const int32_t y = b.constant({1}, ElementType::UInt8, {4}, {0.25F}, {0});  // real 1.0
    const int32_t out = b.tensor({1, 2}, ElementType::UInt8, {0.5F}, {0});
    b.op(sub ? kSub : kAdd, sub ? "SUB" : "ADD", {x, y}, {out});
    // x real {1, 2}: add -> {2, 3} -> q {4, 6}; sub -> {0, 1} -> q {0, 2}
    EXPECT_EQ(b.run(x, {2, 4}, out), sub ? std::vector<uint8_t>({0, 2}) : std::vector<uint8_t>({4, 6}));
  }
}

TEST(HleKernels, MulInt8) {
  GraphBuilder b;
  const int32_t x = b.tensor({2}, ElementType::Int8, {0.5F}, {0});
  const int32_t y = b.constant({1}, ElementType::Int8, s8({2}), {0.5F}, {0});
  const int32_t out = b.tensor({2}, ElementType::Int8, {0.5F}, {0});
  b.op(kMul, "MUL", {x, y}, {out});
  // {1.5, -2} x 1.0 = {1.5, -2} -> {3, -4}
  EXPECT_EQ(b.run(x, s8({3, -4}), out), s8({3, -4}));
}

TEST(HleKernels, PoolingClipsTheWindowAndRoundsTheAverage) {
  for (const bool average : {true, false}) {
    GraphBuilder b;
    const int32_t in = b.tensor({1, 3, 3, 1}, ElementType::UInt8, {1.0F}, {0});
    const int32_t out = b.tensor({1, 2, 2, 1}, ElementType::UInt8, {1.0F}, {0});
    hle::Op& op = b.op(average ? kAvgPool : kMaxPool, average ? "AVERAGE_POOL_2D" : "MAX_POOL_2D", {in}, {out});
    op.options.strideH = op.options.strideW = 2;
    op.options.filterH = op.options.filterW = 2;
    // SAME windows {1,2,4,5}, {3,6}, {7,8}, {9}: averages 3, 4.5 -> 5, 7.5 -> 8, 9
    EXPECT_EQ(b.run(in, {1, 2, 3, 4, 5, 6, 7, 8, 9}, out),
              average ? std::vector<uint8_t>({3, 5, 8, 9}) : std::vector<uint8_t>({5, 6, 8, 9}));
  }
  GraphBuilder b;  // int8: -1.5 rounds away from zero
  const int32_t in = b.tensor({1, 1, 2, 1}, ElementType::Int8, {1.0F}, {0});
  const int32_t out = b.tensor({1, 1, 1, 1}, ElementType::Int8, {1.0F}, {0});
  hle::Op& op = b.op(kAvgPool, "AVERAGE_POOL_2D", {in}, {out});
  op.options.padding = hle::Padding::Valid;
  op.options.filterH = 1;
  op.options.filterW = 2;
  EXPECT_EQ(b.run(in, s8({-1, -2}), out), s8({-2}));
}

TEST(HleKernels, ReshapePadConcat) {
  GraphBuilder b;
  const int32_t in = b.tensor({1, 1, 2, 1}, ElementType::UInt8, {1.0F}, {3});
  const int32_t pads = b.int32Constant({4, 2}, {0, 0, 1, 0, 0, 1, 0, 0});
  const int32_t padded = b.tensor({1, 2, 3, 1}, ElementType::UInt8, {1.0F}, {3});
  const int32_t flat = b.tensor({6}, ElementType::UInt8, {1.0F}, {3});
  const int32_t other = b.constant({1}, ElementType::UInt8, {3}, {2.0F}, {0});  // real 6
  const int32_t joined = b.tensor({7}, ElementType::UInt8, {1.0F}, {3});
  b.op(kConcat, "CONCATENATION", {flat, other}, {joined});  // listed first: order comes from data
  b.op(kReshape, "RESHAPE", {padded}, {flat});
  b.op(kPad, "PAD", {in, pads}, {padded});
  // pad fills the zero point 3: {3,3,3, 7,8,3}; 6.0 rescaled to scale 1, zp 3 -> 9
  EXPECT_EQ(b.run(in, {7, 8}, joined), std::vector<uint8_t>({3, 3, 3, 7, 8, 3, 9}));
}

TEST(HleKernels, SoftmaxUint8) {
  GraphBuilder b;
  const int32_t in = b.tensor({2, 2}, ElementType::UInt8, {1.0F}, {0});
  const int32_t out = b.tensor({2, 2}, ElementType::UInt8, {1.0F / 256}, {0});
  b.op(kSoftmax, "SOFTMAX", {in}, {out});
  // equal logits -> 0.5 each -> 128; a 255-apart pair -> {~0, 1.0 -> 256 clamped to 255}
  EXPECT_EQ(b.run(in, {10, 10, 0, 255}, out), std::vector<uint8_t>({128, 128, 0, 255}));
}

TEST(HleKernels, LogisticAndTanhTables) {
  GraphBuilder b;
  const int32_t in = b.tensor({3}, ElementType::UInt8, {1.0F / 16}, {128});
  const int32_t out = b.tensor({3}, ElementType::UInt8, {1.0F / 256}, {0});
  b.op(kLogistic, "LOGISTIC", {in}, {out});
  // x = 0 -> 0.5 -> 128; x = 7.9375 -> 0.99964 x 256 = 255.9 -> 256, clamped 255; x = -8 -> 0.086 -> 0
  EXPECT_EQ(b.run(in, {128, 255, 0}, out), std::vector<uint8_t>({128, 255, 0}));
  GraphBuilder t;
  const int32_t ti = t.tensor({3}, ElementType::Int8, {1.0F / 32}, {0});
  const int32_t to = t.tensor({3}, ElementType::Int8, {1.0F / 128}, {0});
  t.op(kTanh, "TANH", {ti}, {to});
  // tanh(0) = 0; tanh(3.97) x 128 = 127.9 -> 127 (clamped 128); tanh(-1) x 128 = -97.48 -> -97
  EXPECT_EQ(t.run(ti, s8({0, 127, -32}), to), s8({0, 127, -97}));
}

TEST(HleKernels, QuantizeAndDequantize) {
  GraphBuilder b;
  const int32_t f = b.tensor({3}, ElementType::Float32);
  const int32_t q = b.tensor({3}, ElementType::UInt8, {0.5F}, {10});
  const int32_t s = b.tensor({3}, ElementType::Int8, {0.5F}, {-118});  // same reals as q
  const int32_t back = b.tensor({3}, ElementType::Float32);
  b.op(kQuantize, "QUANTIZE", {f}, {q});
  b.op(kQuantize, "QUANTIZE", {q}, {s});
  b.op(kDequantize, "DEQUANTIZE", {s}, {back});
  const float values[3] = {0.5F, -1.0F, 1000.0F};
  std::vector<uint8_t> bytes(12);
  std::memcpy(bytes.data(), values, 12);
  // 0.5/0.5 + 10 = 11; -2 + 10 = 8; 2000 + 10 clamps to 255
  EXPECT_EQ(b.run(f, bytes, q), std::vector<uint8_t>({11, 8, 255}));
  EXPECT_EQ(b.run(f, bytes, s), s8({-117, -120, 127}));
  const auto fl = b.run(f, bytes, back);
  float r[3];
  std::memcpy(r, fl.data(), 12);
  EXPECT_FLOAT_EQ(r[0], 0.5F);
  EXPECT_FLOAT_EQ(r[1], -1.0F);
  EXPECT_FLOAT_EQ(r[2], 122.5F);  // 0.5 * (127 + 118)
}

TEST(HleExecutor, UnsupportedOpIsNamedBeforeAnythingRuns) {
  GraphBuilder b;
  const int32_t in = b.tensor({2}, ElementType::UInt8, {1.0F}, {0});
  const int32_t out = b.tensor({2}, ElementType::UInt8, {1.0F}, {0});
  b.op(69, "TILE", {in}, {out});
  try {
    b.run(in, {1, 2}, out);
    FAIL() << "expected an error";
  } catch (const hle::HleError& e) {
    EXPECT_NE(std::string(e.what()).find("TILE"), std::string::npos) << e.what();
  }
}

TEST(HleExecutor, RunsOnlyTheSubgraphBetweenFedAndWantedTensors) {
  GraphBuilder b;
  const int32_t a = b.tensor({1}, ElementType::UInt8, {1.0F}, {0});
  const int32_t mid = b.tensor({1}, ElementType::UInt8, {1.0F}, {0});
  const int32_t end = b.tensor({1}, ElementType::UInt8, {1.0F}, {0});
  b.op(69, "TILE", {a}, {mid});         // before the fed tensor: never needed
  b.op(kReshape, "RESHAPE", {mid}, {end});
  hle::GraphExecutor ex(b.g);
  EXPECT_EQ(ex.run({{mid, {42}}}, {end}).at(0), std::vector<uint8_t>({42}));
  EXPECT_EQ(ex.executedOps(), std::vector<size_t>({1}));
  EXPECT_THROW(ex.run({}, {end}), hle::HleError);           // `a` neither fed nor produced
  EXPECT_THROW(ex.run({{mid, {1, 2}}}, {end}), hle::HleError);  // wrong size
}

TEST(HleExecutor, BadShapesAreErrorsNotCrashes) {
  GraphBuilder b;
  const int32_t in = b.tensor({1, 2, 2, 1}, ElementType::UInt8, {1.0F}, {0});
  const int32_t f = b.constant({1, 2, 2, 3}, ElementType::UInt8, std::vector<uint8_t>(12), {1.0F}, {0});
  const int32_t out = b.tensor({1, 1, 1, 1}, ElementType::UInt8, {1.0F}, {0});
  b.op(kConv, "CONV_2D", {in, f}, {out});
  EXPECT_THROW(b.run(in, {0, 0, 0, 0}, out), hle::HleError);  // filter depth 3 vs input depth 1
  GraphBuilder c;
  const int32_t x = c.tensor({2}, ElementType::UInt8, {1.0F}, {0});
  const int32_t y = c.constant({3}, ElementType::UInt8, {1, 2, 3}, {1.0F}, {0});
  const int32_t z = c.tensor({2}, ElementType::UInt8, {1.0F}, {0});
  c.op(kAdd, "ADD", {x, y}, {z});
  EXPECT_THROW(c.run(x, {0, 0}, z), hle::HleError);  // shapes do not broadcast
}

}  // namespace

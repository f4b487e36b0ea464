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

constexpr int32_t kResizeBilinear = 23, kMean = 40, kSplit = 49, kArgMax = 56, kTile = 69, kResizeNearest = 97, kSplitV = 102;
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

// TFLite 2.9's GEMM back end (ruy) requantises CONV_2D with the same high multiply but a final
// shift that rounds ties towards +infinity: -1.5 -> -1 where the reference gives -2.
TEST(HleFixedPoint, GemmRequantisationRoundsTiesUp) {
  const auto quarter = hle::quantizeMultiplier(0.25);
  EXPECT_EQ(hle::multiplyByQuantizedMultiplierGemm(-6, quarter), -1);
  EXPECT_EQ(hle::multiplyByQuantizedMultiplier(-6, quarter), -2);
  EXPECT_EQ(hle::multiplyByQuantizedMultiplierGemm(6, quarter), 2);
  // -5 x 0.25: the high multiply gives -2.5 -> -2 (gemmlowp's nudge truncates negative halves),
  // then -2 / 2 = -1 exactly; both forms agree away from ties.
  EXPECT_EQ(hle::multiplyByQuantizedMultiplierGemm(-5, quarter), -1);
  EXPECT_EQ(hle::multiplyByQuantizedMultiplier(-5, quarter), -1);
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
  b.op(39, "TRANSPOSE", {in}, {out});
  try {
    b.run(in, {1, 2}, out);
    FAIL() << "expected an error";
  } catch (const hle::HleError& e) {
    EXPECT_NE(std::string(e.what()).find("TRANSPOSE"), std::string::npos) << e.what();
  }
}

TEST(HleExecutor, RunsOnlyTheSubgraphBetweenFedAndWantedTensors) {
  GraphBuilder b;
  const int32_t a = b.tensor({1}, ElementType::UInt8, {1.0F}, {0});
  const int32_t mid = b.tensor({1}, ElementType::UInt8, {1.0F}, {0});
  const int32_t end = b.tensor({1}, ElementType::UInt8, {1.0F}, {0});
  b.op(39, "TRANSPOSE", {a}, {mid});    // before the fed tensor: never needed
  b.op(kReshape, "RESHAPE", {mid}, {end});
  hle::GraphExecutor ex(b.g);
  EXPECT_EQ(ex.run({{mid, {42}}}, {end}).at(0), std::vector<uint8_t>({42}));
  EXPECT_EQ(ex.executedOps(), std::vector<size_t>({1}));
  EXPECT_THROW(ex.run({}, {end}), hle::HleError);           // `a` neither fed nor produced
  EXPECT_THROW(ex.run({{mid, {1, 2}}}, {end}), hle::HleError);  // wrong size
}

TEST(HleExecutor, KeepsEveryIntermediateTensorTheRunComputed) {
  // in -> MUL by itself -> mid -> RESHAPE -> end; `unused` is produced by an op the run does not need.
  GraphBuilder b;
  const int32_t in = b.tensor({2}, ElementType::UInt8, {1.0F}, {0});
  const int32_t mid = b.tensor({2}, ElementType::UInt8, {1.0F}, {0});
  const int32_t end = b.tensor({2}, ElementType::UInt8, {1.0F}, {0});
  const int32_t unused = b.tensor({2}, ElementType::UInt8, {1.0F}, {0});
  b.op(kMul, "MUL", {in, in}, {mid});
  b.op(kReshape, "RESHAPE", {mid}, {end});
  b.op(kReshape, "RESHAPE", {in}, {unused});
  hle::GraphExecutor ex(b.g);
  const auto values = ex.runKeepingTensors({{in, {3, 5}}}, {end});
  ASSERT_EQ(values.size(), b.g.tensors.size());
  EXPECT_EQ(values.at(static_cast<size_t>(in)), std::vector<uint8_t>({3, 5}));
  EXPECT_EQ(values.at(static_cast<size_t>(mid)), std::vector<uint8_t>({9, 25}));  // the intermediate
  EXPECT_EQ(values.at(static_cast<size_t>(end)), std::vector<uint8_t>({9, 25}));
  EXPECT_TRUE(values.at(static_cast<size_t>(unused)).empty());
  EXPECT_EQ(ex.run({{in, {3, 5}}}, {end, end}), (std::vector<std::vector<uint8_t>>{{9, 25}, {9, 25}}));
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

// RESIZE_BILINEAR. int8, TFLite's integer formula: scale10 = (1024 * in + out / 2) / out, source
// y10 = y * scale10, rows floor(y10 / 1024) and min(ceil(y10 / 1024), in - 1), weights
// (1024 - frac) and frac, sum of four products / 2^20 rounded half away from zero. uint8, the float
// form: scale in / out, weights (1 - dy)(1 - dx) ..., + 0.5 truncated. On this case both give
// the same bytes, so the expectations are worked in the integer form.
TEST(HleKernels, ResizeBilinearDefault) {
  for (const ElementType type : {ElementType::UInt8, ElementType::Int8}) {
    GraphBuilder b;
    const int32_t in = b.tensor({1, 2, 2, 1}, type, {1.0F}, {0});
    const int32_t size = b.int32Constant({2}, {3, 3});
    const int32_t out = b.tensor({1, 3, 3, 1}, type, {1.0F}, {0});
    b.op(kResizeBilinear, "RESIZE_BILINEAR", {in, size}, {out});
    // scale10 = (2048 + 1) / 3 = 683; y10 = 0, 683, 1366 -> rows (0,0) w 0; (0,1) w 683; (1,1).
    // (0,1): 100 x 683 / 1024 = 66.70 -> 67; (1,0): 120 x 683 / 1024 = 80.04 -> 80;
    // (1,1): (0 x 341 x 341 + 120 x 683 x 341 + 100 x 341 x 683 + 127 x 683 x 683) / 2^20
    //        = 110482763 / 1048576 = 105.36 -> 105 (float: 105.33 -> 105); (1,2): (100 x 341 + 127 x 683) / 1024 = 118.0 -> 118;
    // (2,1): (120 x 341 + 127 x 683) / 1024 = 124.67 -> 125.
    EXPECT_EQ(b.run(in, {0, 100, 120, 127}, out), std::vector<uint8_t>({0, 67, 100, 80, 105, 118, 120, 125, 127}))
        << (type == ElementType::UInt8 ? "uint8" : "int8");
  }
}

TEST(HleKernels, ResizeBilinearInt8AlignCornersRoundsTiesAwayFromZero) {
  for (const int left : {-101, -100}) {
    GraphBuilder b;
    const int32_t in = b.tensor({1, 1, 2, 1}, ElementType::Int8, {1.0F}, {0});
    const int32_t size = b.int32Constant({2}, {1, 3});
    const int32_t out = b.tensor({1, 1, 3, 1}, ElementType::Int8, {1.0F}, {0});
    b.op(kResizeBilinear, "RESIZE_BILINEAR", {in, size}, {out}).options.alignCorners = true;
    // align_corners: scale10 = (1024 x 1 + 1) / 2 = 512, the middle pixel is the exact average:
    // (-101 + 100) / 2 = -0.5 -> -1; (-100 + 100) / 2 = 0.
    EXPECT_EQ(b.run(in, s8({left, 100}), out), s8({left, left == -101 ? -1 : 0, 100}));
  }
}

TEST(HleKernels, ResizeBilinearHalfPixelCenters) {
  GraphBuilder b;
  const int32_t in = b.tensor({1, 1, 2, 1}, ElementType::UInt8, {1.0F}, {0});
  const int32_t size = b.int32Constant({2}, {1, 4});
  const int32_t out = b.tensor({1, 1, 4, 1}, ElementType::UInt8, {1.0F}, {0});
  b.op(kResizeBilinear, "RESIZE_BILINEAR", {in, size}, {out}).options.halfPixelCenters = true;
  // scale10 = 2050 / 4 = 512; x10 = x x 512 + 256 - 512 = -256, 256, 768, 1280:
  // x=0 clamps to column 0 -> 0; 200 x 256/1024 = 50; 200 x 768/1024 = 150; column 1 -> 200.
  EXPECT_EQ(b.run(in, {0, 200}, out), std::vector<uint8_t>({0, 50, 150, 200}));
}

TEST(HleKernels, ResizeRefusesMismatchedSizeAndIgnoresQuantisation) {
  GraphBuilder b;
  const int32_t in = b.tensor({1, 1, 2, 1}, ElementType::UInt8, {1.0F}, {0});
  const int32_t size = b.int32Constant({2}, {1, 5});  // output below is 1x4
  const int32_t out = b.tensor({1, 1, 4, 1}, ElementType::UInt8, {1.0F}, {0});
  b.op(kResizeBilinear, "RESIZE_BILINEAR", {in, size}, {out});
  EXPECT_THROW(b.run(in, {0, 0}, out), hle::HleError);
  // TFLite resizes the stored values whatever the two tensors' quantisation: so do we.
  GraphBuilder c;
  const int32_t ci = c.tensor({1, 1, 2, 1}, ElementType::UInt8, {1.0F}, {0});
  const int32_t co = c.tensor({1, 1, 4, 1}, ElementType::UInt8, {2.0F}, {7});
  c.op(kResizeNearest, "RESIZE_NEAREST_NEIGHBOR", {ci}, {co});
  EXPECT_EQ(c.run(ci, {1, 2}, co), std::vector<uint8_t>({1, 1, 2, 2}));  // floor(x x 0.5)
}

// RESIZE_NEAREST_NEIGHBOR: source = floor((x + offset) x in/out), or round() with align_corners
// and scale (in - 1)/(out - 1); offset 0.5 with half_pixel_centers; clamped to the input.
TEST(HleKernels, ResizeNearestNeighborFlags) {
  struct Case {
    bool alignCorners, halfPixel;
    std::vector<uint8_t> expected;
  };
  const Case cases[] = {
      {false, false, {10, 10, 20, 20, 30}},  // x x 0.6 = 0, 0.6, 1.2, 1.8, 2.4
      {true, false, {10, 20, 20, 30, 30}},   // round(x x 0.5) = 0, 1 (0.5 up), 1, 2 (1.5 up), 2
      {false, true, {10, 10, 20, 30, 30}},   // (x + 0.5) x 0.6 = 0.3, 0.9, 1.5, 2.1, 2.7
  };
  for (const Case& c : cases) {
    GraphBuilder b;
    const int32_t in = b.tensor({1, 1, 3, 1}, ElementType::UInt8, {1.0F}, {0});
    const int32_t size = b.int32Constant({2}, {1, 5});
    const int32_t out = b.tensor({1, 1, 5, 1}, ElementType::UInt8, {1.0F}, {0});
    hle::Op& op = b.op(kResizeNearest, "RESIZE_NEAREST_NEIGHBOR", {in, size}, {out});
    op.options.alignCorners = c.alignCorners;
    op.options.halfPixelCenters = c.halfPixel;
    EXPECT_EQ(b.run(in, {10, 20, 30}, out), c.expected) << c.alignCorners << c.halfPixel;
  }
}

// MEAN, the path with equal input/output quantisation: integer sum / count, truncating.
TEST(HleKernels, MeanSameQuantisationTruncates) {
  GraphBuilder b;
  const int32_t in = b.tensor({2, 3}, ElementType::Int8, {1.0F}, {0});
  const int32_t axis = b.int32Constant({1}, {1});
  const int32_t out = b.tensor({2}, ElementType::Int8, {1.0F}, {0});
  b.op(kMean, "MEAN", {in, axis}, {out});
  // 8 / 3 = 2.67 -> 2; -8 / 3 -> -2 (towards zero, not rounded)
  EXPECT_EQ(b.run(in, s8({1, 2, 5, -1, -2, -5}), out), s8({2, -2}));
}

// MEAN requantising (scales differ): round(mean x s_in/s_out - zp_in x s_in/s_out) + zp_out.
TEST(HleKernels, MeanRequantisesWhenScalesDiffer) {
  GraphBuilder b;
  const int32_t in = b.tensor({1, 4}, ElementType::UInt8, {0.5F}, {10});
  const int32_t axis = b.int32Constant({1}, {-1});
  const int32_t out = b.tensor({1, 1}, ElementType::UInt8, {1.0F}, {3});
  b.op(kMean, "MEAN", {in, axis}, {out}).options.keepDims = true;
  // mean 55/4 = 13.75; x 0.5 = 6.875; - 10 x 0.5 = 1.875 -> 2; + 3 = 5 (reals 0,1,1.5,5: mean 1.875)
  EXPECT_EQ(b.run(in, {10, 12, 13, 20}, out), std::vector<uint8_t>({5}));
}

// MEAN over height and width of a 4-D tensor with keep_dims: the fixed-point paths.
TEST(HleKernels, MeanOverHeightAndWidthFixedPoint) {
  GraphBuilder b;
  const int32_t in = b.tensor({1, 2, 2, 1}, ElementType::UInt8, {0.5F}, {4});
  const int32_t axis = b.int32Constant({2}, {1, 2});
  const int32_t out = b.tensor({1, 1, 1, 1}, ElementType::UInt8, {1.0F}, {2});
  b.op(kMean, "MEAN", {in, axis}, {out}).options.keepDims = true;
  // uint8: sum 29 x Q31(0.5 / (4 x 1.0) = 0.125): high mul 14.5 -> 15, >> 2: 3.75 -> 4;
  // bias 2 - trunc(4 x 0.5 / 1.0) = 0 -> 4 (reals 0, 1, 2.5, 3: mean 1.625 + zp 2 = 3.6)
  EXPECT_EQ(b.run(in, {4, 6, 9, 10}, out), std::vector<uint8_t>({4}));

  GraphBuilder c;
  const int32_t ci = c.tensor({1, 2, 2, 1}, ElementType::Int8, {0.5F}, {-1});
  const int32_t caxis = c.int32Constant({2}, {2, 1});  // order does not matter
  const int32_t co = c.tensor({1, 1, 1, 1}, ElementType::Int8, {0.25F}, {0});
  c.op(kMean, "MEAN", {ci, caxis}, {co}).options.keepDims = true;
  // int8: sum (x + 1) = 7, x Q31(0.5 / 0.25 = 2) = 14, / 4 = 3.5 -> 4 (half away), + 0
  EXPECT_EQ(c.run(ci, s8({-1, 0, 1, 3}), co), s8({4}));
}

TEST(HleKernels, MeanRefusesAxisOutOfRange) {
  GraphBuilder b;
  const int32_t in = b.tensor({2, 3}, ElementType::UInt8, {1.0F}, {0});
  const int32_t axis = b.int32Constant({1}, {2});
  const int32_t out = b.tensor({2}, ElementType::UInt8, {1.0F}, {0});
  b.op(kMean, "MEAN", {in, axis}, {out});
  EXPECT_THROW(b.run(in, {1, 2, 3, 4, 5, 6}, out), hle::HleError);
}

TEST(HleKernels, TileRepeatsAlongEachAxis) {
  GraphBuilder b;
  const int32_t in = b.tensor({2, 1}, ElementType::Int8, {1.0F}, {0});
  const int32_t multiples = b.int32Constant({2}, {2, 3});
  const int32_t out = b.tensor({4, 3}, ElementType::Int8, {1.0F}, {0});
  b.op(kTile, "TILE", {in, multiples}, {out});
  EXPECT_EQ(b.run(in, s8({1, -2}), out), s8({1, 1, 1, -2, -2, -2, 1, 1, 1, -2, -2, -2}));
  GraphBuilder c;  // multiples that do not produce the output shape
  const int32_t ci = c.tensor({2, 1}, ElementType::Int8, {1.0F}, {0});
  const int32_t cm = c.int32Constant({2}, {2, 2});
  const int32_t co = c.tensor({4, 3}, ElementType::Int8, {1.0F}, {0});
  c.op(kTile, "TILE", {ci, cm}, {co});
  EXPECT_THROW(c.run(ci, s8({1, 2}), co), hle::HleError);
}

TEST(HleKernels, SplitAndSplitV) {
  GraphBuilder b;
  const int32_t axis = b.int32Constant({}, {-1});
  const int32_t in = b.tensor({2, 4}, ElementType::UInt8, {1.0F}, {0});
  const int32_t left = b.tensor({2, 2}, ElementType::UInt8, {1.0F}, {0});
  const int32_t right = b.tensor({2, 2}, ElementType::UInt8, {1.0F}, {0});
  b.op(kSplit, "SPLIT", {axis, in}, {left, right});
  hle::GraphExecutor ex(b.g);
  const auto parts = ex.run({{in, {1, 2, 3, 4, 5, 6, 7, 8}}}, {left, right});
  EXPECT_EQ(parts.at(0), std::vector<uint8_t>({1, 2, 5, 6}));
  EXPECT_EQ(parts.at(1), std::vector<uint8_t>({3, 4, 7, 8}));

  GraphBuilder v;
  const int32_t vin = v.tensor({1, 5}, ElementType::UInt8, {1.0F}, {0});
  const int32_t sizes = v.int32Constant({3}, {2, -1, 1});  // -1: what the others leave
  const int32_t vaxis = v.int32Constant({1}, {1});
  const int32_t a = v.tensor({1, 2}, ElementType::UInt8, {1.0F}, {0});
  const int32_t m = v.tensor({1, 2}, ElementType::UInt8, {1.0F}, {0});
  const int32_t z = v.tensor({1, 1}, ElementType::UInt8, {1.0F}, {0});
  v.op(kSplitV, "SPLIT_V", {vin, sizes, vaxis}, {a, m, z});
  hle::GraphExecutor vex(v.g);
  const auto vparts = vex.run({{vin, {1, 2, 3, 4, 5}}}, {a, m, z});
  EXPECT_EQ(vparts.at(0), std::vector<uint8_t>({1, 2}));
  EXPECT_EQ(vparts.at(1), std::vector<uint8_t>({3, 4}));
  EXPECT_EQ(vparts.at(2), std::vector<uint8_t>({5}));

  GraphBuilder u;  // 5 does not split into 2 equal parts
  const int32_t uaxis = u.int32Constant({}, {1});
  const int32_t uin = u.tensor({1, 5}, ElementType::UInt8, {1.0F}, {0});
  const int32_t u0 = u.tensor({1, 2}, ElementType::UInt8, {1.0F}, {0});
  const int32_t u1 = u.tensor({1, 3}, ElementType::UInt8, {1.0F}, {0});
  u.op(kSplit, "SPLIT", {uaxis, uin}, {u0, u1});
  EXPECT_THROW(u.run(uin, {1, 2, 3, 4, 5}, u0), hle::HleError);
}

TEST(HleKernels, ArgMaxTakesTheFirstMaximum) {
  for (const ElementType outType : {ElementType::Int32, ElementType::Int64}) {
    GraphBuilder b;
    const int32_t in = b.tensor({2, 3}, ElementType::UInt8, {1.0F}, {0});
    const int32_t axis = b.int32Constant({1}, {1});
    const int32_t out = b.tensor({2}, outType);
    b.op(kArgMax, "ARG_MAX", {in, axis}, {out});
    const auto bytes = b.run(in, {5, 9, 9, 7, 1, 2}, out);
    const size_t width = outType == ElementType::Int32 ? 4 : 8;
    ASSERT_EQ(bytes.size(), 2 * width);
    int64_t first = 0, second = 0;  // little-endian, so the low bytes hold the small indices
    std::memcpy(&first, bytes.data(), width);
    std::memcpy(&second, bytes.data() + width, width);
    EXPECT_EQ(first, 1);  // 9 at index 1 and 2: the first wins
    EXPECT_EQ(second, 0);
  }
}

// Shapes no converter writes (negative or zero extents, a depthwise filter with batch 0) are
// errors naming the op, never out-of-bounds reads.
TEST(HleKernels, HostileShapesAreErrors) {
  const auto expectError = [](hle::Graph g, int32_t in, std::vector<uint8_t> bytes, int32_t out) {
    hle::GraphExecutor ex(g);
    EXPECT_THROW(ex.run({{in, std::move(bytes)}}, {out}), hle::HleError);
  };
  {
    GraphBuilder b;  // resize with a negative depth
    const int32_t in = b.tensor({1, 2, 2, -1}, ElementType::UInt8, {1.0F}, {0});
    const int32_t out = b.tensor({1, 4, 4, -1}, ElementType::UInt8, {1.0F}, {0});
    b.op(kResizeNearest, "RESIZE_NEAREST_NEIGHBOR", {in}, {out});
    expectError(b.g, in, {}, out);
  }
  {
    GraphBuilder b;  // ARG_MAX over a negative extent
    const int32_t in = b.tensor({-3, 2}, ElementType::UInt8, {1.0F}, {0});
    const int32_t axis = b.int32Constant({1}, {1});
    const int32_t out = b.tensor({-3}, ElementType::Int32);
    b.op(kArgMax, "ARG_MAX", {in, axis}, {out});
    expectError(b.g, in, {}, out);
  }
  {
    GraphBuilder b;  // SPLIT_V sizes far beyond the axis
    const int32_t in = b.tensor({1, 4}, ElementType::UInt8, {1.0F}, {0});
    const int32_t sizes = b.int32Constant({2}, {0x40000000, -1});
    const int32_t axis = b.int32Constant({1}, {1});
    const int32_t o0 = b.tensor({1, 2}, ElementType::UInt8, {1.0F}, {0});
    const int32_t o1 = b.tensor({1, 2}, ElementType::UInt8, {1.0F}, {0});
    b.op(kSplitV, "SPLIT_V", {in, sizes, axis}, {o0, o1});
    expectError(b.g, in, {1, 2, 3, 4}, o0);
  }
  {
    GraphBuilder b;  // depthwise filter with batch 0 (no taps stored)
    const int32_t in = b.tensor({1, 2, 2, 1}, ElementType::UInt8, {1.0F}, {0});
    const int32_t f = b.constant({0, 1, 1, 1}, ElementType::UInt8, {}, {1.0F}, {0});
    const int32_t out = b.tensor({1, 2, 2, 1}, ElementType::UInt8, {1.0F}, {0});
    b.op(kDepthwise, "DEPTHWISE_CONV_2D", {in, f}, {out});
    expectError(b.g, in, {1, 2, 3, 4}, out);
  }
  {
    GraphBuilder b;  // conv filter with zero width
    const int32_t in = b.tensor({1, 2, 2, 1}, ElementType::UInt8, {1.0F}, {0});
    const int32_t f = b.constant({1, 1, 0, 1}, ElementType::UInt8, {}, {1.0F}, {0});
    const int32_t out = b.tensor({1, 2, 2, 1}, ElementType::UInt8, {1.0F}, {0});
    b.op(kConv, "CONV_2D", {in, f}, {out});
    expectError(b.g, in, {1, 2, 3, 4}, out);
  }
}

}  // namespace

// nin_cnn's two max pool layers executed, checked against the CPU twin's MAX_POOL_2D tensors (issue #12 target (c);
// docs/decoding-log.md "maxpool" decoded the form, "ninkept" measured these bytes in a scratch build, "nin14" made this
// test). nin_cnn is a Keras network-in-network: conv2d_18-20, a 2 x 2 / 2 MAX_POOL_2D (28 x 28 x 32 -> 14 x 14 x 32),
// conv2d_21-23, a second one (12 x 12 x 64 -> 6 x 6 x 64), then conv2d_24-26, an average pool and a softmax. Its twin
// (nin_cnn.tflite, the same graph before the Edge TPU compiler) runs on the hle rung's reference kernels.
// The device run cannot reach the pools: the chunk is refused whole by the static check at a packet of its softmax,
// after them. So the packets are fed to the rung one by one in program order (the parameter-caching program first),
// up to the first refusal, and every compute of the max pool form (max_pool_form.h) reports what it wrote through the
// rung's ComputeObserver. Each tile of a pool writes output positions of 32 or 64 lanes (one byte a channel); where the
// positions lie in narrow memory is not what is tested here (the next layer reads them; not decoded into a grid
// rule), so each lle position is matched to a twin position by its bytes: every lle position must equal one twin
// position (the twin's int8 as the device holds it, sign bit flipped), and the matching must use up the twin's
// positions exactly (a multiset: equal twin positions count once each). A wrong maximum, a wrong window, a lane out
// of place or a missing tile leaves a position unmatched. Three random inputs (driver::randomInputs, seeds 1-3).
// The same three drives pass nin_cnn's average pool ("avgp"): its 10 channel bytes are checked against the twin's
// AVERAGE_POOL_2D input and output (the second test).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "driver/model/model_file.h"
#include "driver/model/model_loader.h"
#include "driver/run/random_inputs.h"
#include "driver/run/run_plan.h"
#include "models/chip_config.h"
#include "models/hle/graph.h"
#include "models/hle/graph_executor.h"
#include "models/lle/compute_observer.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"
#include "models/lle/max_pool_form.h"
#include "models/lle/requantizer.h"
#include "models/scalar/decoded_program.h"
#include "sim/hle_host/hle_graph.h"
#include "tests/corpus/held_streams.h"
#include "tests/support/corpus.h"

namespace coralsim::lle::lle_max_pool_run_test {
namespace {

namespace fs = std::filesystem;

constexpr int32_t kTfliteQuantize = 114;  // BuiltinOperator QUANTIZE
constexpr int32_t kTfliteMaxPool = 17;    // BuiltinOperator MAX_POOL_2D
constexpr uint8_t kComputeOpcode = 0x01;
// The convolutions before the pools requantise: with the twin's rounding their outputs are the twin's (the device's own
// rule is float32 half-even, "round18"; what this drive compares is the twin's layers, so it runs the twin's rule).
constexpr models::RequantRounding kDriveRounding = models::RequantRounding::kTfliteFixedPoint;

bool isMaxPool(const models::DecodedPacket& p) { return p.tilePacket && isMaxPoolForm(static_cast<uint8_t>(p.opcode), p.words); }

// The average pool's form ("pool4", lle_rung_average_pool.cc): an 0x01 with ComputeInputBytes 0 and ComputeCodeW9 0.
bool isAveragePool(const models::DecodedPacket& p) {
  return p.tilePacket && static_cast<uint8_t>(p.opcode) == kComputeOpcode && readField(p.words, LleField::ComputeInputBytes) == 0 &&
         readField(p.words, LleField::ComputeInputBytesCode) == 0 && readField(p.words, LleField::ComputeCodeW9) == 0;
}

// What every pool packet (max or average) wrote, by PC: its output positions' lanes, tile after tile.
class MaxPoolCapture final : public ComputeObserver {
 public:
  void computed(const models::DecodedPacket& packet, unsigned, const ComputeWrite& write) override {
    if (!isMaxPool(packet) && !isAveragePool(packet)) return;
    const std::lock_guard lock(mutex_);
    Written& w = byPc_[packet.pc];
    w.lanes = write.bytesPerPosition;
    for (size_t p = 0; p < write.positionAt.size(); ++p) {
      w.positions.emplace_back(write.bytes.begin() + static_cast<std::ptrdiff_t>(p * write.bytesPerPosition),
                               write.bytes.begin() + static_cast<std::ptrdiff_t>((p + 1) * write.bytesPerPosition));
    }
  }
  struct Written {
    unsigned lanes = 0;
    std::vector<std::vector<uint8_t>> positions;
  };
  [[nodiscard]] std::map<uint32_t, Written> byPc() const {
    const std::lock_guard lock(mutex_);
    return byPc_;
  }

 private:
  mutable std::mutex mutex_;
  std::map<uint32_t, Written> byPc_;
};

// The parameter-caching program (its tiles keep what it wrote), then the execution-only one, up to the first refusal.
std::string driveUpToTheRefusal(const models::DecodedProgram* caching, const models::DecodedProgram& program, const std::vector<uint8_t>& params,
                                const std::vector<uint8_t>& deviceInput, const std::shared_ptr<MaxPoolCapture>& capture) {
  models::ChipConfig config;
  config.requantRounding = kDriveRounding;  // the twin's rule (above)
  config.lleComputeObserver = capture;
  LleRung rung(config);
  coralsim::testing::HeldStreams streams;
  streams.input = deviceInput;
  streams.params = params;
  rung.reset();
  for (const models::DecodedProgram* p : {caching, &program}) {
    if (!p) continue;
    rung.beginRun();
    for (const models::DecodedPacket& packet : p->packets()) {
      if (packet.action != models::PacketAction::kIssue) continue;
      try {
        rung.packet(packet, streams, 0);
      } catch (const std::exception& refusal) {
        return (p == caching ? "(parameter caching) " : "") + std::string(refusal.what());
      }
    }
    rung.endRun();
  }
  return "the chunk's end";
}

// The max pool packets of `program` grouped into layers: consecutive pools with no 0x01 compute between them.
std::vector<std::set<uint32_t>> poolLayers(const models::DecodedProgram& program) {
  std::vector<std::set<uint32_t>> layers;
  bool open = false;
  for (const models::DecodedPacket& p : program.packets()) {
    if (p.action != models::PacketAction::kIssue || !p.tilePacket) continue;
    if (isMaxPool(p)) {
      if (!open) layers.emplace_back();
      layers.back().insert(p.pc);
      open = true;
    } else if (static_cast<uint8_t>(p.opcode) == kComputeOpcode) {
      open = false;
    }
  }
  return layers;
}

// nin_cnn loaded once, driven once per seed (1-3) and its twin run on the same inputs; shared by the tests below so the
// three drives are paid once (CI time).
struct NinCnnDrives {
  std::string skip;  // why the corpus cannot be used (empty: loaded)
  std::vector<std::set<uint32_t>> maxPoolLayers;
  std::vector<uint32_t> averagePools;  // the average pool packets' PCs
  struct Epilogue {
    float mult = 0, lo = 0, hi = 0;
    int32_t zpOut = 0;
  } averagePoolEpilogue;  // the (one) average pool's, read from its packet
  std::vector<int32_t> maxPools;       // the twin's MAX_POOL_2D outputs
  int32_t averagePoolInput = -1, averagePoolOutput = -1;
  hle::Graph graph;
  struct Seed {
    uint64_t seed = 0;
    std::string stop;
    std::map<uint32_t, MaxPoolCapture::Written> written;
    std::vector<std::vector<uint8_t>> tensors;  // the twin's, by tensor index (the kept ones filled)
  };
  std::vector<Seed> seeds;
};

constexpr int32_t kTfliteAveragePool = 1;  // BuiltinOperator AVERAGE_POOL_2D

const NinCnnDrives& ninCnnDrives() {
  static const NinCnnDrives drives = [] {
    NinCnnDrives d;
    const auto corpus = coralsim::testing::corpusDir();
    const fs::path dir = corpus ? *corpus / "prbodmann+Coral-TPU" / "ensemble_tpu" / "models" : fs::path();
    const fs::path compiledPath = dir / "nin_cnn_edgetpu.tflite", twinPath = dir / "nin_cnn.tflite";
    if (!corpus || !fs::exists(compiledPath) || !fs::exists(twinPath)) {
      d.skip = "nin_cnn and its twin are not in the corpus (" + dir.string() + ")";
      return d;
    }
    const driver::ModelFile compiled = driver::loadModelFile(compiledPath);
    const driver::RunPlan plan = driver::planRun(compiled);
    const driver::Executable* cachingExecutable = nullptr;
    const driver::Executable* executionExecutable = nullptr;
    for (const driver::Executable* e : driver::allExecutables(compiled)) {
      if (e->type == driver::ExecutableType::ParameterCaching) cachingExecutable = e;
      if (e->type == driver::ExecutableType::ExecutionOnly) executionExecutable = e;
    }
    if (plan.inputs.size() != 1 || !executionExecutable || executionExecutable->bitstreams.size() != 1 ||
        (cachingExecutable && cachingExecutable->bitstreams.size() != 1)) {
      d.skip = "nin_cnn's compiled model is not one input, one execution-only bitstream (and one caching one)";
      return d;
    }
    std::shared_ptr<const models::DecodedProgram> caching;
    if (cachingExecutable) caching = models::DecodedProgram::fromBytes(cachingExecutable->bitstreams[0].bytes);
    const std::vector<uint8_t> params = cachingExecutable ? cachingExecutable->parameters : std::vector<uint8_t>{};
    const auto program = models::DecodedProgram::fromBytes(executionExecutable->bitstreams[0].bytes);
    d.maxPoolLayers = poolLayers(*program);
    for (const models::DecodedPacket& p : program->packets()) {
      if (p.action != models::PacketAction::kIssue || !isAveragePool(p)) continue;
      d.averagePools.push_back(p.pc);
      d.averagePoolEpilogue = {std::bit_cast<float>(static_cast<uint32_t>(readField(p.words, LleField::ComputeMult))),
                               std::bit_cast<float>(static_cast<uint32_t>(readField(p.words, LleField::ComputeClampLo))),
                               std::bit_cast<float>(static_cast<uint32_t>(readField(p.words, LleField::ComputeClampHi))),
                               static_cast<int32_t>(readField(p.words, LleField::ComputeZpOut))};
    }

    const driver::ModelFile twin = driver::loadModelFile(twinPath);
    if (!twin.tflite) {
      d.skip = "the twin " + twinPath.string() + " does not load";
      return d;
    }
    d.graph = sim::hleGraphFromTflite(*twin.tflite);
    // The compiled model takes the QUANTIZE's output (the CPU runs the QUANTIZE): the twin is fed there.
    int32_t quantized = -1;
    for (const hle::Op& op : d.graph.ops) {
      if (op.builtinCode == kTfliteQuantize && op.inputs.size() == 1 && op.inputs[0] == d.graph.inputs[0]) quantized = op.outputs.at(0);
      if (op.builtinCode == kTfliteMaxPool) d.maxPools.push_back(op.outputs.at(0));
      if (op.builtinCode == kTfliteAveragePool) {
        d.averagePoolInput = op.inputs.at(0);
        d.averagePoolOutput = op.outputs.at(0);
      }
    }
    if (quantized < 0 || d.graph.tensors[static_cast<size_t>(quantized)].type != hle::ElementType::Int8) {
      d.skip = "the twin has no int8 QUANTIZE of its input";
      return d;
    }
    std::vector<int32_t> keep = d.maxPools;
    if (d.averagePoolInput >= 0) {
      keep.push_back(d.averagePoolInput);
      keep.push_back(d.averagePoolOutput);
    }
    for (const uint64_t seed : {1u, 2u, 3u}) {
      NinCnnDrives::Seed run;
      run.seed = seed;
      const std::vector<std::vector<uint8_t>> inputs = driver::randomInputs(plan, seed);
      std::vector<uint8_t> deviceInput = inputs.at(0);
      const uint8_t flip = plan.inputs[0].flipsSign ? 0x80 : 0x00;
      for (uint8_t& b : deviceInput) b ^= flip;
      const auto capture = std::make_shared<MaxPoolCapture>();
      run.stop = driveUpToTheRefusal(caching.get(), *program, params, deviceInput, capture);
      std::printf("nin_cnn seed %llu: stopped at %s\n", static_cast<unsigned long long>(seed), run.stop.c_str());
      run.written = capture->byPc();
      hle::GraphExecutor executor(d.graph);
      run.tensors = executor.runKeepingTensors({{quantized, inputs[0]}}, keep);
      d.seeds.push_back(std::move(run));
    }
    return d;
  }();
  return drives;
}

TEST(LleMaxPoolRun, NinCnnsTwoMaxPoolLayersEqualTheTwinsMaxPool2d) {
  const NinCnnDrives& d = ninCnnDrives();
  if (!d.skip.empty()) GTEST_SKIP() << "\n*** SKIPPED: " << d.skip << ". ***\n";
  ASSERT_EQ(d.maxPools.size(), 2u) << "nin_cnn's twin has two MAX_POOL_2D";
  ASSERT_EQ(d.maxPoolLayers.size(), d.maxPools.size()) << "max pool layers in the compiled program (runs of the max pool form between 0x01 computes)";

  size_t bytesEqual = 0;
  for (const NinCnnDrives::Seed& run : d.seeds) {
    const uint64_t seed = run.seed;
    const std::map<uint32_t, MaxPoolCapture::Written>& written = run.written;
    const std::string& stop = run.stop;
    for (size_t k = 0; k < d.maxPools.size(); ++k) {
      const hle::Tensor& t = d.graph.tensors[static_cast<size_t>(d.maxPools[k])];
      ASSERT_EQ(t.shape.size(), 4u);
      const size_t channels = static_cast<size_t>(t.shape[3]);
      const std::vector<uint8_t>& twinBytes = run.tensors[static_cast<size_t>(d.maxPools[k])];
      ASSERT_EQ(twinBytes.size() % channels, 0u);
      // The twin's positions as the device holds them (int8 with its sign bit flipped), as a multiset.
      std::multiset<std::vector<uint8_t>> unmatched;
      for (size_t at = 0; at < twinBytes.size(); at += channels) {
        std::vector<uint8_t> position(twinBytes.begin() + static_cast<std::ptrdiff_t>(at),
                                      twinBytes.begin() + static_cast<std::ptrdiff_t>(at + channels));
        for (uint8_t& b : position) b ^= 0x80;
        unmatched.insert(std::move(position));
      }
      const size_t twinPositions = unmatched.size();
      size_t lle = 0, matched = 0;
      for (const uint32_t pc : d.maxPoolLayers[k]) {
        const auto found = written.find(pc);
        EXPECT_NE(found, written.end()) << "seed " << seed << " pool layer " << k << ": the max pool @ PC " << pc << " did not run (stop: " << stop << ")";
        if (found == written.end()) continue;
        EXPECT_EQ(found->second.lanes, channels) << "pool layer " << k << " PC " << pc << ": lanes a position against the twin's channels";
        for (const std::vector<uint8_t>& position : found->second.positions) {
          ++lle;
          const auto twinPosition = unmatched.find(position);
          EXPECT_NE(twinPosition, unmatched.end()) << "seed " << seed << " pool layer " << k << " PC " << pc << ": position " << lle - 1
                                                   << " equals no (remaining) twin position";
          if (twinPosition == unmatched.end()) continue;
          unmatched.erase(twinPosition);
          ++matched;
          bytesEqual += position.size();
        }
      }
      std::printf("nin_cnn seed %llu, max pool layer %zu (%zu packets): %zu lle positions, %zu equal to twin positions, %zu twin positions\n",
                  static_cast<unsigned long long>(seed), k, d.maxPoolLayers[k].size(), lle, matched, twinPositions);
      EXPECT_EQ(lle, twinPositions) << "seed " << seed << " pool layer " << k << ": positions written against the twin's";
      EXPECT_TRUE(unmatched.empty()) << "seed " << seed << " pool layer " << k << ": " << unmatched.size() << " twin positions matched by none";
    }
  }
  std::printf("nin_cnn max pools, 3 inputs: %zu bytes equal to the twin's MAX_POOL_2D\n", bytesEqual);
}

// nin_cnn's 4 x 4 AVERAGE_POOL_2D (4 x 4 x 10 -> 1 x 1 x 10, uint8 on the device, zero point Z = 124), one 0x01 of the
// average pool's form on tile 0 (12 lanes; docs/decoding-log.md "avgp"). Its input is the twin's conv2d_26 output (the
// convolutions before it equal the twin's under the twin's rounding, as this drive runs them). Each channel's byte must be
// the pool's arithmetic on the twin's 16 input bytes: sum(v - Z) requantised by the packet's epilogue (its multiplier
// 0.0624999963, clamps [-Z, 255 - Z], Z added back) under the drive's rounding -- so the sum, the zero points, the window
// and the lanes are what is tested, the rounding rule being the Requantizer's (requantizer.h). Where the sum is no tie
// (16 does not divide 2 sum - 16) every rule gives the twin's own AVERAGE_POOL_2D byte: asserted. At a tie the rules
// part: the device's (float32, "round18": the multiplier one ulp below 1 / 16 sends ties toward Z; nin_cnn's 300 device
// scores) and the twin's kernel (half away from its int8 zero, device 128) are counted and printed, not asserted.
TEST(LleMaxPoolRun, NinCnnsAveragePoolIsItsArithmeticOnTheTwinsInput) {
  const NinCnnDrives& d = ninCnnDrives();
  if (!d.skip.empty()) GTEST_SKIP() << "\n*** SKIPPED: " << d.skip << ". ***\n";
  ASSERT_GE(d.averagePoolInput, 0) << "nin_cnn's twin has an AVERAGE_POOL_2D";
  ASSERT_EQ(d.averagePools.size(), 1u) << "one compute of the average pool's form in nin_cnn";
  const hle::Tensor& in = d.graph.tensors[static_cast<size_t>(d.averagePoolInput)];
  ASSERT_EQ(in.shape.size(), 4u);
  ASSERT_EQ(in.type, hle::ElementType::Int8);
  ASSERT_EQ(in.zeroPoint.size(), 1u);
  const auto channels = static_cast<size_t>(in.shape[3]);
  const auto window = static_cast<int32_t>(in.shape[1] * in.shape[2]);
  const int32_t zero = static_cast<int32_t>(in.zeroPoint[0]) + 128;  // the device's uint8 zero point
  const NinCnnDrives::Epilogue& e = d.averagePoolEpilogue;
  EXPECT_EQ(e.zpOut, zero) << "the pool's ComputeZpOut is the tensor's zero point";
  const Requantizer drive(1.0f, e.mult, e.lo, e.hi, e.zpOut, kDriveRounding);
  const Requantizer device(1.0f, e.mult, e.lo, e.hi, e.zpOut, models::ChipConfig{}.requantRounding);
  size_t equal = 0, ties = 0, twinAtTies = 0, deviceAtTies = 0, nonTieTwinEqual = 0;
  for (const NinCnnDrives::Seed& run : d.seeds) {
    const auto found = run.written.find(d.averagePools[0]);
    ASSERT_NE(found, run.written.end()) << "seed " << run.seed << ": the average pool @ PC " << d.averagePools[0] << " did not run (stop: " << run.stop << ")";
    ASSERT_EQ(found->second.positions.size(), 1u) << "one output position";
    const std::vector<uint8_t>& got = found->second.positions[0];
    ASSERT_GE(got.size(), channels) << "lanes against the twin's channels";
    const std::vector<uint8_t>& input = run.tensors[static_cast<size_t>(d.averagePoolInput)];
    const std::vector<uint8_t>& twinOut = run.tensors[static_cast<size_t>(d.averagePoolOutput)];
    ASSERT_EQ(input.size(), channels * static_cast<size_t>(window));
    ASSERT_EQ(twinOut.size(), channels);
    for (size_t c = 0; c < channels; ++c) {
      int32_t sum = 0;
      for (size_t p = 0; p < static_cast<size_t>(window); ++p) sum += int32_t{static_cast<uint8_t>(input[p * channels + c] ^ 0x80)} - zero;
      const int32_t twin = static_cast<uint8_t>(twinOut[c] ^ 0x80);
      EXPECT_EQ(int32_t{got[c]}, int32_t{drive(sum)}) << "seed " << run.seed << " channel " << c << ": sum less the zero point " << sum;
      equal += got[c] == drive(sum) ? 1 : 0;
      const int32_t twice = 2 * (sum < 0 ? -sum : sum);
      if (twice % window == 0 && (twice / window) % 2 == 1) {
        ++ties;
        twinAtTies += twin == int32_t{got[c]} ? 1 : 0;
        deviceAtTies += device(sum) == got[c] ? 1 : 0;
      } else {
        EXPECT_EQ(int32_t{got[c]}, twin) << "seed " << run.seed << " channel " << c << ": no tie, the twin's AVERAGE_POOL_2D byte";
        nonTieTwinEqual += twin == int32_t{got[c]} ? 1 : 0;
      }
    }
  }
  std::printf("nin_cnn average pool, 3 inputs: %zu / %zu bytes its arithmetic on the twin's input; %zu / %zu non-tie bytes the twin's "
              "AVERAGE_POOL_2D; %zu ties: %zu the twin's byte, %zu the device rule's (toward the zero point)\n",
              equal, channels * d.seeds.size(), nonTieTwinEqual, channels * d.seeds.size() - ties, ties, twinAtTies, deviceAtTies);
}

}  // namespace
}  // namespace coralsim::lle::lle_max_pool_run_test

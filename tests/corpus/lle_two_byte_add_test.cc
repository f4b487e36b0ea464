// The two-byte element form (docs/decoding-log.md "twobyte"; models/lle/lle_rung_two_byte_walk.cc): every golden
// model whose execution-only program holds a compute with 2-byte input elements runs through the driver strictly on
// lle with each golden case's input. One that runs fully has its output tensor compared whole, exact size, with
// the golden; and, because an ADD chain's golden can say little (model_mat_Add's output is a 1 x 1 convolution of
// a padded corner: 0 whatever the ADDs compute), what each tile of each 2-byte compute wrote is compared with the
// CPU twin's ADD tensors computed by the hle kernels on the same input: the k-th 2-byte compute against the
// twin's k-th ADD, lanes 0-2 of every position (the tensor's 3 channels; lane 3 pads the 4-byte pixel) as a
// multiset of values equal to the tensor's, and, along the chain, each position's lanes the twin's element
// function of the same position's lanes one compute before (where the 2-byte computes and the twin's ADDs are as many: a
// program whose 2-byte computes are also other layers is compared on its golden alone). Found by structure, no model
// named. The floor:
// one such program runs fully (model_mat_Add) with every compared byte exact.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "driver/model/model_loader.h"
#include "driver/run/run_plan.h"
#include "driver/run/runner.h"
#include "hosting/in_process_transport.h"
#include "models/hle/graph.h"
#include "models/hle/graph_executor.h"
#include "models/lle/compute_observer.h"
#include "models/lle/lle_fields.h"
#include "sim/device.h"
#include "sim/hle_host/hle_graph.h"
#include "tests/corpus/golden_models_on_lle.h"
#include "tests/support/corpus.h"
#include "tests/support/golden_output.h"
#include "tests/support/json_reader.h"

namespace coralsim::driver::lle_two_byte_add_test {
namespace {

namespace fs = std::filesystem;
using lle::LleField;

constexpr int32_t kTfliteAdd = 0;  // BuiltinOperator ADD
constexpr unsigned kChannels = 3;  // the ADD chain's tensors: 3 channels in a 4-lane pixel

bool isTwoByteCompute(const models::DecodedPacket& p) {
  return static_cast<uint8_t>(p.opcode) == 0x01 && lle::readField(p.words, LleField::ComputeInputBytes) == 2;
}

// What each tile of each 2-byte compute wrote, in issue order: per compute, per tile of its mask, the lanes of
// its positions in output-nest order.
class TwoByteCapture final : public lle::ComputeObserver {
 public:
  void computed(const models::DecodedPacket& packet, unsigned, const lle::ComputeWrite& write) override {
    if (!isTwoByteCompute(packet)) return;
    const std::lock_guard lock(mutex_);
    if (last_ != &packet || computes_.empty()) computes_.emplace_back();
    last_ = &packet;
    computes_.back().emplace_back(write.bytes.begin(), write.bytes.end());
  }
  std::vector<std::vector<std::vector<uint8_t>>> computes() const {
    const std::lock_guard lock(mutex_);
    return computes_;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<std::vector<std::vector<uint8_t>>> computes_;
  const models::DecodedPacket* last_ = nullptr;
};

RunResult runCapturing(const RunPlan& plan, const std::vector<std::vector<uint8_t>>& inputs, const std::shared_ptr<TwoByteCapture>& capture) {
  sim::DeviceOptions options;
  options.chip.mode = models::ExecutionMode::kLle;
  options.chip.lleComputeObserver = capture;
  sim::Device device(options);
  // 500 ADDs over 4 tiles of 64 KiB: a chunk of them may take longer than a transfer's default limit on a busy host.
  InProcessTransport transport(device, std::chrono::minutes(10));
  Runner runner(transport, RunnerOptions{});
  runner.open();
  RunResult result = runner.run(plan, inputs);
  runner.close();
  return result;
}

// The twin's ADD tensors (bytes) in op order, computed on `input` by the hle kernels.
std::vector<std::vector<uint8_t>> twinAddTensors(const hle::Graph& graph, const std::vector<uint8_t>& input) {
  std::vector<int32_t> adds;
  for (const hle::Op& op : graph.ops) {
    if (op.builtinCode == kTfliteAdd && op.outputs.size() == 1) adds.push_back(op.outputs[0]);
  }
  hle::GraphExecutor executor(graph);
  const auto tensors = executor.runKeepingTensors({{graph.inputs[0], input}}, graph.outputs);
  std::vector<std::vector<uint8_t>> out;
  for (const int32_t t : adds) out.push_back(tensors[static_cast<size_t>(t)]);
  return out;
}

struct Tally {
  size_t programs = 0, fully = 0, computesChecked = 0, lanesChecked = 0, chainLanesChecked = 0;
};

// Compares one case's 2-byte computes with the twin's ADD tensors, stopping at the first difference.
void compareWithTwin(const std::string& name, const std::vector<std::vector<std::vector<uint8_t>>>& computes,
                     const std::vector<std::vector<uint8_t>>& twin, Tally& tally) {
  ASSERT_EQ(computes.size(), twin.size()) << name << ": 2-byte computes against the twin's ADDs";
  for (size_t k = 0; k < computes.size(); ++k) {
    std::array<size_t, 256> got{}, want{};
    size_t lanes = 0;
    for (const auto& tile : computes[k]) {
      for (size_t i = 0; i < tile.size(); ++i) {
        if (i % 4 < kChannels) ++got[tile[i]], ++lanes;
      }
    }
    for (const uint8_t v : twin[k]) ++want[v];
    ASSERT_EQ(lanes, twin[k].size()) << name << " compute " << k << ": lanes 0-2 of its positions against the ADD tensor's elements";
    for (unsigned v = 0; v < 256; ++v) ASSERT_EQ(got[v], want[v]) << name << " compute " << k << ": elements of value " << v;
    tally.lanesChecked += lanes;
    ++tally.computesChecked;
    if (k == 0) continue;
    // The twin's element function of this ADD, read off its tensors (each value of the last maps to one value).
    std::array<int, 256> next;
    next.fill(-1);
    for (size_t j = 0; j < twin[k].size(); ++j) {
      const uint8_t from = twin[k - 1][j];
      ASSERT_TRUE(next[from] < 0 || next[from] == twin[k][j]) << name << ": the twin's ADD " << k << " is not element-wise";
      next[from] = twin[k][j];
    }
    ASSERT_EQ(computes[k].size(), computes[k - 1].size()) << name << " compute " << k;
    for (size_t t = 0; t < computes[k].size(); ++t) {
      const auto& before = computes[k - 1][t];
      const auto& after = computes[k][t];
      ASSERT_EQ(before.size(), after.size()) << name << " compute " << k << " tile " << t;
      for (size_t i = 0; i < after.size(); ++i) {
        if (i % 4 >= kChannels) continue;
        ASSERT_EQ(int{after[i]}, next[before[i]]) << name << " compute " << k << " tile " << t << " position " << i / 4 << " lane " << i % 4
                                                 << ": not the twin's ADD of the value this position held";
        ++tally.chainLanesChecked;
      }
    }
  }
}

TEST(LleCorpus, TheTwoByteAddsComputeTheTwinsAddTensorsAndRunTheirProgramToTheGolden) {
  const auto golden = coralsim::testing::goldenDir();
  if (!golden) GTEST_SKIP() << "\n*** SKIPPED: golden data not found (set CORALSIM_GOLDEN). ***\n";
  const auto corpus = coralsim::testing::corpusDir();
  CORALSIM_REQUIRE_CORPUS(corpus);
  const auto text = [](const coralsim::testing::JsonValue* v) { return v ? v->text : std::string(); };
  Tally tally;
  for (const auto& entry : fs::directory_iterator(*golden)) {
    if (!entry.is_directory() || !fs::exists(entry.path() / "manifest.json")) continue;
    const auto manifest = coralsim::testing::readJsonFile(entry.path() / "manifest.json");
    const fs::path compiledPath = *corpus / text(manifest.find("compiled")->find("path"));
    if (!fs::exists(compiledPath)) continue;
    const ModelFile model = loadModelFile(compiledPath);
    if (!coralsim::testing::anyExecutionOnlyPacket(model, isTwoByteCompute)) continue;
    ++tally.programs;
    const std::string name = compiledPath.filename().string();
    const auto* twinEntry = manifest.find("twin");
    const fs::path twinPath = twinEntry && twinEntry->find("path") ? *corpus / text(twinEntry->find("path")) : fs::path();
    const RunPlan plan = planRun(model);
    bool ranFully = true;
    size_t bytes = 0;
    for (const auto& c : manifest.find("cases")->items) {
      std::vector<std::vector<uint8_t>> inputs;
      for (const auto& in : c.find("tpu_inputs")->items) inputs.push_back(coralsim::testing::readFile(entry.path() / text(in.find("file"))));
      const auto capture = std::make_shared<TwoByteCapture>();
      const RunResult r = runCapturing(plan, inputs, capture);
      if (!r.ok()) {
        const size_t at = r.error->find("not modelled");
        std::printf("  %s stops on lle: %s\n", name.c_str(), r.error->substr(at == std::string::npos ? 0 : at).c_str());
        ranFully = false;
        break;
      }
      const auto& outs = c.find("tpu_outputs")->items;
      ASSERT_EQ(r.outputs.size(), outs.size()) << name;
      for (size_t j = 0; j < outs.size(); ++j) {
        const std::vector<uint8_t> want = coralsim::testing::readPreferredGoldenOutput(entry.path(), outs[j]);
        EXPECT_EQ(r.outputs[j].bytes.size(), want.size()) << name << " output " << j;
        EXPECT_EQ(r.outputs[j].bytes, want) << name << " golden case " << text(c.find("case")) << " output " << j;
        bytes += want.size();
      }
      // The twin's input is the model's own (uint8 here; an int8 input would need the device's flip).
      ASSERT_TRUE(fs::exists(twinPath)) << name << ": runs fully but its twin is not in the corpus";
      const ModelFile twin = loadModelFile(twinPath);
      ASSERT_TRUE(twin.tflite) << twinPath;
      const hle::Graph graph = sim::hleGraphFromTflite(*twin.tflite);
      ASSERT_EQ(graph.tensors[static_cast<size_t>(graph.inputs[0])].type, hle::ElementType::UInt8) << name;
      // The k-th 2-byte compute is the twin's k-th ADD only in a program whose 2-byte computes are its ADDs, one for one.
      // Another program with 2-byte computes (looming: 16 of them beside one ADD, its identities and weighings, since
      // "loomout" runs fully) is compared on its golden output alone, said here.
      const auto computes = capture->computes();
      const auto adds = twinAddTensors(graph, inputs[0]);
      if (computes.size() != adds.size()) {
        std::printf("  %s: %zu two-byte computes, %zu ADDs in its twin: not an ADD chain, its golden output alone compared\n",
                    name.c_str(), computes.size(), adds.size());
        continue;
      }
      compareWithTwin(name + " case " + text(c.find("case")), computes, adds, tally);
    }
    if (ranFully) {
      ++tally.fully;
      std::printf("  %s runs fully on lle: %zu bytes of golden output compared whole\n", name.c_str(), bytes);
    }
  }
  std::printf("programs with 2-byte computes and golden data: %zu; fully on lle: %zu; 2-byte computes checked against the twin's ADDs: %zu "
              "(%zu lanes as multisets, %zu along the chain)\n",
              tally.programs, tally.fully, tally.computesChecked, tally.lanesChecked, tally.chainLanesChecked);
  ASSERT_GT(tally.programs, 0u) << "no program with 2-byte computes has golden data: the corpus or golden set lost them";
  EXPECT_GE(tally.fully, 1u) << "fewer programs with 2-byte computes run fully on lle than docs/decoding-log.md \"twobyte\" reports "
                                "(model_mat_Add)";
  EXPECT_GT(tally.chainLanesChecked, 0u) << "no 2-byte compute was compared along its chain";
}

}  // namespace
}  // namespace coralsim::driver::lle_two_byte_add_test

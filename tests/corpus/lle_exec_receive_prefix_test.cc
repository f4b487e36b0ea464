// The execution-only 0x11 receive with a prefix (docs/decoding-log.md "stride11") over every compiled
// corpus program, and how far the iwatake stride and padding_stride sweeps get on the lle rung
// (issue #12 target (b)).
//
// 1. The relation the rung checks (lle_relations.def: Recv11PrefixBytes8 = Recv11PrefixSpan8 + 32 where
//    Recv11PrefixOn) holds in every such receive, one unit more in none, and the compute next on the
//    receive's tiles has a parameter prefix, so the counts can fail.
// 2. The sweeps on lle: the decode set (stride 64x64, padding_stride 64x64) passes its prefix receive, as
//    do the nine held-out programs -- the prefix's position (Recv11PrefixAt64 / Last64, 112 ...
//    72 by size) is don't-care for the bytes in that form ("stride" §A), its form marks are the decode
//    set's -- and the compute-feeding 0x14 and one-step 1 x 1 convolution after it (§B, §D; their bits of
//    unknown meaning pinned to stride 64x64 alone), the host sends and the nested outfeeds to scalar
//    memory ("scalar27"); each stop is printed, and a program that runs fully has every golden case's
//    output compared whole (exact size).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "driver/model/model_file.h"
#include "driver/model/model_loader.h"
#include "driver/run/run_plan.h"
#include "driver/run/runner.h"
#include "models/lle/lle_fields.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/decoded_bitstreams.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/corpus/lle_refusal_pc.h"
#include "tests/corpus/lle_run_on_device.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_exec_receive_prefix_test {
namespace {

namespace fs = std::filesystem;
using coralsim::testing::forEachDecodedBitstream;
using coralsim::testing::forEachDistinctCorpusModel;
using coralsim::testing::refusedPc;
using lle::LleField;
using lle::readField;

constexpr uint8_t kReceive = 0x11, kCompute = 0x01;

bool prefixedExecutionOnlyReceive(const models::DecodedPacket& p) {
  return static_cast<uint8_t>(p.opcode) == kReceive && readField(p.words, LleField::Recv11ExecutionForm) != 0 &&
         readField(p.words, LleField::Recv11PrefixOn) != 0;
}

TEST(LleCorpus, ExecutionOnlyReceivesWithAPrefixEndOneArrayAfterTheirSpanAndFeedAPrefixedCompute) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  size_t receives = 0, lengthHolds = 0, oneMore = 0, prefixedCompute = 0;
  forEachDistinctCorpusModel({"_edgetpu.tflite"}, [&](const fs::path&, const ModelFile& model) {
    forEachDecodedBitstream(model, [&](const Executable&, const models::DecodedProgram& program) {
      const auto& packets = program.packets();
      for (size_t i = 0; i < packets.size(); ++i) {
        if (!prefixedExecutionOnlyReceive(packets[i])) continue;
        ++receives;
        const uint64_t span8 = readField(packets[i].words, LleField::Recv11PrefixSpan8);
        const uint64_t bytes8 = readField(packets[i].words, LleField::Recv11PrefixBytes8);
        lengthHolds += bytes8 == span8 + 32;
        oneMore += bytes8 == span8 + 33;
        const uint64_t tiles = readField(packets[i].words, LleField::Dma11Mask);
        for (size_t j = i + 1; j < packets.size(); ++j) {
          if (static_cast<uint8_t>(packets[j].opcode) != kCompute || (readField(packets[j].words, LleField::ComputeMask) & tiles) == 0) {
            continue;
          }
          prefixedCompute += readField(packets[j].words, LleField::ComputeParamPrefix) != 0;
          break;
        }
      }
    });
  });
  std::printf("execution-only receives with Recv11PrefixOn: %zu; Bytes8 = Span8 + 32 in %zu (+ 33: %zu); "
              "next compute on their tiles has a parameter prefix in %zu\n",
              receives, lengthHolds, oneMore, prefixedCompute);
  ASSERT_GT(receives, 0u);
  EXPECT_EQ(lengthHolds, receives);
  EXPECT_LT(oneMore, receives / 10);
  EXPECT_GT(prefixedCompute, receives * 9 / 10);
}

struct SweepProgram {
  const char* folder;
  const char* name;
  bool decodeSet;
};

// The golden cases of one program: every `<case>.in0.bin` with its output (the fp32-requantisation
// variant where the folder has one: golden/README.md "Which variant"; model_stride_128x64x3 rand1 reads
// 0x10 there, 0x11 in TFLite's), in name order.
struct GoldenCase {
  std::string name;
  std::vector<uint8_t> input, expected;
};

std::vector<GoldenCase> goldenCases(const fs::path& folder) {
  std::vector<GoldenCase> cases;
  if (!fs::is_directory(folder)) return cases;
  for (const auto& e : fs::directory_iterator(folder)) {
    const std::string file = e.path().filename().string();
    constexpr std::string_view kInput = ".in0.bin";
    if (file.size() <= kInput.size() || !file.ends_with(kInput)) continue;
    const std::string name = file.substr(0, file.size() - kInput.size());
    const fs::path fp32 = folder / (name + ".tpu_out0.xnnpack.bin");
    const fs::path primary = folder / (name + ".tpu_out0.bin");
    if (!fs::exists(primary)) continue;
    cases.push_back({name, coralsim::testing::readFile(e.path()), coralsim::testing::readFile(fs::exists(fp32) ? fp32 : primary)});
  }
  std::sort(cases.begin(), cases.end(), [](const GoldenCase& a, const GoldenCase& b) { return a.name < b.name; });
  return cases;
}

// The floor: every program of both sweeps passes its prefix receive and its one-step convolution (decode
// set and held-out sizes alike), its host sends and the nested outfeeds that move their bytes into the
// scalar core's data memory (docs/decoding-log.md "scalar27"), and runs fully; every golden case is
// compared whole (exact size). The two programs whose input transfer fills the input ring more than once
// (256 x 256, 256 x 512: InfeedWraps64K 1 / 2, "infeed64k") run fully too; 256 x 256 is that decode's
// decode set, 256 x 512 held out.
TEST(LleStrideSweep, ThePrefixReceivesPassAndAFullRunMatchesTheGolden) {
  const auto corpus = coralsim::testing::corpusDir();
  if (!corpus) GTEST_SKIP() << "\n*** SKIPPED: CORALSIM_CORPUS not set; the stride sweep is not checked. ***\n";
  const std::vector<SweepProgram> sweep = {
      {"model_stride", "model_stride_64x64x3", true},
      {"model_padding_stride", "model_padding_stride_64x64x3", true},
      {"model_stride", "model_stride_128x64x3", false},
      {"model_stride", "model_stride_2x2x3", false},
      {"model_padding_stride", "model_padding_stride_128x64x3", false},
      {"model_padding_stride", "model_padding_stride_128x128x3", false},
      {"model_padding_stride", "model_padding_stride_256x256x3", false},
      {"model_stride", "model_stride_128x128x3", false},
      {"model_stride", "model_stride_256x256x3", false},
      {"model_stride", "model_stride_256x128x3", false},
      {"model_stride", "model_stride_256x512x3", false},
  };
  constexpr size_t kMinFullyLle = 11;
  const auto golden = coralsim::testing::goldenDir();
  size_t checked = 0, fully = 0, cases = 0, exactCases = 0, nonZeroExact = 0;
  for (const SweepProgram& s : sweep) {
    const fs::path path = *corpus / "iwatake2222+EdgeTPU_Analysis" / "InOut" / s.folder / (std::string(s.name) + "_edgetpu.tflite");
    if (!fs::exists(path)) {
      std::printf("*** %s not in the corpus: not checked ***\n", s.name);
      continue;
    }
    const ModelFile model = loadModelFile(path);
    long receivePc = -1, convolutionPc = -1;
    forEachDecodedBitstream(model, [&](const Executable&, const models::DecodedProgram& program) {
      for (const models::DecodedPacket& p : program.packets()) {
        if (receivePc < 0 && prefixedExecutionOnlyReceive(p)) receivePc = static_cast<long>(p.pc);
        if (receivePc >= 0 && convolutionPc < 0 && static_cast<uint8_t>(p.opcode) == kCompute &&
            readField(p.words, LleField::ComputeParamPrefix) != 0) {
          convolutionPc = static_cast<long>(p.pc);
        }
      }
    });
    ASSERT_GE(receivePc, 0) << "no execution-only 0x11 with a prefix in " << path;
    ASSERT_GT(convolutionPc, receivePc) << "no prefixed compute after the prefix receive in " << path;
    std::vector<GoldenCase> golds =
        golden ? goldenCases(*golden / ("iwatake2222+EdgeTPU_Analysis__" + std::string(s.name))) : std::vector<GoldenCase>{};
    const RunPlan plan = planRun(model);
    if (golds.empty()) {
      std::printf("*** %s: no golden cases (set CORALSIM_GOLDEN): run on zeros, outputs not compared ***\n", s.name);
      golds.push_back({"zeros", std::vector<uint8_t>(plan.inputs.empty() ? 0 : plan.inputs[0].sizeBytes, 0), {}});
    }
    ++checked;
    bool ranFully = true;
    for (const GoldenCase& g : golds) {
      const RunResult r = coralsim::testing::runOnLle(plan, {g.input});
      if (!r.ok()) {
        const std::string& why = *r.error;
        const size_t at = why.find("not modelled");
        std::printf("%s (%s) on lle stops: %s\n", s.name, s.decodeSet ? "decode set" : "held out",
                    why.substr(at == std::string::npos ? 0 : at).c_str());
        // No program may stop before its convolution.
        EXPECT_GT(refusedPc(why), convolutionPc) << s.name << ": " << why;
        ranFully = false;
        break;
      }
      if (g.expected.empty()) continue;
      ASSERT_EQ(r.outputs.size(), 1u);
      ASSERT_EQ(r.outputs[0].bytes.size(), g.expected.size()) << s.name << " " << g.name;
      ++cases;
      const bool exact = r.outputs[0].bytes == g.expected;
      exactCases += exact;
      nonZeroExact += exact && std::any_of(g.expected.begin(), g.expected.end(), [](uint8_t b) { return b != 0; });
      EXPECT_EQ(r.outputs[0].bytes, g.expected) << s.name << " golden case " << g.name;
    }
    if (ranFully) {
      ++fully;
      std::printf("%s (%s) runs fully on lle over %zu golden cases\n", s.name, s.decodeSet ? "decode set" : "held out", golds.size());
    }
  }
  std::printf("stride sweeps: %zu of %zu programs fully on lle; %zu / %zu golden cases exact (%zu of them non-zero)\n", fully, checked,
              exactCases, cases, nonZeroExact);
  EXPECT_GT(checked, 0u);
  EXPECT_GE(fully, std::min(kMinFullyLle, checked));
}

}  // namespace
}  // namespace coralsim::driver::lle_exec_receive_prefix_test

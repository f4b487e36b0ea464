// The low-level datapath over the real corpus, driven the real way: driver Runner ->
// InProcessTransport -> sim::Device, with ChipConfig::mode lle (strict) and auto.
//
// 1. Every unique compiled model and raw program runs in `lle` and in `auto`. Per model the table
//    says whether it ran fully on the lle rung, or where the rung stopped (the fault names opcode
//    and PC). A refusal must be a clean kUnsupported fault ("lle: ..." / "not modelled"), never a
//    crash, an internal error or a hang; in `auto` every run must complete (a refused run drops to
//    a lower rung and says why).
// 2. Every golden model (../shared/golden) whose compiled model runs fully in lle is compared byte
//    by byte with the golden outputs, for every rounding option of ChipConfig::requantRounding.
//    The oracle is the golden data (TFLite / XNNPACK on the CPU twin), not this code. Asserted:
//    with the default rounding, bit-exact against the manifest's preferred reference (the fp32
//    requantisation variant) and within the manifest's ±LSB bound against the primary.
//
// CORALSIM_LLE_CORPUS_MAX_BYTES skips larger models in part 1 (instruction + parameter bytes).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "hosting/in_process_transport.h"
#include "driver/model/model_loader.h"
#include "driver/run/random_inputs.h"
#include "driver/run/run_plan.h"
#include "driver/run/runner.h"
#include "models/lle/lle_fields.h"
#include "models/lle/packet_envelope.h"
#include "models/scalar/decoded_program.h"
#include "sim/device.h"
#include "tests/support/corpus.h"
#include "tests/support/golden_output.h"
#include "tests/support/json_reader.h"
#include "traces/sha256.h"

namespace coralsim::driver::lle_corpus_test {
namespace {

namespace fs = std::filesystem;
using coralsim::testing::JsonValue;
using models::ExecutionMode;
using models::RequantRounding;

constexpr uint64_t kSeed = 20240605;

// Measured on the shared corpus (2026-11): Dense-256 and Dense-1024 run fully in lle (the shipped
// envelope of bits of unknown meaning holds both templates' values, scripts/gen_lle_envelope.py;
// the Dense-1024 hold-out experiment below uses Dense-256's alone).
constexpr size_t kMinFullyLleModels = 2;
constexpr size_t kMinGoldenModelsCompared = 2;

struct Outcome {
  bool ok = false;
  std::string error;
  std::vector<models::RunRecord> runs;  // this call's runs, from the device's run log
  RunResult result;
};

Outcome runOn(const RunPlan& plan, const std::vector<std::vector<uint8_t>>& inputs, ExecutionMode mode,
              RequantRounding rounding = RequantRounding::kFp32HalfEven) {
  sim::DeviceOptions options;
  options.chip.mode = mode;
  options.chip.requantRounding = rounding;
  sim::Device device(options);
  Outcome o;
  {
    InProcessTransport transport(device);
    RunnerOptions ro;
    ro.service = ServiceMode::kHints;
    Runner runner(transport, ro);
    runner.open();
    o.result = runner.run(plan, inputs);
    runner.close();
  }
  o.ok = o.result.ok();
  if (!o.ok) o.error = *o.result.error;
  o.runs = device.runLog();
  return o;
}

bool allRunsOn(const Outcome& o, ExecutionMode rung) {
  if (!o.ok || o.runs.empty()) return false;
  return std::ranges::all_of(o.runs, [&](const models::RunRecord& r) { return r.rung == rung && !r.faulted; });
}

// "lle: opcode 0x14 (tile.dma14) at PC 0x001f (word ...): ..." -> "0x14 @ PC 0x001f"
std::string stopPoint(const std::string& text) {
  const size_t op = text.find("opcode 0x");
  const size_t pc = text.find("PC 0x");
  if (op == std::string::npos || pc == std::string::npos) return text.substr(0, 60);
  return text.substr(op + 7, 4) + " @ " + text.substr(pc, 9);
}

std::optional<uint64_t> sizeCap() {
  const char* v = std::getenv("CORALSIM_LLE_CORPUS_MAX_BYTES");
  if (!v || !*v) return std::nullopt;
  return std::strtoull(v, nullptr, 10);
}

TEST(LleCorpus, EveryModelRunsInLleOrStopsCleanlyAndAutoAlwaysCompletes) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  std::vector<fs::path> paths = coralsim::testing::corpusFiles("_edgetpu.tflite");
  const auto raw = coralsim::testing::corpusFiles(".coral");
  paths.insert(paths.end(), raw.begin(), raw.end());
  std::set<std::string> seen;
  size_t models = 0, fullyLle = 0, skipped = 0;
  std::map<std::string, size_t> stopsByOpcode;
  std::printf("%-70s %-10s %-26s %s\n", "model", "lle", "stops at", "auto (rung per run)");
  for (const fs::path& path : paths) {
    const std::vector<uint8_t> bytes = coralsim::testing::readFile(path);
    if (!seen.insert(traces::Sha256::hex(bytes)).second) continue;
    // CORALSIM_LLE_FILTER=<substring> restricts the table to matching files (debugging).
    if (const char* filter = std::getenv("CORALSIM_LLE_FILTER");
        filter && path.string().find(filter) == std::string::npos) {
      continue;
    }
    std::optional<ModelFile> loaded;
    try {
      loaded.emplace(loadModelFromMemory(bytes, path.string()));
    } catch (const std::exception&) {
      continue;  // loader problems are the loader tests' business
    }
    const ModelFile& model = *loaded;
    uint64_t size = 0;
    for (const Executable* e : allExecutables(model)) {
      size += e->parameters.size();
      for (const auto& b : e->bitstreams) size += b.bytes.size();
    }
    if (const auto cap = sizeCap(); cap && size > *cap) {
      ++skipped;
      continue;
    }
    ++models;
    const RunPlan plan = planRun(model);
    const auto inputs = randomInputs(plan, kSeed);
    const Outcome lle = runOn(plan, inputs, ExecutionMode::kLle);
    const Outcome autoRun = runOn(plan, inputs, ExecutionMode::kAuto);
    const bool full = allRunsOn(lle, ExecutionMode::kLle);
    if (full) ++fullyLle;
    std::string stop = "-";
    if (!lle.ok) {
      stop = stopPoint(lle.error);
      ++stopsByOpcode[stop.substr(0, 4)];
      // A refusal is a clean fault of kind kUnsupported, never an internal error or a timeout.
      EXPECT_TRUE(lle.error.find("lle:") != std::string::npos || lle.error.find("not modelled") != std::string::npos)
          << path << ": " << lle.error;
      EXPECT_EQ(lle.error.find("internal"), std::string::npos) << path << ": " << lle.error;
    }
    std::string autoRungs;
    for (const auto& r : autoRun.runs) autoRungs += std::string(models::executionModeName(r.rung)) + " ";
    EXPECT_TRUE(autoRun.ok) << path << " (auto): " << autoRun.error;
    for (const auto& r : autoRun.runs) {
      if (std::getenv("CORALSIM_LLE_VERBOSE")) {
        std::printf("  auto run: rung %s finished %d faulted %d out %llu note %s\n",
                    std::string(models::executionModeName(r.rung)).c_str(), r.finished, r.faulted,
                    static_cast<unsigned long long>(r.outputBytes), r.rungNote.c_str());
      }
      // (A record can stay unfinished when the host closes the device before the final HALT's
      // drain; that is the control plane's business, see corpus_run. A fault is not.)
      EXPECT_FALSE(r.faulted) << path << " (auto)";
      // A rung that was dropped is never the one reported.
      if (r.rung == ExecutionMode::kLle) {
        EXPECT_EQ(r.rungNote.find("lle:"), std::string::npos) << path << " (auto): reported lle after dropping it";
      }
      // A run that is not lle in auto says why the lle rung was dropped, or produced no windows.
      if (r.rung != ExecutionMode::kLle && r.outputBytes > 0) {
        EXPECT_NE(r.rungNote.find("lle"), std::string::npos) << path << " (auto): rung "
                                                             << models::executionModeName(r.rung) << " without a reason";
      }
    }
    if (full) {
      // What lle ran fully, auto must run on lle as well, with the same bytes.
      EXPECT_TRUE(allRunsOn(autoRun, ExecutionMode::kLle)) << path;
      ASSERT_EQ(lle.result.outputs.size(), autoRun.result.outputs.size());
      for (size_t i = 0; i < lle.result.outputs.size(); ++i) {
        EXPECT_EQ(lle.result.outputs[i].sha256, autoRun.result.outputs[i].sha256) << path;
      }
    }
    std::printf("%-70.70s %-10s %-26s %s\n", path.filename().string().c_str(), full ? "FULL" : "stops",
                stop.c_str(), autoRungs.c_str());
    std::fflush(stdout);
  }
  std::printf("\n%zu unique models and programs, %zu skipped by size; fully on the lle rung: %zu\n", models, skipped,
              fullyLle);
  std::printf("lle stops by opcode:");
  for (const auto& [op, n] : stopsByOpcode) std::printf("  %s: %zu", op.c_str(), n);
  std::printf("\n");
  EXPECT_GE(fullyLle, kMinFullyLleModels);
}

// ---- the hold-out: Dense-1024 against fields decoded without it ----------------------------------
// The rung ships the envelope of unknown bits of BOTH Dense templates (so Dense-1024 runs and is
// compared with its golden bytes above). The experiment: against the envelope of Dense-256 alone
// (EnvelopeSet::kDecodeSet), what Dense-1024 needs beyond Dense-256 must be decoded fields.
// Measured (2026-11-25, docs/decoding-log.md): every packet of its PARAMETER_CACHING executable —
// 16 pops of 66,048 bytes into 16 tiles, sizes Dense-256 never had — passes on decoded fields; its
// EXECUTION_ONLY executable is refused at a named opcode, PC, word and bits (the distribution
// packets). When the EO passes too, the shipped envelope can drop Dense-1024.
TEST(LleCorpus, HeldOutDense1024ParameterCachingPassesOnFieldsDecodedWithoutIt) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  std::optional<fs::path> path;
  for (const fs::path& p : coralsim::testing::corpusFiles("_edgetpu.tflite")) {
    if (p.filename() == "dense_1024_edgetpu.tflite") path = p;
  }
  if (!path) GTEST_SKIP() << "\n*** SKIPPED: dense_1024_edgetpu.tflite not in the corpus. ***\n";
  const ModelFile model = loadModelFile(*path);
  size_t parameterCaching = 0;
  for (const Executable* e : allExecutables(model)) {
    std::string firstRefusal;
    size_t packets = 0;
    for (const auto& bitstream : e->bitstreams) {
      const auto program = models::DecodedProgram::fromBytes(bitstream.bytes);
      for (const models::DecodedPacket& p : program->packets()) {
        if (p.action != models::PacketAction::kIssue) continue;
        const auto op = static_cast<uint8_t>(p.opcode);
        if (op >= 0x21 && op <= 0x23) continue;  // halt, branch, loop: the scalar core's business
        ++packets;
        // The shipped envelope accepts every packet of both templates.
        EXPECT_EQ(lle::checkEnvelope(p), "");
        if (firstRefusal.empty()) firstRefusal = lle::checkEnvelope(p, lle::EnvelopeSet::kDecodeSet);
      }
    }
    const std::string type(executableTypeName(e->type).value_or("?"));
    std::printf("held-out Dense-1024 %s: %zu packets; against the Dense-256-only envelope: %s\n", type.c_str(),
                packets, firstRefusal.empty() ? "all pass" : firstRefusal.c_str());
    if (e->type == ExecutableType::ParameterCaching) {
      ++parameterCaching;
      EXPECT_EQ(firstRefusal, "") << "the parameter-caching executable needs bits decoded";
    } else if (!firstRefusal.empty()) {
      EXPECT_NE(firstRefusal.find("opcode 0x"), std::string::npos) << firstRefusal;
      EXPECT_NE(firstRefusal.find("word "), std::string::npos) << firstRefusal;
    }
  }
  EXPECT_EQ(parameterCaching, 1u);
}

// ---- part 2: golden models -----------------------------------------------------------------------

std::string text(const JsonValue* v) { return v ? v->text : std::string(); }

JsonValue readManifest(const fs::path& dir) { return coralsim::testing::readJsonFile(dir / "manifest.json"); }

struct Match {
  size_t n = 0, exact = 0;
  int maxDiff = 0;
  void add(const std::vector<uint8_t>& ours, const std::vector<uint8_t>& ref, bool int8) {
    const size_t m = std::min(ours.size(), ref.size());
    n += std::max(ours.size(), ref.size());
    for (size_t i = 0; i < m; ++i) {
      const int a = int8 ? static_cast<int8_t>(ours[i]) : ours[i];
      const int b = int8 ? static_cast<int8_t>(ref[i]) : ref[i];
      if (a == b) ++exact;
      maxDiff = std::max(maxDiff, std::abs(a - b));
    }
    if (ours.size() != ref.size()) maxDiff = 255;
  }
  void add(const Match& other) {
    n += other.n;
    exact += other.exact;
    maxDiff = std::max(maxDiff, other.maxDiff);
  }
  [[nodiscard]] double percent() const { return n ? 100.0 * static_cast<double>(exact) / static_cast<double>(n) : 0.0; }
};

// A golden model directory whose compiled model is in the corpus.
struct GoldenModel {
  fs::path dir;
  JsonValue manifest;
  fs::path compiled;
};

// Every golden model under `golden` whose compiled model is in `corpus`, in directory-name order.
std::vector<GoldenModel> goldenModels(const fs::path& golden, const fs::path& corpus) {
  std::vector<GoldenModel> models;
  for (const auto& e : fs::directory_iterator(golden)) {
    if (!e.is_directory() || !fs::exists(e.path() / "manifest.json")) continue;
    GoldenModel m{e.path(), readManifest(e.path()), {}};
    m.compiled = corpus / text(m.manifest.find("compiled")->find("path"));
    if (fs::exists(m.compiled)) models.push_back(std::move(m));
  }
  std::ranges::sort(models, {}, &GoldenModel::dir);
  return models;
}

// Every case of one golden model run through the driver on the lle rung, each output compared whole
// (exact size) with the golden: the primary output and the preferred reference (the fp32-requantisation
// variant where the manifest has one, readPreferredGoldenOutput).
struct GoldenLleRun {
  std::string stop;  // empty when every case ran fully on lle; otherwise where it stopped
  size_t cases = 0;
  Match preferred, primary;
};

GoldenLleRun runGoldenCasesOnLle(const GoldenModel& model, const RunPlan& plan,
                                 RequantRounding rounding = RequantRounding::kFp32HalfEven) {
  GoldenLleRun run;
  for (const JsonValue& c : model.manifest.find("cases")->items) {
    std::vector<std::vector<uint8_t>> inputs;
    for (const JsonValue& in : c.find("tpu_inputs")->items) inputs.push_back(coralsim::testing::readFile(model.dir / text(in.find("file"))));
    if (inputs.size() != plan.inputs.size()) {
      run.stop = "custom-op inputs differ from the plan's";
      return run;
    }
    const Outcome o = runOn(plan, inputs, ExecutionMode::kLle, rounding);
    if (!allRunsOn(o, ExecutionMode::kLle)) {
      run.stop = o.ok ? "not on lle" : stopPoint(o.error);
      if (std::getenv("CORALSIM_LLE_VERBOSE")) std::printf("%s\n", o.error.c_str());
      return run;
    }
    // An output holding bytes computed from memory no packet wrote is no result (docs/decoding-log.md "raw25"): the model
    // counts as stopped there, its bytes neither exact nor compared.
    for (const driver::OutputTensor& out : o.result.outputs) {
      if (out.undefinedBytes == 0) continue;
      run.stop = "runs fully, but output '" + out.name + "' holds " + std::to_string(out.undefinedBytes) + " undefined bytes of " +
                 std::to_string(out.bytes.size()) + ": not compared";
      return run;
    }
    const auto& outs = c.find("tpu_outputs")->items;
    if (outs.size() != o.result.outputs.size()) {
      ADD_FAILURE() << model.dir << ": " << o.result.outputs.size() << " outputs, the golden case has " << outs.size();
      run.stop = "output count differs from the golden's";
      return run;
    }
    ++run.cases;
    for (size_t j = 0; j < outs.size(); ++j) {
      const bool int8 = text(outs[j].find("dtype")) == "int8";
      const std::vector<uint8_t>& ours = o.result.outputs[j].bytes;  // TFLite encoding
      const std::string file = text(outs[j].find("file"));
      run.primary.add(ours, coralsim::testing::readFile(model.dir / file), int8);
      // The preferred reference of a single requantising layer (TFLite's fixed-point kernels differ
      // from the device by 1 on some elements: conv 32^2 6 x 6 rand1, one byte).
      run.preferred.add(ours, coralsim::testing::readPreferredGoldenOutput(model.dir, outs[j]), int8);
    }
  }
  return run;
}

TEST(LleCorpus, GoldenModelsThatRunInLleMatchTheGoldenBytes) {
  const auto golden = coralsim::testing::goldenDir();
  if (!golden) GTEST_SKIP() << "\n*** SKIPPED: golden data not found (set CORALSIM_GOLDEN). ***\n";
  const auto corpus = coralsim::testing::corpusDir();
  CORALSIM_REQUIRE_CORPUS(corpus);
  const RequantRounding roundings[] = {RequantRounding::kFp32HalfEven, RequantRounding::kFp32HalfAway,
                                       RequantRounding::kTfliteFixedPoint};
  // Per rounding: totals against the preferred reference and against the primary.
  std::map<RequantRounding, Match> totalPreferred, totalPrimary;
  size_t compared = 0, stopped = 0;
  std::printf("%-62s %-20s %-8s %22s %22s\n", "golden model", "rounding", "cases", "preferred: exact max|d|",
              "primary: exact max|d|");
  for (const GoldenModel& goldenModel : goldenModels(*golden, *corpus)) {
    const std::string name = goldenModel.dir.filename().string();
    int maxAbsLsb = 1;
    if (const JsonValue* tol = goldenModel.manifest.find("tolerance")) {
      if (const JsonValue* m = tol->find("max_abs_lsb")) maxAbsLsb = static_cast<int>(m->asDouble());
    }
    // A derived twin states how sure its builder is of it (twin.origin.confidence). Below "high" (today
    // add_128_128's, whose constant operand is inferred: docs/decoding-log.md "eltw12" §E) exactness is
    // reported, and the tolerance still asserted; the golden is not the outside truth there.
    std::string twinConfidence;
    if (const JsonValue* twin = goldenModel.manifest.find("twin")) {
      if (const JsonValue* origin = twin->find("origin")) twinConfidence = text(origin->find("confidence"));
    }
    // A pool's ties (goldenRoundsPoolTies, tests/support/golden_output.h): exactness reported, the tolerance asserted.
    const bool roundsPoolTies = coralsim::testing::goldenRoundsPoolTies(goldenModel.manifest);
    // A golden whose own float-requantising references differ from its primary by 2 LSBs or more over several
    // requantising layers (tolerance.float_requant_spread_lsb, requantising_layers): each CPU reference requantises
    // with scales it computes itself, the device with the f32 scales the compiler stored in the program, and near-tie
    // products diverge and grow layer by layer. No CPU reference is the device's bytes there (docs/decoding-log.md
    // "hold17": PoseNet 353x481_16's lle output equals an offline twin run with the program's own scales,
    // scripts/hold17_device_scale_twin.py, in every byte, and 91.7 % of the preferred reference). Exactness is
    // reported; the tolerance is asserted against the preferred (float-requantising) reference and the primary's
    // distance printed, marked where it exceeds the tolerance. Only the device's rounding is run (CI time: these
    // are the corpus's largest programs).
    // (coralsim::testing::goldenReferenceSpread, tests/support/golden_output.h: the class, shared with the floors.)
    const coralsim::testing::GoldenReferenceSpread spread = coralsim::testing::goldenReferenceSpread(goldenModel.manifest);
    const int floatSpread = spread.floatRequantSpreadLsb, requantisingLayers = spread.requantisingLayers;
    const bool referencesDisagree = spread.referencesDisagree();
    const bool exactExpected =
        (twinConfidence.empty() || twinConfidence.starts_with("high")) && !roundsPoolTies && !referencesDisagree;
    const ModelFile model = loadModelFile(goldenModel.compiled);  // the plan refers into it
    const RunPlan plan = planRun(model);
    std::string stop;
    for (RequantRounding rounding : roundings) {
      if (referencesDisagree && rounding != RequantRounding::kFp32HalfEven) continue;
      const GoldenLleRun run = runGoldenCasesOnLle(goldenModel, plan, rounding);
      if (!run.stop.empty()) {
        stop = run.stop;
        break;
      }
      totalPreferred[rounding].add(run.preferred);
      totalPrimary[rounding].add(run.primary);
      std::printf("%-62.62s %-20s %-8zu %14.3f%% %6d %14.3f%% %6d\n", name.c_str(),
                  std::string(models::requantRoundingName(rounding)).c_str(), run.cases, run.preferred.percent(),
                  run.preferred.maxDiff, run.primary.percent(), run.primary.maxDiff);
      if (rounding == RequantRounding::kFp32HalfEven) {
        SCOPED_TRACE(name);
        if (exactExpected) {
          EXPECT_EQ(run.preferred.exact, run.preferred.n) << "not bit-exact against the fp32-requantisation reference";
        } else if (referencesDisagree) {
          std::printf("%-62.62s references disagree (%d LSB over %d layers): exactness reported; preferred max|d| %d asserted <= %d; "
                      "primary max|d| %d%s\n",
                      name.c_str(), floatSpread, requantisingLayers, run.preferred.maxDiff, maxAbsLsb, run.primary.maxDiff,
                      run.primary.maxDiff > maxAbsLsb ? " OVER the tolerance (reported, not asserted)" : "");
          EXPECT_LE(run.preferred.maxDiff, maxAbsLsb);
        } else if (roundsPoolTies) {
          std::printf("%-62.62s an AVERAGE_POOL_2D's ties: exactness reported, not asserted (max|d| %d, tolerance %d)\n", name.c_str(),
                      run.preferred.maxDiff, maxAbsLsb);
        } else {
          std::printf("%-62.62s twin confidence \"%.40s\": exactness reported, not asserted\n", name.c_str(),
                      twinConfidence.c_str());
        }
        if (!referencesDisagree) {
          EXPECT_LE(run.primary.maxDiff, maxAbsLsb);
        }
      }
    }
    if (stop.empty()) {
      ++compared;
    } else {
      ++stopped;
      std::printf("%-62.62s stops: %s\n", name.c_str(), stop.c_str());
    }
  }
  std::printf("\n%zu golden models ran fully in lle, %zu stopped\n", compared, stopped);
  for (RequantRounding r : roundings) {
    std::printf("rounding %-20s preferred reference %.3f%% exact of %zu bytes; primary %.3f%%\n",
                std::string(models::requantRoundingName(r)).c_str(), totalPreferred[r].percent(), totalPreferred[r].n,
                totalPrimary[r].percent());
  }
  EXPECT_GE(compared, kMinGoldenModelsCompared);
}

// The iwatake padding sweep (docs/decoding-log.md "pad13"): H x W x 3 zero padding of a 2 x 2 x 3 input,
// computed by four quadrant tiles (padding form of the 0x14, identity computes, 0x17 / mesh fills,
// the output read whose Stage13StreamBeats names the quadrant's beats, four outfeed sends). Every
// golden case of every golden model of the sweep runs on lle and is compared whole (exact size). The
// floor reached: 7 of the 7 golden programs fully on lle, every byte exact; the 2 x 2 program's bytes go
// through the scalar core's data memory (its nested 0x27s, docs/decoding-log.md "scalar27"). Decode set 64², 128², 256²; held out 128 x 64, 128 x 256,
// 256 x 128, 2 x 2 — reported separately.
TEST(LleCorpus, ThePaddingSweepRunsFullyOnLleAndEveryByteMatchesGolden) {
  const auto golden = coralsim::testing::goldenDir();
  if (!golden) GTEST_SKIP() << "\n*** SKIPPED: golden data not found (set CORALSIM_GOLDEN). ***\n";
  const auto corpus = coralsim::testing::corpusDir();
  CORALSIM_REQUIRE_CORPUS(corpus);
  constexpr size_t kMinFullyLle = 7;
  const std::set<std::string> decodeSet = {"model_padding_64x64x3", "model_padding_128x128x3", "model_padding_256x256x3"};
  std::map<bool, Match> bySet;  // held out (false) / decode set (true)
  size_t fully = 0, programs = 0;
  for (const GoldenModel& goldenModel : goldenModels(*golden, *corpus)) {
    const std::string stem = goldenModel.compiled.stem().string();  // model_padding_HxWx3_edgetpu
    if (!stem.starts_with("model_padding_") || stem.find("stride") != std::string::npos) continue;
    ++programs;
    const std::string name = stem.substr(0, stem.size() - std::string("_edgetpu").size());
    const ModelFile model = loadModelFile(goldenModel.compiled);  // the plan refers into it
    const GoldenLleRun run = runGoldenCasesOnLle(goldenModel, planRun(model));
    const bool inDecodeSet = decodeSet.contains(name);
    if (!run.stop.empty()) {
      std::printf("%-28s %-9s stops: %s\n", name.c_str(), inDecodeSet ? "decode" : "held-out", run.stop.c_str());
      continue;
    }
    ++fully;
    std::printf("%-28s %-9s %8zu bytes %8.3f%% exact, max|d| %d\n", name.c_str(), inDecodeSet ? "decode" : "held-out",
                run.preferred.n, run.preferred.percent(), run.preferred.maxDiff);
    bySet[inDecodeSet].add(run.preferred);
    EXPECT_EQ(run.preferred.exact, run.preferred.n) << name;
  }
  for (const bool set : {true, false}) {
    std::printf("%-9s %zu bytes, %.3f%% exact, max|d| %d\n", set ? "decode" : "held-out", bySet[set].n, bySet[set].percent(),
                bySet[set].maxDiff);
  }
  std::printf("padding sweep: %zu of %zu golden programs fully on lle\n", fully, programs);
  ASSERT_GT(programs, 0u) << "no golden model of the padding sweep found under " << *golden;
  EXPECT_GE(fully, kMinFullyLle);
}

// Whether the execution-only program holds a stream-feeding pop (lle_fields.def PopStreamFeed): a layer
// whose weights the chip loops from the tile caching them back through the weight feed (the nested 0x27
// and the holding tile's send, docs/decoding-log.md "conv32end").
bool feedsAWeightStream(const ModelFile& model) {
  for (const Executable* e : allExecutables(model)) {
    if (e->type != ExecutableType::ExecutionOnly) continue;
    for (const auto& bitstream : e->bitstreams) {
      const auto program = models::DecodedProgram::fromBytes(bitstream.bytes);
      for (const models::DecodedPacket& p : program->packets()) {
        if (static_cast<uint8_t>(p.opcode) == 0x26 && p.words.size() == 4 && lle::readField(p.words, lle::LleField::PopStreamFeed) != 0) {
          return true;
        }
      }
    }
  }
  return false;
}

// The programs with a weight feed (found by structure: a stream-feeding pop in the execution-only program),
// run through the driver on the lle rung: where one runs fully, every golden case's whole output (exact
// size) is compared with the golden custom-op output; where it stops, the stop is printed. Asserted: every
// program that runs fully is exact on every byte, and at least two run fully (conv 32² 3 x 3, the decode
// set of the feed's pinned bits; conv 64² 3 x 3, held out for the feed and for the output read routed
// (0, 1), whose form's pinned bits come from conv 256² 40 x 40: docs/decoding-log.md "conv64"; looming 64²
// is reported).
TEST(LleCorpus, TheWeightFeedProgramsThatRunFullyOnLleMatchGoldenEveryByte) {
  const auto golden = coralsim::testing::goldenDir();
  if (!golden) GTEST_SKIP() << "\n*** SKIPPED: golden data not found (set CORALSIM_GOLDEN). ***\n";
  const auto corpus = coralsim::testing::corpusDir();
  CORALSIM_REQUIRE_CORPUS(corpus);
  // conv 32² 3 x 3 and 64² 3 x 3, and conv 32² 6 x 6 (held out from every decode set) since "rubens" (its K
  // count, its feeding pop's ring passes, its feed send's row steps); conv 256² 40 x 40 since "conv256out" (its
  // output sends' running position, w2[109:94], past the values small programs keep); the iwatake stride and
  // padding_stride sweeps (eleven) since "scalar27" / "infeed64k"; depthwise 256^2 since "infeed64k" (its
  // input transfer fills the infeed ring once whole and once in part: every output row from the second fill);
  // conv 512^2 40 x 40 since "w12"; conv 500^2 40 x 40 (hardware ground truth) and depthwise 500^2 (held out)
  // since "rowrest" (the 0x14 row form's two parts are consecutive runs of the pop; depthwise's fourth input
  // pop lies past 512 KiB of its transfer).
  constexpr size_t kMinFullyLle = 19;
  size_t fully = 0, programs = 0;
  Match all;
  for (const GoldenModel& goldenModel : goldenModels(*golden, *corpus)) {
    const ModelFile model = loadModelFile(goldenModel.compiled);  // the plan refers into it
    if (!feedsAWeightStream(model)) continue;
    ++programs;
    const GoldenLleRun run = runGoldenCasesOnLle(goldenModel, planRun(model));
    const std::string name = goldenModel.compiled.filename().string();
    if (!run.stop.empty()) {
      std::printf("  %-55.55s stops: %s\n", name.c_str(), run.stop.c_str());
      continue;
    }
    ++fully;
    all.add(run.preferred);
    std::printf("  %-55.55s %zu cases, %zu / %zu bytes exact, max|d| %d\n", name.c_str(), run.cases, run.preferred.exact,
                run.preferred.n, run.preferred.maxDiff);
    // A golden whose own CPU references disagree (goldenReferenceSpread; the golden test's class, docs/decoding-log.md
    // "hold17" §D, "lift18"): no reference is the device's bytes, so exactness is reported and the golden's tolerance
    // asserted (the embedding extractor since "halo"). Every other program stays asserted exact on every byte.
    const coralsim::testing::GoldenReferenceSpread spread = coralsim::testing::goldenReferenceSpread(goldenModel.manifest);
    if (spread.referencesDisagree()) {
      std::printf("  %-55.55s references disagree (%d LSB over %d layers): max|d| %d asserted <= %d\n", name.c_str(),
                  spread.floatRequantSpreadLsb, spread.requantisingLayers, run.preferred.maxDiff, spread.maxAbsLsb);
      EXPECT_GT(run.preferred.n, 0u) << name;
      EXPECT_LE(run.preferred.maxDiff, spread.maxAbsLsb) << name << ": beyond the golden's tolerance";
      continue;
    }
    EXPECT_EQ(run.preferred.exact, run.preferred.n) << name;
  }
  std::printf("weight-feed programs with golden data: %zu; fully on lle: %zu (%zu / %zu bytes exact)\n", programs, fully, all.exact, all.n);
  ASSERT_GT(programs, 0u) << "no golden program with a weight feed found under " << *golden;
  EXPECT_GE(fully, kMinFullyLle);
}

}  // namespace
}  // namespace coralsim::driver::lle_corpus_test

// The whole control plane over the real corpus: every compiled model runs in process through the
// host driver (Runner + InProcessTransport) on the emulated device (sim::Device), in both service
// modes, with seeded random inputs. The oracle is each executable's own DmaHints, compared the way
// tools/isa/emucheck2.py does it: the descriptors the scalar core pushed, with contiguous transfers
// to the same buffer merged, must equal the hints' DMA and interrupt entries (for executables whose
// hints are not fully deterministic: the hinted prefix). The bytes the host received per output
// buffer must equal what the output hints announce, and every run must end with its tag-4 event.
//
// CORALSIM_RUN_CORPUS_MAX_BYTES (instruction + parameter bytes per model) skips larger models when
// set; by default every model runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "driver/run/hint_check.h"
#include "hosting/in_process_transport.h"
#include "driver/model/model_loader.h"
#include "driver/run/random_inputs.h"
#include "driver/run/run_plan.h"
#include "driver/run/runner.h"
#include "sim/device.h"
#include "tests/support/corpus.h"
#include "traces/sha256.h"

namespace coralsim::driver::run_corpus_test {
namespace {

using coralsim::testing::corpusDir;
using coralsim::testing::corpusFiles;

constexpr uint64_t kSeed = 20240601;

bool named(BufferKind k) { return k == BufferKind::Input || k == BufferKind::Output; }

struct ModelSource {
  std::filesystem::path path;
  uint64_t bytes = 0;  // instruction + parameter bytes of all executables
};

// Every *_edgetpu.tflite of the corpus, one per distinct content, smallest first.
std::vector<ModelSource> uniqueModels() {
  std::vector<ModelSource> out;
  std::set<std::string> seen;
  for (const auto& path : corpusFiles("_edgetpu.tflite")) {
    const std::vector<uint8_t> bytes = coralsim::testing::readFile(path);
    if (!seen.insert(traces::Sha256::hex(bytes)).second) continue;
    ModelSource s{path, 0};
    try {
      const ModelFile m = loadModelFromMemory(bytes, path.string());
      for (const Executable* e : allExecutables(m)) {
        s.bytes += e->parameters.size();
        for (const auto& b : e->bitstreams) s.bytes += b.bytes.size();
      }
    } catch (const std::exception&) {
      // Loader problems are the loader tests' business; the run will report it below.
    }
    out.push_back(s);
  }
  std::stable_sort(out.begin(), out.end(), [](const ModelSource& a, const ModelSource& b) { return a.bytes < b.bytes; });
  return out;
}

std::optional<uint64_t> sizeCap() {
  const char* v = std::getenv("CORALSIM_RUN_CORPUS_MAX_BYTES");
  if (!v || !*v) return std::nullopt;
  return std::strtoull(v, nullptr, 10);
}

// Every model runs on the same device, opened and closed around each run like an application
// would: the close sequence puts the chip back into reset, so each run starts from the same state
// (which the repeated-run test below checks) and the reset path is exercised once per model.
RunResult runOnce(sim::Device& device, const RunPlan& plan, const std::vector<std::vector<uint8_t>>& inputs,
                  ServiceMode mode) {
  InProcessTransport transport(device);
  RunnerOptions o;
  o.service = mode;
  Runner runner(transport, o);
  runner.open();
  RunResult r = runner.run(plan, inputs);
  runner.close();
  return r;
}

struct Totals {
  size_t models = 0, skipped = 0, executables = 0, completed = 0, matched = 0, prefixMatched = 0, outputsOk = 0;
  uint64_t cycles = 0;
  std::vector<std::string> failures;
};

// Checks one run record against its executable. Returns "" when everything agrees.
std::string checkRun(const ExecutableRunRecord& run, const Executable& exe, Totals& totals) {
  if (!run.completed) return "no completion event";
  ++totals.completed;
  // Compiled programs are well formed (tile sequence continuity, frames: docs/isa.md §2.2): the
  // oddities the device tolerates (docs/refusal-rules.md) must not show up here.
  if (!run.deviceNotes.empty()) return "the device noted: " + run.deviceNotes.front();
  const HintCheck check = checkAgainstHints(run, exe);
  if (!check.ok()) {
    return check.verdict == HintCheck::Verdict::kNoHints ? "the executable has no DMA hints"
                                                        : "descriptors differ from the DMA hints: " + check.detail;
  }
  (check.verdict == HintCheck::Verdict::kMatch ? totals.matched : totals.prefixMatched)++;
  const bool deterministic = check.verdict == HintCheck::Verdict::kMatch;
  const std::vector<HintedTransfer> hinted = transfersFromHints(exe);
  // Output bytes received per buffer == the output hints' sizes.
  std::map<std::tuple<BufferKind, std::string, int32_t>, uint64_t> hintedOut;
  for (const HintedTransfer& t : hinted) {
    if (!t.interrupt && t.outfeed) hintedOut[{t.kind, t.name, t.batch}] += t.length;
  }
  std::map<std::tuple<BufferKind, std::string, int32_t>, uint64_t> received;
  for (const BufferTraffic& t : run.traffic) {
    if (t.receivedBytes) received[{t.kind, named(t.kind) ? t.name : "", named(t.kind) ? t.batch : 0}] += t.receivedBytes;
  }
  if (deterministic && hintedOut != received) return "output bytes received differ from the output hints";
  ++totals.outputsOk;
  return "";
}

void runCorpus(ServiceMode mode) {
  CORALSIM_REQUIRE_CORPUS(corpusDir());
  const auto cap = sizeCap();
  Totals totals;
  sim::Device device;
  for (const ModelSource& src : uniqueModels()) {
    const std::string name = src.path.filename().string();
    if (cap && src.bytes > *cap) {
      ++totals.skipped;
      std::cout << "skipped (CORALSIM_RUN_CORPUS_MAX_BYTES): " << src.path << " (" << src.bytes << " bytes)\n";
      continue;
    }
    ++totals.models;
    const ModelFile model = loadModelFile(src.path);
    const RunPlan plan = planRun(model);
    const RunResult r = runOnce(device, plan, randomInputs(plan, kSeed), mode);
    std::map<std::string, const Executable*> byLabel;
    for (const PlanUnit& u : plan.units) {
      if (u.parameterCaching) byLabel[u.parameterCaching->label] = u.parameterCaching->executable;
      for (const auto& p : u.programs) byLabel[p.label] = p.executable;
    }
    size_t expectedRuns = 0;
    for (const PlanUnit& u : plan.units) expectedRuns += (u.parameterCaching ? 1 : 0) + u.programs.size();
    totals.executables += expectedRuns;
    if (!r.ok()) {
      totals.failures.push_back(name + ": " + *r.error);
      ADD_FAILURE() << src.path << " (" << serviceModeName(mode) << "): " << *r.error;
      continue;
    }
    EXPECT_EQ(r.runs.size(), expectedRuns) << src.path;
    for (const ExecutableRunRecord& run : r.runs) {
      if (run.cycles) totals.cycles += *run.cycles;
      const std::string problem = checkRun(run, *byLabel.at(run.executable), totals);
      if (!problem.empty()) {
        totals.failures.push_back(name + ": " + run.executable + ": " + problem);
        ADD_FAILURE() << src.path << " (" << serviceModeName(mode) << "): " << run.executable << ": " << problem;
      }
    }
  }
  std::cout << "service " << serviceModeName(mode) << ": " << totals.models << " unique models run ("
            << totals.skipped << " skipped), " << totals.executables << " executables, " << totals.completed
            << " completed, " << totals.matched << " descriptors == DMA hints, " << totals.prefixMatched
            << " hinted prefix matched (not fully deterministic), " << totals.outputsOk
            << " output byte counts == hints, " << totals.failures.size() << " failures, " << totals.cycles
            << " simulated cycles in all\n";
  for (const auto& f : totals.failures) std::cout << "  FAILED " << f << "\n";
  ::testing::Test::RecordProperty("executables", std::to_string(totals.executables));
  ::testing::Test::RecordProperty("matched", std::to_string(totals.matched + totals.prefixMatched));
  EXPECT_GT(totals.executables, 0u);
}

TEST(RunCorpus, HintDrivenServiceMatchesTheDmaHints) { runCorpus(ServiceMode::kHints); }

TEST(RunCorpus, EventDrivenServiceMatchesTheDmaHints) { runCorpus(ServiceMode::kEvents); }

TEST(RunCorpus, RepeatedRunsGiveIdenticalCyclesAndDescriptors) {
  CORALSIM_REQUIRE_CORPUS(corpusDir());
  const auto models = uniqueModels();
  ASSERT_FALSE(models.empty());
  // A spread of sizes: the smallest model, the median and the one at three quarters (by
  // instruction + parameter bytes).
  std::vector<ModelSource> picked;
  for (size_t index : {size_t{0}, models.size() / 2, models.size() * 3 / 4}) {
    const auto cap = sizeCap();
    if (!cap || models[index].bytes <= *cap) picked.push_back(models[index]);
  }
  sim::Device device;
  for (const ModelSource& src : picked) {
    for (ServiceMode mode : {ServiceMode::kHints, ServiceMode::kEvents}) {
      const ModelFile model = loadModelFile(src.path);
      const RunPlan plan = planRun(model);
      const auto inputs = randomInputs(plan, kSeed);
      // Once on a brand-new device, once on the long-lived one (re-opened after other runs): the
      // same numbers mean no state leaks across the close/open reset and nothing depends on timing.
      sim::Device fresh;
      const RunResult a = runOnce(fresh, plan, inputs, mode);
      const RunResult b = runOnce(device, plan, inputs, mode);
      ASSERT_TRUE(a.ok() && b.ok()) << src.path << ": " << a.error.value_or("") << b.error.value_or("");
      EXPECT_EQ(a.cycles, b.cycles) << src.path;
      ASSERT_EQ(a.runs.size(), b.runs.size()) << src.path;
      for (size_t i = 0; i < a.runs.size(); ++i) {
        EXPECT_EQ(a.runs[i].cycles, b.runs[i].cycles) << src.path << " run " << i;
        ASSERT_EQ(a.runs[i].descriptors.size(), b.runs[i].descriptors.size()) << src.path << " run " << i;
        for (size_t k = 0; k < a.runs[i].descriptors.size(); ++k) {
          EXPECT_EQ(a.runs[i].descriptors[k].descriptor, b.runs[i].descriptors[k].descriptor)
              << src.path << " run " << i << " descriptor " << k;
        }
      }
      ASSERT_EQ(a.outputs.size(), b.outputs.size());
      for (size_t i = 0; i < a.outputs.size(); ++i) EXPECT_EQ(a.outputs[i].sha256, b.outputs[i].sha256) << src.path;
      std::cout << src.path.filename().string() << " (" << serviceModeName(mode) << "): " << a.cycles.value_or(0)
                << " cycles, twice\n";
    }
  }
}

TEST(RunCorpus, RawProgramsRunToCompletion) {
  CORALSIM_REQUIRE_CORPUS(corpusDir());
  size_t ran = 0;
  sim::Device device;
  for (const auto& path : corpusFiles(".coral")) {
    const ModelFile model = loadModelFile(path);
    const RunPlan plan = planRun(model);
    const RunResult r = runOnce(device, plan, randomInputs(plan, kSeed), ServiceMode::kEvents);
    ++ran;
    ASSERT_TRUE(r.ok()) << path << ": " << *r.error;
    ASSERT_EQ(r.runs.size(), 1u);
    EXPECT_TRUE(r.runs[0].completed) << path;
    // Every output descriptor's bytes arrived, and nothing else.
    uint64_t announced = 0, received = 0;
    for (const auto& d : r.runs[0].descriptors) announced += d.descriptor.tag == 3 ? d.descriptor.length : 0;
    for (const auto& o : r.outputs) received += o.bytes.size();
    EXPECT_EQ(announced, received) << path;
  }
  std::cout << ran << " raw programs ran to completion\n";
}

}  // namespace
}  // namespace coralsim::driver::run_corpus_test

namespace coralsim::driver::run_corpus_test {
namespace {

TEST(RunCorpus, ADeviceFaultEndsTheRunAtOnceAndTheNextOpenRecovers) {
  CORALSIM_REQUIRE_CORPUS(corpusDir());
  const auto programs = corpusFiles(".coral");
  ASSERT_FALSE(programs.empty());
  // A real program with one extra word: its START length no longer matches the record, which the
  // chip treats as a fatal error (docs/isa.md §2.2).
  std::vector<uint8_t> bytes = coralsim::testing::readFile(programs.front());
  bytes.resize(bytes.size() + 16, 0);
  const ModelFile bad = loadModelFromMemory(bytes, "bad.coral");
  const RunPlan badPlan = planRun(bad);

  sim::Device device;
  const auto start = std::chrono::steady_clock::now();
  const RunResult r = runOnce(device, badPlan, {}, ServiceMode::kEvents);
  const auto elapsed = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error->find("fatal error"), std::string::npos) << *r.error;     // EP 0x83, not a timeout
  EXPECT_NE(r.error->find("hib_error_status"), std::string::npos) << *r.error;  // read back over EP0
  EXPECT_NE(r.error->find("START"), std::string::npos) << *r.error;           // the device's own reason
  EXPECT_LT(elapsed, InProcessTransport::kDefaultTimeout / 2);

  // Close and re-open reset the chip: the unmodified program runs on the same device.
  const ModelFile good = loadModelFile(programs.front());
  const RunResult ok = runOnce(device, planRun(good), {}, ServiceMode::kEvents);
  EXPECT_TRUE(ok.ok()) << ok.error.value_or("");
}

}  // namespace
}  // namespace coralsim::driver::run_corpus_test

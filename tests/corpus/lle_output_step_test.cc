// The output nest's level-0 step (ComputeOut37Step, w4[127:119]; docs/decoding-log.md "splitcat" §A)
// over the corpus's own compute packets, programs found by structure, none named.
//
// 1. Held out: every compute whose output nest (output_nest.h) counts at level 0 and at a level above
//    it with a step other than 1 (posenet / bodypix transposes, MobileNet interleaves, ...; the decode
//    set was split_concat's one-byte computes). Read with the step, the nest covers a block of units
//    exactly once far more often than read with a step of 1 (the reading before): the carries were
//    written for that step.
// 2. The concatenation: in a program where two or more one-byte-element computes (identity copies) on
//    one tile step more than one unit, the copies on each tile write disjoint units — the inputs' groups side by side in
//    one position — where a step of 1 makes them overwrite each other.
// 3. The floor: such a program, run on the lle rung with random inputs, is refused past its first
//    stepped identity computes (main refused the first: "ComputePositionsW4 ... is not 1 x
//    ComputePositions + 1"); the stop is printed. The rung checks a chunk's packets (envelope and
//    relations) before it executes any of them, so this is how far the chunk check gets, not the
//    execution: split_concat's execution would stop earlier, at its first input pop into a row-form
//    0x14 window (docs/decoding-log.md "splitcat" §C).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "driver/model/model_loader.h"
#include "driver/run/random_inputs.h"
#include "driver/run/run_plan.h"
#include "driver/run/runner.h"
#include "hosting/in_process_transport.h"
#include "models/isa/compute_loop_nest.h"
#include "models/lle/compute_nest.h"
#include "models/lle/lle_fields.h"
#include "models/lle/output_nest.h"
#include "models/scalar/decoded_program.h"
#include "sim/device.h"
#include "tests/corpus/decoded_bitstreams.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_output_step_test {
namespace {

using coralsim::testing::forEachDecodedBitstream;
using coralsim::testing::forEachDistinctCorpusModel;
using lle::LleField;
using lle::readField;
namespace fs = std::filesystem;

constexpr uint64_t kSeed = 20240605;
constexpr uint64_t kMaxWalkedUnits = 1u << 20;  // a bound on the test's walks, not a chip limit

bool isCompute(const models::DecodedPacket& p) {
  return p.action == models::PacketAction::kIssue && static_cast<uint8_t>(p.opcode) == 0x01;
}

// The units of the compute's output nest with level 0 stepping `step` (the packet's carries kept).
std::vector<int64_t> outputUnits(const models::DecodedPacket& p, int64_t step) {
  const auto words = p.words;
  const int64_t first = static_cast<int64_t>(readField(words, LleField::ComputeOutputAt) / 4);
  const lle::ComputeLoopNest nest = lle::computeNestFromPacket(isa::ComputeNest::Output37, words, first, step);
  std::vector<int64_t> units;
  if (nest.units() > kMaxWalkedUnits) return units;
  units.reserve(nest.units());
  nest.forEachUnit([&](int64_t u) { units.push_back(u); });
  return units;
}

// Each unit once, and no unit missing between the lowest and the highest.
bool coversABlockOnce(std::vector<int64_t> units) {
  if (units.empty()) return false;
  std::sort(units.begin(), units.end());
  return std::adjacent_find(units.begin(), units.end()) == units.end() &&
         units.back() - units.front() + 1 == static_cast<int64_t>(units.size());
}

bool writesAUnitTwice(const std::vector<std::vector<int64_t>>& walks) {
  std::vector<int64_t> all;
  for (const auto& w : walks) all.insert(all.end(), w.begin(), w.end());
  std::sort(all.begin(), all.end());
  return std::adjacent_find(all.begin(), all.end()) != all.end();
}

struct StepTally {
  size_t nests = 0, coverWithStep = 0, coverWithOne = 0;
};

TEST(LleCorpus, TheOutputNestsLevelZeroStepIsTheStepItsCarriesWereWrittenFor) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  StepTally t;
  size_t concatPrograms = 0, concatOverlapsWithOne = 0, concatOverlapsWithStep = 0;
  std::vector<fs::path> concatModels;
  forEachDistinctCorpusModel({"_edgetpu.tflite"}, [&](const fs::path& path, const ModelFile& model) {
    bool stepped = false;
    forEachDecodedBitstream(model, [&](const Executable&, const models::DecodedProgram& program) {
      // Per tile, the stepped one-byte computes' output walks (part 2).
      std::map<unsigned, std::vector<std::vector<int64_t>>> withStep, withOne;
      for (const models::DecodedPacket& p : program.packets()) {
        if (!isCompute(p)) continue;
        const auto step = static_cast<int64_t>(readField(p.words, LleField::ComputeOut37Step));
        const lle::OutputNest nest = lle::OutputNest::fromPacket(p.words, 0);
        const unsigned counting = nest.countingLevels();
        if (step > 1 && (counting & 1u) != 0 && (counting & ~1u) != 0) {
          const auto decoded = outputUnits(p, step);
          if (!decoded.empty()) {
            ++t.nests;
            t.coverWithStep += coversABlockOnce(decoded) ? 1 : 0;
            t.coverWithOne += coversABlockOnce(outputUnits(p, 1)) ? 1 : 0;
          }
        }
        if (step > 1 && readField(p.words, LleField::ComputeInputBytes) == 1) {
          for (unsigned tile = 0; tile < 16; ++tile) {
            if (!(p.tileMask >> tile & 1)) continue;
            withStep[tile].push_back(outputUnits(p, step));
            withOne[tile].push_back(outputUnits(p, 1));
          }
        }
      }
      // A concatenation: two or more stepped copies on one tile (deeplab's single one-byte compute
      // with step 25 is another form, alone on its tiles).
      if (std::ranges::none_of(withStep, [](const auto& entry) { return entry.second.size() > 1; })) return;
      ++concatPrograms;
      stepped = true;
      bool overlapOne = false, overlapStep = false;
      for (const auto& [tile, walks] : withStep) overlapStep |= writesAUnitTwice(walks);
      for (const auto& [tile, walks] : withOne) overlapOne |= writesAUnitTwice(walks);
      concatOverlapsWithStep += overlapStep ? 1 : 0;
      concatOverlapsWithOne += overlapOne ? 1 : 0;
      std::printf("stepped identity copies in %s: %s with the step, %s with a step of 1\n", path.filename().c_str(),
                  overlapStep ? "a unit written twice" : "disjoint", overlapOne ? "a unit written twice" : "disjoint");
    });
    if (stepped) concatModels.push_back(path);
  });
  std::printf("output nests counting at level 0 and above with a step > 1: %zu; each unit of a block once: %zu with the step, "
              "%zu with a step of 1\n",
              t.nests, t.coverWithStep, t.coverWithOne);
  // Measured (2026-11-26): 4,572 nests, 1,493 covers with the step, 0 with a step of 1 (single-level
  // nests are left out: any step covers their units once).
  EXPECT_GE(t.nests, 1000u);
  EXPECT_GT(t.coverWithStep, t.coverWithOne + t.nests / 20);
  ASSERT_GE(concatPrograms, 1u) << "no program with stepped one-byte computes (split_concat's concatenation)";
  EXPECT_EQ(concatOverlapsWithStep, 0u);
  EXPECT_EQ(concatOverlapsWithOne, concatPrograms);

  // Part 3: the floor. Each such model's chunk check refuses it only after its first stepped compute.
  for (const fs::path& path : concatModels) {
    const ModelFile model = loadModelFile(path);
    uint64_t firstSteppedPc = UINT64_MAX;
    forEachDecodedBitstream(model, [&](const Executable&, const models::DecodedProgram& program) {
      for (const models::DecodedPacket& p : program.packets()) {
        if (isCompute(p) && readField(p.words, LleField::ComputeOut37Step) > 1 && readField(p.words, LleField::ComputeInputBytes) == 1) {
          firstSteppedPc = std::min<uint64_t>(firstSteppedPc, p.pc);
        }
      }
    });
    const RunPlan plan = planRun(model);
    sim::DeviceOptions options;
    options.chip.mode = models::ExecutionMode::kLle;
    sim::Device device(options);
    RunResult result;
    {
      InProcessTransport transport(device);
      RunnerOptions ro;
      ro.service = ServiceMode::kHints;
      Runner runner(transport, ro);
      runner.open();
      result = runner.run(plan, randomInputs(plan, kSeed));
      runner.close();
    }
    if (result.ok()) {
      std::printf("%s: runs fully on lle\n", path.filename().c_str());
      continue;
    }
    const std::string& error = *result.error;
    const size_t at = error.find("PC 0x");
    ASSERT_NE(at, std::string::npos) << error;
    const uint64_t stopPc = std::stoull(error.substr(at + 5, 4), nullptr, 16);
    std::printf("%s: lle stops at PC 0x%04llx (first stepped identity compute at 0x%04llx): %s\n", path.filename().c_str(),
                static_cast<unsigned long long>(stopPc), static_cast<unsigned long long>(firstSteppedPc),
                error.substr(at, 400).c_str());
    EXPECT_GT(stopPc, firstSteppedPc) << error;
    EXPECT_EQ(error.find("ComputeOut37Step"), std::string::npos) << error;
  }
}

}  // namespace
}  // namespace coralsim::driver::lle_output_step_test

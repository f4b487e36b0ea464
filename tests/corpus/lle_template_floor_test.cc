// How far the LibrEdgeTPU tracker templates (colour / bright, two image sizes each) and edgetpuxray
// matmul_256 get on the lle rung (docs/decoding-log.md "templates"; issue #12 target (c)).
//
// 1. The tracker templates: no refusal names a bit of a compute's K-loop level 0 — the whole 14-bit
//    limits of the w0 nest, Nest29 and the w10 nest and the 18-bit one of Nest37 are decoded ("templates"
//    §B), so the 128^2 templates' 1,024-position compute passes where main named w0 bits 71:70. Every
//    refusal is a clean one of the rung. A template that runs fully is compared with its golden rand1
//    output (whole tensor, exact size, exact bytes).
// 2. matmul_256: the 0x14 that copies its receive with no wait (count 0, "templates" §A) passes, so the
//    rung stops no earlier than the first 0x11 of the program (on main it stopped on that 0x14, before it) --
//    or, since every copy passes the static check (the "misc" branch: a copy's flag A where the receive's
//    run is 0), at run time on something that is no copy of a receive (the input slice's source base @ 0x0030).
// 3. The tracker templates and the looming template: no refusal names a bit of the compute's w9 code
//    (ComputeCodeW9, w9[63:59]) or of its K count (ComputeKCount), whose byte-carry reading lets looming's
//    one-byte compute count 1 ("colour59"); on main the colour templates and looming stopped on w9 bit 59.
//    A template that runs fully is compared with every golden case it has (whole tensor, exact bytes).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <initializer_list>
#include <optional>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "driver/model/model_file.h"
#include "driver/model/model_loader.h"
#include "driver/run/random_inputs.h"
#include "driver/run/run_plan.h"
#include "driver/run/runner.h"
#include "hosting/in_process_transport.h"
#include "models/isa/compute_loop_nest.h"
#include "models/lle/lle_fields.h"
#include "models/scalar/decoded_program.h"
#include "sim/device.h"
#include "tests/corpus/bright_templates.h"
#include "tests/corpus/lle_refusal_pc.h"
#include "tests/corpus/lle_run_on_device.h"
#include "tests/support/corpus.h"
#include "tests/support/golden_output.h"

namespace coralsim::driver::lle_template_floor_test {
namespace {

namespace fs = std::filesystem;
using coralsim::testing::refusedPc;
using coralsim::testing::runOnLle;
using lle::LleField;

constexpr uint8_t kReceive = 0x11;

// The absolute bits (128 x word + bit) an envelope refusal of a compute names: "opcode 0x01 ... word 9 =
// ...: bits 64, 59 have no decoded meaning". Empty for any other refusal.
std::vector<unsigned> refusedComputeBits(const std::string& why) {
  std::vector<unsigned> bits;
  if (why.find("opcode 0x01") == std::string::npos) return bits;
  static const std::regex kWordBits(R"(word (\d+) = [0-9a-f]+: bits ([0-9:, ]+) have no decoded meaning)");
  std::smatch m;
  if (!std::regex_search(why, m, kWordBits)) return bits;
  const unsigned word = static_cast<unsigned>(std::stoul(m[1].str()));
  static const std::regex kRange(R"((\d+)(?::(\d+))?)");
  const std::string list = m[2].str();
  for (auto it = std::sregex_iterator(list.begin(), list.end(), kRange); it != std::sregex_iterator(); ++it) {
    const unsigned hi = static_cast<unsigned>(std::stoul((*it)[1].str()));
    const unsigned lo = (*it)[2].matched ? static_cast<unsigned>(std::stoul((*it)[2].str())) : hi;
    for (unsigned b = lo; b <= hi; ++b) bits.push_back(128 * word + b);
  }
  return bits;
}

// The level-0 slots of the compute's four loop nests, by the nests' own layout (not by the K fields, whose
// width is what "templates" §B changed): Nest37 and Nest29 from models/isa/compute_loop_nest.def, the w10
// nest at Nest29's layout from ComputeK4W10, the w0 nest at its levels' width (ComputeLimitW0) from ComputeK4W0.
bool inKLevelZero(unsigned bit) {
  const isa::ComputeNestDef& nest37 = isa::computeNestDef(isa::ComputeNest::Nest37);
  const isa::ComputeNestDef& nest29 = isa::computeNestDef(isa::ComputeNest::Nest29);
  const std::pair<uint32_t, uint32_t> slots[] = {
      {nest37.limitLsb(0), nest37.limitWidth},
      {nest29.limitLsb(0), nest29.limitWidth},
      {lle::fieldDef(LleField::ComputeK4W10).lsb, nest29.limitWidth},
      {lle::fieldDef(LleField::ComputeK4W0).lsb, lle::fieldDef(LleField::ComputeLimitW0).width},
  };
  for (const auto& [lsb, width] : slots) {
    if (bit >= lsb && bit < lsb + width) return true;
  }
  return false;
}

TEST(LleTemplates, TheTrackerTemplatesPassTheirComputesKLevelZeroAndFullRunsMatchTheGolden) {
  const auto corpus = coralsim::testing::corpusDir();
  const fs::path dir = corpus ? coralsim::testing::trackerTemplatesDir(*corpus) : fs::path();
  if (!corpus || !fs::is_directory(dir)) GTEST_SKIP() << "\n*** SKIPPED: the LibrEdgeTPU tracker templates are not in the corpus. ***\n";
  const auto golden = coralsim::testing::goldenDir();
  const std::vector<fs::path> programs = coralsim::testing::trackerTemplatePrograms(*corpus);
  ASSERT_FALSE(programs.empty()) << dir;
  size_t full = 0, exactRuns = 0, computeStops = 0;
  for (const fs::path& path : programs) {
    const ModelFile model = loadModelFile(path);
    const RunPlan plan = planRun(model);
    const std::string stem = path.filename().string().substr(0, path.filename().string().size() - 15);
    const fs::path cases = golden ? *golden / ("ricardodeazambuja+LibrEdgeTPU__" + stem) : fs::path();
    std::vector<std::vector<uint8_t>> inputs = randomInputs(plan, 1);
    std::vector<uint8_t> expected;
    // The golden's preferred reference (the fp32-requantisation one where the golden has it: golden_output.h).
    const auto rand1 = golden ? coralsim::testing::readPreferredGoldenCaseOutput(cases, "rand1") : std::nullopt;
    if (rand1 && fs::exists(cases / "rand1.in0.bin")) {
      inputs = {coralsim::testing::readFile(cases / "rand1.in0.bin")};
      expected = *rand1;
    }
    const RunResult r = runOnLle(plan, inputs);
    if (!r.ok()) {
      const std::string& why = *r.error;
      EXPECT_TRUE(why.find("lle:") != std::string::npos || why.find("not modelled") != std::string::npos) << path << ": " << why;
      for (const unsigned bit : refusedComputeBits(why)) {
        EXPECT_FALSE(inKLevelZero(bit)) << path << ": refused on bit " << bit % 128 << " of word " << bit / 128
                                        << ", inside a K-loop level-0 limit: " << why;
      }
      computeStops += why.find("opcode 0x01") != std::string::npos;
      const size_t at = why.find("not modelled");
      std::printf("%-32s stops: %s\n", stem.c_str(), why.substr(at == std::string::npos ? 0 : at, 260).c_str());
      continue;
    }
    ++full;
    ASSERT_FALSE(expected.empty()) << stem << " ran fully; no golden rand1 to compare it with (set CORALSIM_GOLDEN)";
    ASSERT_EQ(r.outputs.size(), 1u) << stem;
    ASSERT_EQ(r.outputs[0].bytes.size(), expected.size()) << stem;
    size_t exact = 0;
    for (size_t i = 0; i < expected.size(); ++i) exact += r.outputs[0].bytes[i] == expected[i];
    exactRuns += exact == expected.size();
    std::printf("%-32s FULL %zu / %zu bytes exact\n", stem.c_str(), exact, expected.size());
    EXPECT_EQ(r.outputs[0].bytes, expected) << stem;
  }
  std::printf("%zu tracker templates: %zu fully on lle (%zu golden-exact), %zu stop at a compute\n", programs.size(), full,
              exactRuns, computeStops);
}

// Whether an absolute compute bit lies in one of these decoded fields (by the field table, not by number).
bool inFields(unsigned bit, std::initializer_list<LleField> fields) {
  for (const LleField field : fields) {
    const lle::LleFieldDef& f = lle::fieldDef(field);
    for (unsigned e = 0; e < f.count; ++e) {
      const uint32_t lsb = f.lsb + e * f.stride;
      if (bit >= lsb && bit < lsb + f.width) return true;
    }
  }
  return false;
}

TEST(LleTemplates, TheColourAndLoomingComputesPassTheirW9CodeAndFullRunsMatchEveryGoldenCase) {
  const auto corpus = coralsim::testing::corpusDir();
  const fs::path root = corpus ? *corpus / "ricardodeazambuja+LibrEdgeTPU" / "libredgetpu" : fs::path();
  if (!corpus || !fs::is_directory(root / "tracker" / "templates") || !fs::is_directory(root / "looming" / "templates")) {
    GTEST_SKIP() << "\n*** SKIPPED: the LibrEdgeTPU tracker / looming templates are not in the corpus. ***\n";
  }
  const auto golden = coralsim::testing::goldenDir();
  std::vector<fs::path> programs;
  for (const char* folder : {"tracker", "looming"}) {
    for (const auto& entry : fs::directory_iterator(root / folder / "templates")) {
      const std::string name = entry.path().filename().string();
      if (name.size() > 15 && name.ends_with("_edgetpu.tflite")) programs.push_back(entry.path());
    }
  }
  std::sort(programs.begin(), programs.end());
  ASSERT_FALSE(programs.empty()) << root;
  size_t full = 0, exactCases = 0, cases = 0;
  for (const fs::path& path : programs) {
    const ModelFile model = loadModelFile(path);
    const RunPlan plan = planRun(model);
    const std::string stem = path.filename().string().substr(0, path.filename().string().size() - 15);
    const fs::path dir = golden ? *golden / ("ricardodeazambuja+LibrEdgeTPU__" + stem) : fs::path();
    const RunResult r = runOnLle(plan, randomInputs(plan, 1));
    if (!r.ok()) {
      const std::string& why = *r.error;
      EXPECT_TRUE(why.find("lle:") != std::string::npos || why.find("not modelled") != std::string::npos) << path << ": " << why;
      for (const unsigned bit : refusedComputeBits(why)) {
        EXPECT_FALSE(inFields(bit, {LleField::ComputeCodeW9, LleField::ComputeKCount}))
            << path << ": refused on bit " << bit % 128 << " of word " << bit / 128 << ", inside the w9 code or K count: " << why;
      }
      EXPECT_EQ(why.find("ComputeKCount"), std::string::npos) << path << ": " << why;
      const size_t at = why.find("not modelled");
      std::printf("%-28s stops: %s\n", stem.c_str(), why.substr(at == std::string::npos ? 0 : at, 240).c_str());
      continue;
    }
    ++full;
    ASSERT_TRUE(golden && fs::is_directory(dir)) << stem << " ran fully; no golden cases to compare it with (set CORALSIM_GOLDEN)";
    for (const auto& entry : fs::directory_iterator(dir)) {
      const std::string name = entry.path().filename().string();
      if (!name.ends_with(".in0.bin")) continue;
      const std::string label = name.substr(0, name.size() - 8);
      // The golden's preferred reference (the fp32-requantisation one where the golden has it: golden_output.h).
      const auto want = coralsim::testing::readPreferredGoldenCaseOutput(dir, label);
      if (!want) continue;
      const RunResult c = runOnLle(plan, {coralsim::testing::readFile(entry.path())});
      ASSERT_TRUE(c.ok()) << stem << " " << label << ": " << *c.error;
      const std::vector<uint8_t>& expected = *want;
      ASSERT_EQ(c.outputs.size(), 1u) << stem;
      ASSERT_EQ(c.outputs[0].bytes.size(), expected.size()) << stem << " " << label;
      ++cases;
      exactCases += c.outputs[0].bytes == expected;
      EXPECT_EQ(c.outputs[0].bytes, expected) << stem << " " << label;
    }
  }
  std::printf("%zu tracker / looming templates: %zu fully on lle, %zu / %zu golden cases exact\n", programs.size(), full, exactCases,
              cases);
}

TEST(LleMatmul256, ItsStagingWriteWithoutAWaitPassesToItsReceive) {
  const auto corpus = coralsim::testing::corpusDir();
  const fs::path path = corpus ? *corpus / "geohot+edgetpuxray" / "programs" / "matmul_256.coral" : fs::path();
  if (!corpus || !fs::exists(path)) GTEST_SKIP() << "\n*** SKIPPED: matmul_256.coral not in the corpus. ***\n";
  const ModelFile model = loadModelFile(path);
  const RunPlan plan = planRun(model);
  long receivePc = -1, lastWritePc = -1;
  const auto program = models::DecodedProgram::fromBytes(coralsim::testing::readFile(path));
  for (const models::DecodedPacket& p : program->packets()) {
    if (receivePc < 0 && static_cast<uint8_t>(p.opcode) == kReceive) receivePc = static_cast<long>(p.pc);
    if (static_cast<uint8_t>(p.opcode) == 0x14) lastWritePc = static_cast<long>(p.pc);
  }
  ASSERT_GE(receivePc, 0) << "no 0x11 in " << path;
  const RunResult r = runOnLle(plan, randomInputs(plan, 1));
  if (r.ok()) {
    // Its weights live in a caching executable outside the file: the output is undefined (docs/decoding-log.md "raw25";
    // LleEdgetpuxray.ProgramsWhoseParametersAreNotInTheFileRunFullyWithEveryOutputByteUndefined asserts it).
    std::printf("matmul_256 runs fully on lle, %llu of %zu output bytes undefined (no expected output to compare with)\n",
                r.outputs.empty() ? 0ULL : static_cast<unsigned long long>(r.outputs[0].undefinedBytes),
                r.outputs.empty() ? size_t{0} : r.outputs[0].bytes.size());
    return;
  }
  const std::string& why = *r.error;
  std::printf("matmul_256 on lle stops: %s\n", why.substr(why.find("not modelled") == std::string::npos ? 0 : why.find("not modelled"), 260).c_str());
  EXPECT_EQ(why.find("its copy of the 0x11"), std::string::npos) << "a copy of a receive refused: " << why;
  // Its column groups' skipping writes land at their place in the pop laid out from tile 0's address
  // (Stage14SourceBase 0, docs/decoding-log.md "x14" §A): every 0x14 passes; the program stops, if at all,
  // after its last one (the compute whose weights a parameter-caching executable outside the file holds).
  EXPECT_EQ(why.find("Stage14SourceBase"), std::string::npos) << "a skipping write's base refused: " << why;
  EXPECT_GT(refusedPc(why), lastWritePc) << "refused at or before its last 0x14: " << why;
  if (why.find("instruction chunk") != std::string::npos) {
    // Refused by the static check: it must reach past the first receive, as before.
    EXPECT_GT(refusedPc(why), receivePc) << "refused at or before the receive its 0x14 copies: " << why;
  }
}

}  // namespace
}  // namespace coralsim::driver::lle_template_floor_test

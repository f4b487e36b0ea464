// The kept read with records (docs/decoding-log.md "kept13"; lle_fields.def Stage13KeptRecordsOn, w4 bit 79) in the
// LibrEdgeTPU tracker templates: each execution-only program's softmax keeps a block of 16-bit weights for its x - max
// computes with a 0x13 whose words 4-5 carry two 84-bit records (bright @ 0x03e1, colour @ 0x060f). The records' numbers
// and codes are pinned to bright 64^2's read (the decode set); bright 128^2 and the twelve colour templates are held out.
// Each template runs on the lle rung through the driver and must get past that read: its refusal, if any, at a later PC
// and not naming the mark. On main every one was refused at the read itself ("word 4 = a320...: bits 127, 125, ...").
// A template that runs fully is compared with its golden rand1 output (whole tensor, exact size, exact bytes).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "driver/model/model_file.h"
#include "driver/model/model_loader.h"
#include "driver/run/random_inputs.h"
#include "driver/run/run_plan.h"
#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/bright_templates.h"
#include "tests/corpus/first_packet_pc.h"
#include "tests/corpus/lle_refusal_pc.h"
#include "tests/corpus/lle_run_on_device.h"
#include "tests/support/corpus.h"
#include "tests/support/golden_output.h"

namespace coralsim::driver::lle_kept_records_test {
namespace {

namespace fs = std::filesystem;
using coralsim::testing::refusedPc;
using coralsim::testing::runOnLle;
using lle::LleField;

constexpr uint8_t kRead = 0x13;

// The PC of the first kept read with records in the model's execution-only programs; -1 when it has none.
long firstRecordsReadPc(const ModelFile& model) {
  return coralsim::testing::firstExecutionOnlyPc(model, [](const models::DecodedPacket& p) {
    return static_cast<uint8_t>(p.opcode) == kRead && lle::fieldPresent(LleField::Stage13KeptRecordsOn, p.words) &&
           lle::readField(p.words, LleField::Stage13KeptRecordsOn) != 0;
  });
}

TEST(LleKeptRecords, TheTrackerTemplatesGetPastTheirSoftmaxKeptReadWithRecords) {
  const auto corpus = coralsim::testing::corpusDir();
  const fs::path dir = corpus ? coralsim::testing::trackerTemplatesDir(*corpus) : fs::path();
  if (!corpus || !fs::is_directory(dir)) GTEST_SKIP() << "\n*** SKIPPED: the LibrEdgeTPU tracker templates are not in the corpus. ***\n";
  const auto golden = coralsim::testing::goldenDir();
  const std::vector<fs::path> programs = coralsim::testing::trackerTemplatePrograms(*corpus);
  ASSERT_FALSE(programs.empty()) << dir;
  size_t past = 0, withRecords = 0;
  for (const fs::path& path : programs) {
    const ModelFile model = loadModelFile(path);
    const std::string stem = path.filename().string().substr(0, path.filename().string().size() - 15);
    const long recordsPc = firstRecordsReadPc(model);
    if (recordsPc < 0) {
      std::printf("%-24s no kept read with records\n", stem.c_str());
      continue;
    }
    ++withRecords;
    const RunPlan plan = planRun(model);
    const fs::path cases = golden ? *golden / ("ricardodeazambuja+LibrEdgeTPU__" + stem) : fs::path();
    std::vector<std::vector<uint8_t>> inputs = randomInputs(plan, 1);
    std::vector<uint8_t> expected;
    // The golden's preferred reference (the fp32-requantisation one where the golden has it: golden_output.h).
    const auto rand1 = golden ? coralsim::testing::readPreferredGoldenCaseOutput(cases, "rand1") : std::nullopt;
    if (rand1 && fs::exists(cases / "rand1.in0.bin")) {
      inputs = {coralsim::testing::readFile(cases / "rand1.in0.bin")};
      expected = *rand1;
    }
    const char* set = stem == "bright_64x64" ? "decode set" : "held out";
    const RunResult r = runOnLle(plan, inputs);
    if (!r.ok()) {
      const std::string& why = *r.error;
      EXPECT_TRUE(why.find("lle:") != std::string::npos || why.find("not modelled") != std::string::npos) << path << ": " << why;
      // A refusal during the run ("lle: opcode 0x.. at PC", no engine name) comes after the static check passed the whole
      // chunk, the read included ("trkfc": since the FCs pass it the templates stop at run time, before the read's PC).
      const bool atRunTime = why.find("lle: opcode") != std::string::npos && why.find("(tile.") == std::string::npos;
      EXPECT_TRUE(atRunTime || refusedPc(why) > recordsPc)
          << stem << ": refused at or before its kept read with records @ " << recordsPc << ": " << why;
      EXPECT_EQ(why.find("Stage13KeptRecordsOn"), std::string::npos) << stem << ": " << why;
      past += atRunTime || refusedPc(why) > recordsPc;
      const size_t at = why.find("not modelled");
      std::printf("%-24s (%s) read @ 0x%04lx passed; stops: %s\n", stem.c_str(), set, recordsPc,
                  why.substr(at == std::string::npos ? 0 : at, 200).c_str());
      continue;
    }
    ++past;
    ASSERT_FALSE(expected.empty()) << stem << " ran fully; no golden rand1 to compare it with (set CORALSIM_GOLDEN)";
    ASSERT_EQ(r.outputs.size(), 1u) << stem;
    EXPECT_EQ(r.outputs[0].bytes, expected) << stem;
  }
  ASSERT_GT(withRecords, 0u) << "no tracker template with a kept read carrying records";
  std::printf("%zu tracker templates with a kept read with records: %zu past it on lle\n", withRecords, past);
}

// Looming 64^2's first records read and where one run on random inputs stops (an empty error: it ran fully, past every
// packet; docs/decoding-log.md "loomout"): both looming tests below ask about it.
struct LoomingStop {
  long recordsPc = 0;
  std::string error;
};

void runLoomingToItsStop(LoomingStop& out) {
  const auto corpus = coralsim::testing::corpusDir();
  const fs::path path = corpus ? *corpus / "ricardodeazambuja+LibrEdgeTPU" / "libredgetpu" / "looming" / "templates" /
                                     "looming_64x64_3x3_edgetpu.tflite"
                               : fs::path();
  if (!corpus || !fs::exists(path)) GTEST_SKIP() << "\n*** SKIPPED: looming_64x64_3x3 is not in the corpus. ***\n";
  const ModelFile model = loadModelFile(path);
  out.recordsPc = firstRecordsReadPc(model);
  ASSERT_GT(out.recordsPc, 0) << "looming has no kept read with records";
  const RunPlan plan = planRun(model);
  const RunResult r = runOnLle(plan, randomInputs(plan, 1));
  // A full run is compared with the golden by lle_outfeed_line_fill_test.cc (corpus_lle_floors).
  out.error = r.ok() ? std::string() : *r.error;
}

// looming 64^2's ADD keeps its block of 16-bit weights with a read of the two-record form whose numbers differ from bright's
// (w4[58:43] = 2, w5[14:0] = 1, w5[56:36] = 72: its level 1 counts four times, bright's twice; docs/decoding-log.md "loom13").
// On main the run was refused there by the static check, before the first packet ran ("word 4 = a320...: bits 44:43"). Now
// the static check passes the whole chunk and the run stops at run time, earlier in program order (at the identity compute @
// 0x0149 after the streamed product, "loom13"): the refusal must name neither the read's PC nor its records.
TEST(LleKeptRecords, LoomingsAddReadWithRecordsPassesTheStaticCheck) {
  LoomingStop stop;
  runLoomingToItsStop(stop);
  if (::testing::Test::IsSkipped() || ::testing::Test::HasFatalFailure()) return;
  const long recordsPc = stop.recordsPc;
  const std::string& why = stop.error;
  EXPECT_NE(refusedPc(why), recordsPc) << why;
  EXPECT_EQ(why.find("Stage13Records"), std::string::npos) << why;
  EXPECT_EQ(why.find("Stage13KeptRecordsOn"), std::string::npos) << why;
  EXPECT_EQ(why.find("have no decoded meaning"), std::string::npos) << why;
  const size_t at = why.find("not modelled");
  std::printf("looming_64x64_3x3 records read @ 0x%04lx passed the static check; stops: %s\n", recordsPc,
              why.empty() ? "none (runs fully)" : why.substr(at == std::string::npos ? 0 : at, 240).c_str());
}

// The records read's consumer runs (docs/decoding-log.md "loomid"): with the identities after looming's MULs executed (the
// byte-stepped weighing) and its one-group copies, the run gets past the ADD the read feeds, the zone pool and the gather of
// the nine averages on tile 0: it stops after the read in program order. On main it stopped at the identity @ 0x0149,
// before the read (checked: main's binary, the s18 stop table).
TEST(LleKeptRecords, LoomingRunsPastTheAddItsRecordsReadFeeds) {
  LoomingStop stop;
  runLoomingToItsStop(stop);
  if (::testing::Test::IsSkipped() || ::testing::Test::HasFatalFailure()) return;
  const long recordsPc = stop.recordsPc;
  if (stop.error.empty()) return;  // ran fully: past the read
  EXPECT_GT(refusedPc(stop.error), recordsPc) << stop.error;
}

}  // namespace
}  // namespace coralsim::driver::lle_kept_records_test

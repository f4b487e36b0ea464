// The corpus floors that find their programs by structure: every golden model (a folder of $CORALSIM_GOLDEN
// with a manifest) whose compiled model `selects` accepts runs through the driver strictly on lle with each
// golden case's input; one that runs fully has every output tensor compared whole, exact size, with the
// golden's preferred reference. Programs that stop print where. The caller asserts its floor on the tally.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "driver/model/model_loader.h"
#include "driver/run/run_plan.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/lle_run_on_device.h"
#include "tests/support/corpus.h"
#include "tests/support/golden_output.h"
#include "tests/support/json_reader.h"

namespace coralsim::testing {

// Whether a packet of the model's execution-only programs satisfies `holds` (the floors' selectors).
inline bool anyExecutionOnlyPacket(const driver::ModelFile& model, const std::function<bool(const models::DecodedPacket&)>& holds) {
  for (const driver::Executable* e : driver::allExecutables(model)) {
    if (e->type != driver::ExecutableType::ExecutionOnly) continue;
    for (const auto& bitstream : e->bitstreams) {
      const auto program = models::DecodedProgram::fromBytes(bitstream.bytes);  // held: packets() views it
      for (const models::DecodedPacket& p : program->packets()) {
        if (holds(p)) return true;
      }
    }
  }
  return false;
}

struct GoldenModelsOnLle {
  size_t programs = 0;  // golden models the selector accepted
  size_t fully = 0;     // of them, those whose every case ran fully on lle
};

inline GoldenModelsOnLle runSelectedGoldenModelsOnLle(const std::filesystem::path& golden, const std::filesystem::path& corpus,
                                                      const std::function<bool(const driver::ModelFile&)>& selects) {
  namespace fs = std::filesystem;
  const auto text = [](const JsonValue* v) { return v ? v->text : std::string(); };
  GoldenModelsOnLle tally;
  for (const auto& entry : fs::directory_iterator(golden)) {
    if (!entry.is_directory() || !fs::exists(entry.path() / "manifest.json")) continue;
    const JsonValue manifest = readJsonFile(entry.path() / "manifest.json");
    const fs::path compiledPath = corpus / text(manifest.find("compiled")->find("path"));
    if (!fs::exists(compiledPath)) continue;
    const driver::ModelFile model = driver::loadModelFile(compiledPath);
    if (!selects(model)) continue;
    ++tally.programs;
    const driver::RunPlan plan = driver::planRun(model);
    const std::string name = compiledPath.filename().string();
    bool ranFully = true;
    size_t cases = 0, bytes = 0, exact = 0;
    int maxDiff = 0;
    // A golden whose own CPU references disagree (goldenReferenceSpread, tests/support/golden_output.h; docs/decoding-log.md
    // "hold17" §D, "lift18"): no reference is the device's bytes, so its tolerance is asserted and exactness reported.
    const GoldenReferenceSpread spread = goldenReferenceSpread(manifest);
    for (const JsonValue& c : manifest.find("cases")->items) {
      std::vector<std::vector<uint8_t>> inputs;
      for (const JsonValue& in : c.find("tpu_inputs")->items) inputs.push_back(readFile(entry.path() / text(in.find("file"))));
      const driver::RunResult r = runOnLle(plan, inputs);
      if (!r.ok()) {
        const size_t at = r.error->find("not modelled");
        std::printf("  %s stops on lle: %s\n", name.c_str(), r.error->substr(at == std::string::npos ? 0 : at).c_str());
        ranFully = false;
        break;
      }
      const auto& outs = c.find("tpu_outputs")->items;
      EXPECT_EQ(r.outputs.size(), outs.size()) << compiledPath;
      for (size_t j = 0; j < outs.size() && j < r.outputs.size(); ++j) {
        const std::vector<uint8_t> want = readPreferredGoldenOutput(entry.path(), outs[j]);
        EXPECT_EQ(r.outputs[j].bytes.size(), want.size()) << compiledPath << " output " << j;
        // Bytes computed from memory no packet wrote are no result (docs/decoding-log.md "raw25"): never exact.
        EXPECT_EQ(r.outputs[j].undefinedBytes, 0u) << compiledPath << " golden case " << text(c.find("id")) << " output " << j;
        const std::vector<uint8_t>& got = r.outputs[j].bytes;
        for (size_t i = 0; i < std::min(got.size(), want.size()); ++i) {
          exact += got[i] == want[i];
          maxDiff = std::max(maxDiff, std::abs(int{got[i]} - int{want[i]}));
        }
        if (spread.referencesDisagree()) {
          EXPECT_LE(maxDiff, spread.maxAbsLsb) << compiledPath << " golden case " << text(c.find("id")) << " output " << j
                                               << ": beyond the golden's tolerance";
        } else {
          EXPECT_EQ(got, want) << compiledPath << " golden case " << text(c.find("id")) << " output " << j;
        }
        bytes += want.size();
      }
      ++cases;
    }
    if (ranFully) {
      ++tally.fully;
      std::printf("  %s runs fully on lle: %zu golden case(s), %zu bytes compared whole, %zu exact, max |d| %d%s\n", name.c_str(), cases,
                  bytes, exact, maxDiff, spread.referencesDisagree() ? " (references disagree: tolerance asserted)" : "");
    }
  }
  return tally;
}

}  // namespace coralsim::testing

// The two forms of the 0x11 parameter receive (docs/decoding-log.md "recv11"): every receive and
// every parameter pop of every compiled parameter-caching executable passes on decoded fields,
// whichever bit 61 (Recv11NewerForm) says — the row loop is read alike in both. Beside it, the
// compilers' own record of their generation (the package's min_runtime_version, which the decoding
// did not use to form the reading) against bit 61: the bit is constant within each executable and
// follows the generation. Fails on a rung that reads the row loop only with bit 61 set (the older
// compiles' receives are then refused by the envelope).
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "driver/model/model_file.h"
#include "driver/model/model_loader.h"
#include "models/lle/lle_fields.h"
#include "models/lle/packet_envelope.h"
#include "models/scalar/decoded_program.h"
#include "tests/support/corpus.h"
#include "traces/sha256.h"

namespace coralsim::driver {
namespace {

using lle::LleField;
using lle::readField;

struct FormCounts {
  size_t receives = 0, refused = 0;
};

TEST(LleCorpus, ParameterReceivesAndPopsPassOnDecodedFieldsWhicheverBit61Says) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  std::set<std::string> seen;
  std::map<uint64_t, FormCounts> byBit61;
  size_t pops = 0, oneBeatPops = 0, refusedPops = 0, mixedExecutables = 0;
  std::map<std::pair<int32_t, uint64_t>, size_t> generation;  // (min_runtime_version, bit 61) -> executables
  for (const auto& path : coralsim::testing::corpusFiles("_edgetpu.tflite")) {
    const std::vector<uint8_t> bytes = coralsim::testing::readFile(path);
    if (!seen.insert(traces::Sha256::hex(bytes)).second) continue;
    std::optional<ModelFile> model;
    try {
      model.emplace(loadModelFromMemory(bytes, path.string()));
    } catch (const std::exception&) {
      continue;  // loader problems are the loader tests' business
    }
    for (const EdgeTpuCustomOp& op : model->edgeTpuOps) {
      for (const Package& package : op.packages) {
        for (const Executable& e : package.executables) {
          if (e.type != ExecutableType::ParameterCaching) continue;
          std::set<uint64_t> bit61;
          for (const auto& bitstream : e.bitstreams) {
            const auto program = models::DecodedProgram::fromBytes(bitstream.bytes);
            for (const models::DecodedPacket& p : program->packets()) {
              const auto opcode = static_cast<uint8_t>(p.opcode);
              if (opcode == 0x11) {
                const uint64_t form = readField(p.words, LleField::Recv11NewerForm);
                bit61.insert(form);
                FormCounts& c = byBit61[form];
                ++c.receives;
                const std::string why = lle::checkEnvelope(p);
                c.refused += !why.empty();
                EXPECT_EQ(why, "") << path;
              } else if (opcode == 0x26 && readField(p.words, LleField::PopIsInput) == 0) {
                ++pops;
                oneBeatPops += readField(p.words, LleField::PopBeatsLow) == 0 &&
                               readField(p.words, LleField::PopBeatsHigh) == 0 &&
                               readField(p.words, LleField::PopRingNeg16) == 0;
                const std::string why = lle::checkEnvelope(p);
                refusedPops += !why.empty();
                EXPECT_EQ(why, "") << path;
              }
            }
          }
          mixedExecutables += bit61.size() > 1;
          for (uint64_t form : bit61) ++generation[{package.minRuntimeVersion, form}];
        }
      }
    }
  }
  for (const auto& [form, c] : byBit61) {
    std::printf("parameter receives with bit 61 = %llu: %zu, refused %zu\n", static_cast<unsigned long long>(form),
                c.receives, c.refused);
  }
  std::printf("parameter pops: %zu (one-beat form, length in the ring loop: %zu), refused %zu\n", pops, oneBeatPops,
              refusedPops);
  for (const auto& [key, n] : generation) {
    std::printf("min_runtime_version %d, bit 61 = %llu: %zu parameter-caching executables\n", key.first,
                static_cast<unsigned long long>(key.second), n);
  }
  EXPECT_EQ(mixedExecutables, 0u) << "bit 61 changes within an executable";
  // Both forms must be exercised, or the test shows nothing.
  ASSERT_EQ(byBit61.size(), 2u);
  EXPECT_GT(oneBeatPops, 0u);
}

}  // namespace
}  // namespace coralsim::driver

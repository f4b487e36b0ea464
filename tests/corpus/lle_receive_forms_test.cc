// The two forms of the 0x11 parameter receive (docs/decoding-log.md "recv11"): every receive and
// every parameter pop of every compiled parameter-caching executable passes on decoded fields,
// whichever bit 61 (Recv11NewerForm) says — the row loop is read alike in both. Beside it, the
// compilers' own record of their generation (the package's min_runtime_version, which the decoding
// did not use to form the reading) against bit 61: the bit is constant within each executable and
// follows the generation. Fails on a rung that reads the row loop only with bit 61 set (the older
// compiles' receives are then refused by the envelope). A second test does the same for the
// execution-only receive form and its two don't-care flags ("recvexec").
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "driver/model/model_file.h"
#include "driver/model/model_loader.h"
#include "models/isa/word128.h"
#include "models/lle/lle_fields.h"
#include "models/lle/packet_envelope.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"
#include "traces/sha256.h"

namespace coralsim::driver::lle_receive_forms_test {
namespace {

using coralsim::testing::forEachDistinctCorpusModel;
using lle::LleField;
namespace fs = std::filesystem;
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
  forEachDistinctCorpusModel({"_edgetpu.tflite"}, [&](const fs::path& path, const ModelFile& model) {
    for (const EdgeTpuCustomOp& op : model.edgeTpuOps) {
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
  });
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

// The execution-only receive's flags (docs/decoding-log.md "recvexec"; lle_fields.def
// Recv11ExecFlagA/B): declared don't-care for the bytes, so over every execution-only and
// stand-alone receive of the corpus (and the raw programs) a receive is accepted whenever the same
// receive with both flags cleared is, and w2 bit 88 equals bit 80. Counts accepted receives per
// flag pair and how many receives in all pass on decoded fields. Fails on main's tables (flags
// pinned by the envelope to the Dense templates' values 1, 1): none of the 743 receives with flags
// (0, 0), the aarch64 compiles' among them, passes.
TEST(LleCorpus, ExecutionOnlyReceivesPassWhateverTheirFlagsSay) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  std::set<std::string> seen;
  std::map<std::pair<uint64_t, uint64_t>, FormCounts> byFlags;  // (Recv11ExecFlagA, Recv11ExecFlagB)
  size_t echoMismatches = 0, refusedOnlyForFlags = 0;
  const auto check = [&](const std::vector<uint8_t>& program, const std::string& where) {
    const auto decoded = models::DecodedProgram::fromBytes(program);
    for (const models::DecodedPacket& p : decoded->packets()) {
      if (static_cast<uint8_t>(p.opcode) != 0x11 || readField(p.words, LleField::Recv11ExecutionForm) == 0) continue;
      const uint64_t a = readField(p.words, LleField::Recv11ExecFlagA);
      const uint64_t b = readField(p.words, LleField::Recv11ExecFlagB);
      echoMismatches += readField(p.words, LleField::Recv11ExecFlagBEcho) != b;
      FormCounts& c = byFlags[{a, b}];
      ++c.receives;
      const bool refused = !lle::checkEnvelope(p).empty();
      c.refused += refused;
      // The same receive with both flags (and the echo) cleared.
      std::vector<isa::Word128> cleared(p.words.begin(), p.words.end());
      for (const LleField f : {LleField::Recv11ExecFlagA, LleField::Recv11ExecFlagB, LleField::Recv11ExecFlagBEcho}) {
        const lle::LleFieldDef& def = lle::fieldDef(f);
        cleared[def.lsb / 128].setBits(def.lsb % 128, 1, 0);
      }
      models::DecodedPacket twin = p;
      twin.words = cleared;
      if (refused && lle::checkEnvelope(twin).empty()) {
        ++refusedOnlyForFlags;
        ADD_FAILURE() << where << ": the receive at PC " << p.pc << " is refused only for its flags";
      }
    }
  };
  for (const auto& path : coralsim::testing::corpusFiles(".coral")) {
    const std::vector<uint8_t> bytes = coralsim::testing::readFile(path);
    if (!seen.insert(traces::Sha256::hex(bytes)).second) continue;
    const ModelFile model = loadModelFromMemory(bytes, path.string());
    if (model.rawBitstream) check(model.rawBitstream->bytes, path.string());
  }
  forEachDistinctCorpusModel({"_edgetpu.tflite"}, [&](const fs::path& path, const ModelFile& model) {
    for (const EdgeTpuCustomOp& op : model.edgeTpuOps) {
      for (const Package& package : op.packages) {
        for (const Executable& e : package.executables) {
          if (e.type == ExecutableType::ParameterCaching) continue;
          for (const auto& bitstream : e.bitstreams) check(bitstream.bytes, path.string());
        }
      }
    }
  });
  size_t receives = 0, refused = 0;
  for (const auto& [flags, c] : byFlags) {
    std::printf("execution-only receives with Recv11ExecFlagA = %llu, Recv11ExecFlagB = %llu: %zu, refused %zu\n",
                static_cast<unsigned long long>(flags.first), static_cast<unsigned long long>(flags.second), c.receives,
                c.refused);
    receives += c.receives;
    refused += c.refused;
  }
  std::printf("execution-only receives: %zu, pass on decoded fields and the envelope %zu, refused %zu\n", receives,
              receives - refused, refused);
  EXPECT_EQ(echoMismatches, 0u) << "w2 bit 88 differs from w2 bit 80";
  EXPECT_EQ(refusedOnlyForFlags, 0u);
  // The flags must take both values among accepted receives, or the test shows nothing.
  ASSERT_EQ(byFlags.size(), 4u);
  for (const auto& flags : {std::make_pair(uint64_t{0}, uint64_t{0}), std::make_pair(uint64_t{1}, uint64_t{1})}) {
    const FormCounts& c = byFlags[flags];
    EXPECT_LT(c.refused, c.receives) << "no receive with flags (" << flags.first << ", " << flags.second << ") passes";
  }
}

}  // namespace
}  // namespace coralsim::driver::lle_receive_forms_test

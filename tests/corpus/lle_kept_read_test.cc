// The 0x13 reads kept for the tile's compute (Stage13Route both clear, docs/decoding-log.md "form13"):
// how many of the corpus's pass the shipped envelope, and which bits stop the others. The envelope
// rows of this form come from a decode set of three programs (scripts/gen_lle_envelope.py --opcode
// 0x13); every other program is held out. The test prints the figures the log quotes and checks the
// two sides: some held-out kept reads pass on decoded fields, and the bits still pinned by value
// (w4, w6 and w2 bit 97 of the kept form, not decoded) stop others, naming word and bits.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <string>

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

TEST(LleCorpus, KeptReadsPassTheEnvelopeOnDecodedFieldsOrNameTheBitsThatStopThem) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  std::set<std::string> seen;
  size_t kept = 0, passing = 0, firstKept = 0, firstPassing = 0;
  std::map<std::string, size_t> stoppedBy;  // "word K" of the first refusal
  for (const auto& path : coralsim::testing::corpusFiles("_edgetpu.tflite")) {
    const std::vector<uint8_t> bytes = coralsim::testing::readFile(path);
    if (!seen.insert(traces::Sha256::hex(bytes)).second) continue;
    std::optional<ModelFile> model;
    try {
      model.emplace(loadModelFromMemory(bytes, path.string()));
    } catch (const std::exception&) {
      continue;  // loader problems are the loader tests' business
    }
    for (const Executable* e : allExecutables(*model)) {
      for (const auto& bitstream : e->bitstreams) {
        const auto program = models::DecodedProgram::fromBytes(bitstream.bytes);
        bool first = true;
        for (const models::DecodedPacket& p : program->packets()) {
          if (static_cast<uint8_t>(p.opcode) != 0x13) continue;
          const bool isFirst = first;
          first = false;
          if (readField(p.words, LleField::Stage13Route, 0) != 0 || readField(p.words, LleField::Stage13Route, 1) != 0) continue;
          ++kept;
          firstKept += isFirst;
          const std::string why = lle::checkEnvelope(p);
          if (why.empty()) {
            ++passing;
            firstPassing += isFirst;
            continue;
          }
          const size_t at = why.find(": word ");
          ASSERT_NE(at, std::string::npos) << path << ": a refusal that names no word: " << why;
          ++stoppedBy[why.substr(at + 2, why.find(" = ", at) - at - 2)];
        }
      }
    }
  }
  std::printf("kept 0x13 reads (Stage13Route 0, 0): %zu, inside the shipped envelope %zu; first 0x13 of a bitstream "
              "%zu, inside %zu\n",
              kept, passing, firstKept, firstPassing);
  for (const auto& [key, n] : stoppedBy) std::printf("  stopped at %s: %zu\n", key.c_str(), n);
  ASSERT_GT(kept, 0u);
  EXPECT_GT(firstPassing, 3u) << "no held-out identity read passes on decoded fields";
  EXPECT_LT(passing, kept) << "every kept read passes: the undecoded bits are no longer checked";
}

}  // namespace
}  // namespace coralsim::driver

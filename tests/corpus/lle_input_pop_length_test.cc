// The input pop's length (docs/decoding-log.md "win14" §C; lle_fields.def PopInputBeats,
// PopInputRingNeg16): over every distinct compiled corpus model and raw program, every multi-beat input
// pop repeats its 20-bit count of 64-byte ring beats (w1[74:55], less one) as -(ring bytes / 16 - 1) in
// the 16 bits w1[90:75]. The decisive pops are those of more than 512 beats, where "xraypair" §B's
// reading (a 10-bit count with PopBeatsHigh, a 12-bit repeat sign-extended into the four bits above) and
// this one part: the test counts them (they must exist) and how many the older reading gets right (it
// must get fewer, or the test shows nothing). And the rung's own check agrees: every such pop passes the
// envelope and its relations.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <span>
#include <string>

#include "driver/model/model_file.h"
#include "driver/model/model_loader.h"
#include "models/lle/lle_fields.h"
#include "models/lle/packet_envelope.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_input_pop_length_test {
namespace {

namespace fs = std::filesystem;
using coralsim::testing::forEachDistinctCorpusModel;
using lle::LleField;
using lle::readField;

constexpr uint8_t kPop = 0x26;

// The repeat of `beats` 64-byte beats in `width` bits: -(4 x beats - 1) mod 2^width.
uint64_t repeatOf(uint64_t beats, unsigned width) {
  const uint64_t modulus = uint64_t{1} << width;
  return (modulus - (4 * beats - 1) % modulus) % modulus;
}

TEST(LleCorpus, InputPopsRepeatTheirTwentyBitLengthInSixteenBits) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  size_t multiBeat = 0, repeated = 0, beyond512 = 0, beyond1024 = 0, olderReading = 0, envelopeRefused = 0;
  forEachDistinctCorpusModel({"_edgetpu.tflite", ".coral"}, [&](const fs::path& path, const ModelFile& model) {
    const auto visit = [&](std::span<const uint8_t> bytes) {
      const auto program = models::DecodedProgram::fromBytes(bytes);
      if (!program) return;
      for (const models::DecodedPacket& p : program->packets()) {
        if (static_cast<uint8_t>(p.opcode) != kPop || readField(p.words, LleField::PopIsInput) == 0) continue;
        const uint64_t repeat = readField(p.words, LleField::PopInputRingNeg16);
        if (repeat == 0) continue;  // the one-beat form: its length is in the ring loop ("recv11" §C)
        ++multiBeat;
        const uint64_t beats = readField(p.words, LleField::PopInputBeats) + 1;
        repeated += repeat == repeatOf(beats, 16);
        EXPECT_EQ(repeat, repeatOf(beats, 16)) << path << " PC " << p.pc;
        beyond512 += beats > 512;
        beyond1024 += beats > 1024;
        // "xraypair" §B: 10 + 8 bits of count, 12 bits of repeat and its sign above.
        const uint64_t olderBeats = (readField(p.words, LleField::PopBeatsHigh) << 10 | readField(p.words, LleField::PopBeatsLow)) + 1;
        const uint64_t older12 = repeatOf(olderBeats, 12);
        olderReading += readField(p.words, LleField::PopRingNeg16) == older12 &&
                        readField(p.words, LleField::PopRingNeg16Sign) == (older12 >= 2048 ? 0xfu : 0u);
        envelopeRefused += lle::checkEnvelope(p).find("PopInput") != std::string::npos;
      }
    };
    if (model.rawBitstream) visit(model.rawBitstream->bytes);
    for (const Executable* e : allExecutables(model)) {
      for (const auto& bitstream : e->bitstreams) visit(bitstream.bytes);
    }
  });
  std::printf("multi-beat input pops: %zu; the 16-bit repeat of the 20-bit count in %zu; more than 512 beats %zu, more than "
              "1024 %zu; the older 10-bit / 12-bit reading right in %zu; refused naming PopInput*: %zu\n",
              multiBeat, repeated, beyond512, beyond1024, olderReading, envelopeRefused);
  EXPECT_EQ(repeated, multiBeat);
  EXPECT_EQ(envelopeRefused, 0u);
  EXPECT_GT(beyond1024, 0u);
  EXPECT_LT(olderReading, repeated);
}

}  // namespace
}  // namespace coralsim::driver::lle_input_pop_length_test

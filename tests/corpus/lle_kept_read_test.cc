// The 0x13 reads kept for the tile's compute (Stage13Route both clear, docs/decoding-log.md "form13"):
// how many of the corpus's pass the shipped envelope, and which bits stop the others. The envelope
// rows of this form come from a decode set of three programs (scripts/gen_lle_envelope.py --opcode
// 0x13); every other program is held out. The test prints the figures the log quotes and checks the
// two sides: some held-out kept reads pass on decoded fields, and a bit still pinned by value stops a
// read, naming word and bits. Since the pool form's records and the partial-run mark were decoded
// (docs/decoding-log.md "pool13", "w2k13") every corpus kept read passes, so the second side is a
// control: a bit that no corpus kept read sets and no field decodes, set in each read, must be refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "driver/model/model_file.h"
#include "driver/model/model_loader.h"
#include "models/isa/compute_loop_nest.h"
#include "models/lle/lle_fields.h"
#include "models/lle/packet_envelope.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/decoded_bitstreams.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"
#include "traces/sha256.h"

namespace coralsim::driver::lle_kept_read_test {
namespace {

using coralsim::testing::forEachDecodedBitstream;
using coralsim::testing::forEachDistinctCorpusModel;
using lle::LleField;
namespace fs = std::filesystem;
using lle::readField;

TEST(LleCorpus, KeptReadsPassTheEnvelopeOnDecodedFieldsOrNameTheBitsThatStopThem) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  size_t kept = 0, passing = 0, firstKept = 0, firstPassing = 0;
  std::map<std::string, size_t> stoppedBy;  // "word K" of the first refusal
  std::vector<models::DecodedPacket> passed;  // the reads inside the envelope, for the control
  std::vector<std::vector<isa::Word128>> passedWords;
  forEachDistinctCorpusModel({"_edgetpu.tflite"}, [&](const fs::path& path, const ModelFile& model) {
    forEachDecodedBitstream(model, [&](const Executable&, const models::DecodedProgram& program) {
      bool first = true;
      for (const models::DecodedPacket& p : program.packets()) {
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
          // The packet's words live in the program, which ends with this visit: keep a copy of them instead.
          passed.push_back(p);
          passed.back().words = {};
          passedWords.emplace_back(p.words.begin(), p.words.end());
          continue;
        }
        const size_t at = why.find(": word ");
        ASSERT_NE(at, std::string::npos) << path << ": a refusal that names no word: " << why;
        ++stoppedBy[why.substr(at + 2, why.find(" = ", at) - at - 2)];
      }
    });
  });
  std::printf("kept 0x13 reads (Stage13Route 0, 0): %zu, inside the shipped envelope %zu; first 0x13 of a bitstream "
              "%zu, inside %zu\n",
              kept, passing, firstKept, firstPassing);
  for (const auto& [key, n] : stoppedBy) std::printf("  stopped at %s: %zu\n", key.c_str(), n);
  ASSERT_GT(kept, 0u);
  EXPECT_GT(firstPassing, 3u) << "no held-out identity read passes on decoded fields";
  // The control: the lowest bit of words 1.. that no kept read sets and no field of the 0x13 decodes.
  std::optional<std::pair<unsigned, unsigned>> controlBit;  // (word, bit)
  const size_t words = passedWords.empty() ? 0 : passedWords.front().size();
  for (unsigned w = 1; w < words && !controlBit; ++w) {
    const isa::Word128 decoded = lle::decodedBits(0x13, w);
    for (unsigned b = 0; b < 128 && !controlBit; ++b) {
      if (decoded.bits(b, 1) != 0) continue;
      const bool setSomewhere = std::ranges::any_of(passedWords, [&](const auto& ws) { return ws.size() > w && ws[w].bits(b, 1) != 0; });
      if (!setSomewhere) controlBit = std::make_pair(w, b);
    }
  }
  ASSERT_TRUE(controlBit.has_value()) << "no undecoded bit is clear in every kept read: the control has nothing to set";
  size_t controlRefused = 0;
  for (size_t i = 0; i < passed.size(); ++i) {
    std::vector<isa::Word128> ws = passedWords[i];
    ws[controlBit->first].setBits(controlBit->second, 1, 1);
    models::DecodedPacket control = passed[i];
    control.words = ws;
    controlRefused += !lle::checkEnvelope(control).empty();
  }
  std::printf("control: w%u bit %u set in the %zu passing reads, refused %zu\n", controlBit->first, controlBit->second, passed.size(),
              controlRefused);
  EXPECT_EQ(controlRefused, passed.size()) << "an undecoded bit set did not stop a kept read: the undecoded bits are no longer checked";
}

// The kept reads' word 4 (docs/decoding-log.md "keep13"): where w4 bit 75 is set, Stage13ConsumerMark
// (w4[32:31]) is 0 when the read's consumer (the first later compute on its tiles naming its Stage13Channel)
// has an all-zero word 12 and 3 when it carries one; with w4 bit 59 clear, Stage13KeptSequence numbers the
// read in its stream's numbering on its tiles: 1, or one more than the tile's last numbered kept read -- in the run
// since its last compute, or, where a compute took the run, the last one of the same Stage13Channel ("col13": the
// colour templates' 2 @ 0x019c after tile 0's copy took the 1; a sent read ends the numbering, as the rung's keepRead).
// The test prints both tables and the reads with a pacing number (Stage13KeptPace) and checks them against every
// distinct corpus program: the mark without exception for 0, for 95 % of 3; the numbers without exception.
TEST(LleCorpus, KeptReadsMarkTheirConsumersWordTwelveAndNumberTheirRuns) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  std::map<std::pair<uint64_t, bool>, size_t> markByConsumer;  // (mark, consumer's word 12 is zero)
  size_t numbered = 0, following = 0, afterTaken = 0, paced = 0;
  forEachDistinctCorpusModel({"_edgetpu.tflite", ".coral"}, [&](const fs::path&, const ModelFile& model) {
    forEachDecodedBitstream(model, [&](const Executable&, const models::DecodedProgram& program) {
      const auto packets = program.packets();
      std::array<uint64_t, 16> held{};    // each tile's last number since its last compute
      std::array<uint64_t, 16> number{};  // each tile's last numbered kept read, computes or not
      std::array<uint64_t, 16> stream{};  // ... and its Stage13Channel
      for (size_t n = 0; n < packets.size(); ++n) {
        const models::DecodedPacket& p = packets[n];
        const uint8_t op = static_cast<uint8_t>(p.opcode);
        if (op == 0x01) {
          for (unsigned t = 0; t < 16; ++t) {
            if (p.tileMask & (1u << t)) held[t] = 0;
          }
        }
        if (op != 0x13) continue;
        if (readField(p.words, LleField::Stage13Route, 0) != 0 || readField(p.words, LleField::Stage13Route, 1) != 0) {
          for (unsigned t = 0; t < 16; ++t) {
            if (p.tileMask & (1u << t)) held[t] = number[t] = 0;  // a sent read ends the run and the numbering
          }
          continue;
        }
        const bool on = readField(p.words, LleField::Stage13W4On) != 0;
        const bool sequenceForm = readField(p.words, LleField::Stage13W4Bit59) == 0;
        const uint64_t sequence = on && sequenceForm ? readField(p.words, LleField::Stage13KeptSequence) : 0;
        const uint64_t channel = readField(p.words, LleField::Stage13Channel);
        if (on && sequenceForm && readField(p.words, LleField::Stage13KeptPace) != 0) {
          ++paced;
          std::printf("kept read with Stage13KeptPace %llu, number %llu\n",
                      static_cast<unsigned long long>(readField(p.words, LleField::Stage13KeptPace)),
                      static_cast<unsigned long long>(sequence));
        }
        if (sequence != 0) {
          ++numbered;
          bool follows = true, taken = false;
          for (unsigned t = 0; t < 16; ++t) {
            if (!(p.tileMask & (1u << t)) || sequence == 1 || held[t] + 1 == sequence) continue;
            if (held[t] == 0 && number[t] + 1 == sequence && stream[t] == channel) {
              taken = true;
            } else {
              follows = false;
            }
          }
          following += follows;
          afterTaken += follows && taken;
        }
        for (unsigned t = 0; t < 16; ++t) {
          if (!(p.tileMask & (1u << t))) continue;
          held[t] = sequence > 1 ? held[t] + 1 : sequence;
          number[t] = sequence;
          stream[t] = channel;
        }
        if (!on) continue;
        const uint64_t tag = readField(p.words, LleField::Stage13Channel);
        for (size_t m = n + 1; m < packets.size(); ++m) {
          const models::DecodedPacket& c = packets[m];
          if (static_cast<uint8_t>(c.opcode) != 0x01 || !(c.tileMask & p.tileMask) || c.words.size() <= 12 ||
              readField(c.words, LleField::ComputeStreamTag) != tag) {
            continue;
          }
          const bool zero = c.words[12].lo == 0 && c.words[12].hi == 0;
          ++markByConsumer[{readField(p.words, LleField::Stage13ConsumerMark), zero}];
          break;
        }
      }
    });
  });
  for (const auto& [key, count] : markByConsumer) {
    std::printf("kept reads with w4 bit 75, Stage13ConsumerMark %llu, consumer's word 12 %s: %zu\n",
                static_cast<unsigned long long>(key.first), key.second ? "zero" : "not zero", count);
  }
  std::printf("kept reads numbered (w4 bit 59 clear): %zu, 1 or one more than their tiles' last: %zu (numbered on after a "
              "compute took the one before: %zu); with a pacing number: %zu\n",
              numbered, following, afterTaken, paced);
  const auto count = [&](uint64_t mark, bool zero) {
    const auto it = markByConsumer.find({mark, zero});
    return it == markByConsumer.end() ? size_t{0} : it->second;
  };
  ASSERT_GT(count(0, true), 0u) << "no kept read with mark 0 before a compute without word 12";
  EXPECT_EQ(count(0, false), 0u) << "a mark-0 read feeds a compute with a word 12";
  EXPECT_GE(static_cast<double>(count(3, false)), 0.95 * static_cast<double>(count(3, false) + count(3, true)));
  ASSERT_GT(numbered, 0u);
  EXPECT_EQ(following, numbered) << "a kept read's number follows neither its run nor its stream's last numbered read";
}

// The kept read's consumer, the compute (docs/decoding-log.md "convcompute" §A): w0 holds a third loop
// nest, four 14-bit limits from bit 62 (level 0 the K limit, ComputeLimitW0 levels 1-3). Its counts
// are those of the other two nests (models/isa/compute_loop_nest.def) in the factoring of one of them:
// the first four levels of Nest29 or of Nest37, or the same non-zero limits in another order. Read
// one bit higher (a wrong decode) the same packets agree almost never, which the test also checks.
TEST(LleCorpus, TheComputesW0NestCountsTheLoopsOfItsOtherTwoNests) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  using isa::ComputeNest;
  const auto w0Nest = [](std::span<const isa::Word128> words, unsigned shift) {
    const lle::LleFieldDef& def = lle::fieldDef(LleField::ComputeLimitW0);
    std::array<uint64_t, 4> limits{};
    limits[0] = isa::readPacketBits(words, def.lsb - def.stride + shift, def.width);  // level 0: the K limit
    for (unsigned level = 1; level < 4; ++level) {
      limits[level] = isa::readPacketBits(words, def.lsb + (level - 1) * def.stride + shift, def.width);
    }
    return limits;
  };
  const auto nonZero = [](std::span<const uint64_t> limits) {
    std::vector<uint64_t> v;
    for (const uint64_t l : limits) {
      if (l != 0) v.push_back(l);
    }
    std::ranges::sort(v);
    return v;
  };
  const auto agrees = [&](const std::array<uint64_t, 4>& w0, std::span<const isa::Word128> words) {
    for (const ComputeNest nest : {ComputeNest::Nest29, ComputeNest::Nest37}) {
      const auto other = isa::readComputeNestLimits(nest, words);
      if (std::equal(w0.begin(), w0.end(), other.begin()) || nonZero(w0) == nonZero(other)) return true;
    }
    return false;
  };
  size_t computes = 0, agree = 0, agreeShifted = 0, positions = 0;
  forEachDistinctCorpusModel({"_edgetpu.tflite"}, [&](const fs::path&, const ModelFile& model) {
    forEachDecodedBitstream(model, [&](const Executable&, const models::DecodedProgram& program) {
      for (const models::DecodedPacket& p : program.packets()) {
        if (static_cast<uint8_t>(p.opcode) != 0x01 || p.words.size() < 17) continue;
        ++computes;
        const auto limits = w0Nest(p.words, 0);
        agree += agrees(limits, p.words);
        agreeShifted += agrees(w0Nest(p.words, 1), p.words);
        positions += limits[1] + limits[2] + limits[3] > 0;
      }
    });
  });
  std::printf("compute packets 0x01: %zu; the w0 nest counts the loops of Nest29 or Nest37 in %zu (read one bit "
              "higher: %zu); over more than one position: %zu\n",
              computes, agree, agreeShifted, positions);
  ASSERT_GT(computes, 1000u) << "the corpus lost its compute packets";
  EXPECT_GT(positions, computes / 2) << "the corpus's computes run over positions";
  EXPECT_GE(static_cast<double>(agree), 0.99 * static_cast<double>(computes));
  EXPECT_LT(static_cast<double>(agreeShifted), 0.5 * static_cast<double>(computes));
}

}  // namespace
}  // namespace coralsim::driver::lle_kept_read_test

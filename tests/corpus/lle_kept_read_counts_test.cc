// The kept read's counts, held out (docs/decoding-log.md "st13"): (A) a read with w3 bit 102 (Stage13RepeatLevel1On) has a
// two-level second nest whose positions are the first nest's rows (models/lle/kept_read_second_nest.h), decode set
// voice_commands; (B) a kept read with w4 bit 59 and no records names its bytes in 32-byte units where a compute on its tiles
// takes it and 0xffff where none does (Stage13KeptTakeUnits, models/lle/kept_take_units.h), decode set MobileNet v2 1.0 224.
// Every other corpus program is held out. Beyond the static checks, (B)'s meaning is joined with the program: a read carrying
// a count must be taken by a compute on its tiles naming its stream before another 0x13 there, a read carrying 0xffff must
// not. The control reads w4[58:43] as Stage13Repeats + 1 and must disagree somewhere.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <span>
#include <string>

#include "driver/model/model_file.h"
#include "driver/model/model_loader.h"
#include "models/lle/field_relations.h"
#include "models/lle/kept_read_second_nest.h"
#include "models/lle/kept_take_units.h"
#include "models/lle/lle_fields.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/decoded_bitstreams.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_kept_read_counts_test {
namespace {

using coralsim::testing::forEachDecodedBitstream;
using coralsim::testing::forEachDistinctCorpusModel;
using lle::LleField;
using lle::readField;
namespace fs = std::filesystem;

constexpr const char* kSecondNestDecodeSet = "voice_commands_v0.7_edgetpu.tflite";
constexpr const char* kTakeUnitsDecodeSet = "mobilenet_v2_1.0_224_quant_edgetpu.tflite";
constexpr uint64_t kNotTaken = 0xffff;

struct Counts {
  size_t levelOneReads = 0, levelOneRefused = 0, takeReads = 0, takeRefused = 0, takenDisagrees = 0, controlDisagrees = 0;
};

// Whether a compute (0x01 / 0x02 / 0x03) on the read's tiles names its stream (w7[74:63]) before another 0x13 there.
bool takenByACompute(std::span<const models::DecodedPacket> packets, size_t read) {
  const models::DecodedPacket& r = packets[read];
  const uint64_t stream = readField(r.words, LleField::Stage13Channel);
  for (size_t j = read + 1; j < packets.size(); ++j) {
    const models::DecodedPacket& p = packets[j];
    if (p.action != models::PacketAction::kIssue || !p.tilePacket || !(p.tileMask & r.tileMask)) continue;
    const auto op = static_cast<uint8_t>(p.opcode);
    if (op == 0x13) return false;
    if ((op == 0x01 || op == 0x02 || op == 0x03) && p.words.size() > 7 && p.words[7].bits(63, 12) == stream) return true;
  }
  return false;
}

void count(std::span<const models::DecodedPacket> packets, Counts& c) {
  for (size_t i = 0; i < packets.size(); ++i) {
    const models::DecodedPacket& p = packets[i];
    if (p.action != models::PacketAction::kIssue || !p.tilePacket || static_cast<uint8_t>(p.opcode) != 0x13) continue;
    if (lle::fieldPresent(LleField::Stage13RepeatLevel1On, p.words) && readField(p.words, LleField::Stage13RepeatLevel1On) != 0) {
      ++c.levelOneReads;
      if (const std::string why = lle::keptReadSecondNestProblem(p.words); !why.empty()) {
        std::printf("  PC 0x%04x refused: %s\n", p.pc, why.c_str());
        ++c.levelOneRefused;
      }
    }
    if (lle::fieldPresent(LleField::Stage13KeptTakeUnits, p.words)) {
      ++c.takeReads;
      const uint64_t units = readField(p.words, LleField::Stage13KeptTakeUnits);
      if (const std::string why = lle::keptTakeUnitsProblem(p.words); !why.empty()) {
        std::printf("  PC 0x%04x refused: %s\n", p.pc, why.c_str());
        ++c.takeRefused;
      }
      if ((units != kNotTaken) != takenByACompute(packets, i)) {
        std::printf("  PC 0x%04x: Stage13KeptTakeUnits %llu, taken by a compute: %s\n", p.pc, static_cast<unsigned long long>(units),
                    units != kNotTaken ? "no" : "yes");
        ++c.takenDisagrees;
      }
      const uint64_t repeats = lle::fieldPresent(LleField::Stage13Repeats, p.words) ? readField(p.words, LleField::Stage13Repeats) : 0;
      if (units != kNotTaken && units != repeats + 1) ++c.controlDisagrees;
    }
  }
}

void add(Counts& into, const Counts& c) {
  into.levelOneReads += c.levelOneReads;
  into.levelOneRefused += c.levelOneRefused;
  into.takeReads += c.takeReads;
  into.takeRefused += c.takeRefused;
  into.takenDisagrees += c.takenDisagrees;
  into.controlDisagrees += c.controlDisagrees;
}

TEST(LleCorpus, KeptReadCountsHoldOutAsInTheirDecodeSets) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  Counts nestDecode, takeDecode, heldOutNest, heldOutTake;
  forEachDistinctCorpusModel({"_edgetpu.tflite", ".coral"}, [&](const fs::path& path, const ModelFile& model) {
    Counts c;
    forEachDecodedBitstream(model, [&](const Executable&, const models::DecodedProgram& program) { count(program.packets(), c); });
    const std::string name = path.filename().string();
    if (c.levelOneReads != 0 || c.takeReads != 0) {
      std::printf("%-70.70s bit-102 reads %2zu (refused %zu); take-count reads %3zu (refused %zu, join disagrees %zu)\n", name.c_str(),
                  c.levelOneReads, c.levelOneRefused, c.takeReads, c.takeRefused, c.takenDisagrees);
    }
    // Each part is held out on every program but its own decode set.
    Counts nest = c, take = c;
    nest.takeReads = nest.takeRefused = nest.takenDisagrees = nest.controlDisagrees = 0;
    take.levelOneReads = take.levelOneRefused = 0;
    add(name == kSecondNestDecodeSet ? nestDecode : heldOutNest, nest);
    add(name == kTakeUnitsDecodeSet ? takeDecode : heldOutTake, take);
  });
  std::printf("second nest: decode set %zu reads, %zu refused; held out %zu reads, %zu refused\n", nestDecode.levelOneReads,
              nestDecode.levelOneRefused, heldOutNest.levelOneReads, heldOutNest.levelOneRefused);
  std::printf("take count: decode set %zu reads, %zu refused, %zu join disagreements; held out %zu reads, %zu refused, %zu join "
              "disagreements; control (Stage13Repeats + 1) disagrees %zu\n",
              takeDecode.takeReads, takeDecode.takeRefused, takeDecode.takenDisagrees, heldOutTake.takeReads, heldOutTake.takeRefused,
              heldOutTake.takenDisagrees, takeDecode.controlDisagrees + heldOutTake.controlDisagrees);
  ASSERT_GT(nestDecode.levelOneReads, 0u) << kSecondNestDecodeSet << " not found or without bit-102 reads";
  ASSERT_GT(takeDecode.takeReads, 0u) << kTakeUnitsDecodeSet << " not found or without take-count reads";
  ASSERT_GT(heldOutNest.levelOneReads, 0u);
  ASSERT_GT(heldOutTake.takeReads, 0u);
  EXPECT_EQ(nestDecode.levelOneRefused + takeDecode.takeRefused + takeDecode.takenDisagrees, 0u);
  EXPECT_EQ(heldOutNest.levelOneRefused, 0u) << "a held-out read's second nest does not count its rows";
  EXPECT_EQ(heldOutTake.takeRefused + heldOutTake.takenDisagrees, 0u) << "a held-out read's take count disagrees";
  EXPECT_GT(takeDecode.controlDisagrees + heldOutTake.controlDisagrees, 0u) << "the control passed: the check cannot fail";
}

}  // namespace
}  // namespace coralsim::driver::lle_kept_read_counts_test

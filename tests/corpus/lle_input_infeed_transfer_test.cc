// The input-class infeed's transfer (models/lle/input_infeed_transfer.h, docs/decoding-log.md
// "infeed64k") against the compiler's own plan: every compiled corpus executable whose input-class 0x25s
// and input DMA hints pair one to one (in program order) must have each infeed's decoded transfer --
// InfeedWraps64K whole fills of its ring of InfeedRingLimit + 1 eight-byte units, then InfeedLines + 1
// units (or a whole ring without the line wrap) -- equal to its hint's size in bytes. The decode set is
// model_stride 256 x 256 (one wrap); every other infeed is held out, model_stride 256 x 512 (two wraps and
// a last fill of a whole ring) among them. A reading without the wraps, or with the last fill always
// InfeedLines + 1, fails on the held-out rows (the test counts them apart so that it can).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "driver/model/model_file.h"
#include "driver/model/model_loader.h"
#include "models/lle/input_infeed_transfer.h"
#include "models/lle/lle_fields.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_input_infeed_transfer_test {
namespace {

namespace fs = std::filesystem;
using coralsim::testing::forEachDistinctCorpusModel;
using lle::InputInfeedTransfer;
using lle::LleField;
using lle::readField;

constexpr uint8_t kInfeed = 0x25;
constexpr std::string_view kDecodeSet = "model_stride_256x256x3_edgetpu.tflite";

TEST(LleCorpus, EveryHintedInputInfeedTransfersItsHintsBytes) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  size_t paired = 0, exact = 0, wrapping = 0, wrappingExact = 0, decodeSet = 0, unpaired = 0;
  forEachDistinctCorpusModel({"_edgetpu.tflite"}, [&](const fs::path& path, const ModelFile& model) {
    const bool decoding = path.filename().string() == kDecodeSet;
    for (const Executable* e : allExecutables(model)) {
      std::vector<InputInfeedTransfer> infeeds;
      for (const auto& bitstream : e->bitstreams) {
        const auto program = models::DecodedProgram::fromBytes(bitstream.bytes);
        for (const models::DecodedPacket& p : program->packets()) {
          if (static_cast<uint8_t>(p.opcode) == kInfeed && readField(p.words, LleField::InfeedIsInput) != 0) {
            infeeds.push_back(InputInfeedTransfer::fromPacket(p.words));
          }
        }
      }
      std::vector<int32_t> hintSizes;
      if (e->dmaHints) {
        for (const DmaHint& h : e->dmaHints->hints) {
          if (h.kind == HintKind::Dma && h.direction == DmaDirection::Infeed && h.buffer && h.buffer->kind == BufferKind::Input) {
            hintSizes.push_back(h.size);
          }
        }
      }
      if (infeeds.empty()) continue;
      if (infeeds.size() != hintSizes.size()) {
        ++unpaired;
        std::printf("not paired: %s (%zu input infeeds, %zu input hints)\n", path.filename().c_str(), infeeds.size(), hintSizes.size());
        continue;
      }
      for (size_t i = 0; i < infeeds.size(); ++i) {
        const InputInfeedTransfer& t = infeeds[i];
        const bool match = t.bytes() == static_cast<uint64_t>(hintSizes[i]);
        ++paired;
        exact += match;
        decodeSet += decoding;
        if (t.wholeRings != 0 && !decoding) {
          ++wrapping;
          wrappingExact += match;
        }
        EXPECT_TRUE(match) << path << " input infeed " << i << ": " << t.wholeRings << " whole fills of " << t.ringUnits
                           << " units + " << t.lastFillUnits << " = " << t.bytes() << " bytes, hint " << hintSizes[i];
      }
    }
  });
  std::printf("input infeeds paired with a hint: %zu, transfer = hint in %zu (decode set %zu; held out with whole-ring fills "
              "%zu / %zu); executables not paired %zu\n",
              paired, exact, decodeSet, wrappingExact, wrapping, unpaired);
  EXPECT_GT(decodeSet, 0u) << "the decode set (" << kDecodeSet << ") is not in the corpus";
  EXPECT_GE(wrapping, 40u) << "too few held-out input infeeds that fill their ring more than once for the test to tell";
  EXPECT_EQ(exact, paired);
}

}  // namespace
}  // namespace coralsim::driver::lle_input_infeed_transfer_test

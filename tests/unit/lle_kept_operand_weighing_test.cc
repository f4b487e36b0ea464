// The weighing by a kept operand (models/lle/kept_operand_weighing.h; docs/decoding-log.md "trk16" §B): which 16-bit weight
// each lane of each K iteration takes, the products, and the form's counts. Values no corpus packet holds (weights
// 1,000 + pixel, 3 positions; the trackers' have 32 / 128 and the tile's exponentials).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "models/lle/kept_operand_weighing.h"
#include "models/lle/lle_fields.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_kept_operand_weighing_test {
namespace {

// Pixels 0 .. 8 x positions - 1 as 16-bit weights 1,000 + pixel, each 16-byte block's 4-byte units gathered in the order
// (0, 2, 1, 3) as the kept-operand read @ 0x095b walks them.
std::vector<uint8_t> gatheredOperand(uint64_t positions) {
  std::vector<uint8_t> in;
  for (uint64_t pixel = 0; pixel < 8 * positions; ++pixel) {
    in.push_back(static_cast<uint8_t>((1000 + pixel) & 0xff));
    in.push_back(static_cast<uint8_t>((1000 + pixel) >> 8));
  }
  std::vector<uint8_t> out;
  for (uint64_t p = 0; p < positions; ++p) {
    for (const unsigned unit : {0u, 2u, 1u, 3u}) {
      for (unsigned b = 0; b < 4; ++b) out.push_back(in[16 * p + 4 * unit + b]);
    }
  }
  return out;
}

TEST(KeptOperandWeighing, TheGatheredBlocksGiveThePixelsInOrderLanePairsAUnitTheKStepAUnitOn) {
  const std::vector<uint8_t> operand = gatheredOperand(3);
  for (uint64_t p = 0; p < 3; ++p) {
    for (uint64_t k = 0; k < 2; ++k) {
      for (uint64_t lane = 0; lane < 4; ++lane) {
        EXPECT_EQ(KeptOperandWeighing::weight(operand, p, k, lane), 1000 + 8 * p + 4 * k + lane) << p << " " << k << " " << lane;
      }
    }
  }
  KeptOperandWeighing form;
  form.positions = 3;
  form.written = 6;
  std::vector<uint8_t> units;
  for (uint64_t i = 0; i < form.iterations(); ++i) units.insert(units.end(), {7, 0, 7, 0});  // u = 7 twice
  const auto products = form.products(units, operand);
  ASSERT_EQ(products.index(), 0u) << std::get<std::string>(products);
  for (uint64_t pixel = 0; pixel < 24; ++pixel) EXPECT_EQ(std::get<0>(products)[pixel], 7 * static_cast<int64_t>(1000 + pixel));
}

TEST(KeptOperandWeighing, AnInputUnitOfTwoDifferentElementsOrAnotherOperandSizeIsRefusedByName) {
  KeptOperandWeighing form;
  form.positions = 2;
  form.written = 4;
  std::vector<uint8_t> units(form.iterations() * 4, 0);
  units[4 * 3 + 2] = 1;  // iteration 3: elements 0 and 1
  const auto unequal = form.products(units, gatheredOperand(2));
  ASSERT_EQ(unequal.index(), 1u);
  EXPECT_NE(std::get<std::string>(unequal).find("iteration 3's input unit holds the 16-bit elements 0 and 1"), std::string::npos);
  const auto size = form.products(std::vector<uint8_t>(form.iterations() * 4, 0), gatheredOperand(3));
  ASSERT_EQ(size.index(), 1u);
  EXPECT_NE(std::get<std::string>(size).find("a kept operand of 48 bytes"), std::string::npos) << std::get<std::string>(size);
  const auto tooShort = form.products(std::vector<uint8_t>(form.iterations() * 4, 0), std::vector<uint8_t>(28, 0));  // 32 needed
  ASSERT_EQ(tooShort.index(), 1u);
}

TEST(KeptOperandWeighing, TheCountsArePositionsTimesTwoAndNestTwentyNineReturnsAfterOneSixteenBitStep) {
  EnvelopePackets packets(0x400);
  const auto compute = [&](uint64_t k4w0, uint64_t carryLow, uint64_t written = 10, uint64_t lastLevel = 0) {
    const models::DecodedPacket p = packets.make(
        0x01, 1,
        {{LleField::ComputeW0LastRunLevel, lastLevel}, {LleField::ComputeW0LastRun, 0}, {LleField::ComputeInputBytes, 4}, {LleField::ComputeWideWeights, 1}, {LleField::ComputeUnsignedWideWeights, 1}, {LleField::ComputeK4W0, k4w0},
         {LleField::ComputeK4W1, 0}, {LleField::ComputeLimitW0, 4}, {LleField::ComputeK4W7, k4w0}, {LleField::ComputeLimit29, 4},
         {LleField::ComputeKWrapW7, (uint64_t{1} << 13) - 1}, {LleField::ComputeNest29CarryLow, carryLow}, {LleField::ComputeK4W10, written - 1},
         {LleField::ComputeLimitW10, 0}, {LleField::ComputeLimit29Level3, 0}, {LleField::ComputeLimitW10Level3, 0}, {LleField::ComputeLaneGroups, written - 1}});
    return p;
  };
  const models::DecodedPacket good = compute(1, 2);
  EXPECT_TRUE(KeptOperandWeighing::isForm(good.words));
  const auto form = KeptOperandWeighing::fromPacket(good.words);
  ASSERT_EQ(form.index(), 0u) << std::get<std::string>(form);
  EXPECT_EQ(std::get<0>(form).positions, 5u);
  EXPECT_EQ(std::get<0>(form).iterations(), 10u);
  const models::DecodedPacket byteStep = compute(1, 3);  // -1 byte: no 16-bit step
  const auto refused = KeptOperandWeighing::fromPacket(byteStep.words);
  ASSERT_EQ(refused.index(), 1u);
  EXPECT_NE(std::get<std::string>(refused).find("slot-0 carry"), std::string::npos) << std::get<std::string>(refused);
  const models::DecodedPacket k3 = compute(2, 2);
  ASSERT_EQ(KeptOperandWeighing::fromPacket(k3.words).index(), 1u);
  // The last position's K step 1 dropped (the 10-class normalisations' 3 of 4), as the w0 nest's shorter last iteration says
  // (ComputeW0LastRunLevel 1, ComputeW0LastRun 0: "smx"): 9 iterations written. Without it 9 is refused, and so is 8 with it
  // (a whole position's steps), naming the w10 nest.
  const models::DecodedPacket nine = compute(1, 2, 9, 1);
  const auto dropped = KeptOperandWeighing::fromPacket(nine.words);
  ASSERT_EQ(dropped.index(), 0u) << std::get<std::string>(dropped);
  EXPECT_EQ(std::get<0>(dropped).iterations(), 9u);
  const models::DecodedPacket unsaid = compute(1, 2, 9);
  const auto whole = KeptOperandWeighing::fromPacket(unsaid.words);
  ASSERT_EQ(whole.index(), 1u);
  EXPECT_NE(std::get<std::string>(whole).find("the w10 nest counts 9 iterations where the w0 nest walks 10"), std::string::npos)
      << std::get<std::string>(whole);
  const models::DecodedPacket eight = compute(1, 2, 8, 1);
  const auto short8 = KeptOperandWeighing::fromPacket(eight.words);
  ASSERT_EQ(short8.index(), 1u);
  EXPECT_NE(std::get<std::string>(short8).find("the w10 nest counts 8 iterations where the w0 nest walks 9"), std::string::npos)
      << std::get<std::string>(short8);
}

}  // namespace
}  // namespace coralsim::lle::lle_kept_operand_weighing_test

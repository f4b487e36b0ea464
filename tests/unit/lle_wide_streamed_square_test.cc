// The 16-bit streamed product (wide_streamed_square.h, docs/decoding-log.md "trk14b"): the softmax's squaring of the 0x03's
// result. Its shape is read from the packet (positions x K products, ComputeK4W1 + 1 input elements, one each); its units are
// written only where every input element is one value and every stream element one value (then no pairing rule matters),
// every 16-bit slot float32(in x stream) x mult, clamped, rounded half-even. Values no corpus squaring has: 3 positions of
// K = 2 (the corpus: 2 x 2), multiplier 1 / 1000, clamps [0, 40,000].
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "models/lle/lle_fields.h"
#include "models/lle/wide_streamed_square.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_wide_streamed_square_test {
namespace {

std::vector<uint8_t> elements(const std::vector<uint16_t>& values) {
  std::vector<uint8_t> bytes;
  for (const uint16_t v : values) bytes.insert(bytes.end(), {static_cast<uint8_t>(v & 0xff), static_cast<uint8_t>(v >> 8)});
  return bytes;
}

WideStreamedSquare shape(uint64_t positions, uint64_t k) {
  WideStreamedSquare form;
  form.positions = positions;
  form.elements = k;
  return form;
}

TEST(LleWideStreamedSquare, EqualElementsGiveOneResultInEverySixteenBitSlotOfEveryUnit) {
  const WideStreamedSquare form = shape(3, 2);
  ASSERT_EQ(form.products(), 6u);
  // 300 x 250 / 1000 = 75; 301 x 251 / 1000 = 75.551 -> 76; 205 x 10 / 1000 = 2.05 -> 2; 50,000 x 60,000 / 1000 clamped to
  // 40,000; 65,535 x 1 / 1000 = 65.5 -> 66.
  struct Case {
    uint16_t in, weight, want;
  };
  for (const Case c : {Case{300, 250, 75}, Case{301, 251, 76}, Case{205, 10, 2}, Case{50000, 60000, 40000}, Case{65535, 1, 66}}) {
    const auto units = form.unitsWhereAllElementsAreEqual(elements(std::vector<uint16_t>(6, c.in)), elements(std::vector<uint16_t>(6, c.weight)),
                                                          1.0f / 1000.0f, 0.0f, 40000.0f);
    ASSERT_TRUE(std::holds_alternative<std::vector<uint8_t>>(units)) << c.in << " x " << c.weight << ": " << std::get<std::string>(units);
    EXPECT_EQ(std::get<std::vector<uint8_t>>(units), elements(std::vector<uint16_t>(12, c.want))) << c.in << " x " << c.weight;
  }
  // Half-even: 2,500 x 1 / 1000 = 2.5 -> 2, 3,500 / 1000 = 3.5 -> 4 (float32 products).
  const auto half = form.unitsWhereAllElementsAreEqual(elements(std::vector<uint16_t>(6, 2500)), elements(std::vector<uint16_t>(6, 1)), 1.0f / 1000.0f,
                                                       0.0f, 40000.0f);
  ASSERT_TRUE(std::holds_alternative<std::vector<uint8_t>>(half));
  EXPECT_EQ(std::get<std::vector<uint8_t>>(half)[0], std::nearbyint(2500.0f * (1.0f / 1000.0f)));
}

TEST(LleWideStreamedSquare, AnElementThatDiffersIsRefusedNamingIt) {
  const WideStreamedSquare form = shape(2, 2);
  std::vector<uint16_t> in(4, 1000);
  in[3] = 0;  // "t in lane 0 alone": the pairing rule would decide
  const auto units = form.unitsWhereAllElementsAreEqual(elements(in), elements(std::vector<uint16_t>(4, 1000)), 1.0f, 0.0f, 65535.0f);
  ASSERT_TRUE(std::holds_alternative<std::string>(units));
  EXPECT_NE(std::get<std::string>(units).find("input element 3 (0)"), std::string::npos) << std::get<std::string>(units);
  std::vector<uint16_t> stream(4, 7);
  stream[1] = 8;
  const auto other = form.unitsWhereAllElementsAreEqual(elements(std::vector<uint16_t>(4, 1000)), elements(stream), 1.0f, 0.0f, 65535.0f);
  ASSERT_TRUE(std::holds_alternative<std::string>(other));
  EXPECT_NE(std::get<std::string>(other).find("input element 1"), std::string::npos) << std::get<std::string>(other);
}

TEST(LleWideStreamedSquare, TheShapeIsReadFromThePacketAndItsInputCountChecked) {
  EnvelopePackets f(0x100);
  const auto words = [&](uint64_t k4w1) {
    f.make(0x01, 1, {{LleField::ComputeK4W0, 1}, {LleField::ComputeK4W1, k4w1}, {LleField::ComputeLimitW0, 2}, {LleField::ComputeInputAt4, 300},
                     {LleField::ComputeInputBytes, 2}, {LleField::ComputeWideWeights, 1}, {LleField::ComputeUnsignedWideWeights, 1},
                     {LleField::ComputeSixteenBitResults, 1}});
    return f.lastWords();
  };
  const auto good = WideStreamedSquare::fromPacket(words(5));
  ASSERT_TRUE(std::holds_alternative<WideStreamedSquare>(good)) << std::get<std::string>(good);
  EXPECT_TRUE(WideStreamedSquare::isForm(words(5)));
  EXPECT_EQ(std::get<WideStreamedSquare>(good).positions, 3u);
  EXPECT_EQ(std::get<WideStreamedSquare>(good).elements, 2u);
  EXPECT_EQ(std::get<WideStreamedSquare>(good).inputAt, 1200u);
  const auto bad = WideStreamedSquare::fromPacket(words(3));
  ASSERT_TRUE(std::holds_alternative<std::string>(bad));
  EXPECT_NE(std::get<std::string>(bad).find("ComputeK4W1 + 1 = 4 input elements for 3 positions x K = 2"), std::string::npos)
      << std::get<std::string>(bad);
  // A table beside it is another form (the exponentials').
  f.make(0x01, 1, {{LleField::ComputeInputBytes, 2}, {LleField::ComputeWideWeights, 1}, {LleField::ComputeUnsignedWideWeights, 1},
                   {LleField::ComputeSixteenBitResults, 1}, {LleField::ComputeNluApply, 1}});
  EXPECT_FALSE(WideStreamedSquare::isForm(f.lastWords()));
}

}  // namespace
}  // namespace coralsim::lle::lle_wide_streamed_square_test

// models/chip/pass_through_compute.h: a compute packet whose epilogue leaves the accumulator as it is
// (multiplier 1.0, clamps +-inf, zero points 0) is a pass-through; one field off and it is not. The
// bit positions are written out by hand from docs/isa.md §4.2 (word 15 bits 29 / 61 / 93: multiplier,
// upper and lower clamp as float32; word 14 bit 78 and word 16 bit 29: the 9-bit zero points), not
// taken from the table under test.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <limits>
#include <vector>

#include "models/chip/pass_through_compute.h"
#include "models/isa/field.h"
#include "models/isa/opcodes.h"

namespace coralsim::models::pass_through_compute_test {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

std::vector<isa::Word128> computePacket(float mult, float clampHi, float clampLo, uint64_t zpIn, uint64_t zpOut,
                                        uint8_t opcode = 0x01) {
  std::vector<isa::Word128> words(17);
  words[0].setBits(6, 6, opcode);
  isa::writePacketBits(words, 15 * 128 + 29, 32, std::bit_cast<uint32_t>(mult));
  isa::writePacketBits(words, 15 * 128 + 61, 32, std::bit_cast<uint32_t>(clampHi));
  isa::writePacketBits(words, 15 * 128 + 93, 32, std::bit_cast<uint32_t>(clampLo));
  isa::writePacketBits(words, 14 * 128 + 78, 9, zpIn);
  isa::writePacketBits(words, 16 * 128 + 29, 9, zpOut);
  return words;
}

bool passThrough(const std::vector<isa::Word128>& words) {
  return isPassThroughCompute(isa::opcodeOf(words[0]), words);
}

TEST(PassThroughCompute, TheIdentityEpilogueIsAPassThrough) {
  // model_dense's staging computes @ 0x0077 / 0x00de / 0x012c: mult=1.0 clamp_hi=inf clamp_lo=-inf, zero points 0.
  EXPECT_TRUE(passThrough(computePacket(1.0f, kInf, -kInf, 0, 0)));
}

TEST(PassThroughCompute, ALayersEpilogueIsNot) {
  // model_dense's Dense @ 0x0160: a real multiplier, ReLU clamps 0 .. 255, input zero point 128.
  EXPECT_FALSE(passThrough(computePacket(0.00060665136f, 255.0f, 0.0f, 128, 0)));
  // The Dense templates: multiplier 1.0 (the scale in the prefix) but finite clamps.
  EXPECT_FALSE(passThrough(computePacket(1.0f, 126.0f, -129.0f, 127, 129)));
  // One field off the identity each.
  EXPECT_FALSE(passThrough(computePacket(1.0f, 255.0f, -kInf, 0, 0)));
  EXPECT_FALSE(passThrough(computePacket(1.0f, kInf, 0.0f, 0, 0)));
  EXPECT_FALSE(passThrough(computePacket(0.25f, kInf, -kInf, 0, 0))) << "the average pool's 1 / window";
  EXPECT_FALSE(passThrough(computePacket(1.0f, kInf, -kInf, 128, 0)));
  EXPECT_FALSE(passThrough(computePacket(1.0f, kInf, -kInf, 0, 3)));
}

TEST(PassThroughCompute, OnlyThe0x01ComputeIsClassified) {
  EXPECT_FALSE(passThrough(computePacket(1.0f, kInf, -kInf, 0, 0, 0x02)));
  EXPECT_FALSE(passThrough(computePacket(1.0f, kInf, -kInf, 0, 0, 0x14)));
}

}  // namespace
}  // namespace coralsim::models::pass_through_compute_test

// w7 bit 76, ComputeUnsignedWideWeights (docs/decoding-log.md "sum03" §E): declared (the softmax's computes that weigh by
// 16-bit quantities beyond 32,767), not executed -- a compute carrying it is refused naming the field, and the same compute
// without it is not refused for it.
#include <gtest/gtest.h>

#include <string>

#include "models/chip/block_interfaces.h"
#include "models/chip_config.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"
#include "tests/unit/lle_empty_streams.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_unsigned_wide_weights_test {
namespace {

std::string refusalOf(uint64_t unsignedWeights) {
  models::ChipConfig config;
  LleRung rung(config);
  EnvelopePackets f(0x200);
  EmptyStreams streams;
  try {
    rung.beginRun();
    rung.packet(f.make(0x01, 0x20, {{LleField::ComputeOutputBytes, 4}, {LleField::ComputeOut37Flags6, 3}, {LleField::ComputeWideWeights, 1},
                                    {LleField::ComputeUnsignedWideWeights, unsignedWeights}}),
                streams, 0);
  } catch (const models::ChipFault& e) {
    return e.what();
  }
  return "";
}

TEST(LleUnsignedWideWeights, AComputeWithUnsignedSixteenBitWeightsIsRefusedNamingTheField) {
  const std::string set = refusalOf(1);
  EXPECT_NE(set.find("ComputeUnsignedWideWeights (word 7 bit 76) = 1"), std::string::npos) << set;
  const std::string clear = refusalOf(0);
  EXPECT_EQ(clear.find("ComputeUnsignedWideWeights"), std::string::npos) << clear;
}

}  // namespace
}  // namespace coralsim::lle::lle_unsigned_wide_weights_test

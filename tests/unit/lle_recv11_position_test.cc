// The execution-only receive's running position (lle_fields.def Recv11ExecPosition, 0x11 w2[105:90] under w2 bit 106;
// docs/decoding-log.md "w9b122" §C, "recv12" §B): a wait / ordering value read nowhere, so any 16-bit value passes
// the envelope. A receive on tiles 2 and 13 with the envelope's other bits of that form and positions 0, 12,345 and
// -20,000 (the corpus carries -1 ... 2,241; model_conv's -1, 0 ... 9) passes; the position bits are written raw so
// that the test also builds where the field is not declared (main refused 12,345 and -20,000 naming word 2's bits).
// The same bits with w2 bit 106 clear are Recv11ExecWaitRows' neighbour Recv11ExecRewind64, not this field.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"
#include "models/lle/packet_envelope.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle {
namespace {

using models::DecodedPacket;

constexpr uint16_t kTiles = (1u << 2) | (1u << 13);

class Recv11PositionTest : public ::testing::Test {
 protected:
  DecodedPacket receive(int64_t position) {
    DecodedPacket p = packets_.make(0x11, kTiles,
                                    {{LleField::Recv11ExecutionForm, 1}, {LleField::Recv11ExecWideValue, 1}});
    auto& words = packets_.lastWords();
    words[2].setBits(123, 1, 1);  // the envelope row of this form: w2 bits 123, 83, 79 (undecoded)
    words[2].setBits(83, 1, 1);
    words[2].setBits(79, 1, 1);
    words[2].setBits(90, 16, static_cast<uint64_t>(position) & 0xffff);
    return p;
  }

  EnvelopePackets packets_{0x400};
};

TEST_F(Recv11PositionTest, AnyRunningPositionPassesTheEnvelope) {
  for (const int64_t position : {int64_t{0}, int64_t{12345}, int64_t{-20000}}) {
    const DecodedPacket p = receive(position);
    EXPECT_EQ(p.words[2].bits(106, 1), 1u);
    EXPECT_EQ(checkEnvelope(p), "") << "position " << position << ": " << checkEnvelope(p);
  }
}

}  // namespace
}  // namespace coralsim::lle

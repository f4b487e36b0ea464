// The execution-only receive's running position (lle_fields.def Recv11ExecPosition, docs/decoding-log.md "stride2"
// §D): where w2 bit 106 (Recv11ExecWideValue) is set, w2[105:90] is a signed position in the chunk's sequence of
// receives, one sequence with the 0x12's Recv12Position. A wait / ordering value the rung reads nowhere: any value
// passes the envelope in that form, and the bits stay pinned where they are not the field.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"
#include "models/lle/packet_envelope.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_receive_position_test {
namespace {

// An execution-only receive of the loop-nest form (4 rows, step 1) with the running position at w2[105:90].
models::DecodedPacket receiveAt(EnvelopePackets& packets, uint64_t executionForm, uint64_t wideValue, int64_t position) {
  models::DecodedPacket p = packets.make(0x11, 0x0005,
                                         {{LleField::Recv11ExecutionForm, executionForm},
                                          {LleField::Recv11ExecWideValue, wideValue},
                                          {LleField::Recv11ExecFlagB, 1},
                                          {LleField::Recv11ExecFlagBEcho, 1},
                                          {LleField::Recv11ExecInnerLevel, 1},
                                          {LleField::Recv11ExecRun, 3},
                                          {LleField::Recv11ExecStep, 1},
                                          {LleField::Recv11ExecStream, 1111}});
  auto& words = packets.lastWords();
  const LleFieldDef& wrap = fieldDef(LleField::Recv11ExecWrap);
  for (unsigned e = 0; e < wrap.count; ++e) {
    const uint32_t lsb = wrap.lsb + e * wrap.stride;
    words[lsb / 128].setBits(lsb % 128, wrap.width, static_cast<uint64_t>(-3) & ((uint64_t{1} << wrap.width) - 1));
  }
  words[2].setBits(90, 16, static_cast<uint64_t>(position) & 0xffff);  // as a compiler writes it, whatever the table says
  return p;
}

// Positions no corpus receive has (the corpus's span -1 .. 1,601 at these bits) pass in the form with bit 106, as -1 and
// 0 (the golden-exact programs' values) do; the field is read as signed. Where the bits are not the field -- the
// parameter-loading form (Recv11ExecutionForm 0) -- the same bits are refused naming word 2, as before.
TEST(LleReceivePosition, TheExecutionOnlyReceivesRunningPositionTakesAnyValueAndIsPinnedElsewhere) {
  EnvelopePackets packets(0x0400);
  for (const int64_t position : {int64_t{-1}, int64_t{0}, int64_t{12345}, int64_t{31000}, int64_t{-20000}}) {
    const models::DecodedPacket p = receiveAt(packets, 1, 1, position);
    EXPECT_EQ(checkEnvelope(p), "") << "position " << position;
    EXPECT_EQ(readSigned(p.words, LleField::Recv11ExecPosition), position);
    EXPECT_TRUE(fieldPresent(LleField::Recv11ExecPosition, p.words));
  }
  const models::DecodedPacket parameterForm = receiveAt(packets, 0, 1, 12345);
  EXPECT_FALSE(fieldPresent(LleField::Recv11ExecPosition, parameterForm.words));
  const std::string why = checkEnvelope(parameterForm);
  EXPECT_NE(why.find("word 2"), std::string::npos) << why;
}

}  // namespace
}  // namespace coralsim::lle::lle_receive_position_test

#include "models/lle/routed_read_mark.h"

#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

namespace {

constexpr uint8_t kStagingRead = 0x13;

}  // namespace

std::string routedReadMarkProblem(const models::DecodedPacket& packet) {
  if (static_cast<uint8_t>(packet.opcode) != kStagingRead) return "";
  const auto words = packet.words;
  // The marks are fields only in the route-(0, 1) form (lle_relations.def): elsewhere bit 35 is another mark.
  if (!fieldPresent(LleField::Stage13TakenByCompute, words) || !fieldPresent(LleField::Stage13LeavesTile, words)) return "";
  const uint64_t taken = readField(words, LleField::Stage13TakenByCompute);
  const uint64_t leaves = readField(words, LleField::Stage13LeavesTile);
  const std::string marks = "Stage13TakenByCompute (word 4 bit 35) = " + std::to_string(taken) +
                            ", Stage13LeavesTile (word 4 bit 39) = " + std::to_string(leaves);
  if (taken == leaves) {
    return marks + " in a read routed (0, 1): the marks are one-hot in every corpus read of the form (267 bit 35, 611 bit 39); "
                   "this pairing is not decoded";
  }
  if (taken != 0) {
    return marks + ": the read's bytes are the stream of a compute on its tiles (ComputeStreamTag = Stage13Channel " +
           std::to_string(readField(words, LleField::Stage13Channel)) +
           ", the next compute or one waiting for it); how the compute takes a streamed operand is not executed";
  }
  return "";
}

}  // namespace coralsim::lle

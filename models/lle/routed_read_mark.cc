#include "models/lle/routed_read_mark.h"

#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

namespace {

constexpr uint8_t kStagingRead = 0x13;

}  // namespace

namespace {

// The marks are fields only in the route-(0, 1) form (lle_relations.def): elsewhere bit 35 is another mark.
bool carriesTheMarks(const models::DecodedPacket& packet) {
  return static_cast<uint8_t>(packet.opcode) == kStagingRead && fieldPresent(LleField::Stage13TakenByCompute, packet.words) &&
         fieldPresent(LleField::Stage13LeavesTile, packet.words);
}

}  // namespace

namespace {

// The copy marks (bits 36 / 38, "mnv1b"): 0 none, 1 one of them, 2 both.
unsigned copyMarks(const models::DecodedPacket& packet) {
  return static_cast<unsigned>(readField(packet.words, LleField::Stage13TakenByCopy) +
                               readField(packet.words, LleField::Stage13TakenByCopyHigh));
}

}  // namespace

bool isTakenByCompute(const models::DecodedPacket& packet) {
  return carriesTheMarks(packet) && readField(packet.words, LleField::Stage13TakenByCompute) != 0 &&
         readField(packet.words, LleField::Stage13LeavesTile) == 0 && copyMarks(packet) == 0;
}

bool isTakenByCopy(const models::DecodedPacket& packet) {
  return carriesTheMarks(packet) && readField(packet.words, LleField::Stage13TakenByCompute) != 0 &&
         readField(packet.words, LleField::Stage13LeavesTile) == 0 && copyMarks(packet) == 2;
}

std::string routedReadMarkProblem(const models::DecodedPacket& packet, bool computeWaits) {
  if (!carriesTheMarks(packet)) return "";
  const auto words = packet.words;
  const uint64_t taken = readField(words, LleField::Stage13TakenByCompute);
  const uint64_t leaves = readField(words, LleField::Stage13LeavesTile);
  const std::string marks = "Stage13TakenByCompute (word 4 bit 35) = " + std::to_string(taken) +
                            ", Stage13LeavesTile (word 4 bit 39) = " + std::to_string(leaves);
  if (copyMarks(packet) != 0) {
    if (isTakenByCopy(packet)) return "";  // its 0x14 is checked when it comes (read_copy_watch.h)
    return marks + ", Stage13TakenByCopy (word 4 bit 36) = " + std::to_string(readField(words, LleField::Stage13TakenByCopy)) +
           ", Stage13TakenByCopyHigh (word 4 bit 38) = " + std::to_string(readField(words, LleField::Stage13TakenByCopyHigh)) +
           ": the copy marks come only together and beside bit 35 alone in every corpus read of the form (70); this "
           "combination is not decoded";
  }
  if (taken == leaves) {
    return marks + " in a read routed (0, 1): the marks are one-hot in every corpus read of the form (267 bit 35, 611 bit 39); "
                   "this pairing is not decoded";
  }
  if (taken != 0 && !computeWaits) {
    return marks + ": the read's bytes are the stream of a compute on its tiles (ComputeStreamTag = Stage13Channel " +
           std::to_string(readField(words, LleField::Stage13Channel)) +
           "); no compute of one-byte elements issued just before it on its tiles waits for them, and a compute taking "
           "a stream read before it is not executed";
  }
  return "";
}

}  // namespace coralsim::lle

// Where undefined bytes come from (docs/decoding-log.md "convx"): a compute over narrow bytes no packet wrote
// leaves the positions they reach unwritten (conv_undefined_outputs.h) and runs on; the first such packet of
// the run is kept so that an outfeed refused for reading undefined bytes can name where they began.
#include <cstdio>
#include <string>

#include "models/lle/lle_rung.h"
#include "models/scalar/decoded_program.h"

namespace coralsim::lle {

void LleRung::noteUndefinedOutputs(const models::DecodedPacket& packet, unsigned tile, uint64_t positions) {
  if (positions == 0 || !firstUndefinedProducer_.empty()) return;
  char op[8];
  std::snprintf(op, sizeof op, "%02x", static_cast<unsigned>(packet.opcode));
  firstUndefinedProducer_ = std::string("opcode 0x") + op + " at " + models::describePacketLocation(packet.pc, packet.words[0]) +
                            " on tile " + std::to_string(tile) + " (" + std::to_string(positions) +
                            " output positions over input bytes no packet wrote)";
}

std::string LleRung::undefinedOrigin() const {
  if (firstUndefinedProducer_.empty()) return "";
  return "; undefined data was first produced by " + firstUndefinedProducer_;
}

}  // namespace coralsim::lle

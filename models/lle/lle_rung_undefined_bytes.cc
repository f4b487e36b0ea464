// Where undefined bytes come from (docs/decoding-log.md "convx"): a compute over narrow bytes no packet wrote
// leaves the positions they reach unwritten (conv_undefined_outputs.h) and runs on; the first such packet of
// the run is kept so that a refusal for reading undefined bytes can name where they began. A host-bound outfeed
// carries them to the host as undefined ("raw25": a program whose parameters another executable caches computes
// from wide memory this device never received), telling the host which bytes of each output window they are.
#include <cstdio>
#include <string>
#include <vector>

#include "models/lle/lle_rung.h"
#include "models/scalar/decoded_program.h"

namespace coralsim::lle {

void LleRung::noteUndefinedOutputs(const models::DecodedPacket& packet, unsigned tile, uint64_t positions, const char* over) {
  if (positions == 0 || !firstUndefinedProducer_.empty()) return;
  char op[8];
  std::snprintf(op, sizeof op, "%02x", static_cast<unsigned>(packet.opcode));
  firstUndefinedProducer_ = std::string("opcode 0x") + op + " at " + models::describePacketLocation(packet.pc, packet.words[0]) +
                            " on tile " + std::to_string(tile) + " (" + std::to_string(positions) + " output positions over " + over + ")";
}

std::string LleRung::undefinedOrigin() const {
  if (firstUndefinedProducer_.empty()) return "";
  return "; undefined data was first produced by " + firstUndefinedProducer_;
}

void LleRung::queueForHost(const std::vector<uint8_t>& bytes, const std::vector<uint64_t>& undefinedAt) {
  for (const uint64_t k : undefinedAt) outUndefinedAt_.push_back(outQueue_.size() + k);
  outQueue_.insert(outQueue_.end(), bytes.begin(), bytes.end());
}

std::vector<uint32_t> LleRung::undefinedTailBytes(unsigned window) const {
  return window == tailWindow_ ? tailUndefined_ : std::vector<uint32_t>{};
}

}  // namespace coralsim::lle

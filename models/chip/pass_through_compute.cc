#include "models/chip/pass_through_compute.h"

#include <bit>
#include <cstdint>
#include <limits>
#include <string_view>

#include "models/isa/field.h"
#include "models/isa/packet_fields.h"

namespace coralsim::models {
namespace {

// The ComputeEpilogue field `name` of a 0x01 packet (packet_fields.def declares it once).
uint64_t epilogueField(std::span<const isa::Word128> words, std::string_view name) {
  const isa::FieldDef* field = isa::findPacketField(isa::Opcode::TileCompute, name);
  return field == nullptr ? 0 : isa::decodeField(*field, words);
}

float epilogueFloat(std::span<const isa::Word128> words, std::string_view name) {
  return std::bit_cast<float>(static_cast<uint32_t>(epilogueField(words, name)));
}

}  // namespace

bool isPassThroughCompute(isa::Opcode opcode, std::span<const isa::Word128> words) {
  if (opcode != isa::Opcode::TileCompute) return false;
  constexpr float kInf = std::numeric_limits<float>::infinity();
  return epilogueFloat(words, "clamp_hi") == kInf && epilogueFloat(words, "clamp_lo") == -kInf &&
         epilogueFloat(words, "mult") == 1.0f && epilogueField(words, "zp_in") == 0 && epilogueField(words, "zp_out") == 0;
}

}  // namespace coralsim::models

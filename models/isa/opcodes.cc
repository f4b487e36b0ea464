#include "models/isa/opcodes.h"

#include "models/isa/number_text.h"
#include "models/isa/packet_fields.h"

namespace coralsim::isa {

namespace {

constexpr bool everyPacketFitsFieldList() {
  for (const OpcodeInfo& info : kOpcodeTable) {
    size_t fields = 0;
    for (FieldGroup g : info.groups) fields += fieldsOfGroup(g).size();
    if (fields > kMaxPacketFields) return false;
  }
  return true;
}
static_assert(everyPacketFitsFieldList(), "raise kMaxPacketFields");

}  // namespace

std::optional<Opcode> opcodeByMnemonic(std::string_view mnemonic) {
  if (mnemonic.empty()) return std::nullopt;
  for (const OpcodeInfo& info : kOpcodeTable) {
    if (info.known() && info.mnemonic == mnemonic) return static_cast<Opcode>(info.value);
  }
  return std::nullopt;
}

std::string opcodeDisplayName(Opcode op) {
  const OpcodeInfo& info = opcodeInfo(op);
  if (info.known()) return std::string(info.mnemonic);
  return "unknown op " + formatHex(info.value, 2);
}

}  // namespace coralsim::isa

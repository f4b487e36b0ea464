#include "models/lle/receive_kind.h"

namespace coralsim::lle {

namespace {

constexpr uint8_t kExecutionReceive = 0x11;
constexpr uint8_t kWeightStreamReceive = 0x12;

}  // namespace

std::optional<LleField> receiveKindField(uint8_t opcode, std::span<const isa::Word128> words) {
  if (opcode == kExecutionReceive && readField(words, LleField::Recv11ExecutionForm) != 0) return LleField::Recv11ExecKind;
  if (opcode == kWeightStreamReceive) return LleField::Recv12Kind;
  return std::nullopt;
}

std::string receiveKindProblem(uint8_t opcode, std::span<const isa::Word128> words) {
  const std::optional<LleField> field = receiveKindField(opcode, words);
  if (!field) return "";
  const uint64_t kind = readField(words, *field);
  const bool ring = opcode == kWeightStreamReceive;
  // The 0x11's wait-rows form (w2 bit 106 clear) carries 44, and only it (3,355 / 3,355 corpus receives).
  const bool waitRows = !ring && readField(words, LleField::Recv11ExecWideValue) == 0;
  if (waitRows != (kind == kReceiveKindWaitRows)) {
    return fieldText(*field, kind) + (waitRows ? " where Recv11ExecWideValue is 0 (the wait-rows form, which carries 44)"
                                               : " is the wait-rows form's code where Recv11ExecWideValue is 1");
  }
  if (waitRows) return "";
  const bool nest = readField(words, ring ? LleField::Recv12InnerLevel : LleField::Recv11ExecInnerLevel) != 0;
  const bool prefixed = nest && readField(words, ring ? LleField::Recv12PrefixOn : LleField::Recv11PrefixOn) != 0;
  if (kind == kReceiveKindBlockPrefixes) {
    // Block prefixes come in a receive that arms no prefixed weight stream ("nin14": 204 / 204).
    if (prefixed) return fieldText(*field, kind) + " (block prefixes for the write after it) in a receive that arms a prefixed weight stream";
    return "";
  }
  if (kind != kReceiveKindStream) {
    return fieldText(*field, kind) + ": the receive kinds decoded are 4 (a stream), 44 (rows waited for), 48 (block prefixes)";
  }
  // A 0x12 without its nest carries only block prefixes in the corpus (48 / 48); as a stream it is not decoded.
  if (ring && !nest) return fieldText(*field, kind) + " (a stream) in a 0x12 without its loop nest (Recv12InnerLevel 0)";
  return "";
}

bool receiveCarriesBlockPrefixes(uint8_t opcode, std::span<const isa::Word128> words) {
  const std::optional<LleField> field = receiveKindField(opcode, words);
  return field && readField(words, *field) == kReceiveKindBlockPrefixes;
}

}  // namespace coralsim::lle

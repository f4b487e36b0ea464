#include "models/lle/stream_prefix_forward.h"

#include <cstdint>

#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

std::string streamPrefixForwardProblem(std::span<const isa::Word128> words) {
  const LleFieldDef& mark = fieldDef(LleField::Stage14StreamPrefixForward);
  const LleFieldDef& wrap = fieldDef(LleField::Stage14StreamPrefixWrap);
  const uint32_t lastBit = wrap.lsb + (wrap.count - 1) * wrap.stride + wrap.width - 1;
  if (words.size() <= lastBit / 128 || words.size() <= (mark.lsb + mark.count) / 128) return "";
  if (!fieldPresent(LleField::Stage14StreamPrefixForward, words)) return "";  // the partner copy's bits there
  for (unsigned i = 0; i < mark.count; ++i) {
    const uint64_t marked = readField(words, LleField::Stage14StreamPrefixForward, i);
    const int64_t step = readSigned(words, LleField::Stage14StreamPrefixWrap, i);
    if (marked == (step == 1 ? 1u : 0u)) continue;
    return fieldText(LleField::Stage14StreamPrefixForward, marked, i) + " with " +
           fieldText(LleField::Stage14StreamPrefixWrap, static_cast<uint64_t>(step) & ((uint64_t{1} << wrap.width) - 1), i) +
           " (" + std::to_string(step) + "): the mark says level " + std::to_string(i + 1) + " of the staged prefix's loop " +
           (marked != 0 ? "moves one unit on" : "returns") + ", its wrap says otherwise (every corpus packet with these bits "
           "has the mark set exactly where the wrap is +1)";
  }
  return "";
}

}  // namespace coralsim::lle

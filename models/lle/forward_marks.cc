#include "models/lle/forward_marks.h"

#include <optional>

#include "models/lle/field_relations.h"

namespace coralsim::lle {
namespace {

struct ForwardMarks {
  LleField mark;                    // w1[85:83], one bit an outer level
  LleField wrap;                    // the wraps it marks
  std::optional<LleField> repeats;  // the nest's outer limits, where the packet is a receive (its +1 replaces -run)
  const char* loop;                 // how a refusal names the loop
};

constexpr ForwardMarks kForms[] = {
    {LleField::Stage14StreamPrefixForward, LleField::Stage14StreamPrefixWrap, std::nullopt, "the staged prefix's loop"},
    {LleField::Recv11ExecForward, LleField::Recv11ExecWrap, LleField::Recv11ExecRepeat, "the receive's nest"},
    {LleField::Recv12Forward, LleField::Recv12Wrap, LleField::Recv12Repeat, "the weight stream's nest"},
};

// Whether the packet's words reach both fields and carry the mark's form.
bool present(const ForwardMarks& form, std::span<const isa::Word128> words) {
  const LleFieldDef& wrap = fieldDef(form.wrap);
  const LleFieldDef& mark = fieldDef(form.mark);
  const uint32_t lastWrapBit = wrap.lsb + (wrap.count - 1) * wrap.stride + wrap.width - 1;
  if (words.size() <= lastWrapBit / 128 || words.size() <= (mark.lsb + mark.count) / 128) return false;
  return fieldPresent(form.mark, words);  // the other forms' bits there are not marks
}

std::string disagreement(const ForwardMarks& form, unsigned i, std::span<const isa::Word128> words) {
  const LleFieldDef& wrap = fieldDef(form.wrap);
  const uint64_t marked = readField(words, form.mark, i);
  const int64_t step = readSigned(words, form.wrap, i);
  if (marked == (step == 1 ? 1u : 0u)) return "";
  return fieldText(form.mark, marked, i) + " with " +
         fieldText(form.wrap, static_cast<uint64_t>(step) & ((uint64_t{1} << wrap.width) - 1), i) + " (" +
         std::to_string(step) + "): the mark says level " + std::to_string(i + 1) + " of " + form.loop + " " +
         (marked != 0 ? "moves one unit on" : "returns") +
         ", its wrap says otherwise (every corpus packet with these bits has the mark set exactly where the wrap is +1)";
}

}  // namespace

std::string forwardMarksProblem(uint8_t opcode, std::span<const isa::Word128> words) {
  for (const ForwardMarks& form : kForms) {
    if (fieldDef(form.mark).opcode != opcode || !present(form, words)) continue;
    for (unsigned i = 0; i < fieldDef(form.mark).count; ++i) {
      if (std::string problem = disagreement(form, i, words); !problem.empty()) return problem;
      if (form.repeats && readField(words, form.mark, i) != 0 && readField(words, *form.repeats, i) != 0) {
        return fieldText(form.mark, 1, i) + " where " + fieldText(*form.repeats, readField(words, *form.repeats, i), i) +
               " counts: a forward step applied inside " + form.loop +
               " is not decoded (every marked corpus receive has its marked level idle)";
      }
    }
  }
  return "";
}

bool isForwardMarkedWrap(LleField wrap, unsigned element, std::span<const isa::Word128> words) {
  for (const ForwardMarks& form : kForms) {
    if (form.wrap != wrap || !form.repeats || !present(form, words)) continue;
    return readField(words, form.mark, element) != 0;
  }
  return false;
}

}  // namespace coralsim::lle

#include "models/lle/w10_level0_once.h"

#include <cstdint>

#include "models/lle/lle_fields.h"

namespace coralsim::lle {

std::string w10Level0OnceProblem(std::span<const isa::Word128> words) {
  const LleFieldDef& mark = fieldDef(LleField::ComputeW10Level0Once);
  if (words.size() <= fieldDef(LleField::ComputeK4W10).lsb / 128 || words.size() <= mark.lsb / 128) return "";
  const uint64_t once = readField(words, LleField::ComputeW10Level0Once);
  const uint64_t limit = readField(words, LleField::ComputeK4W10);
  if (once == (limit == 0 ? 1u : 0u)) return "";
  return "ComputeW10Level0Once (word 9 bit 122) = " + std::to_string(once) + " with ComputeK4W10 (word 10 bits 22:9) = " +
         std::to_string(limit) + ": the mark says the w10 nest's level 0 " + (once != 0 ? "runs once" : "counts") +
         ", its limit says otherwise (every corpus compute has the mark set exactly where the limit is 0)";
}

}  // namespace coralsim::lle

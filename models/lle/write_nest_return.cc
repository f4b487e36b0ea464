#include "models/lle/write_nest_return.h"

#include <cstdint>

#include "models/lle/lle_fields.h"
#include "models/lle/write_nest.h"

namespace coralsim::lle {

std::string writeNestReturnProblem(std::span<const isa::Word128> words) {
  const WriteNest nest = WriteNest::fromPacket(words);
  const int64_t back = -nest.lastUnit();
  const LleFieldDef& field = fieldDef(LleField::Stage14WrapC);
  const uint64_t mask = (uint64_t{1} << field.width) - 1;
  const int64_t value = readSigned(words, LleField::Stage14WrapC);
  if (((static_cast<uint64_t>(value) - static_cast<uint64_t>(back)) & mask) == 0) return "";
  std::string levels;
  for (unsigned i = 0; i < WriteNest::kLevels; ++i) {
    if (nest.limits[i] == 0) continue;
    levels += (levels.empty() ? "" : ", ") + std::string("level ") + std::to_string(i) + " limit " +
              std::to_string(nest.limits[i]) + " stride " + std::to_string(nest.strides[i]);
  }
  return "Stage14WrapC (word 3 bits 79:64) = " + std::to_string(value) + " is not minus the write nest's last unit, " +
         std::to_string(back) + " (Stage14Groups, Stage14OuterLimit, carries Stage14WrapA/B/D/E: " +
         (levels.empty() ? "no level counts" : levels) + "): a return that does not come back to the nest's first unit is not decoded";
}

}  // namespace coralsim::lle

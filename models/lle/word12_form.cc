#include "models/lle/word12_form.h"

#include <cstdint>

#include "models/lle/lle_fields.h"

namespace coralsim::lle {

namespace {

constexpr unsigned kWord = 12;

}  // namespace

std::string word12FormProblem(std::span<const isa::Word128> words) {
  if (words.size() <= kWord) return "";
  const uint64_t code = readField(words, LleField::ComputeCodeW12);
  if (code != 0 && (code & 1) == 0) {
    return "ComputeCodeW12 (word 12 bits 31:27) = " + std::to_string(code) +
           ": an even code other than 0 (every corpus compute carries 0 or 2M + 1: bit 27 marks the code written)";
  }
  const uint64_t on = readField(words, LleField::ComputeImagePositionsOn);
  const uint64_t again = readField(words, LleField::ComputeImagePositionsOnAgain);
  if (on != again) {
    return "ComputeImagePositionsOn (word 12 bit 82) = " + std::to_string(on) + " and ComputeImagePositionsOnAgain (word 12 bit 45) = " +
           std::to_string(again) + ": one flag written twice, equal in every corpus compute";
  }
  if (on != 0 && readField(words, LleField::ComputeImageRowBytes) == 0) {
    return "ComputeImagePositionsOn (word 12 bit 82) = 1 with ComputeImageRowBytes (word 12 bits 81:64) = 0: the flag without "
           "the positions it marks is not decoded";
  }
  if (on == 0 && (readField(words, LleField::ComputeImageRowBytes) != 0 || readField(words, LleField::ComputeImageMark) != 0)) {
    return "ComputeImagePositionsOn (word 12 bit 82) = 0 with ComputeImageRowBytes / ComputeImageMark (word 12 bits 81:48) = " +
           std::to_string(readField(words, LleField::ComputeImageRowBytes)) + " / " +
           std::to_string(readField(words, LleField::ComputeImageMark)) + ": positions without their flag are not decoded";
  }
  return "";
}

}  // namespace coralsim::lle

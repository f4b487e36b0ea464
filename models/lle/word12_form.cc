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
  // The second code w12[35:32] ("trkfc" §A): 0 or 2N + 1, bit 32 its written mark. Bit 35 (N's bit 2) is no field, so it
  // is read here; the envelope no longer pins it together with bit 32.
  const uint64_t highN = words[kWord].bits(33, 3);
  if (highN != 0 && readField(words, LleField::ComputeCodeW12HighMark) == 0) {
    return "ComputeCodeW12HighMark (word 12 bit 32) = 0 with w12[35:33] = " + std::to_string(highN) +
           ": an even second code other than 0 (every corpus compute carries 0 or 2N + 1 in w12[35:32]: bit 32 marks it written)";
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

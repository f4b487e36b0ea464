#include "models/isa/field.h"

namespace coralsim::isa {

uint64_t readPacketBits(std::span<const Word128> words, uint32_t lsb, unsigned width) {
  const size_t word = lsb / 128;
  const unsigned bit = lsb % 128;
  if (word >= words.size()) return 0;
  const unsigned inFirst = 128 - bit;
  if (width <= inFirst) return words[word].bits(bit, width);
  const uint64_t low = words[word].bits(bit, inFirst);
  const uint64_t high = word + 1 < words.size() ? words[word + 1].bits(0, width - inFirst) : 0;
  return low | (high << inFirst);
}

void writePacketBits(std::span<Word128> words, uint32_t lsb, unsigned width, uint64_t value) {
  const size_t word = lsb / 128;
  const unsigned bit = lsb % 128;
  if (word >= words.size()) return;
  const unsigned inFirst = 128 - bit;
  if (width <= inFirst) {
    words[word].setBits(bit, width, value);
    return;
  }
  words[word].setBits(bit, inFirst, value);
  if (word + 1 < words.size()) words[word + 1].setBits(0, width - inFirst, value >> inFirst);
}

}  // namespace coralsim::isa

// Linking: 32-bit immediates at arbitrary bit offsets receive address halves, nothing else changes.
// Expected words are computed with 128-bit integer arithmetic, independently of the bit loop under
// test.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "driver/model/linker.h"

namespace coralsim::driver::driver_linker_test {
namespace {

__extension__ typedef unsigned __int128 Word;  // one 16-byte instruction word, little-endian

Word loadWord(const std::vector<uint8_t>& bytes, size_t word) {
  Word w = 0;
  std::memcpy(&w, bytes.data() + word * 16, 16);
  return w;
}

std::vector<uint8_t> pattern(size_t n) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(0x5c ^ (i * 29));
  return v;
}

FieldOffset at(int32_t bit, BufferKind kind, AddressHalf half, const std::string& name = "") {
  return FieldOffset{BufferRef{kind, 0, name, half}, bit};
}

TEST(Linker, BitFieldRoundTripsAtEveryAlignment) {
  for (int64_t bit = 0; bit <= 64; ++bit) {
    auto bytes = pattern(16);
    const Word before = loadWord(bytes, 0);
    writeBitField32(bytes, bit, 0xDEADBEEF);
    EXPECT_EQ(readBitField32(bytes, bit), 0xDEADBEEFu);
    const Word mask = Word{0xFFFFFFFFu} << bit;
    EXPECT_TRUE((loadWord(bytes, 0) & ~mask) == (before & ~mask)) << "bit " << bit;
    EXPECT_TRUE(((loadWord(bytes, 0) & mask) >> bit) == Word{0xDEADBEEFu}) << "bit " << bit;
  }
}

TEST(Linker, PatchesLowAndHighHalvesOfNamedBuffers) {
  auto bytes = pattern(64);
  const auto original = bytes;
  const std::vector<FieldOffset> offsets = {
      at(70, BufferKind::Parameter, AddressHalf::Lower32),
      at(128 + 70, BufferKind::Parameter, AddressHalf::Upper32),
      at(256 + 70, BufferKind::Input, AddressHalf::Lower32, "in:0"),
      at(384 + 70, BufferKind::Output, AddressHalf::Upper32, "out:0"),
  };
  BaseAddresses addresses;
  addresses.set(BufferKind::Parameter, 0x1122334455667788ULL)
      .set(BufferKind::Input, "in:0", 0x0000000100000200ULL)
      .set(BufferKind::Output, 0xAAAAAAAAAAAAAAAAULL)              // default, overridden below
      .set(BufferKind::Output, "out:0", 0x9900000012345678ULL);
  linkBitstream(bytes, offsets, addresses);

  const uint32_t expected[] = {0x55667788u, 0x11223344u, 0x00000200u, 0x99000000u};
  const Word field = Word{0xFFFFFFFFu} << 70;
  for (size_t w = 0; w < 4; ++w) {
    const Word got = loadWord(bytes, w);
    const Word want = (loadWord(original, w) & ~field) | (Word{expected[w]} << 70);
    EXPECT_TRUE(got == want) << "word " << w;
  }
}

TEST(Linker, MissingAddressMetaOrRoomIsAnError) {
  auto bytes = pattern(32);
  BaseAddresses none;
  try {
    linkBitstream(bytes, std::vector<FieldOffset>{at(70, BufferKind::Input, AddressHalf::Lower32, "x")}, none);
    FAIL() << "expected LinkError";
  } catch (const LinkError& e) {
    EXPECT_NE(std::string(e.what()).find("field offset 0 (bit 70): no base address for IN 'x'"), std::string::npos);
  }
  BaseAddresses scratch;
  scratch.set(BufferKind::Scratch, 1);
  EXPECT_THROW(linkBitstream(bytes, std::vector<FieldOffset>{FieldOffset{std::nullopt, 70}}, scratch), LinkError);
  EXPECT_THROW(linkBitstream(bytes, std::vector<FieldOffset>{at(256 - 31, BufferKind::Scratch, AddressHalf::Lower32)},
                             scratch),
               LinkError);
  EXPECT_THROW(linkBitstream(bytes, std::vector<FieldOffset>{at(-1, BufferKind::Scratch, AddressHalf::Lower32)}, scratch),
               LinkError);
  EXPECT_NO_THROW(
      linkBitstream(bytes, std::vector<FieldOffset>{at(256 - 32, BufferKind::Scratch, AddressHalf::Lower32)}, scratch));
  EXPECT_THROW(readBitField32(std::vector<uint8_t>(3), 0), LinkError);
}

TEST(Linker, LinkedCopyLeavesTheChunkUntouched) {
  InstructionBitstream chunk{pattern(16), {at(70, BufferKind::Scratch, AddressHalf::Lower32)}};
  BaseAddresses a;
  a.set(BufferKind::Scratch, 0xCAFEF00D);
  const auto linked = linkedCopy(chunk, a);
  EXPECT_EQ(readBitField32(linked, 70), 0xCAFEF00Du);
  EXPECT_EQ(chunk.bytes, pattern(16));
}

}  // namespace
}  // namespace coralsim::driver::driver_linker_test

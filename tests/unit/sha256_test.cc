// SHA-256 against the FIPS 180-4 example digests (published values, not ours) and digests from an
// independent implementation.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "traces/sha256.h"

namespace coralsim::traces::sha256_test {
namespace {

std::string hexOf(std::string_view text) {
  return Sha256::hex(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

TEST(Sha256, NistShortMessages) {
  EXPECT_EQ(hexOf(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(hexOf("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(hexOf("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(hexOf("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
                  "mnopqrstnopqrstu"),
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

TEST(Sha256, OneMillionAs) {
  const std::string a(1'000'000, 'a');
  EXPECT_EQ(hexOf(a), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, PaddingBoundaries) {
  // 55, 56 and 64 bytes straddle the one-block / two-block padding boundary. Digests from an
  // independent implementation (Python's hashlib).
  EXPECT_EQ(hexOf(std::string(55, 'a')), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
  EXPECT_EQ(hexOf(std::string(56, 'a')), "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
  EXPECT_EQ(hexOf(std::string(64, 'a')), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

TEST(Sha256, StreamingInAnySplitEqualsOneShot) {
  std::vector<uint8_t> data(1000);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 131 + 7);
  const auto whole = Sha256::digest(data);
  for (size_t step : {1u, 3u, 63u, 64u, 65u, 999u}) {
    Sha256 h;
    for (size_t pos = 0; pos < data.size(); pos += step) {
      h.update(std::span<const uint8_t>(data).subspan(pos, std::min(step, data.size() - pos)));
    }
    EXPECT_EQ(h.finish(), whole) << "step " << step;
  }
}

TEST(Sha256, FinishTwiceIsAnError) {
  Sha256 h;
  (void)h.finish();
  EXPECT_THROW((void)h.finish(), std::logic_error);
}

}  // namespace
}  // namespace coralsim::traces::sha256_test

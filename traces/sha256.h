// SHA-256 (FIPS 180-4), written for coralsim: run results identify output tensors by digest so two
// runs (or a simulator run and a hardware capture) compare without shipping the bytes around.
// Streaming: update() any number of times, then finish() once.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace coralsim::traces {

class Sha256 {
 public:
  using Digest = std::array<uint8_t, 32>;

  Sha256();
  Sha256& update(std::span<const uint8_t> bytes);
  Sha256& update(std::string_view text);
  // Pads, processes the last block and returns the digest. The object must not be reused after.
  Digest finish();

  // One-shot helpers.
  static Digest digest(std::span<const uint8_t> bytes);
  static std::string hex(std::span<const uint8_t> bytes);  // 64 lowercase hex digits
  static std::string toHex(const Digest& digest);

 private:
  void processBlock(const uint8_t* block);

  std::array<uint32_t, 8> state_;
  std::array<uint8_t, 64> buffer_{};
  size_t buffered_ = 0;
  uint64_t totalBytes_ = 0;
  bool finished_ = false;
};

}  // namespace coralsim::traces

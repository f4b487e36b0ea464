#include "traces/sha256.h"

#include <cstring>
#include <stdexcept>

namespace coralsim::traces {
namespace {

// FIPS 180-4 §4.2.2: the first 32 bits of the fractional parts of the cube roots of the first 64
// primes.
constexpr std::array<uint32_t, 64> kRoundConstants = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

// FIPS 180-4 §5.3.3: the first 32 bits of the fractional parts of the square roots of the first
// eight primes.
constexpr std::array<uint32_t, 8> kInitialHash = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                                  0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

constexpr uint32_t rotr(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }
constexpr uint32_t ch(uint32_t x, uint32_t y, uint32_t z) { return (x & y) ^ (~x & z); }
constexpr uint32_t maj(uint32_t x, uint32_t y, uint32_t z) { return (x & y) ^ (x & z) ^ (y & z); }
constexpr uint32_t bigSigma0(uint32_t x) { return rotr(x, 2) ^ rotr(x, 13) ^ rotr(x, 22); }
constexpr uint32_t bigSigma1(uint32_t x) { return rotr(x, 6) ^ rotr(x, 11) ^ rotr(x, 25); }
constexpr uint32_t smallSigma0(uint32_t x) { return rotr(x, 7) ^ rotr(x, 18) ^ (x >> 3); }
constexpr uint32_t smallSigma1(uint32_t x) { return rotr(x, 17) ^ rotr(x, 19) ^ (x >> 10); }

}  // namespace

Sha256::Sha256() : state_(kInitialHash) {}

void Sha256::processBlock(const uint8_t* block) {
  // Message schedule (§6.2.2 step 1): big-endian words.
  std::array<uint32_t, 64> w{};
  for (size_t t = 0; t < 16; ++t) {
    w[t] = (uint32_t{block[4 * t]} << 24) | (uint32_t{block[4 * t + 1]} << 16) |
           (uint32_t{block[4 * t + 2]} << 8) | uint32_t{block[4 * t + 3]};
  }
  for (size_t t = 16; t < 64; ++t) {
    w[t] = smallSigma1(w[t - 2]) + w[t - 7] + smallSigma0(w[t - 15]) + w[t - 16];
  }
  uint32_t a = state_[0], b = state_[1], c = state_[2], d = state_[3];
  uint32_t e = state_[4], f = state_[5], g = state_[6], h = state_[7];
  for (size_t t = 0; t < 64; ++t) {
    const uint32_t t1 = h + bigSigma1(e) + ch(e, f, g) + kRoundConstants[t] + w[t];
    const uint32_t t2 = bigSigma0(a) + maj(a, b, c);
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  state_[0] += a;
  state_[1] += b;
  state_[2] += c;
  state_[3] += d;
  state_[4] += e;
  state_[5] += f;
  state_[6] += g;
  state_[7] += h;
}

Sha256& Sha256::update(std::span<const uint8_t> bytes) {
  if (finished_) throw std::logic_error("Sha256::update after finish");
  totalBytes_ += bytes.size();
  size_t pos = 0;
  if (buffered_ > 0) {
    const size_t take = std::min(bytes.size(), buffer_.size() - buffered_);
    std::memcpy(buffer_.data() + buffered_, bytes.data(), take);
    buffered_ += take;
    pos = take;
    if (buffered_ < buffer_.size()) return *this;
    processBlock(buffer_.data());
    buffered_ = 0;
  }
  for (; pos + 64 <= bytes.size(); pos += 64) processBlock(bytes.data() + pos);
  if (pos < bytes.size()) {
    std::memcpy(buffer_.data(), bytes.data() + pos, bytes.size() - pos);
    buffered_ = bytes.size() - pos;
  }
  return *this;
}

Sha256& Sha256::update(std::string_view text) {
  return update(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

Sha256::Digest Sha256::finish() {
  if (finished_) throw std::logic_error("Sha256::finish called twice");
  // §5.1.1: append 0x80, zeros up to 56 mod 64, then the message length in bits (big-endian).
  const uint64_t bitLength = totalBytes_ * 8;
  std::array<uint8_t, 72> tail{};
  tail[0] = 0x80;
  const size_t padZeros = (buffered_ < 56) ? (56 - buffered_ - 1) : (64 + 56 - buffered_ - 1);
  size_t n = 1 + padZeros;
  for (int i = 7; i >= 0; --i) tail[n++] = static_cast<uint8_t>(bitLength >> (8 * i));
  const uint64_t savedTotal = totalBytes_;
  update(std::span<const uint8_t>(tail.data(), n));
  totalBytes_ = savedTotal;
  finished_ = true;
  Digest out{};
  for (size_t i = 0; i < 8; ++i) {
    out[4 * i] = static_cast<uint8_t>(state_[i] >> 24);
    out[4 * i + 1] = static_cast<uint8_t>(state_[i] >> 16);
    out[4 * i + 2] = static_cast<uint8_t>(state_[i] >> 8);
    out[4 * i + 3] = static_cast<uint8_t>(state_[i]);
  }
  return out;
}

Sha256::Digest Sha256::digest(std::span<const uint8_t> bytes) { return Sha256().update(bytes).finish(); }

std::string Sha256::toHex(const Digest& digest) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  s.reserve(64);
  for (uint8_t b : digest) {
    s.push_back(kDigits[b >> 4]);
    s.push_back(kDigits[b & 0xF]);
  }
  return s;
}

std::string Sha256::hex(std::span<const uint8_t> bytes) { return toHex(digest(bytes)); }

}  // namespace coralsim::traces

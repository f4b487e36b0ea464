// Internal helpers of the readers: verify a flatbuffer before touching it, and copy verified
// vectors/strings into owned C++ values. Not part of the public driver API.
#pragma once

#include <flatbuffers/flatbuffers.h>

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "driver/model/load_error.h"

namespace coralsim::driver::detail {

// A private, suitably aligned copy of a (possibly nested) flatbuffer. Nested buffers sit at
// arbitrary offsets of their parent; the verifier checks alignment relative to the buffer start
// and the accessors read scalars in place, so each one gets its own heap block.
class OwnedBuffer {
 public:
  explicit OwnedBuffer(std::span<const uint8_t> bytes) : bytes_(bytes.begin(), bytes.end()) {}
  [[nodiscard]] const uint8_t* data() const { return bytes_.data(); }
  [[nodiscard]] size_t size() const { return bytes_.size(); }

 private:
  std::vector<uint8_t> bytes_;
};

// Runs the FlatBuffers verifier over `buffer` with root type Table (and file identifier, when
// given) and returns the root. Throws LoadError "<where>: <what>: ..." on any failure.
template <typename Table>
const Table* verifiedRoot(const OwnedBuffer& buffer, const char* identifier, const Where& where,
                          std::string_view what) {
  // Smallest possible flatbuffer: root offset, vtable (4 bytes) and table (4 bytes).
  if (buffer.size() < 12) {
    where.fail(std::string(what) + " of " + std::to_string(buffer.size()) + " bytes is too short to be a flatbuffer");
  }
  // The verifier asserts on buffers it cannot address; refuse them with a message instead.
  if (buffer.size() >= FLATBUFFERS_MAX_BUFFER_SIZE) {
    where.fail(std::string(what) + " of " + std::to_string(buffer.size()) + " bytes is too large");
  }
  if (identifier && !flatbuffers::BufferHasIdentifier(buffer.data(), identifier)) {
    where.fail(std::string(what) + ": missing file identifier \"" + identifier + "\"");
  }
  flatbuffers::Verifier verifier(buffer.data(), buffer.size());
  if (!verifier.VerifyBuffer<Table>(identifier)) {
    where.fail(std::string(what) + ": flatbuffer verification failed (an offset, size or alignment in the " +
               std::string(what) + " tree is out of bounds)");
  }
  return flatbuffers::GetRoot<Table>(buffer.data());
}

// Scalar vectors are copied bytewise: the 2.0.8 verifier checks only the 4-byte alignment of a
// vector's length, so the elements of an 8-byte vector in a hostile file may be misaligned for a
// typed load. (FlatBuffers data is little-endian, like every host coralsim builds on.)
template <typename T>
std::vector<T> copyVector(const flatbuffers::Vector<T>* v) {
  static_assert(std::is_arithmetic_v<T>, "copyVector copies scalar vectors");
  static_assert(FLATBUFFERS_LITTLEENDIAN, "bytewise copies assume a little-endian host");
  if (!v) return {};
  std::vector<T> out(v->size());
  if (!out.empty()) std::memcpy(out.data(), v->Data(), out.size() * sizeof(T));
  return out;
}

inline std::vector<uint8_t> copyBytes(const flatbuffers::Vector<uint8_t>* v) {
  if (!v) return {};
  return std::vector<uint8_t>(v->data(), v->data() + v->size());
}

inline std::string copyString(const flatbuffers::String* s) {
  if (!s) return {};
  return std::string(s->c_str(), s->size());
}

inline std::span<const uint8_t> byteSpan(const flatbuffers::Vector<uint8_t>* v) {
  if (!v) return {};
  return {v->data(), v->size()};
}

}  // namespace coralsim::driver::detail

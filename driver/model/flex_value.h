// A FlexBuffer (the encoding of a TFLite custom op's custom_options) decoded into an owned tree.
// Strings and keys keep their text; blobs keep only their size and where they start, because the
// blobs of an edgetpu-custom-op are the (large) DarwiNN packages, which are read separately.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "driver/model/load_error.h"

namespace coralsim::driver {

struct FlexValue {
  enum class Type { Null, Int, UInt, Float, Bool, Key, String, Blob, Vector, Map, Unsupported };

  Type type = Type::Null;
  int64_t intValue = 0;    // Int
  uint64_t uintValue = 0;  // UInt
  double floatValue = 0;   // Float
  bool boolValue = false;  // Bool
  std::string text;        // Key, String
  uint64_t byteSize = 0;   // String, Blob: payload bytes
  uint64_t offset = 0;     // String, Blob: where the payload starts in the FlexBuffer
  std::vector<FlexValue> elements;  // Vector elements, Map values
  std::vector<std::string> keys;    // Map keys, in the same order as `elements`
  int rawType = 0;                  // the FlexBuffer type number (for Unsupported)

  // Map lookup; nullptr when this is not a map or has no such key.
  [[nodiscard]] const FlexValue* find(std::string_view key) const;
};

// Verifies `bytes` as a FlexBuffer (flexbuffers::VerifyBuffer) and decodes it. Throws LoadError
// naming `where` when the buffer is malformed or unreasonably large when expanded (shared
// sub-vectors are expanded; the expansion is capped so hostile input cannot explode).
FlexValue decodeFlexBuffer(std::span<const uint8_t> bytes, const Where& where);

}  // namespace coralsim::driver

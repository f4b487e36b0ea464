#include "driver/model/flex_value.h"

#include <flatbuffers/flexbuffers.h>

#include <limits>

namespace coralsim::driver {
namespace {

// The verifier accepts DAGs (a vector may reference the same sub-vector many times); expanding
// one into a tree can be exponential, so the decoder stops after this many values. Real
// custom_options hold a dozen.
constexpr size_t kMaxDecodedValues = 1 << 16;
// The verifier (with its reuse tracker) accepts a reference to an already verified value, which
// includes a container that contains itself (offset 0); nesting deeper than this is refused.
constexpr int kMaxDepth = 64;

class Decoder {
 public:
  Decoder(const uint8_t* base, const Where& where) : base_(base), where_(where) {}

  FlexValue decode(const flexbuffers::Reference& ref, int depth = 0) {
    if (depth > kMaxDepth) where_.fail("FlexBuffer nests deeper than " + std::to_string(kMaxDepth) + " levels");
    if (++decoded_ > kMaxDecodedValues) {
      where_.fail("FlexBuffer expands to more than " + std::to_string(kMaxDecodedValues) + " values");
    }
    FlexValue v;
    v.rawType = static_cast<int>(ref.GetType());
    switch (ref.GetType()) {
      case flexbuffers::FBT_NULL:
        v.type = FlexValue::Type::Null;
        break;
      case flexbuffers::FBT_INT:
      case flexbuffers::FBT_INDIRECT_INT:
        v.type = FlexValue::Type::Int;
        v.intValue = ref.AsInt64();
        break;
      case flexbuffers::FBT_UINT:
      case flexbuffers::FBT_INDIRECT_UINT:
        v.type = FlexValue::Type::UInt;
        v.uintValue = ref.AsUInt64();
        break;
      case flexbuffers::FBT_FLOAT:
      case flexbuffers::FBT_INDIRECT_FLOAT:
        v.type = FlexValue::Type::Float;
        v.floatValue = ref.AsDouble();
        break;
      case flexbuffers::FBT_BOOL:
        v.type = FlexValue::Type::Bool;
        v.boolValue = ref.AsBool();
        break;
      case flexbuffers::FBT_KEY:
        v.type = FlexValue::Type::Key;
        v.text = ref.AsKey();
        break;
      case flexbuffers::FBT_STRING: {
        const auto s = ref.AsString();
        v.type = FlexValue::Type::String;
        v.text.assign(s.c_str(), s.length());
        v.byteSize = s.length();
        v.offset = static_cast<uint64_t>(reinterpret_cast<const uint8_t*>(s.c_str()) - base_);
        break;
      }
      case flexbuffers::FBT_BLOB: {
        const auto b = ref.AsBlob();
        v.type = FlexValue::Type::Blob;
        v.byteSize = b.size();
        v.offset = static_cast<uint64_t>(b.data() - base_);
        break;
      }
      case flexbuffers::FBT_MAP: {
        const auto m = ref.AsMap();
        const auto keys = m.Keys();
        const auto values = m.Values();
        v.type = FlexValue::Type::Map;
        // Keys and values are two vectors with their own lengths; only equal lengths make a map.
        if (keys.size() != values.size()) {
          where_.fail("FlexBuffer map has " + std::to_string(keys.size()) + " keys for " +
                      std::to_string(values.size()) + " values");
        }
        for (size_t i = 0; i < values.size(); ++i) {
          v.keys.emplace_back(keys[i].AsKey());
          v.elements.push_back(decode(values[i], depth + 1));
        }
        break;
      }
      case flexbuffers::FBT_VECTOR: {
        const auto vec = ref.AsVector();
        v.type = FlexValue::Type::Vector;
        for (size_t i = 0; i < vec.size(); ++i) v.elements.push_back(decode(vec[i], depth + 1));
        break;
      }
      default:
        if (ref.IsTypedVector()) {
          // Includes the deprecated string vector, which the library hands out as keys because
          // its string sizes cannot be read safely.
          const auto vec = ref.AsTypedVector();
          v.type = FlexValue::Type::Vector;
          for (size_t i = 0; i < vec.size(); ++i) v.elements.push_back(decode(vec[i], depth + 1));
        } else if (ref.IsFixedTypedVector()) {
          const auto vec = ref.AsFixedTypedVector();
          v.type = FlexValue::Type::Vector;
          for (size_t i = 0; i < vec.size(); ++i) v.elements.push_back(decode(vec[i], depth + 1));
        } else {
          v.type = FlexValue::Type::Unsupported;
        }
        break;
    }
    return v;
  }

 private:
  const uint8_t* base_;
  const Where& where_;
  size_t decoded_ = 0;
};

}  // namespace

const FlexValue* FlexValue::find(std::string_view key) const {
  if (type != Type::Map) return nullptr;
  for (size_t i = 0; i < keys.size() && i < elements.size(); ++i) {
    if (keys[i] == key) return &elements[i];
  }
  return nullptr;
}

FlexValue decodeFlexBuffer(std::span<const uint8_t> bytes, const Where& where) {
  if (bytes.size() < 3) where.fail("FlexBuffer of " + std::to_string(bytes.size()) + " bytes is too short");
  // The verifier asserts on sizes it cannot represent; refuse them first.
  if (bytes.size() >= static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
    where.fail("FlexBuffer of " + std::to_string(bytes.size()) + " bytes is too large");
  }
  // The reuse tracker makes verification linear in the buffer size even for shared sub-vectors.
  std::vector<uint8_t> reuseTracker;
  if (!flexbuffers::VerifyBuffer(bytes.data(), bytes.size(), &reuseTracker)) {
    where.fail("FlexBuffer verification failed (" + std::to_string(bytes.size()) + " bytes)");
  }
  Decoder decoder(bytes.data(), where);
  return decoder.decode(flexbuffers::GetRoot(bytes.data(), bytes.size()));
}

}  // namespace coralsim::driver

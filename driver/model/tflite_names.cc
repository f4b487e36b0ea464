// Printed names of TFLite enumerations, generated from driver/tflite_enums.def.
#include <span>

#include "driver/model/model_file.h"

namespace coralsim::driver {
namespace {

struct NamedCode {
  int32_t code;
  std::string_view name;
};

constexpr NamedCode kBuiltins[] = {
#define CORALSIM_TFLITE_BUILTIN(code, NAME) {code, #NAME},
#include "driver/model/tflite_enums.def"
#undef CORALSIM_TFLITE_BUILTIN
};

constexpr NamedCode kTensorTypes[] = {
#define CORALSIM_TFLITE_TENSOR_TYPE(code, NAME) {code, #NAME},
#include "driver/model/tflite_enums.def"
#undef CORALSIM_TFLITE_TENSOR_TYPE
};

std::optional<std::string_view> lookup(std::span<const NamedCode> table, int32_t code) {
  for (const auto& e : table) {
    if (e.code == code) return e.name;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string_view> tfliteBuiltinName(int32_t code) { return lookup(kBuiltins, code); }

std::optional<std::string_view> tfliteTensorTypeName(TfliteTensorType type) { return lookup(kTensorTypes, type); }

}  // namespace coralsim::driver

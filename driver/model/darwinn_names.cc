// Printed names of the DarwiNN enumerations, generated from driver/darwinn_enums.def.
#include "driver/model/executable.h"

namespace coralsim::driver {

std::optional<std::string_view> executableTypeName(ExecutableType type) {
  switch (type) {
#define CORALSIM_EXECUTABLE_TYPE(id, value, name) \
  case ExecutableType::id:                        \
    return name;
#include "driver/model/darwinn_enums.def"
#undef CORALSIM_EXECUTABLE_TYPE
  }
  return std::nullopt;
}

std::optional<std::string_view> bufferKindShortName(BufferKind kind) {
  switch (kind) {
#define CORALSIM_BUFFER_KIND(id, value, shortName, longName) \
  case BufferKind::id:                                       \
    return shortName;
#include "driver/model/darwinn_enums.def"
#undef CORALSIM_BUFFER_KIND
  }
  return std::nullopt;
}

std::optional<std::string_view> bufferKindLongName(BufferKind kind) {
  switch (kind) {
#define CORALSIM_BUFFER_KIND(id, value, shortName, longName) \
  case BufferKind::id:                                       \
    return longName;
#include "driver/model/darwinn_enums.def"
#undef CORALSIM_BUFFER_KIND
  }
  return std::nullopt;
}

std::optional<std::string_view> addressHalfName(AddressHalf half) {
  switch (half) {
#define CORALSIM_ADDRESS_HALF(id, value, name) \
  case AddressHalf::id:                        \
    return name;
#include "driver/model/darwinn_enums.def"
#undef CORALSIM_ADDRESS_HALF
  }
  return std::nullopt;
}

std::optional<std::string_view> layerDataTypeName(LayerDataType type) {
  switch (type) {
#define CORALSIM_LAYER_DATA_TYPE(id, value, name, bytes) \
  case LayerDataType::id:                                \
    return name;
#include "driver/model/darwinn_enums.def"
#undef CORALSIM_LAYER_DATA_TYPE
  }
  return std::nullopt;
}

std::optional<int> layerDataTypeBytes(LayerDataType type) {
  switch (type) {
#define CORALSIM_LAYER_DATA_TYPE(id, value, name, bytes) \
  case LayerDataType::id:                                \
    return bytes;
#include "driver/model/darwinn_enums.def"
#undef CORALSIM_LAYER_DATA_TYPE
  }
  return std::nullopt;
}

std::optional<std::string_view> interruptTypeName(InterruptType type) {
  switch (type) {
#define CORALSIM_INTERRUPT_TYPE(id, value, name) \
  case InterruptType::id:                        \
    return name;
#include "driver/model/darwinn_enums.def"
#undef CORALSIM_INTERRUPT_TYPE
  }
  return std::nullopt;
}

std::optional<std::string_view> hintKindName(HintKind kind) {
  switch (kind) {
    case HintKind::Unknown:
      return std::nullopt;
#define CORALSIM_HINT_KIND(id, value, name) \
  case HintKind::id:                        \
    return name;
#include "driver/model/darwinn_enums.def"
#undef CORALSIM_HINT_KIND
  }
  return std::nullopt;
}

std::string_view dmaDirectionName(DmaDirection direction) {
  return direction == DmaDirection::Infeed ? "IN" : "OUT";
}

std::string_view layerKindName(LayerKind kind) {
  switch (kind) {
    case LayerKind::Output:
      return "output";
    case LayerKind::Input:
      return "input";
    case LayerKind::None:
      break;
  }
  return "none";
}

}  // namespace coralsim::driver

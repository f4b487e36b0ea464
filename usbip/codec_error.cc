#include "usbip/codec_error.h"

namespace coralsim::usbip {
namespace {

std::string compose(std::string_view pdu, std::string_view field, uint64_t streamOffset, std::string_view detail) {
  std::string text = "usbip: " + std::string(pdu);
  if (!field.empty()) text += " field " + std::string(field);
  text += " at stream offset " + std::to_string(streamOffset) + ": " + std::string(detail);
  return text;
}

}  // namespace

CodecError::CodecError(std::string_view pdu, std::string_view field, uint64_t streamOffset, std::string_view detail)
    : std::runtime_error(compose(pdu, field, streamOffset, detail)),
      pdu_(pdu),
      field_(field),
      streamOffset_(streamOffset) {}

}  // namespace coralsim::usbip

#include "usb/usb_types.h"

#include <cerrno>

namespace coralsim::usb {

int urbStatusToErrno(UrbStatus status) {
  switch (status) {
    case UrbStatus::kOk: return 0;
    case UrbStatus::kStall: return -EPIPE;
    case UrbStatus::kCancelled: return -ECONNRESET;
    case UrbStatus::kOverflow: return -EOVERFLOW;
    case UrbStatus::kShutdown: return -ESHUTDOWN;
    case UrbStatus::kInvalid: return -EINVAL;
  }
  return -EINVAL;
}

std::string_view urbStatusName(UrbStatus status) {
  switch (status) {
    case UrbStatus::kOk: return "ok";
    case UrbStatus::kStall: return "stall";
    case UrbStatus::kCancelled: return "cancelled";
    case UrbStatus::kOverflow: return "overflow";
    case UrbStatus::kShutdown: return "shutdown";
    case UrbStatus::kInvalid: return "invalid";
  }
  return "?";
}

}  // namespace coralsim::usb

#include "usbip/protocol_constants.h"

namespace coralsim::usbip {

std::string_view opCodeName(uint16_t code) {
  switch (code) {
    case op_code::kReqDevlist: return "OP_REQ_DEVLIST";
    case op_code::kRepDevlist: return "OP_REP_DEVLIST";
    case op_code::kReqImport: return "OP_REQ_IMPORT";
    case op_code::kRepImport: return "OP_REP_IMPORT";
    default: return "";
  }
}

std::string_view urbCommandName(uint32_t command) {
  switch (command) {
    case urb_command::kCmdSubmit: return "USBIP_CMD_SUBMIT";
    case urb_command::kCmdUnlink: return "USBIP_CMD_UNLINK";
    case urb_command::kRetSubmit: return "USBIP_RET_SUBMIT";
    case urb_command::kRetUnlink: return "USBIP_RET_UNLINK";
    default: return "";
  }
}

}  // namespace coralsim::usbip

// usb/dfu_protocol.h: the DFU 1.1 tables against the specification's own values (DFU 1.1 §3
// table 3.2, §6.1.2), so a row typed wrong in usb/dfu_protocol.def fails here, on both sides at once.
#include <gtest/gtest.h>

#include "usb/dfu_protocol.h"

namespace coralsim::usb::usb_dfu_protocol_test {
namespace {

TEST(DfuProtocol, RequestsCarryTheirCodeDirectionAndName) {
  EXPECT_EQ(dfu_request::kDetach, 0);
  EXPECT_EQ(dfu_request::kDnload, 1);
  EXPECT_EQ(dfu_request::kGetStatus, 3);
  EXPECT_EQ(dfu_request::kAbort, 6);
  const DfuRequestInfo* upload = findDfuRequest(2);
  ASSERT_NE(upload, nullptr);
  EXPECT_EQ(upload->name, "DFU_UPLOAD");
  EXPECT_EQ(upload->bmRequestType, 0xA1);  // device to host
  const DfuRequestInfo* clear = findDfuRequest(4);
  ASSERT_NE(clear, nullptr);
  EXPECT_EQ(clear->name, "DFU_CLRSTATUS");
  EXPECT_EQ(clear->bmRequestType, 0x21);  // host to device
  EXPECT_EQ(findDfuRequest(7), nullptr);
  EXPECT_EQ(std::size(kDfuRequests), 7u);
}

TEST(DfuProtocol, StatesAndStatusesAreNamedByValue) {
  EXPECT_EQ(static_cast<int>(DfuState::kDnloadIdle), 5);
  EXPECT_EQ(dfuStateName(2), "dfuIDLE");
  EXPECT_EQ(dfuStateName(5), "dfuDNLOAD-IDLE");
  EXPECT_EQ(dfuStateName(10), "dfuERROR");
  EXPECT_EQ(dfuStateName(11), "");
  EXPECT_EQ(static_cast<int>(DfuStatus::kErrNotDone), 0x09);
  EXPECT_EQ(dfuStatusName(0x00), "OK");
  EXPECT_EQ(dfuStatusName(0x08), "errADDRESS");
  EXPECT_EQ(dfuStatusName(0x0F), "errSTALLEDPKT");
  EXPECT_EQ(dfuStatusName(0x10), "");
}

}  // namespace
}  // namespace coralsim::usb::usb_dfu_protocol_test

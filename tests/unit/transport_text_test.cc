// The one wording every transport uses for a failed operation (driver/transport/transport_text.h): CSR
// accesses by register name, any other control request by all five SETUP fields.
#include "driver/transport/transport_text.h"

#include <gtest/gtest.h>

namespace coralsim::driver::transport_text_test {
namespace {

TEST(TransportText, CsrAccessesAreNamedByRegister) {
  EXPECT_EQ(controlText(csrSetup(0x1A30C, CsrWidth::k32, /*read=*/true)), "read32 scu_ctrl_0 (0x1a30c)");
  EXPECT_EQ(controlText(csrSetup(0x1A30C, CsrWidth::k64, /*read=*/false)), "write64 scu_ctrl_0 (0x1a30c)");
  EXPECT_EQ(controlText(csrSetup(0x1A30C, CsrWidth::k32, /*read=*/true)),
            csrAccessText(/*read=*/true, CsrWidth::k32, 0x1A30C));
}

TEST(TransportText, OtherRequestsShowEveryField) {
  const usb::ControlSetup getDescriptor{0x80, 6, 0x0100, 0, 18};
  EXPECT_EQ(controlText(getDescriptor),
            "control request bmRequestType 0x80 bRequest 0x06 wValue 0x0100 wIndex 0x0000 wLength 18");
  // A vendor request with another bRequest is no CSR access.
  const usb::ControlSetup vendor{0xC0, 2, 0, 0, 4};
  EXPECT_EQ(controlText(vendor), "control request bmRequestType 0xc0 bRequest 0x02 wValue 0x0000 wIndex 0x0000 wLength 4");
}

TEST(TransportText, BulkTransfers) {
  EXPECT_EQ(bulkOutText(0x01, 8), "bulk OUT EP 0x01 (8 bytes)");
  EXPECT_EQ(bulkInText(0x82, 16), "bulk IN EP 0x82 (16 bytes)");
  EXPECT_EQ(endpointText(0x83), "EP 0x83");
}

}  // namespace
}  // namespace coralsim::driver::transport_text_test

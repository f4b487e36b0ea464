// sim/usb_link_model.h: libedgetpu's transfer pattern and the bytes -> seconds formula, against
// values computed by hand.
#include <gtest/gtest.h>

#include "sim/usb_link_model.h"

namespace coralsim::sim::usb_link_model_test {
namespace {

TEST(UsbLinkModel, RecordsAreAHeaderPlusPayloadPieces) {
  const UsbLinkParameters link = usbLinkParameters(usb::UsbSpeed::kSuper);
  UsbTraffic t;
  t.addOutRecord(150528, link);  // one input of MobileNet: header + one piece
  EXPECT_EQ(t.bulkOutTransfers, 2u);
  EXPECT_EQ(t.bulkOutBytes, 150536u);
  t.addOutRecord(3 * (1u << 20) + 1, link);  // 3 MiB + 1: header + 4 pieces of at most 1 MiB
  EXPECT_EQ(t.bulkOutTransfers, 2u + 5u);
  t.addOutRecord(0, link);  // an empty record is still a header
  EXPECT_EQ(t.bulkOutTransfers, 8u);
}

TEST(UsbLinkModel, OutputsAreReadInUrbsOfTheSpeedsChunkSize) {
  UsbTraffic super;
  super.addOutputDma(1008, usbLinkParameters(usb::UsbSpeed::kSuper));  // 1,024-byte URBs
  EXPECT_EQ(super.bulkInTransfers, 1u);
  super.addOutputDma(62720, usbLinkParameters(usb::UsbSpeed::kSuper));  // ceil(62720 / 1024) = 62
  EXPECT_EQ(super.bulkInTransfers, 63u);
  UsbTraffic high;
  high.addOutputDma(1008, usbLinkParameters(usb::UsbSpeed::kHigh));  // 256-byte URBs: 4
  EXPECT_EQ(high.bulkInTransfers, 4u);
  EXPECT_EQ(high.bulkInBytes, 1008u);
  high.addEvent();
  EXPECT_EQ(high.bulkInTransfers, 5u);
  EXPECT_EQ(high.bulkInBytes, 1024u);
}

TEST(UsbLinkModel, SecondsFollowTheFormula) {
  UsbLinkParameters link;
  link.bulkOutRate = 1e6;
  link.bulkInRate = 2e6;
  link.outTransferTime = 1e-5;
  link.inTransferTime = 2e-5;
  link.controlTransferTime = 1e-4;
  UsbTraffic t;
  t.bulkOutBytes = 1000;   // 1 ms
  t.bulkInBytes = 1000;    // 0.5 ms
  t.bulkOutTransfers = 3;  // 30 us
  t.bulkInTransfers = 4;   // 80 us
  t.controlTransfers = 2;  // 200 us
  EXPECT_NEAR(usbTransferTime(t, link).value(), 1e-3 + 0.5e-3 + 30e-6 + 80e-6 + 200e-6, 1e-12);
  EXPECT_EQ(usbTransferTime(UsbTraffic{}, link).value(), 0.0);
}

TEST(UsbLinkModel, HighSpeedIsSlowerThanSuperSpeed) {
  const UsbLinkParameters super = usbLinkParameters(usb::UsbSpeed::kSuper);
  const UsbLinkParameters high = usbLinkParameters(usb::UsbSpeed::kHigh);
  EXPECT_GT(super.bulkOutRate, 5 * high.bulkOutRate);  // 5 Gb/s vs 480 Mb/s links
  // The published bounds: USB 3 at least 250 MB/s effective, USB 2 at most its 60 MB/s signalling.
  EXPECT_GE(super.bulkOutRate, 250e6);
  EXPECT_LE(high.bulkOutRate, 60e6);
  UsbTraffic t;
  t.addOutRecord(1 << 20, super);
  EXPECT_GT(usbTransferTime(t, high), usbTransferTime(t, super));
}

}  // namespace
}  // namespace coralsim::sim::usb_link_model_test

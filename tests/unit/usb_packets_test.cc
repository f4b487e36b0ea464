// The seam's pure packet codecs (usb/): record header, event packet, interrupt packet. Expected
// bytes are written out from docs/usb-protocol.md §3.2, §4.2, §4.3, not produced by the encoders.
#include <gtest/gtest.h>

#include <array>
#include <stdexcept>
#include <vector>

#include "usb/event_packet.h"
#include "usb/interrupt_packet.h"
#include "usb/record_header.h"

namespace coralsim::usb::usb_packets_test {
namespace {

TEST(RecordHeader, EncodesLengthLittleEndianAndMasksTheTag) {
  const std::array<uint8_t, 8> expected{0x44, 0x33, 0x22, 0x11, 0x02, 0, 0, 0};
  EXPECT_EQ(encodeRecordHeader(0x11223344, 0xF2), expected);
}

TEST(RecordHeader, DecodesWhatTheDeviceReads) {
  const std::array<uint8_t, 8> bytes{0x10, 0x00, 0x01, 0x00, 0xF1, 9, 9, 9};
  const RecordHeader h = decodeRecordHeader(bytes);
  EXPECT_EQ(h.payloadLength, 0x10010u);
  EXPECT_EQ(h.tag, 1);
}

TEST(EventPacket, EncodesAddressLengthAndTag) {
  const std::array<uint8_t, 16> expected{0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
                                         0x10, 0x00, 0x00, 0x00, 0x04, 0, 0, 0};
  EXPECT_EQ(encodeEventPacket({kCompletionTag, 0x1122334455667788u, 16}), expected);
}

TEST(EventPacket, DecodesTheTagNibbleAndRejectsOtherSizes) {
  const std::vector<uint8_t> p{1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0xF3, 9, 9, 9};
  EXPECT_EQ(decodeEventPacket(p), (EventPacket{3, 1, 2}));
  EXPECT_THROW(static_cast<void>(decodeEventPacket(std::vector<uint8_t>(17))), std::invalid_argument);
}

TEST(InterruptPacket, FatalBitRoundTrips) {
  const std::array<uint8_t, 4> expected{0x01, 0x00, 0x00, 0x80};
  const auto packet = encodeInterruptPacket(interrupt_bit::kFatalError | 0x80000000u);
  EXPECT_EQ(packet, expected);
  EXPECT_EQ(decodeInterruptPacket(packet), interrupt_bit::kFatalError | 0x80000000u);
  EXPECT_EQ(decodeInterruptPacket(std::vector<uint8_t>(3)), std::nullopt) << "a short packet is no interrupt";
}

}  // namespace
}  // namespace coralsim::usb::usb_packets_test

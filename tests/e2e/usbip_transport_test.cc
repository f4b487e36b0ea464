// driver::UsbipClientTransport against the USB/IP server and a fake device: CSR helpers, bulk both
// ways, a timed-out transfer is unlinked without losing the data that arrives later, STALLs and
// fatal interrupts become the driver's error types, a refused import is a TransportError.
#include <gtest/gtest.h>

#include "driver/transport/usbip_client_transport.h"
#include "tests/support/fake_exported_device.h"
#include "usbip/server.h"

namespace coralsim::driver::usbip_transport_test {
namespace {

using namespace std::chrono_literals;

class UsbipTransportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    usbip::ServerOptions o;
    o.port = 0;
    o.log = [](std::string_view) {};
    server_ = std::make_unique<usbip::Server>(std::vector<usbip::ExportedDevice*>{&fake_}, o);
    server_->start();
  }
  std::unique_ptr<UsbipClientTransport> open(std::chrono::milliseconds timeout = 5000ms) {
    return std::make_unique<UsbipClientTransport>("127.0.0.1", server_->port(), "1-1", timeout);
  }
  testing::FakeExportedDevice fake_;
  std::unique_ptr<usbip::Server> server_;
};

TEST_F(UsbipTransportTest, CsrAccessAndBulkLoopback) {
  auto t = open();
  EXPECT_EQ(t->name(), "usbip 127.0.0.1:" + std::to_string(server_->port()) + "/1-1");
  EXPECT_EQ(t->linkSpeed(), usb::UsbSpeed::kSuper);
  t->write32(0x4C148, 0xF0);
  EXPECT_EQ(t->read32(0x4C148), 0xF0u);
  t->write64(0x44018, 0x0123456789ABCDEFull);
  EXPECT_EQ(t->read64(0x44018), 0x0123456789ABCDEFull);
  std::vector<uint8_t> data(300000);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 13);
  t->bulkOut(0x01, data);
  std::vector<uint8_t> back;
  while (back.size() < data.size()) {
    const auto part = t->bulkIn(0x81, 65536);
    back.insert(back.end(), part.begin(), part.end());
  }
  EXPECT_EQ(back, data);
}

TEST_F(UsbipTransportTest, TimedOutTransferIsUnlinkedAndLosesNothing) {
  auto t = open(100ms);
  try {
    (void)t->bulkIn(0x82, 16);
    ADD_FAILURE() << "no timeout";
  } catch (const TransportError& e) {
    EXPECT_NE(std::string(e.what()).find("timed out after 100 ms"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("bulk IN EP 0x82"), std::string::npos) << e.what();
  }
  // The event produced now goes to the next transfer, not to the unlinked one.
  fake_.produce(0x82, std::vector<uint8_t>(16, 4));
  EXPECT_EQ(t->bulkIn(0x82, 16), std::vector<uint8_t>(16, 4));
}

TEST_F(UsbipTransportTest, StallIsATransportErrorNamingTheRequest) {
  auto t = open();
  try {
    (void)t->control({0xC0, 0xEE, 0x1234, 0, 4}, {});
    ADD_FAILURE() << "no error";
  } catch (const TransportError& e) {
    EXPECT_NE(std::string(e.what()).find("stalled"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("bRequest 0xee"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)t->bulkIn(0x85, 16), TransportError);
}

TEST_F(UsbipTransportTest, FatalInterruptFailsLaterTransfers) {
  auto t = open();
  t->bulkOut(0x01, std::vector<uint8_t>(8, 0));  // posts the interrupt URB
  (void)t->bulkIn(0x81, 8);
  fake_.produce(0x83, {1, 0, 0, 0});
  fake_.drainCompletions();
  EXPECT_THROW(
      {
        for (int i = 0; i < 100; ++i) {
          t->bulkOut(0x01, std::vector<uint8_t>(8, 0));
          (void)t->bulkIn(0x81, 8);
          std::this_thread::sleep_for(1ms);
        }
      },
      DeviceFaultError);
  t->cancelAsyncTransfers();  // the close sequence: the fault is forgotten
  t->bulkOut(0x01, std::vector<uint8_t>(8, 0));
}

TEST_F(UsbipTransportTest, RefusedImportIsATransportError) {
  auto first = open();
  try {
    UsbipClientTransport second("127.0.0.1", server_->port(), "1-1");
    ADD_FAILURE() << "imported twice";
  } catch (const TransportError& e) {
    EXPECT_NE(std::string(e.what()).find("busy"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace coralsim::driver::usbip_transport_test

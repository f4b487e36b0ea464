// The USB/IP server's bounds on what a client controls (connections, replies it does not read)
// and its access rules (a client reaches only the device it imported; one client leaving never
// disturbs another's device), over loopback TCP against fake devices. The other bounds — transfer
// length, URBs and bytes in flight, time to the first OP request — are in usbip_server_test.cc.
#include <gtest/gtest.h>

#include <cerrno>
#include <mutex>
#include <thread>

#include "tests/e2e/usbip_test_support.h"
#include "tests/support/fake_exported_device.h"
#include "usbip/client.h"
#include "usbip/pdu_serializer.h"
#include "usbip/server.h"

namespace coralsim::usbip::usbip_limits_access_test {
namespace {

using testing::FakeExportedDevice;
using testing::eventually;
using namespace std::chrono_literals;

constexpr uint32_t kDevid11 = 0x00010001;  // bus id 1-1
constexpr uint32_t kDevid12 = 0x00010002;  // bus id 1-2
constexpr size_t kOpRepImportBytes = 8 + 0x138;

class UsbipLimitsAccessTest : public ::testing::Test {
 protected:
  void startServer(ServerOptions options = {}) {
    for (int i = 0; i < 2; ++i) fakes_.push_back(std::make_unique<FakeExportedDevice>(FakeExportedDevice::Options{}));
    options.port = 0;
    options.log = [this](std::string_view line) {
      std::lock_guard lock(logMutex_);
      log_.emplace_back(line);
    };
    server_ = std::make_unique<Server>(std::vector<ExportedDevice*>{fakes_[0].get(), fakes_[1].get()}, options);
    server_->start();
  }
  bool logMentions(const std::string& text) {
    std::lock_guard lock(logMutex_);
    for (const auto& l : log_) {
      if (l.find(text) != std::string::npos) return true;
    }
    return false;
  }
  // A raw connection that has imported `busId` (and read the reply).
  std::unique_ptr<testing::RawConnection> rawImport(const std::string& busId) {
    auto raw = std::make_unique<testing::RawConnection>(server_->port());
    OpReqImport request;
    request.body.busid = fixedText<kBusIdBytes>(busId);
    raw->send(serialize(request));
    EXPECT_EQ(raw->receive(kOpRepImportBytes).size(), kOpRepImportBytes);
    return raw;
  }
  void TearDown() override {
    if (server_) server_->stop();
  }

  std::vector<std::unique_ptr<FakeExportedDevice>> fakes_;
  std::unique_ptr<Server> server_;
  std::mutex logMutex_;
  std::vector<std::string> log_;
};

CmdSubmit inSubmit(uint32_t seqnum, uint32_t devid, uint8_t ep, uint32_t length) {
  CmdSubmit s;
  s.header.seqnum = seqnum;
  s.header.devid = devid;
  s.header.direction = urb_direction::kIn;
  s.header.ep = ep;
  s.params.transferFlags = transfer_flag::kDirIn;
  s.params.transferBufferLength = length;
  return s;
}

CmdUnlink unlinkOf(uint32_t seqnum, uint32_t devid, uint32_t target) {
  CmdUnlink u;
  u.header.seqnum = seqnum;
  u.header.devid = devid;
  u.params.unlinkSeqnum = target;
  return u;
}

TEST_F(UsbipLimitsAccessTest, ConnectionsBeyondTheLimitAreRefusedAndSlotsComeBack) {
  ServerOptions o;
  o.maxConnections = 3;
  startServer(o);
  std::vector<std::unique_ptr<testing::RawConnection>> held;
  for (int i = 0; i < 3; ++i) held.push_back(std::make_unique<testing::RawConnection>(server_->port()));
  ASSERT_TRUE(eventually([&] { return server_->stats().connectionsOpen.load() == 3; }));
  testing::RawConnection fourth(server_->port());
  EXPECT_TRUE(fourth.peerClosed(5000ms)) << "a connection beyond maxConnections was kept";
  EXPECT_TRUE(eventually([&] { return logMentions("refused a connection: 3"); }));
  EXPECT_EQ(server_->stats().connectionsOpen.load(), 3u);
  // A slot freed is a slot available again.
  held.pop_back();
  ASSERT_TRUE(eventually([&] { return server_->stats().connectionsOpen.load() == 2; }));
  EXPECT_EQ(UsbipClient::listDevices("127.0.0.1", server_->port()).size(), 2u);
}

TEST_F(UsbipLimitsAccessTest, AClientThatDoesNotReadIsNoLongerReadAtTheReplyBound) {
  ServerOptions o;
  o.maxQueuedReplies = 64;
  startServer(o);
  auto raw = rawImport("1-1");
  // Every CMD_UNLINK of an unknown seqnum is answered at once. Far more than the socket buffers
  // hold, sent from a thread (the sends block once the server stops reading).
  constexpr uint32_t kUnlinks = 200'000;
  std::vector<uint8_t> burst;
  for (uint32_t i = 1; i <= kUnlinks; ++i) {
    const auto pdu = serialize(unlinkOf(i, kDevid11, 0x7FFFFFFF));
    burst.insert(burst.end(), pdu.begin(), pdu.end());
  }
  std::thread sender([&] { raw->send(burst); });
  // The server stops reading: the count of answered unlinks stops growing below the total.
  uint64_t settled = 0;
  ASSERT_TRUE(eventually(
      [&] {
        const uint64_t a = server_->stats().unlinksTooLate.load();
        std::this_thread::sleep_for(100ms);
        settled = server_->stats().unlinksTooLate.load();
        return a == settled;
      },
      10000ms));
  EXPECT_LT(settled, kUnlinks) << "the server kept reading a client that reads nothing";
  EXPECT_EQ(server_->stats().protocolErrors.load(), 0u) << "backpressure, not a drop";
  // Reading resumes the server: every unlink is answered, in order.
  const auto replies = raw->receive(size_t{kUnlinks} * 48, 30000ms);
  sender.join();
  ASSERT_EQ(replies.size(), size_t{kUnlinks} * 48);
  EXPECT_EQ(server_->stats().unlinksTooLate.load(), kUnlinks);
  for (uint32_t i : {1u, kUnlinks / 2, kUnlinks}) {
    const size_t at = size_t{i - 1} * 48;
    const uint32_t seqnum = uint32_t{replies[at + 4]} << 24 | uint32_t{replies[at + 5]} << 16 |
                            uint32_t{replies[at + 6]} << 8 | replies[at + 7];
    EXPECT_EQ(seqnum, i);
  }
}

TEST_F(UsbipLimitsAccessTest, ASubmitOnADeviceTheClientDidNotImportDropsOnlyThatClient) {
  startServer();
  UsbipClient owner("127.0.0.1", server_->port(), "1-1");
  const uint32_t waiting = owner.submitIn(0x81, 64);
  ASSERT_TRUE(fakes_[0]->waitForPending(1, 5000ms));
  const auto before = fakes_[0]->counters();

  auto intruder = rawImport("1-2");
  intruder->send(serialize(inSubmit(1, kDevid11, 1, 64)));
  EXPECT_TRUE(intruder->peerClosed()) << "a CMD_SUBMIT naming another client's device was accepted";
  EXPECT_TRUE(eventually([&] { return logMentions("devid 65537 is not the imported device's 65538"); }));

  // 1-1 saw nothing of it: no submission, no cancel, no reset; the owner's URB is still pending
  // and completes with the owner's data.
  const auto after = fakes_[0]->counters();
  EXPECT_EQ(after.submitted, before.submitted);
  EXPECT_EQ(after.cancelled, before.cancelled);
  EXPECT_EQ(after.busResets, before.busResets);
  EXPECT_EQ(after.powerCycles, before.powerCycles);
  fakes_[0]->produce(0x81, std::vector<uint8_t>(64, 0x42));
  const auto r = owner.wait(waiting, 5000ms);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->transferBuffer, std::vector<uint8_t>(64, 0x42));
}

TEST_F(UsbipLimitsAccessTest, AnUnlinkCannotReachAnotherClientsUrb) {
  startServer();
  UsbipClient owner("127.0.0.1", server_->port(), "1-1");
  const uint32_t waiting = owner.submitIn(0x82, 16);
  ASSERT_TRUE(fakes_[0]->waitForPending(1, 5000ms));

  // Seqnums are per connection: the intruder's unlink of the same number, on its own device,
  // finds nothing of its own and is answered 0; with the owner's devid it is dropped.
  auto intruder = rawImport("1-2");
  intruder->send(serialize(unlinkOf(7, kDevid12, waiting)));
  const auto reply = intruder->receive(48);
  ASSERT_EQ(reply.size(), 48u);
  EXPECT_EQ(reply[3], 4) << "RET_UNLINK";
  EXPECT_EQ(reply[20] | reply[21] | reply[22] | reply[23], 0) << "status 0: nothing of the intruder's was pending";
  intruder->send(serialize(unlinkOf(8, kDevid11, waiting)));
  EXPECT_TRUE(intruder->peerClosed());
  EXPECT_EQ(fakes_[0]->counters().cancelled, 0u);
  fakes_[0]->produce(0x82, std::vector<uint8_t>(16, 3));
  const auto r = owner.wait(waiting, 5000ms);
  ASSERT_TRUE(r.has_value()) << "the owner's URB was disturbed";
  EXPECT_EQ(r->transferBuffer, std::vector<uint8_t>(16, 3));
}

TEST_F(UsbipLimitsAccessTest, DetachingOneClientNeverDisturbsAnothersDevice) {
  startServer();
  UsbipClient stays("127.0.0.1", server_->port(), "1-1");
  std::vector<uint32_t> pending;
  for (int i = 0; i < 4; ++i) pending.push_back(stays.submitIn(0x81, 32));
  ASSERT_TRUE(fakes_[0]->waitForPending(4, 5000ms));
  const auto before = fakes_[0]->counters();

  for (bool abrupt : {false, true}) {
    auto leaves = rawImport("1-2");
    leaves->send(serialize(inSubmit(1, kDevid12, 1, 32)));
    ASSERT_TRUE(fakes_[1]->waitForPending(1, 5000ms));
    if (abrupt) {
      leaves->resetAbruptly();
    } else {
      leaves->closeGracefully();
    }
    ASSERT_TRUE(fakes_[1]->waitForPending(0, 5000ms)) << "the leaving client's URB was not cancelled";
    ASSERT_TRUE(eventually([&] { return server_->stats().connectionsOpen.load() == 1; }));
  }
  EXPECT_GE(fakes_[1]->counters().busResets, 2u) << "the other device is unplugged on each detach";
  const auto after = fakes_[0]->counters();
  EXPECT_EQ(after.cancelled, before.cancelled);
  EXPECT_EQ(after.busResets, before.busResets);
  EXPECT_EQ(after.powerCycles, before.powerCycles);
  // Every URB of the client that stayed completes, with its own data, in order.
  for (int i = 0; i < 4; ++i) fakes_[0]->produce(0x81, std::vector<uint8_t>(32, static_cast<uint8_t>(i)));
  for (int i = 0; i < 4; ++i) {
    const auto r = stays.wait(pending[static_cast<size_t>(i)], 5000ms);
    ASSERT_TRUE(r.has_value()) << "URB " << i;
    EXPECT_EQ(r->transferBuffer, std::vector<uint8_t>(32, static_cast<uint8_t>(i)));
  }
}

}  // namespace
}  // namespace coralsim::usbip::usbip_limits_access_test

// The USB/IP server and the userspace client over loopback TCP, against fake devices
// (tests/support/fake_exported_device.h): device list, import, control, bulk with many URBs in
// flight, the unlink rules of docs/usb-protocol.md §10.5 (pending → −ECONNRESET and never a
// RET_SUBMIT; completed → 0 after its RET_SUBMIT; unknown → 0), busy devices, limits and bad input
// dropping one connection only, clean shutdown, and no leaked descriptors.
#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <ctime>
#include <mutex>
#include <random>
#include <thread>

#include "tests/e2e/usbip_test_support.h"
#include "tests/support/fake_exported_device.h"
#include "usbip/client.h"
#include "usbip/pdu_serializer.h"
#include "usbip/server.h"

namespace coralsim::usbip::usbip_server_test {
namespace {

using testing::FakeExportedDevice;
using testing::eventually;
using namespace std::chrono_literals;

class UsbipServerTest : public ::testing::Test {
 protected:
  void startServer(size_t devices = 2, ServerOptions options = {}) {
    for (size_t i = 0; i < devices; ++i) {
      FakeExportedDevice::Options o;
      if (i == 1) o.info = testing::bootloaderCoralInfo();
      fakes_.push_back(std::make_unique<FakeExportedDevice>(o));
    }
    std::vector<ExportedDevice*> exported;
    for (auto& f : fakes_) exported.push_back(f.get());
    options.port = 0;
    options.log = [this](std::string_view line) {
      std::lock_guard lock(logMutex_);
      log_.emplace_back(line);
    };
    server_ = std::make_unique<Server>(exported, options);
    server_->start();
    port_ = server_->port();
  }
  std::unique_ptr<UsbipClient> import(const std::string& busId = "1-1") {
    return std::make_unique<UsbipClient>("127.0.0.1", port_, busId);
  }
  bool logMentions(const std::string& text) {
    std::lock_guard lock(logMutex_);
    for (const auto& l : log_) {
      if (l.find(text) != std::string::npos) return true;
    }
    return false;
  }
  void TearDown() override {
    if (server_) server_->stop();
  }

  std::vector<std::unique_ptr<FakeExportedDevice>> fakes_;
  std::unique_ptr<Server> server_;
  uint16_t port_ = 0;
  std::mutex logMutex_;
  std::vector<std::string> log_;
};

usb::ControlSetup csrRead32(uint32_t address) {
  return {0xC0, 1, static_cast<uint16_t>(address), static_cast<uint16_t>(address >> 16), 4};
}
usb::ControlSetup csrWrite32(uint32_t address) {
  return {0x40, 1, static_cast<uint16_t>(address), static_cast<uint16_t>(address >> 16), 4};
}

RetSubmit mustComplete(UsbipClient& c, uint32_t seqnum, std::chrono::milliseconds t = 5000ms) {
  auto r = c.wait(seqnum, t);
  if (!r) throw std::runtime_error("seqnum " + std::to_string(seqnum) + " did not complete");
  return std::move(*r);
}

TEST_F(UsbipServerTest, DevlistReportsEveryDeviceWithItsPersonality) {
  startServer(2);
  const auto devices = UsbipClient::listDevices("127.0.0.1", port_);
  ASSERT_EQ(devices.size(), 2u);
  EXPECT_EQ(textOf(devices[0].device.busid), "1-1");
  EXPECT_EQ(textOf(devices[1].device.busid), "1-2");
  EXPECT_EQ(devices[0].device.busnum, 1u);
  EXPECT_EQ(devices[1].device.devnum, 2u);
  EXPECT_EQ(devices[0].device.speed, usb_speed_code::kSuper);
  EXPECT_EQ(devices[0].device.idVendor, 0x18D1);
  EXPECT_EQ(devices[0].device.idProduct, 0x9302);
  EXPECT_EQ(devices[1].device.idVendor, 0x1A6E);
  EXPECT_EQ(devices[1].device.idProduct, 0x089A);
  ASSERT_EQ(devices[1].interfaces.size(), 1u);
  EXPECT_EQ(devices[1].interfaces[0].bInterfaceClass, 0xFE);
  EXPECT_EQ(devices[1].interfaces[0].bInterfaceSubClass, 0x01);
  EXPECT_EQ(devices[1].interfaces[0].bInterfaceProtocol, 0x02);
  EXPECT_EQ(devices[0].interfaces[0].bInterfaceClass, 0xFF);
  EXPECT_NE(textOf(devices[0].device.path).find("1-1"), std::string::npos);
}

TEST_F(UsbipServerTest, DevlistConnectionIsClosedAfterTheReply) {
  startServer(1);
  testing::RawConnection raw(port_);
  raw.send(serialize(OpReqDevlist{}));
  const auto reply = raw.receive(8 + 4 + 0x138 + 4);
  EXPECT_EQ(reply.size(), 8u + 4u + 0x138u + 4u);
  EXPECT_TRUE(raw.peerClosed());
}

TEST_F(UsbipServerTest, ImportReplyEchoesTheBusIdAndPowerCyclesTheDevice) {
  startServer(2);
  auto client = import("1-2");
  EXPECT_EQ(textOf(client->device().busid), "1-2");
  EXPECT_EQ(client->device().idProduct, 0x089A);
  EXPECT_EQ(client->speed(), usb::UsbSpeed::kSuper);
  EXPECT_EQ(fakes_[1]->counters().powerCycles, 1u);
  EXPECT_TRUE(eventually([&] { return logMentions("attached 1-2 (1a6e:089a, SuperSpeed)"); }));
  EXPECT_THROW(UsbipClient("127.0.0.1", port_, "9-9"), UsbipClientError);
  EXPECT_TRUE(logMentions("no such bus id"));
}

TEST_F(UsbipServerTest, ControlTransfers) {
  startServer(1);
  auto c = import();
  // GET_DESCRIPTOR(DEVICE)
  const RetSubmit d = mustComplete(*c, c->submitControl({0x80, 6, 0x0100, 0, 18}));
  EXPECT_EQ(d.params.status, 0);
  ASSERT_EQ(d.transferBuffer.size(), 18u);
  EXPECT_EQ(d.params.actualLength, 18u);
  EXPECT_EQ(d.transferBuffer[10] | d.transferBuffer[11] << 8, 0x9302);
  // CSR write then read back (little-endian data, exact lengths).
  const std::vector<uint8_t> value = {0x78, 0x56, 0x34, 0x12};
  const RetSubmit w = mustComplete(*c, c->submitControl(csrWrite32(0x1A318), value));
  EXPECT_EQ(w.params.status, 0);
  EXPECT_EQ(w.params.actualLength, 4u);
  EXPECT_TRUE(w.transferBuffer.empty()) << "no payload in an OUT reply";
  const RetSubmit r = mustComplete(*c, c->submitControl(csrRead32(0x1A318)));
  EXPECT_EQ(r.transferBuffer, value);
  // A STALL is -EPIPE.
  EXPECT_EQ(mustComplete(*c, c->submitControl({0xC0, 0xEE, 0, 0, 4})).params.status, -EPIPE);
  // A short answer: fine, unless SHORT_NOT_OK.
  const RetSubmit shortAnswer = mustComplete(*c, c->submitControl({0xC0, 0x33, 0, 0, 8}));
  EXPECT_EQ(shortAnswer.params.status, 0);
  EXPECT_EQ(shortAnswer.transferBuffer.size(), 4u);
  EXPECT_EQ(mustComplete(*c, c->submitControl({0xC0, 0x33, 0, 0, 8}, {}, transfer_flag::kShortNotOk)).params.status,
            -EREMOTEIO);
  // A zero-length OUT (like DFU_DETACH).
  EXPECT_EQ(mustComplete(*c, c->submitControl({0x21, 0, 100, 0, 0})).params.actualLength, 0u);
}

TEST_F(UsbipServerTest, BulkWithManyUrbsInFlightCompletesInOrderPerEndpoint) {
  startServer(1);
  auto c = import();
  // libedgetpu keeps 32 bulk-IN URBs of 1024 bytes queued, plus the event and interrupt URBs.
  std::vector<uint32_t> ins;
  for (int i = 0; i < 32; ++i) ins.push_back(c->submitIn(0x81, 1024));
  const uint32_t event = c->submitIn(0x82, 16);
  const uint32_t interrupt = c->submitIn(0x83, 4);
  ASSERT_TRUE(fakes_[0]->waitForPending(34, 5000ms));
  // Three 1 MiB OUT transfers in flight at once; the fake loops them back to EP 0x81.
  std::vector<uint8_t> data(3u << 20);
  std::mt19937 rng(7);
  for (auto& b : data) b = static_cast<uint8_t>(rng());
  std::vector<uint32_t> outs;
  for (int i = 0; i < 3; ++i) outs.push_back(c->submitOut(0x01, std::span(data).subspan(size_t(i) << 20, 1u << 20)));
  for (uint32_t s : outs) {
    const RetSubmit r = mustComplete(*c, s);
    EXPECT_EQ(r.params.status, 0);
    EXPECT_EQ(r.params.actualLength, 1u << 20);
  }
  // The 32 IN URBs got the first 32 KiB, in submission order.
  std::vector<uint8_t> got;
  for (uint32_t s : ins) {
    const RetSubmit r = mustComplete(*c, s);
    ASSERT_EQ(r.transferBuffer.size(), 1024u);
    got.insert(got.end(), r.transferBuffer.begin(), r.transferBuffer.end());
  }
  EXPECT_TRUE(std::equal(got.begin(), got.end(), data.begin()));
  // One large IN takes the next 2 MiB in one piece.
  const RetSubmit big = mustComplete(*c, c->submitIn(0x81, 2u << 20));
  ASSERT_EQ(big.transferBuffer.size(), 2u << 20);
  EXPECT_TRUE(std::equal(big.transferBuffer.begin(), big.transferBuffer.end(), data.begin() + 32 * 1024));
  // Events complete independently of 0x81; the interrupt URB stays pending.
  fakes_[0]->produce(0x82, std::vector<uint8_t>(16, 4));
  EXPECT_EQ(mustComplete(*c, event).transferBuffer, std::vector<uint8_t>(16, 4));
  EXPECT_FALSE(c->wait(interrupt, 50ms).has_value());
  // An endpoint the device does not have: STALL.
  EXPECT_EQ(mustComplete(*c, c->submitIn(0x85, 16)).params.status, -EPIPE);
}

TEST_F(UsbipServerTest, UnlinkOfAPendingUrbIsEconnresetAndItNeverCompletes) {
  startServer(1);
  auto c = import();
  const uint32_t victim = c->submitIn(0x82, 16);
  ASSERT_TRUE(fakes_[0]->waitForPending(1, 5000ms));
  const auto outcome = c->unlink(victim, 5000ms);
  EXPECT_EQ(outcome.status, -ECONNRESET);
  EXPECT_FALSE(outcome.completed.has_value());
  EXPECT_EQ(fakes_[0]->counters().cancelled, 1u);
  // The event produced now belongs to the next URB, not the unlinked one (§10.5 item 3). A
  // RET_SUBMIT for `victim` would make the client's decoder reject the stream ("answers no
  // pending USBIP_CMD_SUBMIT"), failing the waits below.
  fakes_[0]->produce(0x82, std::vector<uint8_t>(16, 9));
  const uint32_t next = c->submitIn(0x82, 16);
  EXPECT_EQ(mustComplete(*c, next).transferBuffer, std::vector<uint8_t>(16, 9));
  EXPECT_EQ(mustComplete(*c, c->submitControl({0x80, 6, 0x0100, 0, 18})).params.status, 0);
  EXPECT_EQ(server_->stats().unlinksCancelled.load(), 1u);
}

TEST_F(UsbipServerTest, UnlinkOfACompletedUrbIsZeroAfterItsRetSubmit) {
  startServer(1);
  auto c = import();
  const uint32_t urb = c->submitIn(0x82, 16);
  fakes_[0]->produce(0x82, std::vector<uint8_t>(16, 5));
  fakes_[0]->drainCompletions();  // the device has completed it; the client has not read it yet
  ASSERT_TRUE(eventually([&] { return server_->stats().urbsCompleted.load() >= 1; }));
  const auto outcome = c->unlink(urb, 5000ms);
  EXPECT_EQ(outcome.status, 0);
  ASSERT_TRUE(outcome.completed.has_value()) << "the RET_SUBMIT came first, with its data";
  EXPECT_EQ(outcome.completed->transferBuffer, std::vector<uint8_t>(16, 5));
  // Unknown seqnum: 0.
  EXPECT_EQ(c->unlink(123456, 5000ms).status, 0);
}

// Unlinks racing completions: whichever wins, the answer is consistent and no byte is lost.
TEST_F(UsbipServerTest, UnlinkRacesNeverLoseOrDuplicateData) {
  startServer(1);
  auto c = import();
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> produced{0};
  std::thread producer([&] {
    std::mt19937 rng(3);
    while (!stop) {
      const size_t n = 1 + rng() % 16;
      fakes_[0]->produce(0x82, std::vector<uint8_t>(n, static_cast<uint8_t>(n)));
      produced += n;
      std::this_thread::sleep_for(std::chrono::microseconds(rng() % 200));
    }
  });
  uint64_t received = 0, cancelled = 0, tooLate = 0;
  for (int i = 0; i < 2000; ++i) {
    const uint32_t s = c->submitIn(0x82, 16);
    if (i % 3 == 0) std::this_thread::sleep_for(std::chrono::microseconds(50));
    const auto outcome = c->unlink(s, 5000ms);
    if (outcome.status == -ECONNRESET) {
      EXPECT_FALSE(outcome.completed.has_value());
      ++cancelled;
    } else {
      ASSERT_EQ(outcome.status, 0);
      ASSERT_TRUE(outcome.completed.has_value()) << "status 0 without the RET_SUBMIT first";
      received += outcome.completed->transferBuffer.size();
      ++tooLate;
    }
  }
  stop = true;
  producer.join();
  // Drain what is left.
  while (received < produced.load()) {
    auto r = c->wait(c->submitIn(0x82, 16), 2000ms);
    ASSERT_TRUE(r.has_value());
    received += r->transferBuffer.size();
  }
  EXPECT_EQ(received, produced.load());
  EXPECT_GT(cancelled, 0u);
  EXPECT_GT(tooLate, 0u);
  std::cout << "2000 unlinks: " << cancelled << " cancelled, " << tooLate << " after completion, " << received
            << " bytes, none lost\n";
}

TEST_F(UsbipServerTest, AnImportedDeviceIsBusyForOtherClients) {
  startServer(2);
  auto first = import("1-1");
  try {
    UsbipClient second("127.0.0.1", port_, "1-1");
    ADD_FAILURE() << "a second import of 1-1 succeeded";
  } catch (const UsbipClientError& e) {
    EXPECT_NE(std::string(e.what()).find("busy"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(logMentions("refused import of 1-1: busy"));
  auto other = import("1-2");  // the other device is free
  EXPECT_EQ(mustComplete(*other, other->submitControl({0x80, 6, 0x0100, 0, 18})).params.status, 0);
  // Once the first client is gone, 1-1 can be imported again.
  first.reset();
  std::unique_ptr<UsbipClient> again;
  ASSERT_TRUE(eventually([&] {
    try {
      again = import("1-1");
      return true;
    } catch (const UsbipClientError&) {
      return false;
    }
  }));
  EXPECT_TRUE(logMentions("detached from 1-1"));
}

TEST_F(UsbipServerTest, DisconnectCancelsEveryUrbAndUnplugsTheDevice) {
  startServer(1);
  {
    auto c = import();
    for (int i = 0; i < 10; ++i) (void)c->submitIn(0x81, 1024);
    ASSERT_TRUE(fakes_[0]->waitForPending(10, 5000ms));
  }
  EXPECT_TRUE(fakes_[0]->waitForPending(0, 5000ms));
  EXPECT_EQ(fakes_[0]->counters().cancelled, 10u);
  EXPECT_TRUE(eventually([&] { return logMentions("detached from 1-1 (client closed the connection; 10 URBs cancelled)"); }));
  EXPECT_GE(fakes_[0]->counters().busResets, 1u);
}

TEST_F(UsbipServerTest, BadInputDropsThatConnectionOnly) {
  startServer(2);
  auto good = import("1-1");
  struct Case {
    std::string name;
    std::function<std::vector<uint8_t>(uint32_t devid)> bytes;
    std::string logged;
  };
  const std::vector<Case> cases = {
      {"wrong devid",
       [](uint32_t devid) {
         CmdSubmit s;
         s.header.seqnum = 1;
         s.header.devid = devid + 1;
         s.header.direction = urb_direction::kIn;
         s.header.ep = 1;
         s.params.transferBufferLength = 16;
         return serialize(s);
       },
       "is not the imported device's"},
      {"huge transfer",
       [](uint32_t devid) {
         CmdSubmit s;
         s.header.seqnum = 1;
         s.header.devid = devid;
         s.header.direction = urb_direction::kIn;
         s.header.ep = 1;
         s.params.transferBufferLength = 0x7FFFFFFF;
         return serialize(s);
       },
       "transfer_buffer_length"},
      {"unknown command", [](uint32_t) { return std::vector<uint8_t>(48, 0x77); }, "unknown"},
  };
  for (const Case& c : cases) {
    testing::RawConnection raw(port_);
    OpReqImport request;
    request.body.busid = fixedText<kBusIdBytes>("1-2");
    raw.send(serialize(request));
    const auto reply = raw.receive(8 + 0x138);
    ASSERT_EQ(reply.size(), 8u + 0x138u) << c.name;
    raw.send(c.bytes((1u << 16) | 2u));
    EXPECT_TRUE(raw.peerClosed()) << c.name << ": the server kept the connection";
    EXPECT_TRUE(eventually([&] { return logMentions(c.logged); })) << c.name;
    // The good client is unaffected.
    EXPECT_EQ(mustComplete(*good, good->submitControl({0x80, 6, 0x0100, 0, 18})).params.status, 0) << c.name;
    ASSERT_TRUE(eventually([&] { return server_->stats().connectionsOpen.load() == 1; })) << c.name;
  }
  EXPECT_EQ(server_->stats().protocolErrors.load(), cases.size());
}

TEST_F(UsbipServerTest, InFlightLimitsDropTheConnection) {
  ServerOptions o;
  o.maxUrbsInFlight = 8;
  startServer(1, o);
  auto c = import();
  for (int i = 0; i < 8; ++i) (void)c->submitIn(0x82, 16);
  ASSERT_TRUE(fakes_[0]->waitForPending(8, 5000ms));
  (void)c->submitIn(0x82, 16);
  EXPECT_THROW((void)c->wait(c->submitControl({0x80, 6, 0x0100, 0, 18}), 5000ms), UsbipClientError);
  EXPECT_TRUE(eventually([&] { return logMentions("more than 8 URBs in flight"); }));
  EXPECT_TRUE(fakes_[0]->waitForPending(0, 5000ms)) << "the dropped connection's URBs are cancelled";
}

TEST_F(UsbipServerTest, ByteLimitDropsTheConnection) {
  ServerOptions o;
  o.maxBytesInFlight = 1u << 20;
  startServer(1, o);
  auto c = import();
  fakes_[0]->holdOut(true);  // backpressure: OUT URBs stay pending
  const std::vector<uint8_t> chunk(600 * 1024, 1);
  (void)c->submitOut(0x01, chunk);
  (void)c->submitOut(0x01, chunk);
  EXPECT_THROW((void)c->wait(c->submitControl({0x80, 6, 0x0100, 0, 18}), 5000ms), UsbipClientError);
  EXPECT_TRUE(eventually([&] { return logMentions("bytes in flight"); }));
}

TEST_F(UsbipServerTest, SilentConnectionsAreDroppedAfterTheOperationTimeout) {
  ServerOptions o;
  o.operationTimeout = 200ms;
  startServer(1, o);
  testing::RawConnection silent(port_);
  testing::RawConnection halfHeader(port_);
  halfHeader.send(std::vector<uint8_t>{0x01, 0x11});
  EXPECT_TRUE(silent.peerClosed(5000ms));
  EXPECT_TRUE(halfHeader.peerClosed(5000ms));
  EXPECT_TRUE(logMentions("no OP_REQ_DEVLIST or OP_REQ_IMPORT within 200 ms"));
  // An imported connection has no such limit: URBs may stay pending indefinitely.
  auto c = import();
  const uint32_t idle = c->submitIn(0x83, 4);
  std::this_thread::sleep_for(400ms);
  EXPECT_FALSE(c->wait(idle, 10ms).has_value());
  EXPECT_EQ(mustComplete(*c, c->submitControl({0x80, 6, 0x0100, 0, 18})).params.status, 0);
}

// Attached clients with URBs pending for a long time (libedgetpu's 34 idle IN URBs) cost nothing:
// every thread sleeps (epoll, condition variables).
TEST_F(UsbipServerTest, IdleServerUsesNoCpu) {
  startServer(2);
  auto a = import("1-1");
  for (int i = 0; i < 32; ++i) (void)a->submitIn(0x81, 1024);
  (void)a->submitIn(0x82, 16);
  (void)a->submitIn(0x83, 4);
  auto b = import("1-2");
  ASSERT_TRUE(fakes_[0]->waitForPending(34, 5000ms));
  auto cpu = [] {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return std::chrono::seconds(t.tv_sec) + std::chrono::nanoseconds(t.tv_nsec);
  };
  const auto before = cpu();
  std::this_thread::sleep_for(1000ms);
  const auto used = std::chrono::duration_cast<std::chrono::milliseconds>(cpu() - before);
  EXPECT_LT(used.count(), 20) << "the process used " << used.count() << " ms of CPU in 1 s of idling";
}

TEST_F(UsbipServerTest, StopWithClientsAttachedCancelsEverythingAndJoins) {
  startServer(2);
  auto a = import("1-1");
  auto b = import("1-2");
  for (int i = 0; i < 5; ++i) {
    (void)a->submitIn(0x81, 1024);
    (void)b->submitIn(0x82, 16);
  }
  ASSERT_TRUE(fakes_[0]->waitForPending(5, 5000ms));
  ASSERT_TRUE(fakes_[1]->waitForPending(5, 5000ms));
  const auto started = std::chrono::steady_clock::now();
  server_->stop();
  EXPECT_LT(std::chrono::steady_clock::now() - started, 2s);
  EXPECT_EQ(fakes_[0]->pendingUrbs(), 0u);
  EXPECT_EQ(fakes_[1]->pendingUrbs(), 0u);
  EXPECT_THROW((void)a->wait(a->submitControl({0x80, 6, 0x0100, 0, 18}), 2000ms), UsbipClientError);
  // Completions after the stop go nowhere (the relay is closed) and harm nothing.
  fakes_[0]->produce(0x81, std::vector<uint8_t>(100, 1));
  fakes_[0]->drainCompletions();
}

// 1,000 clients killed mid-transfer in every way while a well-behaved client keeps being served;
// afterwards nothing is pending, nothing is imported, no descriptor leaked.
TEST_F(UsbipServerTest, ThousandKilledClientsDoNotDisturbAWellBehavedOne) {
  const size_t fdsBefore = testing::openDescriptors();
  startServer(2);
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> goodRounds{0};
  std::string goodFailure;
  std::thread good([&] {
    try {
      auto c = import("1-1");
      std::vector<uint8_t> data(4096);
      while (!stop) {
        for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i + goodRounds);
        const uint32_t in = c->submitIn(0x81, 4096);
        const uint32_t out = c->submitOut(0x01, data);
        if (mustComplete(*c, out).params.status != 0) throw std::runtime_error("OUT failed");
        const RetSubmit r = mustComplete(*c, in);
        if (r.transferBuffer != data) throw std::runtime_error("IN data differs");
        if (mustComplete(*c, c->submitControl(csrRead32(0x1A318))).transferBuffer.size() != 4) {
          throw std::runtime_error("CSR read failed");
        }
        ++goodRounds;
      }
    } catch (const std::exception& e) {
      goodFailure = e.what();
    }
  });

  const auto started = std::chrono::steady_clock::now();
  std::mt19937 rng(11);
  size_t imported = 0;
  for (int i = 0; i < 1000; ++i) {
    testing::RawConnection raw(port_);
    const int kind = i % 5;
    if (kind == 0) {  // half an OP header
      raw.send(std::vector<uint8_t>{0x01, 0x11, 0x80});
    } else if (kind == 1) {  // garbage
      std::vector<uint8_t> junk(1 + rng() % 100);
      for (auto& b : junk) b = static_cast<uint8_t>(rng());
      raw.send(junk);
    } else {
      OpReqImport request;
      request.body.busid = fixedText<kBusIdBytes>("1-2");
      raw.send(serialize(request));
      const auto reply = raw.receive(8);
      if (reply.size() == 8 && reply[4] == 0 && reply[5] == 0 && reply[6] == 0 && reply[7] == 0) {
        (void)raw.receive(0x138);
        ++imported;
        const uint32_t devid = (1u << 16) | 2u;
        for (uint32_t k = 0; k < 1 + rng() % 6; ++k) {  // URBs left pending
          CmdSubmit s;
          s.header.seqnum = k + 1;
          s.header.devid = devid;
          s.header.direction = urb_direction::kIn;
          s.header.ep = 1 + k % 3;
          s.params.transferBufferLength = 1024;
          raw.send(serialize(s));
        }
        if (kind == 3) {  // a bulk OUT cut in the middle of its payload
          CmdSubmit s;
          s.header.seqnum = 100;
          s.header.devid = devid;
          s.header.ep = 1;
          s.params.transferBufferLength = 65536;
          s.transferBuffer.assign(65536, 3);
          const auto bytes = serialize(s);
          raw.send(std::span(bytes).first(48 + rng() % 60000));
        }
      }
    }
    if (rng() % 2) {
      raw.resetAbruptly();
    } else {
      raw.closeGracefully();
    }
  }
  const auto elapsed = std::chrono::steady_clock::now() - started;
  // Let the server notice the last disconnects, then stop the good client.
  EXPECT_TRUE(eventually([&] { return server_->stats().connectionsOpen.load() == 1; }, 10000ms));
  stop = true;
  good.join();
  EXPECT_EQ(goodFailure, "");
  EXPECT_GT(goodRounds.load(), 0u);
  EXPECT_GT(imported, 100u);
  EXPECT_TRUE(fakes_[1]->waitForPending(0, 5000ms)) << "every URB of the killed clients is cancelled";
  EXPECT_LT(elapsed, 60s);
  std::cout << "1000 killed clients (" << imported << " had imported 1-2) in "
            << std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count()
            << " ms; the good client completed " << goodRounds.load() << " rounds\n";
  server_->stop();
  server_.reset();
  fakes_.clear();
  EXPECT_EQ(testing::openDescriptors(), fdsBefore) << "descriptors leaked";
}

TEST_F(UsbipServerTest, ServerLifecycleLeaksNoDescriptors) {
  const size_t before = testing::openDescriptors();
  for (int round = 0; round < 3; ++round) {
    startServer(1);
    {
      auto c = import();
      (void)c->submitIn(0x81, 64);
      (void)UsbipClient::listDevices("127.0.0.1", port_);
    }
    server_->stop();
    server_.reset();
    fakes_.clear();
  }
  EXPECT_EQ(testing::openDescriptors(), before);
}

TEST_F(UsbipServerTest, ListenAddressErrorsNameTheAddress) {
  FakeExportedDevice fake;
  ServerOptions o;
  o.listenAddress = "not-an-address";
  Server s({&fake}, o);
  try {
    s.start();
    ADD_FAILURE() << "started";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("not-an-address"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace coralsim::usbip::usbip_server_test

// ---- client allow-list (ServerOptions::allowedClients, `coralsim serve --allow`) -------------------
namespace coralsim::usbip::usbip_server_test {
namespace {

TEST_F(UsbipServerTest, AllowListRefusesAddressesNotOnIt) {
  ServerOptions o;
  o.allowedClients = {"127.0.0.2"};
  startServer(1, o);
  EXPECT_ANY_THROW(UsbipClient::listDevices("127.0.0.1", port_));
  EXPECT_ANY_THROW(import("1-1"));
  EXPECT_TRUE(eventually([&] { return server_->stats().clientsRefused.load() == 2; }));
  EXPECT_EQ(server_->stats().imports.load(), 0u);
  EXPECT_EQ(fakes_[0]->counters().powerCycles, 0u) << "a refused client must not reach the device";
  EXPECT_TRUE(logMentions("refused a connection from 127.0.0.1: not in the allow-list"));
}

TEST_F(UsbipServerTest, AllowListAdmitsListedAddressesIncludingV4MappedForms) {
  ServerOptions o;
  o.listenAddress = "0.0.0.0";  // not loopback: only the list decides
  o.allowedClients = {"10.1.2.3", "::ffff:127.0.0.1"};
  startServer(1, o);
  EXPECT_EQ(UsbipClient::listDevices("127.0.0.1", port_).size(), 1u);
  EXPECT_EQ(server_->stats().clientsRefused.load(), 0u);
}

TEST_F(UsbipServerTest, LoopbackServerAdmitsLoopbackClientsByDefault) {
  startServer(1);
  EXPECT_EQ(UsbipClient::listDevices("127.0.0.1", port_).size(), 1u);
  EXPECT_EQ(server_->stats().clientsRefused.load(), 0u);
}

TEST_F(UsbipServerTest, AllowListEntryThatIsNotAnAddressIsRefusedAtStart) {
  ServerOptions o;
  o.allowedClients = {"localhost"};
  o.port = 0;
  FakeExportedDevice fake;
  Server server({&fake}, o);
  try {
    server.start();
    ADD_FAILURE() << "start() accepted 'localhost' as an address";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'localhost'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace coralsim::usbip::usbip_server_test

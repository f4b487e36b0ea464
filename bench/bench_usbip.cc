// USB/IP over loopback TCP: the userspace client (usbip/client.h) against the server
// (usbip/server.h) exporting a fast fake device (tests/support/fake_exported_device.h: OUT accepted
// at once, IN answered at once with `length` bytes, completions hopping through a device thread
// like the simulator's). Targets: bulk >= 1 GB/s, control round trip <= 50 µs.
// Baselines in the same run: plain TCP over loopback, a bulk stream and a 48-byte ping-pong.
//
//   BM_UsbipBulkOut/<bytes>/<in flight>   client → device, MB/s (bytes_per_second)
//   BM_UsbipBulkIn/<bytes>/<in flight>    device → client
//   BM_UsbipControlRoundTrip              one CSR read (CMD_SUBMIT → RET_SUBMIT), time = RTT
//   BM_TcpBaselineStream/<bytes>          plain send()/recv() of the same sizes
//   BM_TcpBaselinePingPong                48 bytes each way
#include <benchmark/benchmark.h>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <deque>
#include <memory>
#include <thread>

#include "tests/support/fake_exported_device.h"
#include "usbip/buffer_memory.h"
#include "usbip/client.h"
#include "usbip/server.h"

namespace {

using namespace coralsim;
using namespace std::chrono_literals;

// As `coralsim serve` does at start-up (usbip/buffer_memory.h); the baselines are unaffected.
const bool kTuned = [] {
  usbip::keepTransferBuffersMapped();
  return true;
}();

struct Loopback {
  Loopback() : fake(makeOptions()), server({&fake}, serverOptions()) {
    server.start();
    client = std::make_unique<usbip::UsbipClient>("127.0.0.1", server.port(), "1-1");
  }
  static testing::FakeExportedDevice::Options makeOptions() {
    testing::FakeExportedDevice::Options o;
    o.loopback = false;
    o.endlessIn = true;
    return o;
  }
  static usbip::ServerOptions serverOptions() {
    usbip::ServerOptions o;
    o.port = 0;
    o.log = [](std::string_view) {};
    return o;
  }
  testing::FakeExportedDevice fake;
  usbip::Server server;
  std::unique_ptr<usbip::UsbipClient> client;
};

void expectOk(benchmark::State& state, const std::optional<usbip::RetSubmit>& r) {
  if (!r || r->params.status != 0) state.SkipWithError("a URB failed or timed out");
}

// Keeps `depth` URBs in flight, as libedgetpu does (3 × 1 MiB OUT, 32 × 1 KiB IN).
void pipeline(benchmark::State& state, bool out) {
  Loopback l;
  const auto bytes = static_cast<uint32_t>(state.range(0));
  const auto depth = static_cast<size_t>(state.range(1));
  const std::vector<uint8_t> data(bytes, 0x5A);
  auto submit = [&] { return out ? l.client->submitOut(0x01, data) : l.client->submitIn(0x81, bytes); };
  std::deque<uint32_t> inFlight;
  for (size_t i = 0; i < depth; ++i) inFlight.push_back(submit());
  for (auto _ : state) {
    const auto r = l.client->wait(inFlight.front(), 10s);
    inFlight.pop_front();
    expectOk(state, r);
    if (!out && r) benchmark::DoNotOptimize(r->transferBuffer.data());
    inFlight.push_back(submit());
  }
  for (uint32_t s : inFlight) (void)l.client->wait(s, 10s);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * bytes);
}

void BM_UsbipBulkOut(benchmark::State& state) { pipeline(state, true); }
void BM_UsbipBulkIn(benchmark::State& state) { pipeline(state, false); }
BENCHMARK(BM_UsbipBulkOut)->Args({1 << 20, 3})->Args({1 << 20, 8})->Args({64 << 10, 8})->Args({1024, 32})->UseRealTime();
BENCHMARK(BM_UsbipBulkIn)->Args({1 << 20, 3})->Args({1 << 20, 8})->Args({64 << 10, 8})->Args({1024, 32})->UseRealTime();

void BM_UsbipControlRoundTrip(benchmark::State& state) {
  Loopback l;
  const usb::ControlSetup read32{0xC0, 1, 0xA318, 0x0001, 4};
  for (auto _ : state) {
    const auto r = l.client->wait(l.client->submitControl(read32), 10s);
    expectOk(state, r);
  }
}
BENCHMARK(BM_UsbipControlRoundTrip)->UseRealTime();

// ---- baselines: plain TCP on the same loopback ----

struct TcpPair {
  TcpPair() {
    const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    ::bind(listener, reinterpret_cast<sockaddr*>(&a), sizeof a);
    ::listen(listener, 1);
    ::getsockname(listener, reinterpret_cast<sockaddr*>(&a), &len);
    client = ::socket(AF_INET, SOCK_STREAM, 0);
    ::connect(client, reinterpret_cast<sockaddr*>(&a), sizeof a);
    server = ::accept(listener, nullptr, nullptr);
    ::close(listener);
    const int one = 1;
    ::setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    ::setsockopt(server, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }
  ~TcpPair() {
    ::close(client);
    ::close(server);
  }
  static void sendAll(int fd, const uint8_t* p, size_t n) {
    while (n > 0) {
      const ssize_t k = ::send(fd, p, n, MSG_NOSIGNAL);
      if (k <= 0) return;
      p += k;
      n -= static_cast<size_t>(k);
    }
  }
  static bool recvAll(int fd, uint8_t* p, size_t n) {
    while (n > 0) {
      const ssize_t k = ::recv(fd, p, n, 0);
      if (k <= 0) return false;
      p += k;
      n -= static_cast<size_t>(k);
    }
    return true;
  }
  int client = -1, server = -1;
};

void BM_TcpBaselineStream(benchmark::State& state) {
  TcpPair t;
  const auto bytes = static_cast<size_t>(state.range(0));
  std::vector<uint8_t> data(bytes, 1);
  std::thread reader([&] {
    std::vector<uint8_t> sink(bytes);
    while (TcpPair::recvAll(t.server, sink.data(), sink.size())) {
    }
  });
  for (auto _ : state) TcpPair::sendAll(t.client, data.data(), data.size());
  ::shutdown(t.client, SHUT_WR);
  reader.join();
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
}
BENCHMARK(BM_TcpBaselineStream)->Arg(1 << 20)->Arg(64 << 10)->UseRealTime();

void BM_TcpBaselinePingPong(benchmark::State& state) {
  TcpPair t;
  std::thread echo([&] {
    uint8_t b[48];
    while (TcpPair::recvAll(t.server, b, sizeof b)) TcpPair::sendAll(t.server, b, sizeof b);
  });
  uint8_t b[48] = {};
  for (auto _ : state) {
    TcpPair::sendAll(t.client, b, sizeof b);
    TcpPair::recvAll(t.client, b, sizeof b);
  }
  ::shutdown(t.client, SHUT_WR);
  echo.join();
}
BENCHMARK(BM_TcpBaselinePingPong)->UseRealTime();

}  // namespace

// Soak: many cycles of what a host does with a Coral behind `coralsim serve`, over real loopback
// USB/IP, against one real emulated Coral that powers on in the DFU bootloader:
//
//   attach (OP_REQ_IMPORT: the device is power-cycled into the bootloader)
//   → DFU download of the corpus firmware (driver/transport/dfu_download.h, verified by DFU_UPLOAD)
//   → re-enumeration (port reset: the device comes back as the runtime 18d1:9302)
//   → one inference of the smallest compiled corpus model (driver Runner; fresh random inputs,
//     descriptor-event or hint-driven service, both drawn from the PRNG)
//   → detach,
//
// with faults drawn from a seeded PRNG: clients killed with a TCP reset in the middle of a DFU
// download or of a bulk OUT transfer (their PDU half sent), clients that vanish mid-inference
// (firmware downloaded, program and input sent, the device computing, its interrupt URB pending,
// outputs never read: the connection just closes, as when the process is killed), and random
// unlinks (a transfer that times out on the driver's side is unlinked, CMD_UNLINK, while the
// device holds it). After every fault the cycle's own client must run a full inference.
//
// Counted: crashes (any exception is one), URBs left pending on the server after each cycle
// (ServerStats::urbsPending, must be 0), connections left open, open file descriptors and resident
// memory after the warm-up vs at the end (fds equal; RSS within kRssBound, heap in use within
// kHeapBound). The whole run is done
// twice with the same seed, each time with a fresh server and device, and the two traces — one
// deterministic record per cycle: fault pattern, DFU result, every descriptor the device pushed,
// output SHA-256 and simulated cycles — must be byte-identical.
//
// Environment: CORALSIM_SOAK_CYCLES (cycles per run; default kDefaultCycles, what CI runs),
// CORALSIM_SOAK_SEED (default 20261121), CORALSIM_SOAK_TRACE_DIR (write both traces there).
// Needs the corpus (firmware and a model); skips loudly without it.
#include <gtest/gtest.h>
#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <iostream>
#include <random>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>

#include "driver/transport/dfu_download.h"
#include "driver/model/model_loader.h"
#include "driver/run/random_inputs.h"
#include "driver/run/run_plan.h"
#include "driver/run/runner.h"
#include "driver/transport/transport.h"
#include "driver/transport/usbip_client_transport.h"
#include "tests/e2e/usbip_test_support.h"
#include "tests/support/corpus.h"
#include "traces/sha256.h"
#include "usbip/pdu_serializer.h"
#include "usbip/server.h"
#include "hosting/sim_exported_device.h"

namespace coralsim::usbip::soak_test {
namespace {

using namespace std::chrono_literals;

constexpr uint64_t kDefaultCycles = 4000;  // ~2 x 2-2.5 min on 2 cores; the full 10,000 by hand
constexpr uint64_t kDefaultSeed = 20261121;
// Growth allowed between the warm-up and the end: resident memory (which also keeps what the
// allocator holds for reuse) and heap in use (what a leak grows). Checked in normal builds only:
// glibc does not see ASan's/TSan's allocators, and ASan's quarantine grows RSS by design (there,
// LeakSanitizer checks for leaks at exit).
constexpr size_t kRssBound = size_t{32} << 20;
constexpr size_t kHeapBound = size_t{1} << 20;
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kMallocIsGlibc = false;
#else
constexpr bool kMallocIsGlibc = true;
#endif
constexpr uint32_t kBootloaderDevid = 0x00010001;

uint64_t envNumber(const char* name, uint64_t fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (end == text || *end != '\0') throw std::invalid_argument(std::string(name) + "='" + text + "' is not a number");
  return v;
}

// Bytes the program holds on the heap (glibc's count of allocated chunks and mmap'd blocks): what
// a leak grows, unlike RSS, which also holds freed memory the allocator keeps. Meaningless under
// ASan/TSan, whose allocators glibc does not see.
size_t heapInUse() {
  const struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;
}

size_t residentBytes() {
  std::ifstream statm("/proc/self/statm");
  size_t pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * static_cast<size_t>(::sysconf(_SC_PAGESIZE));
}

struct SoakFigures {
  uint64_t cycles = 0;
  uint64_t killedInDfu = 0;
  uint64_t killedInBulk = 0;
  uint64_t killedInInference = 0;
  uint64_t unlinks = 0;
  uint64_t crashes = 0;
  uint64_t leakedUrbs = 0;         // URBs still pending on the server after a cycle, summed
  uint64_t lingeringConnections = 0;
  size_t fdsAfterWarmup = 0, fdsAtEnd = 0;
  size_t rssAfterWarmup = 0, rssAtEnd = 0, rssPeak = 0;
  size_t heapAfterWarmup = 0, heapAtEnd = 0;
  std::string firstCrash;
  // The trace, one line per cycle, is streamed into a SHA-256 (and to a file when asked) rather
  // than kept: holding it would itself grow the heap by a line per cycle.
  std::string traceSha256;
  uint64_t traceBytes = 0;
};

// A client that dies with a TCP reset halfway through a PDU.
void killedClient(uint16_t port, bool duringDfu, std::mt19937_64& rng) {
  testing::RawConnection raw(port);
  OpReqImport import;
  import.body.busid = fixedText<kBusIdBytes>("1-1");
  raw.send(serialize(import));
  if (raw.receive(8 + 0x138).size() != 8 + 0x138) throw std::runtime_error("killed client: import not answered");
  CmdSubmit m;
  m.header.devid = kBootloaderDevid;
  std::vector<uint8_t> bytes;
  if (duringDfu) {
    // Some whole DFU_DNLOAD blocks, then one cut short.
    const uint32_t blocks = 1 + static_cast<uint32_t>(rng() % 4);
    for (uint32_t b = 0; b <= blocks; ++b) {
      m.header.seqnum = b + 1;
      m.header.direction = urb_direction::kOut;
      m.params.transferBufferLength = 256;
      m.params.setup = {0x21, 1, static_cast<uint8_t>(b), 0, 0, 0, 0x00, 0x01};
      m.transferBuffer.assign(256, static_cast<uint8_t>(b));
      const auto pdu = serialize(m);
      bytes.insert(bytes.end(), pdu.begin(), pdu.end() - (b == blocks ? 100 : 0));
    }
  } else {
    // A bulk OUT announcing 64 KiB, 1 KiB of it sent.
    m.header.seqnum = 1;
    m.header.direction = urb_direction::kOut;
    m.header.ep = 1;
    m.params.transferBufferLength = 64 * 1024;
    m.transferBuffer.assign(64 * 1024, 0x5A);
    const auto pdu = serialize(m);
    bytes.assign(pdu.begin(), pdu.begin() + 48 + 1024);
  }
  raw.send(bytes);
  raw.resetAbruptly();
}

// Stands in for a client process killed mid-inference: passes everything through until the
// input record has been sent, then, at the first IN transfer (the driver about to wait for events
// or outputs while the device computes), throws, and refuses everything after that, so the Runner
// gives up without touching the device again. The connection is then closed with URBs pending.
class KilledMidInference final : public driver::Transport {
 public:
  struct Killed : std::runtime_error {
    Killed() : std::runtime_error("client killed mid-inference") {}
  };
  explicit KilledMidInference(driver::Transport& wire) : wire_(wire) {}
  [[nodiscard]] std::string name() const override { return wire_.name(); }
  std::vector<uint8_t> control(const usb::ControlSetup& setup, std::span<const uint8_t> outData) override {
    if (killed_) throw Killed();
    return wire_.control(setup, outData);
  }
  void bulkOut(uint8_t endpoint, std::span<const uint8_t> bytes) override {
    if (killed_) throw Killed();
    // Record headers are transfers of their own (driver/transport/record_framing.h): tag in byte 4.
    if (inputHeaderSent_) inputSent_ = true;
    if (bytes.size() == 8 && (bytes[4] & 0x0F) == 1) inputHeaderSent_ = true;
    wire_.bulkOut(endpoint, bytes);
  }
  std::vector<uint8_t> bulkIn(uint8_t endpoint, uint32_t maxLength) override {
    if (inputSent_) killed_ = true;
    if (killed_) throw Killed();
    return wire_.bulkIn(endpoint, maxLength);
  }
  [[nodiscard]] usb::UsbSpeed linkSpeed() const override { return wire_.linkSpeed(); }
  [[nodiscard]] bool killed() const { return killed_; }

 private:
  driver::Transport& wire_;
  bool inputHeaderSent_ = false;
  bool inputSent_ = false;
  bool killed_ = false;
};

// A client that downloads the firmware, starts an inference and dies while the device computes.
void killedMidInference(uint16_t port, const std::vector<uint8_t>& firmware, const driver::RunPlan& plan,
                        std::mt19937_64& rng) {
  driver::UsbipClientTransport wire("127.0.0.1", port, "1-1");
  if (!driver::downloadFirmware(wire, firmware).afterReset) throw std::runtime_error("killed client: DFU failed");
  KilledMidInference dying(wire);
  driver::RunnerOptions options;
  options.service = rng() % 2 == 0 ? driver::ServiceMode::kEvents : driver::ServiceMode::kHints;
  driver::Runner runner(dying, options);
  runner.open();
  const driver::RunResult result = runner.run(plan, driver::randomInputs(plan, rng()));
  if (!dying.killed() || result.ok()) throw std::runtime_error("killed client: the inference was never interrupted");
}  // the connection closes here with the interrupt URB pending and the outputs unread

SoakFigures soak(uint64_t cycles, uint64_t seed, const std::vector<uint8_t>& firmware, const driver::RunPlan& plan,
                 const std::optional<std::filesystem::path>& traceFile) {
  SoakFigures f;
  traces::Sha256 traceHash;
  std::ofstream traceOut;
  if (traceFile) traceOut.open(*traceFile);
  sim::DeviceOptions deviceOptions;
  deviceOptions.startInBootloader = true;
  SimExportedDevice exported(deviceOptions);
  ServerOptions serverOptions;
  serverOptions.port = 0;
  serverOptions.log = [](std::string_view) {};
  Server server({&exported}, serverOptions);
  server.start();
  std::mt19937_64 rng(seed);
  const uint64_t warmup = std::max<uint64_t>(1, std::min<uint64_t>(50, cycles / 10));

  for (uint64_t cycle = 0; cycle < cycles; ++cycle) {
    std::ostringstream line;
    line << "cycle " << cycle;
    try {
      // 0: killed in DFU, 1: killed in bulk OUT, 2: killed mid-inference, else none
      const uint64_t fault = rng() % 10;
      const bool unlink = rng() % 4 == 0;
      if (fault == 2) {
        killedMidInference(server.port(), firmware, plan, rng);
        ++f.killedInInference;
        line << " killed-in-inference";
        if (!testing::eventually([&] { return server.stats().connectionsOpen.load() == 0; })) {
          throw std::runtime_error("the client killed mid-inference left its connection open");
        }
        if (!testing::eventually([&] { return server.stats().urbsPending.load() == 0; })) {
          throw std::runtime_error("the client killed mid-inference left URBs pending on the server");
        }
      }
      if (fault <= 1) {
        killedClient(server.port(), fault == 0, rng);
        ++(fault == 0 ? f.killedInDfu : f.killedInBulk);
        line << (fault == 0 ? " killed-in-dfu" : " killed-in-bulk");
        if (!testing::eventually([&] { return server.stats().connectionsOpen.load() == 0; })) {
          throw std::runtime_error("the killed client's connection was never closed");
        }
      }
      {
        driver::UsbipClientTransport wire("127.0.0.1", server.port(), "1-1");
        const driver::DfuDownloadResult dfu = driver::downloadFirmware(wire, firmware);
        if (!dfu.verified || !dfu.afterReset || dfu.afterReset->productId != 0x9302) {
          throw std::runtime_error("DFU download did not end in the runtime personality");
        }
        line << " dfu " << dfu.dataBlocks << "x" << dfu.transferSize << " -> " << std::hex << dfu.afterReset->vendorId
             << ":" << dfu.afterReset->productId << std::dec;
        // Fresh inputs every cycle, and both ways of servicing the run (descriptor events for
        // every tag, or hint-driven with only the completion on EP 0x82).
        driver::RunnerOptions runnerOptions;
        runnerOptions.service = rng() % 2 == 0 ? driver::ServiceMode::kEvents : driver::ServiceMode::kHints;
        const uint64_t inputSeed = rng();
        line << " | " << driver::serviceModeName(runnerOptions.service) << " inputs " << inputSeed;
        driver::Runner runner(wire, runnerOptions);
        runner.open();
        const driver::RunResult result = runner.run(plan, driver::randomInputs(plan, inputSeed));
        if (!result.ok()) throw std::runtime_error("inference failed: " + result.error.value_or(""));
        for (const auto& run : result.runs) {
          line << " | " << run.executable << (run.completed ? " done" : " INCOMPLETE");
          for (const auto& d : run.descriptors) {
            line << " " << int{d.descriptor.tag} << "@" << std::hex << d.descriptor.address << "+" << d.descriptor.length << std::dec;
          }
        }
        for (const auto& out : result.outputs) line << " | " << out.name << " " << out.sha256;
        line << " | cycles " << exported.device().cycles();
        if (unlink) {
          // Nothing will arrive on EP 0x82 now: the transfer times out and is unlinked while the
          // device holds it.
          const auto saved = wire.timeout();
          wire.setTimeout(2ms);
          try {
            (void)wire.bulkIn(0x82, 16);
            throw std::runtime_error("an event arrived on an idle device");
          } catch (const driver::TransportError&) {
            ++f.unlinks;
            line << " unlinked";
          }
          wire.setTimeout(saved);
        }
        runner.close();
      }  // detach
      if (!testing::eventually([&] { return server.stats().connectionsOpen.load() == 0; })) ++f.lingeringConnections;
      f.leakedUrbs += server.stats().urbsPending.load();
    } catch (const std::exception& e) {
      ++f.crashes;
      if (f.firstCrash.empty()) f.firstCrash = "cycle " + std::to_string(cycle) + ": " + e.what();
      line << " CRASH";
      (void)testing::eventually([&] { return server.stats().connectionsOpen.load() == 0; });
    }
    line << '\n';
    const std::string text = line.str();
    traceHash.update(std::string_view(text));
    f.traceBytes += text.size();
    if (traceOut.is_open()) traceOut << text;
    ++f.cycles;
    if (cycle + 1 == warmup) {
      f.fdsAfterWarmup = testing::openDescriptors();
      f.rssAfterWarmup = residentBytes();
      f.heapAfterWarmup = heapInUse();
    }
    if (cycle + 1 >= warmup) f.rssPeak = std::max(f.rssPeak, residentBytes());
    if ((cycle + 1) % 1000 == 0) std::cout << "  soak: " << cycle + 1 << " cycles" << std::endl;
  }
  f.fdsAtEnd = testing::openDescriptors();
  f.rssAtEnd = residentBytes();
  f.heapAtEnd = heapInUse();
  const auto digest = traceHash.finish();
  f.traceSha256 = traces::Sha256::toHex(digest);
  server.stop();
  return f;
}

TEST(Soak, AttachDfuInferDetachCyclesWithKilledClientsAndUnlinks) {
  CORALSIM_REQUIRE_CORPUS(testing::corpusDir());
  const auto firmwareFiles = testing::corpusFiles("apex_latest_single_ep.bin");
  auto models = testing::corpusFiles("_edgetpu.tflite");
  if (firmwareFiles.empty() || models.empty()) {
    GTEST_SKIP() << "\n*** SKIPPED: the corpus has no apex_latest_single_ep.bin or no compiled model ***\n";
  }
  // The smallest compiled model (ties: the first in path order).
  std::stable_sort(models.begin(), models.end(), [](const auto& a, const auto& b) {
    return std::filesystem::file_size(a) < std::filesystem::file_size(b);
  });
  const std::vector<uint8_t> firmware = testing::readFile(firmwareFiles.front());
  const driver::ModelFile model = driver::loadModelFile(models.front());
  const driver::RunPlan plan = driver::planRun(model);

  const uint64_t cycles = envNumber("CORALSIM_SOAK_CYCLES", kDefaultCycles);
  const uint64_t seed = envNumber("CORALSIM_SOAK_SEED", kDefaultSeed);
  std::cout << "soak: " << cycles << " cycles x 2 runs, seed " << seed << ", model " << models.front().filename().string()
            << ", firmware " << firmware.size() << " bytes" << std::endl;

  const auto fdsBefore = testing::openDescriptors();
  SoakFigures runs[2];
  for (int r = 0; r < 2; ++r) {
    const auto start = std::chrono::steady_clock::now();
    std::optional<std::filesystem::path> traceFile;
    if (const char* dir = std::getenv("CORALSIM_SOAK_TRACE_DIR")) {
      traceFile = std::filesystem::path(dir) / ("soak-trace-" + std::to_string(r + 1) + ".txt");
    }
    runs[r] = soak(cycles, seed, firmware, plan, traceFile);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const SoakFigures& f = runs[r];
    std::cout << "soak run " << r + 1 << ": " << f.cycles << " cycles in " << seconds << " s; crashes " << f.crashes
              << ", killed clients " << f.killedInDfu << " in DFU + " << f.killedInBulk << " in bulk OUT + "
              << f.killedInInference << " mid-inference, unlinks "
              << f.unlinks << ", leaked URBs " << f.leakedUrbs << ", lingering connections " << f.lingeringConnections
              << ", fds " << f.fdsAfterWarmup << " -> " << f.fdsAtEnd << ", RSS " << (f.rssAfterWarmup >> 10) << " KiB -> "
              << (f.rssAtEnd >> 10) << " KiB (peak " << (f.rssPeak >> 10) << " KiB), heap in use "
              << (f.heapAfterWarmup >> 10) << " KiB -> " << (f.heapAtEnd >> 10) << " KiB, trace " << f.traceBytes
              << " bytes, SHA-256 " << f.traceSha256 << std::endl;
    EXPECT_EQ(f.crashes, 0u) << f.firstCrash;
    EXPECT_EQ(f.leakedUrbs, 0u);
    EXPECT_EQ(f.lingeringConnections, 0u);
    EXPECT_EQ(f.fdsAtEnd, f.fdsAfterWarmup) << "file descriptors leaked";
    if (kMallocIsGlibc) {  // ASan's quarantine and TSan's allocator make both meaningless
      EXPECT_LE(f.rssPeak, f.rssAfterWarmup + kRssBound) << "memory grew after the warm-up";
      EXPECT_LE(f.heapAtEnd, f.heapAfterWarmup + kHeapBound) << "heap in use grew after the warm-up";
    }
  }
  EXPECT_GT(runs[0].killedInDfu, 0u) << "the fault schedule never killed a client in DFU";
  EXPECT_GT(runs[0].killedInBulk, 0u) << "the fault schedule never killed a client in bulk OUT";
  EXPECT_GT(runs[0].killedInInference, 0u) << "the fault schedule never killed a client mid-inference";
  EXPECT_GT(runs[0].unlinks, 0u) << "the fault schedule never unlinked";
  EXPECT_EQ(runs[0].traceBytes, runs[1].traceBytes);
  EXPECT_EQ(runs[0].traceSha256, runs[1].traceSha256)
      << "the same seed gave different traces (CORALSIM_SOAK_TRACE_DIR=dir writes both to compare)";
  EXPECT_EQ(testing::openDescriptors(), fdsBefore) << "file descriptors leaked across the runs";
}

}  // namespace
}  // namespace coralsim::usbip::soak_test

// The emulated Coral on the wire: a sim::Device exported by the USB/IP server (SimExportedDevice)
// and driven by the host driver through the userspace client (UsbipClientTransport), compared with
// the same driver on the same kind of device in process (InProcessTransport) — the oracle is the
// in-process path, which never touches the USB/IP code.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "driver/transport/dfu_download.h"
#include "hosting/in_process_transport.h"
#include "driver/model/model_loader.h"
#include "driver/run/open_close_sequence.h"
#include "driver/run/random_inputs.h"
#include "driver/run/run_plan.h"
#include "driver/run/runner.h"
#include "driver/transport/usbip_client_transport.h"
#include "sim/device.h"
#include "sim/hle_host/program_loader.h"
#include "tests/support/corpus.h"
#include "tests/support/json_reader.h"
#include "tests/support/simulation_thread_hold.h"
#include "usbip/client.h"
#include "usbip/server.h"
#include "hosting/sim_exported_device.h"

namespace coralsim::usbip::usbip_sim_test {
namespace {

class UsbipSimTest : public ::testing::Test {
 protected:
  void SetUp() override {
    exported_ = std::make_unique<SimExportedDevice>(sim::DeviceOptions{});
    ServerOptions o;
    o.port = 0;
    o.log = [](std::string_view) {};
    server_ = std::make_unique<Server>(std::vector<ExportedDevice*>{exported_.get()}, o);
    server_->start();
  }
  void TearDown() override {
    server_->stop();
    server_.reset();
    exported_.reset();
  }
  std::unique_ptr<driver::UsbipClientTransport> transport() {
    return std::make_unique<driver::UsbipClientTransport>("127.0.0.1", server_->port(), "1-1");
  }

  std::unique_ptr<SimExportedDevice> exported_;
  std::unique_ptr<Server> server_;
};

TEST_F(UsbipSimTest, DevlistShowsTheRuntimePersonalityReadFromTheDevice) {
  const auto devices = UsbipClient::listDevices("127.0.0.1", server_->port());
  ASSERT_EQ(devices.size(), 1u);
  EXPECT_EQ(devices[0].device.idVendor, 0x18D1);
  EXPECT_EQ(devices[0].device.idProduct, 0x9302);
  EXPECT_EQ(devices[0].device.speed, usb_speed_code::kSuper);
  EXPECT_EQ(devices[0].device.bConfigurationValue, 1);
  ASSERT_EQ(devices[0].interfaces.size(), 1u);
  EXPECT_EQ(devices[0].interfaces[0].bInterfaceClass, 0xFF);
}

TEST_F(UsbipSimTest, EnumerationRequestsOverTheWire) {
  UsbipClient c("127.0.0.1", server_->port(), "1-1");
  auto get = [&](uint16_t wValue, uint16_t wLength) {
    auto r = c.wait(c.submitControl({0x80, 6, wValue, 0, wLength}), std::chrono::seconds(10));
    EXPECT_TRUE(r.has_value());
    return r ? r->transferBuffer : std::vector<uint8_t>{};
  };
  EXPECT_EQ(get(0x0100, 18).size(), 18u);
  EXPECT_EQ(get(0x0200, 0xFFFF).size(), 96u);
  EXPECT_EQ(get(0x0F00, 0xFF).size(), 22u);
}

TEST_F(UsbipSimTest, AnUnlinkIsAnsweredWhileALongComputationHoldsTheSimulationThread) {
  // A served device computing a large model holds the simulation thread for seconds; the unlink a
  // client sends when its transfer times out must be answered at once, as a real device's host
  // controller does (before: no answer until the computation returned, and the client dropped the
  // connection).
  UsbipClient c("127.0.0.1", server_->port(), "1-1");
  const uint32_t events = c.submitIn(0x82, 16);
  ASSERT_FALSE(c.wait(events, std::chrono::milliseconds(200)));  // pending on the device
  coralsim::testing::SimulationThreadHold hold;
  std::optional<UsbipClient::UnlinkOutcome> outcome;
  std::string error;
  try {
    outcome = c.unlink(events, std::chrono::seconds(5));
  } catch (const std::exception& e) {
    error = e.what();
  }
  hold.release();
  ASSERT_TRUE(outcome) << "no RET_UNLINK while the simulation thread was busy: " << error;
  EXPECT_EQ(outcome->status, -ECONNRESET);
  EXPECT_FALSE(outcome->completed);
  // The connection is still in service.
  auto r = c.wait(c.submitControl({0x80, 6, 0x0100, 0, 18}), std::chrono::seconds(10));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->transferBuffer.size(), 18u);
}

TEST_F(UsbipSimTest, OpenAndCloseSequencesMatchInProcess) {
  auto wire = transport();
  sim::Device local;
  driver::InProcessTransport inProcess(local);
  const driver::OpenOptions options;
  driver::openChip(*wire, options);
  driver::openChip(inProcess, options);
  // Registers the open sequence configures or the driver polls (docs/usb-protocol.md §5.1).
  for (uint32_t address : {0x1A318u, 0x1A30Cu, 0x4C148u, 0x4C058u, 0x44018u, 0x48788u}) {
    EXPECT_EQ(wire->read32(address), inProcess.read32(address)) << std::hex << address;
  }
  EXPECT_EQ(wire->linkSpeed(), usb::UsbSpeed::kSuper);
  driver::closeChip(*wire, options.pollTimeout);
  driver::closeChip(inProcess, options.pollTimeout);
  EXPECT_EQ(wire->read32(0x1A318), inProcess.read32(0x1A318));
}

TEST_F(UsbipSimTest, CorpusModelsRunTheSameOverUsbipAsInProcess) {
  CORALSIM_REQUIRE_CORPUS(testing::corpusDir());
  auto models = testing::corpusFiles("_edgetpu.tflite");
  ASSERT_FALSE(models.empty());
  std::sort(models.begin(), models.end(), [](const auto& a, const auto& b) {
    return std::filesystem::file_size(a) < std::filesystem::file_size(b);
  });
  // The two smallest models, the median one and one at 90% of the sizes (parameters and inputs in
  // many records, megabytes over the wire).
  std::vector<std::filesystem::path> picked(models.begin(), models.begin() + std::min<ptrdiff_t>(2, std::ssize(models)));
  if (models.size() > 4) picked.push_back(models[models.size() / 2]);
  if (models.size() > 4) picked.push_back(models[models.size() * 9 / 10]);
  models = picked;
  for (const auto& path : models) {
    for (driver::ServiceMode mode : {driver::ServiceMode::kHints, driver::ServiceMode::kEvents}) {
      const driver::ModelFile model = driver::loadModelFile(path);
      const driver::RunPlan plan = driver::planRun(model);
      const auto inputs = driver::randomInputs(plan, 20261121);
      driver::RunnerOptions options;
      options.service = mode;
      const std::string what = path.filename().string() + " (" + std::string(driver::serviceModeName(mode)) + ")";

      auto wire = transport();  // the import power-cycles the exported device: cycles start at 0
      driver::Runner overWire(*wire, options);
      overWire.open();
      const driver::RunResult a = overWire.run(plan, inputs);
      overWire.close();
      const uint64_t wireCycles = exported_->device().cycles();
      const std::vector<sim::RunDeviceTime> wireTimes = exported_->device().runTimes();
      const usb::SimulatedInstant wireDeviceTime = exported_->device().deviceTime();
      wire.reset();  // unplug: the next import power-cycles the device

      sim::Device local;
      driver::InProcessTransport inProcess(local);
      driver::RunnerOptions hereOptions = options;
      hereOptions.deviceTime = true;  // what `coralsim run --timing` reads
      driver::Runner here(inProcess, hereOptions);
      here.open();
      const driver::RunResult b = here.run(plan, inputs);
      here.close();

      ASSERT_TRUE(a.ok()) << what << ": " << a.error.value_or("");
      ASSERT_TRUE(b.ok()) << what << ": " << b.error.value_or("");
      ASSERT_EQ(a.runs.size(), b.runs.size()) << what;
      for (size_t i = 0; i < a.runs.size(); ++i) {
        EXPECT_TRUE(a.runs[i].completed) << what << " run " << i;
        EXPECT_EQ(a.runs[i].completed, b.runs[i].completed) << what << " run " << i;
        // In process, hint-driven runs see every descriptor through the simulator's own log; over
        // the wire only what reaches EP 0x82 (tags 4..7 with descr_ep 0xF0). Compare that part.
        std::vector<driver::DeviceDescriptor> expected, seen;
        for (const auto& d : b.runs[i].descriptors) {
          if (a.runs[i].descriptorSource == b.runs[i].descriptorSource || d.descriptor.tag >= 4) expected.push_back(d.descriptor);
        }
        for (const auto& d : a.runs[i].descriptors) seen.push_back(d.descriptor);
        EXPECT_EQ(seen, expected) << what << " run " << i;
      }
      ASSERT_EQ(a.outputs.size(), b.outputs.size()) << what;
      for (size_t i = 0; i < a.outputs.size(); ++i) EXPECT_EQ(a.outputs[i].sha256, b.outputs[i].sha256) << what;
      // Simulated time depends only on the program, the data and the transfer order, not the wire.
      EXPECT_EQ(wireCycles, local.cycles()) << what;
      // So is device time: the device clock charges the link model's transfers (libedgetpu's
      // pattern), not the URBs a transport happens to use, so the server's device (what `coralsim
      // serve` prints) and the in-process run report the same figures, bit for bit.
      ASSERT_EQ(wireTimes.size(), b.runs.size()) << what;
      for (size_t i = 0; i < b.runs.size(); ++i) {
        ASSERT_TRUE(b.runs[i].timing.has_value()) << what << " run " << i;
        EXPECT_EQ(wireTimes[i].totalTime.value(), b.runs[i].timing->totalTime.value()) << what << " run " << i;
        EXPECT_EQ(wireTimes[i].usbTime.value(), b.runs[i].timing->usbTime.value()) << what << " run " << i;
        EXPECT_EQ(wireTimes[i].computeCycles, b.runs[i].timing->computeCycles) << what << " run " << i;
        EXPECT_EQ(wireTimes[i].traffic.bulkInTransfers, b.runs[i].timing->bulkInTransfers) << what << " run " << i;
        EXPECT_GT(wireTimes[i].totalTime.value(), 0.0) << what << " run " << i;
      }
      EXPECT_EQ(wireDeviceTime, local.deviceTime()) << what;
      std::cout << what << ": " << a.runs.size() << " executable runs, " << a.outputs.size() << " outputs, "
                << wireCycles << " cycles and " << static_cast<double>(wireDeviceTime.picoseconds) / 1e9
                << " ms of device time both over USB/IP and in process\n";
    }
  }
}

// The high-level datapath on the wire: a device with registered programs (`coralsim serve --hle`)
// computes the same output bytes over USB/IP as in process, where corpus_hle_device holds them to
// the golden files. The programs: the smallest golden model whose twin is in the corpus and the
// median one by size.
TEST(UsbipSimHle, RegisteredProgramsComputeTheSameBytesOverTheWireAsInProcess) {
  CORALSIM_REQUIRE_CORPUS(testing::corpusDir());
  CORALSIM_REQUIRE_CORPUS(testing::goldenDir());
  const std::filesystem::path corpus = *testing::corpusDir();
  std::vector<sim::HleProgramSpec> specs;
  for (const auto& entry : std::filesystem::directory_iterator(*testing::goldenDir())) {
    const std::filesystem::path manifestPath = entry.path() / "manifest.json";
    if (!std::filesystem::exists(manifestPath)) continue;
    std::ifstream in(manifestPath);
    std::stringstream text;
    text << in.rdbuf();
    const testing::JsonValue manifest = testing::parseJson(text.str());
    const testing::JsonValue* twin = manifest.find("twin");
    const testing::JsonValue* compiled = manifest.find("compiled");
    if (twin == nullptr || compiled == nullptr || twin->find("where") == nullptr ||
        twin->find("where")->text != "corpus" || manifest.find("tensor_map") == nullptr) {
      continue;
    }
    // Only twins that pair by name without the manifest's documented overrides or patches.
    if (text.str().find("\"override\"") != std::string::npos || text.str().find("quant patch") != std::string::npos) continue;
    const std::filesystem::path c = corpus / compiled->find("path")->text;
    const std::filesystem::path t = corpus / twin->find("path")->text;
    if (std::filesystem::exists(c) && std::filesystem::exists(t)) specs.push_back({c, t, {}, {}});
  }
  ASSERT_GE(specs.size(), 2u) << "golden models with a corpus twin";
  std::sort(specs.begin(), specs.end(), [](const auto& a, const auto& b) {
    return std::filesystem::file_size(a.compiled) < std::filesystem::file_size(b.compiled);
  });
  specs = {specs.front(), specs[specs.size() / 2]};  // a tiny one and a mid-sized network
  sim::DeviceOptions options;
  options.chip.mode = models::ExecutionMode::kHle;
  options.chip.hlePrograms = sim::buildHleRegistry(specs);

  SimExportedDevice exported(options);
  ServerOptions serverOptions;
  serverOptions.port = 0;
  serverOptions.log = [](std::string_view) {};
  Server server(std::vector<ExportedDevice*>{&exported}, serverOptions);
  server.start();
  for (const sim::HleProgramSpec& spec : specs) {
    const driver::ModelFile model = driver::loadModelFile(spec.compiled);
    const driver::RunPlan plan = driver::planRun(model);
    const auto inputs = driver::randomInputs(plan, 20261121);
    const std::string what = spec.compiled.filename().string();

    driver::UsbipClientTransport wire("127.0.0.1", server.port(), "1-1");
    driver::Runner overWire(wire, {});
    overWire.open();
    const driver::RunResult a = overWire.run(plan, inputs);
    overWire.close();

    sim::Device local(options);
    driver::InProcessTransport inProcess(local);
    driver::Runner here(inProcess, {});
    here.open();
    const driver::RunResult b = here.run(plan, inputs);
    here.close();

    ASSERT_TRUE(a.ok()) << what << ": " << a.error.value_or("");
    ASSERT_TRUE(b.ok()) << what << ": " << b.error.value_or("");
    for (const auto& run : b.runs) EXPECT_EQ(run.rung.value_or("none"), "hle") << what << ": " << run.rungNote.value_or("");
    ASSERT_EQ(a.outputs.size(), b.outputs.size()) << what;
    for (size_t i = 0; i < a.outputs.size(); ++i) {
      EXPECT_EQ(a.outputs[i].bytes, b.outputs[i].bytes) << what << " output " << i;
      // Computed numbers, not the protocol rung's zero fillers.
      EXPECT_TRUE(std::any_of(b.outputs[i].bytes.begin(), b.outputs[i].bytes.end(), [](uint8_t v) { return v != 0; }))
          << what << " output " << i;
    }
    std::cout << what << ": " << a.outputs.size() << " outputs computed on the hle rung, identical over USB/IP\n";
  }
  server.stop();
}

// A device that powers on as the bootloader, flashed over the wire the way libedgetpu does it
// (driver/transport/dfu_download.h), re-enumerated by the client's port reset, then opened as a runtime.
TEST(UsbipSimBootloader, DfuDownloadOverTheWireSwitchesToTheRuntime) {
  sim::DeviceOptions options;
  options.startInBootloader = true;
  SimExportedDevice exported(options);
  ServerOptions o;
  o.port = 0;
  o.log = [](std::string_view) {};
  Server server({&exported}, o);
  server.start();
  EXPECT_EQ(UsbipClient::listDevices("127.0.0.1", server.port())[0].device.idProduct, 0x089A);

  // The real single-EP firmware when the corpus has it; the device does not execute it anyway.
  std::vector<uint8_t> image(10783);
  for (size_t i = 0; i < image.size(); ++i) image[i] = static_cast<uint8_t>(i * 7 + 1);
  if (const auto files = testing::corpusFiles("apex_latest_single_ep.bin"); !files.empty()) {
    image = testing::readFile(files.front());
  }
  {
    driver::UsbipClientTransport wire("127.0.0.1", server.port(), "1-1");
    EXPECT_EQ(driver::readDeviceIdentity(wire).productId, 0x089A);
    const driver::DfuDownloadResult r = driver::downloadFirmware(wire, image);
    EXPECT_EQ(r.imageBytes, image.size());
    EXPECT_EQ(r.dataBlocks, (image.size() + 255) / 256);
    EXPECT_EQ(r.transferSize, 256);
    EXPECT_TRUE(r.verified);
    ASSERT_TRUE(r.afterReset.has_value());
    EXPECT_EQ(r.afterReset->vendorId, 0x18D1);
    EXPECT_EQ(r.afterReset->productId, 0x9302);
    // The same connection now drives the runtime personality.
    driver::openChip(wire, driver::OpenOptions{});
    driver::closeChip(wire, std::chrono::milliseconds(5000));
    EXPECT_EQ(UsbipClient::listDevices("127.0.0.1", server.port())[0].device.idProduct, 0x9302);
  }
  // Unplugged and imported again: freshly powered, the bootloader again (§10.5 item 12).
  driver::UsbipClientTransport again("127.0.0.1", server.port(), "1-1");
  EXPECT_EQ(driver::readDeviceIdentity(again).productId, 0x089A);
}

}  // namespace
}  // namespace coralsim::usbip::usbip_sim_test

// The emulated Coral on the wire: a sim::Device exported by the USB/IP server (SimExportedDevice)
// and driven by the host driver through the userspace client (UsbipClientTransport), compared with
// the same driver on the same kind of device in process (InProcessTransport) — the oracle is the
// in-process path, which never touches the USB/IP code.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "driver/dfu_download.h"
#include "driver/in_process_transport.h"
#include "driver/model_loader.h"
#include "driver/open_close_sequence.h"
#include "driver/random_inputs.h"
#include "driver/run_plan.h"
#include "driver/runner.h"
#include "driver/usbip_client_transport.h"
#include "sim/device.h"
#include "tests/support/corpus.h"
#include "usbip/client.h"
#include "usbip/server.h"
#include "usbip/sim_exported_device.h"

namespace coralsim::usbip {
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
  EXPECT_EQ(wire->linkSpeed(), sim::UsbSpeed::kSuper);
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
      wire.reset();  // unplug: the next import power-cycles the device

      sim::Device local;
      driver::InProcessTransport inProcess(local);
      driver::Runner here(inProcess, options);
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
      std::cout << what << ": " << a.runs.size() << " executable runs, " << a.outputs.size() << " outputs, "
                << wireCycles << " cycles both over USB/IP and in process\n";
    }
  }
}

// A device that powers on as the bootloader, flashed over the wire the way libedgetpu does it
// (driver/dfu_download.h), re-enumerated by the client's port reset, then opened as a runtime.
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
}  // namespace coralsim::usbip

#include "hosting/sim_exported_device.h"

#include <stdexcept>
#include <string>

#include "sim/usb_descriptors.h"

namespace coralsim::usbip {
namespace {

std::vector<uint8_t> readDescriptorBytes(sim::Device& device, uint8_t type, uint16_t length) {
  const usb::ControlSetup setup{0x80, 6, static_cast<uint16_t>(type << 8), 0, length};
  usb::UrbResult r = device.control(setup, {});
  if (r.status != usb::UrbStatus::kOk) {
    throw std::runtime_error("usbip: the device answered GET_DESCRIPTOR(" + std::to_string(type) + ") with " +
                             std::string(usb::urbStatusName(r.status)));
  }
  return std::move(r.data);
}

}  // namespace

sim::Device& SimExportedDevice::live() {
  if (!device_) throw std::runtime_error("usbip: the simulated device could not be powered on again");
  return *device_;
}

SimExportedDevice::SimExportedDevice(sim::DeviceOptions options)
    : options_(std::move(options)), device_(std::make_unique<sim::Device>(options_)) {}

SimExportedDevice::~SimExportedDevice() = default;

ExportedDeviceInfo SimExportedDevice::info() {
  ExportedDeviceInfo info;
  info.speed = live().options().speed;
  const auto deviceBytes = readDescriptorBytes(live(), sim::descriptor_type::kDevice, 18);
  const auto d = sim::readDescriptor<sim::DeviceDescriptor>(deviceBytes);
  if (!d) throw std::runtime_error("usbip: the device descriptor is malformed");
  info.idVendor = d->idVendor;
  info.idProduct = d->idProduct;
  info.bcdDevice = d->bcdDevice;
  info.bDeviceClass = d->bDeviceClass;
  info.bDeviceSubClass = d->bDeviceSubClass;
  info.bDeviceProtocol = d->bDeviceProtocol;
  info.bNumConfigurations = d->bNumConfigurations;

  const auto head = readDescriptorBytes(live(), sim::descriptor_type::kConfiguration, 9);
  const auto config = sim::readDescriptor<sim::ConfigurationDescriptor>(head);
  if (!config) throw std::runtime_error("usbip: the configuration descriptor is malformed");
  info.bConfigurationValue = config->bConfigurationValue;
  const auto all = readDescriptorBytes(live(), sim::descriptor_type::kConfiguration, config->wTotalLength);
  for (size_t at = 0; at + 2 <= all.size() && all[at] >= 2; at += all[at]) {
    const auto span = std::span<const uint8_t>(all).subspan(at);
    if (const auto i = sim::readDescriptor<sim::InterfaceDescriptor>(span); i && i->bAlternateSetting == 0) {
      info.interfaces.push_back({i->bInterfaceClass, i->bInterfaceSubClass, i->bInterfaceProtocol});
    }
  }
  return info;
}

usb::UrbResult SimExportedDevice::control(const usb::ControlSetup& setup, std::span<const uint8_t> outData) {
  return live().control(setup, outData);
}

uint64_t SimExportedDevice::submitOut(uint8_t endpointAddress, std::vector<uint8_t> data, Completion done) {
  return live().submitOut(endpointAddress, std::move(data), std::move(done));
}

uint64_t SimExportedDevice::submitIn(uint8_t endpointAddress, uint32_t length, Completion done) {
  return live().submitIn(endpointAddress, length, std::move(done));
}

bool SimExportedDevice::cancel(uint64_t urbId) { return device_ ? device_->cancel(urbId) : false; }

void SimExportedDevice::busReset() {
  if (device_) device_->busReset();
}

void SimExportedDevice::powerCycle() {
  device_.reset();  // give the slot back first: the pool may be full
  device_ = std::make_unique<sim::Device>(options_);
}

}  // namespace coralsim::usbip

#include "usbip/device_record.h"

namespace coralsim::usbip {

uint32_t speedCode(usb::UsbSpeed speed) {
  return speed == usb::UsbSpeed::kSuper ? usb_speed_code::kSuper : usb_speed_code::kHigh;
}

UsbDeviceRecord deviceRecord(const ExportedDeviceInfo& info, const BusPosition& position) {
  UsbDeviceRecord r;
  // Informational only (the client never opens it); shaped like the sysfs path usbipd reports.
  r.path = fixedText<kPathBytes>("/sys/devices/platform/coralsim/usb" + std::to_string(position.busnum) + "/" +
                                 position.busId());
  r.busid = fixedText<kBusIdBytes>(position.busId());
  r.busnum = position.busnum;
  r.devnum = position.devnum;
  r.speed = speedCode(info.speed);
  r.idVendor = info.idVendor;
  r.idProduct = info.idProduct;
  r.bcdDevice = info.bcdDevice;
  r.bDeviceClass = info.bDeviceClass;
  r.bDeviceSubClass = info.bDeviceSubClass;
  r.bDeviceProtocol = info.bDeviceProtocol;
  r.bConfigurationValue = info.bConfigurationValue;
  r.bNumConfigurations = info.bNumConfigurations;
  r.bNumInterfaces = static_cast<uint8_t>(info.interfaces.size());
  return r;
}

ExportedDeviceEntry devlistEntry(const ExportedDeviceInfo& info, const BusPosition& position) {
  ExportedDeviceEntry e{deviceRecord(info, position), {}};
  for (const ExportedDeviceInfo::Interface& i : info.interfaces) {
    if (e.interfaces.size() == 255) break;  // bNumInterfaces is one byte
    e.interfaces.push_back({i.bInterfaceClass, i.bInterfaceSubClass, i.bInterfaceProtocol});
  }
  return e;
}

}  // namespace coralsim::usbip

#include "libedgetpu/delegate_options.h"

#include <cstdlib>
#include <filesystem>
#include <string_view>

namespace coralsim::libedgetpu {
namespace {

struct OptionKey {
  const char* key;
  const char* env;
};

// Every key a delegate accepts, with its environment variable (delegate_options.h documents them).
constexpr OptionKey kOptionKeys[] = {
    {"device", "CORALSIM_DEVICE"},         {"mode", "CORALSIM_MODE"},
    {"firmware", "CORALSIM_FIRMWARE"},   {"hle", "CORALSIM_HLE"},               {"hle_dir", "CORALSIM_HLE_DIR"},
    {"cycle_limit", "CORALSIM_CYCLE_LIMIT"},
    {"clock_mhz", "CORALSIM_CLOCK_MHZ"},   {"service", "CORALSIM_SERVICE"},
    {"timeout_ms", "CORALSIM_TIMEOUT_MS"}, {"verbosity", "CORALSIM_VERBOSITY"},
    {"timing", "CORALSIM_TIMING"},         {"trace_usb", "CORALSIM_TRACE_USB"},
};

uint64_t positiveNumber(const std::string& key, const std::string& value, uint64_t max) {
  if (value.empty() || value.size() > 12 || value.find_first_not_of("0123456789") != std::string::npos) {
    throw OptionError("option '" + key + "' expects a whole number, got '" + value + "'");
  }
  const uint64_t n = std::stoull(value);
  if (n == 0 || n > max) throw OptionError("option '" + key + "' expects 1.." + std::to_string(max) + ", got " + value);
  return n;
}

// libedgetpu's device forms for a USB accelerator: "" and "usb" (the first), "usb:N" and ":N" (the
// Nth), and a path edgetpu_list_devices returned; all become "usb:N" or "usbpath:BUS-PORTS".
// The USB devices are the Corals libusb sees, then the in-process simulator (DeviceSession).
std::string normaliseDevice(const std::string& value) {
  if (value == "sim" || value == kSimulatorDevicePath) return "sim";
  if (value.empty() || value == "usb") return "usb:0";
  const auto digitsAfter = [&](size_t pos) {
    return pos < value.size() && value.size() - pos <= 3 && value.find_first_not_of("0123456789", pos) == std::string::npos;
  };
  if (value.starts_with("usb:") && digitsAfter(4)) return "usb:" + value.substr(4);
  if (value.starts_with(":") && digitsAfter(1)) return "usb:" + value.substr(1);
  if (value.starts_with(kUsbDevicePathPrefix) && value.size() > kUsbDevicePathPrefix.size()) {
    return "usbpath:" + value.substr(kUsbDevicePathPrefix.size());
  }
  if (value.starts_with("usbip:")) {
    (void)parseUsbipDevice(value);  // validated now, used by DeviceSession
    return value;
  }
  if (value.starts_with("pci")) {
    throw OptionError("option 'device': '" + value + "' is a PCIe Edge TPU; coralsim emulates the USB accelerator (use usb, usb:N, :N or sim)");
  }
  throw OptionError("option 'device' expects usb, usb:N, :N, sim, a path from edgetpu_list_devices or "
                    "usbip:HOST:PORT[:BUSID], got '" + value + "'");
}

std::vector<HleTwin> parseHleTwins(const std::string& value) {
  std::vector<HleTwin> twins;
  size_t start = 0;
  while (start <= value.size()) {
    size_t end = value.find(';', start);
    if (end == std::string::npos) end = value.size();
    const std::string pair = value.substr(start, end - start);
    start = end + 1;
    if (pair.empty()) continue;
    const size_t eq = pair.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == pair.size()) {
      throw OptionError("option 'hle' expects COMPILED=CPU[;COMPILED=CPU...], got '" + pair + "'");
    }
    twins.push_back({pair.substr(0, eq), pair.substr(eq + 1)});
  }
  return twins;
}

void apply(DelegateOptions& options, const std::string& key, const std::string& value) {
  if (key == "device") {
    options.device = normaliseDevice(value);
  } else if (key == "firmware") {
    options.firmware = value;
  } else if (key == "mode") {
    if (!models::parseExecutionMode(value, options.mode)) {
      throw OptionError("option 'mode' expects auto, lle, hle or protocol, got '" + value + "'");
    }
  } else if (key == "hle") {
    options.hleTwins = parseHleTwins(value);
  } else if (key == "hle_dir") {
    std::error_code error;
    if (!std::filesystem::is_directory(value, error)) throw OptionError("option 'hle_dir': '" + value + "' is not a folder");
    options.hleDir = value;
  } else if (key == "cycle_limit") {
    options.cycleLimit = positiveNumber(key, value, 1'000'000'000'000ULL);
  } else if (key == "clock_mhz") {
    options.clockMhz = positiveNumber(key, value, 10'000);
  } else if (key == "service") {
    if (!driver::parseServiceMode(value, options.service)) {
      throw OptionError("option 'service' expects hints or events, got '" + value + "'");
    }
  } else if (key == "timeout_ms") {
    options.timeout = std::chrono::milliseconds(positiveNumber(key, value, 3'600'000));
  } else if (key == "timing") {
    if (value != "0" && value != "1") throw OptionError("option 'timing' expects 0 or 1, got '" + value + "'");
    options.timing = value == "1";
  } else if (key == "trace_usb") {
    if (value.empty()) throw OptionError("option 'trace_usb' expects a file path");
    options.traceUsb = value;
  } else if (key == "verbosity") {
    if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos || value.size() > 2) {
      throw OptionError("option 'verbosity' expects 0..99, got '" + value + "'");
    }
    options.verbosity = std::stoi(value);
  }
}

}  // namespace

UsbipDevice parseUsbipDevice(const std::string& device) {
  // usbip:HOST:PORT[:BUSID]
  const std::string rest = device.substr(6);
  const size_t colon = rest.find(':');
  if (colon == std::string::npos || colon == 0) {
    throw OptionError("option 'device' expects usbip:HOST:PORT[:BUSID], got '" + device + "'");
  }
  UsbipDevice out;
  out.host = rest.substr(0, colon);
  std::string port = rest.substr(colon + 1);
  if (const size_t bus = port.find(':'); bus != std::string::npos) {
    out.busId = port.substr(bus + 1);
    port = port.substr(0, bus);
    if (out.busId.empty()) throw OptionError("option 'device': empty BUSID in '" + device + "'");
  }
  out.port = static_cast<uint16_t>(positiveNumber("device (port)", port, 65535));
  return out;
}

std::string DelegateOptions::sharingKey() const {
  std::string key = device + "|" + std::string(models::executionModeName(mode)) + "|";
  for (const HleTwin& t : hleTwins) key += t.compiled + "=" + t.cpu + ";";
  key += "|" + hleDir + "|" + firmware + "|" + (timing ? "timing" : "") + "|" + traceUsb;
  key += "|" + std::to_string(cycleLimit.value_or(0)) + "|" + std::to_string(clockMhz.value_or(0)) + "|" +
         std::string(driver::serviceModeName(service)) + "|" + std::to_string(timeout.count());
  return key;
}

DelegateOptions parseDelegateOptions(const std::map<std::string, std::string>& keyValues) {
  DelegateOptions options;
  for (const OptionKey& k : kOptionKeys) {
    if (const char* env = std::getenv(k.env); env && *env) {
      try {
        apply(options, k.key, env);
      } catch (const OptionError& e) {
        throw OptionError(std::string(k.env) + ": " + e.what());
      }
    }
  }
  for (const auto& [key, value] : keyValues) {
    bool known = false;
    for (const OptionKey& k : kOptionKeys) known = known || key == k.key;
    if (!known) {
      std::string list;
      for (const OptionKey& k : kOptionKeys) list += list.empty() ? k.key : std::string(", ") + k.key;
      throw OptionError("unknown delegate option '" + key + "' (known: " + list + ")");
    }
    apply(options, key, value);
  }
  return options;
}

}  // namespace coralsim::libedgetpu

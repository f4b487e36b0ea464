// `coralsim serve`: exports emulated Coral USB Accelerators (sim::Device) over USB/IP, so that a
// real kernel (`usbip attach`, vhci_hcd) or the userspace client of usbip/client.h drives them
// exactly like hardware. Runs until SIGINT or SIGTERM, then stops accepting, drops every client
// (cancelling their URBs), prints one summary line per device and exits 0.
#include <csignal>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <boost/asio/ip/address.hpp>

#include "sim/cli/args.h"
#include "sim/cli/commands.h"
#include "sim/device.h"
#include "sim/cli/datapath_options.h"
#include "sim/cli/device_options.h"
#include "usbip/buffer_memory.h"
#include "usbip/server.h"
#include "hosting/sim_exported_device.h"

namespace coralsim::cli {
namespace {

constexpr uint64_t kMaxDevices = 64;

const std::vector<OptionSpec> kOptions = {
    {"--listen", true, "ADDR:PORT", "address to listen on (default 127.0.0.1:3240; port 0 picks a free one)"},
    {"--devices", true, "N", "number of devices to export, bus ids 1-1 .. 1-N (default 1)"},
    {"--speed", true, "SPEED", "USB speed of every device: super (default) or high"},
    {"--bootloader", false, "", "devices power on in the DFU bootloader personality 1a6e:089a"},
    {"--max-transfer", true, "BYTES", "largest transfer a client may submit (default 16777216)"},
    {"--allow", true, "ADDR[,ADDR...]", "client addresses allowed to connect (default: loopback when listening on loopback, else any)"},
    {"--cycle-limit", true, "N", "stop a run after N simulated cycles with a fatal error (default 4e9)"},
    {"--mode", true, "MODE", "datapath rung of every device: auto (default), lle, hle or protocol"},
    {"--hle", true, "COMPILED=CPU", "register a high-level program: a compiled model and its CPU twin (repeat)"},
    {"--hle-bind", true, "TENSOR=TWIN", "bind the custom-op tensor TENSOR to the twin's tensor TWIN (repeat)"},
    {"--help", false, "", "show this help"},
};

void printHelp() {
  std::cout << "usage: coralsim serve [--listen ADDR:PORT] [--devices N] [--speed high|super] [--bootloader]\n"
               "                      [--max-transfer BYTES] [--cycle-limit N] [--allow ADDR[,ADDR...]]\n"
               "                      [--mode auto|lle|hle|protocol] [--hle COMPILED.tflite=CPU.tflite ...]\n"
               "                      [--hle-bind TENSOR=TWIN_TENSOR ...]\n\n"
               "Exports N emulated Coral USB Accelerators over USB/IP (protocol 1.1.1, TCP). Attach one with\n"
               "the Linux tools (modprobe vhci-hcd; usbip --tcp-port PORT attach -r ADDR -b 1-1) or with\n"
               "coralsim's userspace client. Each device serves one client at a time; a new import finds it\n"
               "freshly powered. The protocol has no authentication: keep the default loopback address\n"
               "unless the network is trusted, and name the clients with --allow (by default a loopback server\n"
               "refuses every other address). Logs every attach, detach, refused and dropped client on standard\n"
               "error. Stops on SIGINT or SIGTERM and then prints one line per device: the personality it\n"
               "ended in, the firmware it received (size, SHA-256), the simulated cycles of every run, its\n"
               "device time (compute + USB link + idle, as 'coralsim run --timing' reports it) and the\n"
               "datapath rung each run used. With --hle the devices compute the outputs of the registered\n"
               "programs (recognised by their instruction chunks) and send them in the device's byte order.\n\n"
            << describeOptions(kOptions);
}

// "ADDR:PORT", "[IPv6]:PORT" or "ADDR" (default port).
void parseListen(const std::string& text, usbip::ServerOptions& o) {
  std::string address = text;
  std::string port;
  if (!text.empty() && text.front() == '[') {
    const auto close = text.find(']');
    if (close == std::string::npos) throw UsageError("--listen: missing ']' in '" + text + "'");
    address = text.substr(1, close - 1);
    if (close + 1 < text.size()) {
      if (text[close + 1] != ':') throw UsageError("--listen expects [ADDR]:PORT, got '" + text + "'");
      port = text.substr(close + 2);
    }
  } else if (const auto colon = text.rfind(':'); colon != std::string::npos) {
    address = text.substr(0, colon);
    port = text.substr(colon + 1);
  }
  if (address.empty()) throw UsageError("--listen: empty address in '" + text + "'");
  o.listenAddress = address;
  if (!port.empty()) {
    size_t used = 0;
    unsigned long value = 0;
    try {
      value = std::stoul(port, &used, 10);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != port.size() || value > 65535) throw UsageError("--listen: port must be 0..65535, got '" + port + "'");
    o.port = static_cast<uint16_t>(value);
  }
}

// "1-1: 18d1:9302 runtime, firmware 10783 bytes sha256 3b07... (apex_latest_single_ep.bin),
// 3 executable runs, cycles 1177 1177 1177; device ms 0.241 0.241 0.241; rungs protocol ..."
// The device time of each run is the device clock's (sim/device_clock.h): the same figure
// `coralsim run --timing` and the libedgetpu delegate report for the same program and transfers.
std::string deviceSummary(const std::string& busId, const sim::Device& device) {
  const bool runtime = device.personality() == usb::CoralPersonality::kRuntime;
  std::string line = busId + ": " + (runtime ? "18d1:9302 runtime" : "1a6e:089a bootloader") + ", ";
  if (const auto fw = device.loadedFirmware()) {
    line += "firmware " + std::to_string(fw->size) + " bytes sha256 " + fw->sha256;
    if (!fw->knownAs.empty()) line += " (" + std::string(fw->knownAs) + ")";
  } else {
    line += "no firmware downloaded";
  }
  const auto runs = device.runLog();
  line += ", " + std::to_string(runs.size()) + " executable run" + (runs.size() == 1 ? "" : "s") + ", cycles";
  if (runs.empty()) line += " -";
  for (const auto& r : runs) line += " " + std::to_string(r.cycles());
  if (!runs.empty()) {
    line += "; device ms";
    for (const sim::RunDeviceTime& t : device.runTimes()) {
      char ms[32];
      std::snprintf(ms, sizeof ms, " %.3f", t.totalTime.value() * 1e3);
      line += ms;
    }
    line += "; rungs";
    for (const auto& r : runs) line += " " + std::string(models::executionModeName(r.rung));
  }
  return line;
}

}  // namespace

int runServe(const CommandArgs& argv) {
  const Args args(argv, kOptions);
  if (args.has("--help")) {
    printHelp();
    return 0;
  }
  if (!args.positional().empty()) throw UsageError("takes no positional arguments, got '" + args.positional()[0] + "'");

  usbip::ServerOptions serverOptions;
  if (auto listen = args.value("--listen")) parseListen(*listen, serverOptions);
  const uint64_t count = args.number("--devices").value_or(1);
  if (count == 0 || count > kMaxDevices) throw UsageError("--devices expects 1.." + std::to_string(kMaxDevices));
  if (auto max = args.number("--max-transfer")) {
    if (*max == 0 || *max > (uint64_t{1} << 30)) throw UsageError("--max-transfer expects 1..1073741824");
    serverOptions.limits.maxTransferLength = static_cast<uint32_t>(*max);
  }
  if (auto allow = args.value("--allow")) {
    size_t from = 0;
    for (;;) {
      const size_t comma = allow->find(',', from);
      const std::string entry = allow->substr(from, comma == std::string::npos ? std::string::npos : comma - from);
      boost::system::error_code ec;
      (void)boost::asio::ip::make_address(entry, ec);
      if (entry.empty() || ec) throw UsageError("--allow: '" + entry + "' is not an IP address");
      serverOptions.allowedClients.push_back(entry);
      if (comma == std::string::npos) break;
      from = comma + 1;
    }
  }
  sim::DeviceOptions deviceOptions;
  deviceOptions.speed = parseUsbSpeed(args, "--speed");
  deviceOptions.startInBootloader = args.has("--bootloader");
  // A client's runaway program is stopped like a hardware fault (fatal bit on EP 0x83), so a
  // shared server is not held by one program for the default 4e9 cycles.
  applyCycleLimit(args, deviceOptions.chip);
  {
    // Which twin tensor computes which custom-op tensor, logged with the attaches.
    driver::RunReportContext bindings;
    bindings.hleTwins = applyDatapathOptions(args, deviceOptions.chip).hleTwins;
    driver::writeHleTwinsText(bindings, std::cerr);
  }
  usbip::keepTransferBuffersMapped();

  // Every thread started from here on (the server's, the simulator's) inherits this mask, so the
  // signals are taken only by sigwait() below.
  sigset_t stopSignals;
  sigemptyset(&stopSignals);
  sigaddset(&stopSignals, SIGINT);
  sigaddset(&stopSignals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr);

  std::vector<std::unique_ptr<usbip::SimExportedDevice>> devices;
  std::vector<usbip::ExportedDevice*> exported;
  for (uint64_t i = 0; i < count; ++i) {
    devices.push_back(std::make_unique<usbip::SimExportedDevice>(deviceOptions));
    exported.push_back(devices.back().get());
  }
  usbip::Server server(exported, serverOptions);
  server.start();
  std::printf("coralsim serve: %llu device%s (%s, %s) on %s:%u, bus ids %s..%s\n",
              static_cast<unsigned long long>(count), count == 1 ? "" : "s",
              deviceOptions.startInBootloader ? "bootloader 1a6e:089a" : "runtime 18d1:9302",
              deviceOptions.speed == usb::UsbSpeed::kSuper ? "SuperSpeed" : "high speed", serverOptions.listenAddress.c_str(), server.port(),
              server.busId(0).c_str(), server.busId(count - 1).c_str());
  std::printf("coralsim serve: attach with: usbip --tcp-port %u attach -r %s -b %s\n", server.port(),
              serverOptions.listenAddress.c_str(), server.busId(0).c_str());
  std::fflush(stdout);

  int signal = 0;
  while (sigwait(&stopSignals, &signal) != 0) {
  }
  std::printf("coralsim serve: %s: stopping\n", signal == SIGINT ? "SIGINT" : "SIGTERM");
  std::fflush(stdout);
  server.stop();
  // What each device went through, for logs and the kernel-level end-to-end test: the
  // personality it ended in, the firmware it received, the simulated cycles and device time of
  // every run.
  for (uint64_t i = 0; i < count; ++i) std::printf("coralsim serve: %s\n", deviceSummary(server.busId(i), devices[i]->device()).c_str());
  const auto& s = server.stats();
  std::printf("coralsim serve: stopped after %llu connections, %llu imports, %llu URBs\n",
              static_cast<unsigned long long>(s.connectionsAccepted.load()),
              static_cast<unsigned long long>(s.imports.load()),
              static_cast<unsigned long long>(s.urbsSubmitted.load()));
  return 0;
}

}  // namespace coralsim::cli

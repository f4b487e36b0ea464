// What the server's connections share (usbip/server.cc owns it): the io_context, the options and
// counters, the exported devices with who imported them, the completion relay, the open
// connections. Touched only on the io_context thread, except `stats` (atomics) and `relay`.
#pragma once

#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "usbip/completion_relay.h"
#include "usbip/device_record.h"
#include "usbip/exported_device.h"
#include "usbip/server_options.h"

namespace coralsim::usbip {

class ServerConnection;

struct ExportSlot {
  ExportedDevice* device = nullptr;
  BusPosition position;
  ServerConnection* importer = nullptr;  // the connection that imported it, if any
};

struct ServerContext {
  explicit ServerContext(ServerOptions o) : options(std::move(o)), relay(std::make_shared<CompletionRelay>(io)) {}

  void log(std::string_view line) const;

  boost::asio::io_context io;
  ServerOptions options;
  ServerStats stats;
  std::vector<ExportSlot> slots;
  std::shared_ptr<CompletionRelay> relay;
  std::set<std::shared_ptr<ServerConnection>> connections;
};

}  // namespace coralsim::usbip

// Server: the USB/IP server (Linux Documentation/usb/usbip_protocol.rst v1.1.1, the behaviour of
// docs/usb-protocol.md §10) exporting N ExportedDevices under bus ids "1-1", "1-2", ... on one
// Boost.Asio io_context thread.
//
//   OP_REQ_DEVLIST  every device with its current personality (the connection then closes);
//   OP_REQ_IMPORT   one device per connection; a device imported by one client is refused to
//                   others (status 2, busy) until that client disconnects; the reply's busid is
//                   the requested one; the device is power-cycled (or bus-reset) first;
//   CMD_SUBMIT      EP 0 → ExportedDevice::control (setup from the PDU, answered at once);
//                   other endpoints → submitOut / submitIn by address; RET_SUBMIT when the
//                   completion arrives (posted back from the device's thread). Any number of URBs
//                   per endpoint may be in flight; the reader never waits for the device;
//   CMD_UNLINK      answered with the unlink PDU's own seqnum: target pending and cancel()
//                   succeeds → −ECONNRESET and never a RET_SUBMIT for it; target already
//                   completing → its RET_SUBMIT first, then status 0; unknown target → 0.
// Clients: only addresses allowed by ServerOptions::allowedClients (default: loopback when
// listening on loopback) get past accept; others are closed at once with a log line. After an
// import a connection reaches only its own device (a CMD_SUBMIT/CMD_UNLINK naming another devid
// drops it).
// Bad input or a limit exceeded (ServerOptions) drops that connection with a log line naming the
// cause; other connections are unaffected. A disconnect cancels every URB of the connection and
// bus-resets its device (unplug). Idle costs no CPU (the thread sleeps in epoll).
//
// Thread-safety: start()/stop() from one controlling thread; stats() and port() from any.
// The ExportedDevices must outlive the Server.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "usbip/exported_device.h"
#include "usbip/server_options.h"

namespace coralsim::usbip {

class Server {
 public:
  Server(std::vector<ExportedDevice*> devices, ServerOptions options = {});
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds and listens (throws std::runtime_error naming the address on failure), then serves on a
  // thread of its own until stop().
  void start();
  // Stops accepting, drops every connection (cancelling their URBs), joins the thread. Idempotent.
  void stop();

  // The bound port (after start(); useful with ServerOptions::port 0).
  [[nodiscard]] uint16_t port() const;
  [[nodiscard]] std::string busId(size_t deviceIndex) const;
  [[nodiscard]] const ServerStats& stats() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace coralsim::usbip

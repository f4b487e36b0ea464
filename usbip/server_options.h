// Configuration and counters of the USB/IP server (usbip/server.h).
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "usbip/stream_decoder.h"

namespace coralsim::usbip {

struct ServerOptions {
  // Loopback by default: the protocol has no authentication.
  std::string listenAddress = "127.0.0.1";
  uint16_t port = kDefaultPort;  // 0 picks a free port (see Server::port())
  // Per PDU: transfer_buffer_length above this drops the connection.
  DecoderLimits limits;
  // Per connection: URBs submitted and not yet answered, and the bytes they hold (OUT payloads,
  // IN capacities, replies not yet written). Exceeding either drops the connection.
  size_t maxUrbsInFlight = 1024;
  size_t maxBytesInFlight = size_t{512} << 20;
  // Per connection: replies (RET_SUBMIT / RET_UNLINK / OP replies) queued and not yet written.
  // A client that sends without reading — unlinks and control requests are answered at once —
  // stops being read at this depth until its replies drain (TCP backpressure, no drop). One read
  // of up to 64 KiB is still handled, so the queue peaks at this bound + 1,366 replies.
  size_t maxQueuedReplies = 4096;
  // Client addresses allowed to connect (IPv4 or IPv6 literals; an IPv4-mapped IPv6 peer matches
  // its IPv4 form). Empty: loopback clients only when listening on a loopback address, anyone
  // otherwise (the operator chose the interface). A refused client is closed at once with a log
  // line; Server::start() throws std::invalid_argument for an entry that is not an address.
  std::vector<std::string> allowedClients;
  // Connections open at once (clients listing devices, importing, or attached).
  size_t maxConnections = 64;
  // A connection must send its OP_REQ_DEVLIST / OP_REQ_IMPORT within this time (after an import
  // there is no time limit: URBs may stay pending for hours).
  std::chrono::milliseconds operationTimeout{10'000};
  // A new import finds the device freshly powered (docs/usb-protocol.md §10.5 item 12); off: the
  // device only sees a bus reset and keeps its state.
  bool powerCycleOnImport = true;
  // One line per attach, detach, refusal and error. Default: standard error.
  std::function<void(std::string_view)> log;
};

// Monotonic counters, readable from any thread.
struct ServerStats {
  std::atomic<uint64_t> connectionsAccepted{0};
  std::atomic<uint64_t> connectionsOpen{0};
  std::atomic<uint64_t> imports{0};
  std::atomic<uint64_t> importsRefused{0};
  std::atomic<uint64_t> urbsSubmitted{0};
  std::atomic<uint64_t> urbsCompleted{0};        // answered with RET_SUBMIT
  std::atomic<uint64_t> unlinksCancelled{0};     // RET_UNLINK -ECONNRESET
  std::atomic<uint64_t> unlinksTooLate{0};       // RET_UNLINK 0
  std::atomic<uint64_t> protocolErrors{0};       // connections dropped for bad input or limits
  std::atomic<uint64_t> clientsRefused{0};       // connections from addresses not allowed
  // Not monotonic: bulk/interrupt URBs submitted to a device and not yet answered or cancelled,
  // over all connections (0 whenever no client is attached: the soak test's leak check).
  std::atomic<uint64_t> urbsPending{0};
};

}  // namespace coralsim::usbip

// ServerConnection: one client of the USB/IP server — its socket, its RequestDecoder, the device
// it imported, the URBs it has in flight and the replies waiting to be written. Lives on the
// server's io_context thread; device completions reach it through the CompletionRelay.
// The behaviour is described in usbip/server.h.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

#include "usbip/pdu_serializer.h"
#include "usbip/server_context.h"
#include "usbip/stream_decoder.h"

namespace coralsim::usbip {

class ServerConnection : public std::enable_shared_from_this<ServerConnection> {
 public:
  ServerConnection(ServerContext& context, boost::asio::ip::tcp::socket socket);
  ~ServerConnection();
  ServerConnection(const ServerConnection&) = delete;
  ServerConnection& operator=(const ServerConnection&) = delete;

  void start();
  // Idempotent: closes the socket, cancels every URB in flight, releases (and bus-resets) the
  // imported device, leaves the server's connection set.
  void close(const std::string& reason);
  [[nodiscard]] const std::string& peer() const { return peer_; }

 private:
  struct PendingUrb {
    uint64_t token = 0;  // ours, known before the device's id
    uint64_t urbId = 0;
    bool in = false;
    uint32_t capacity = 0;
    uint32_t transferFlags = 0;
    size_t budget = 0;
    std::vector<uint32_t> unlinks;  // CMD_UNLINKs waiting for this URB's RET_SUBMIT
  };
  struct Outgoing {
    bool urb = false;          // a 48-byte header + payload, else `bytes` is a whole OP message
    UrbHeaderBytes header{};
    std::vector<uint8_t> bytes;  // OP message, or the IN payload of a RET_SUBMIT
    size_t budget = 0;           // in-flight bytes released once written
  };

  void readMore();
  void onRead(const boost::system::error_code& error, size_t bytes, bool direct);
  void consume(std::span<const uint8_t> bytes);
  void drainMessages();
  void handle(Request request);
  void handleDevlist();
  void handleImport(const OpReqImport& request);
  void handleSubmit(CmdSubmit command);
  void handleControl(CmdSubmit& command, size_t budget);
  void handleUnlink(const CmdUnlink& command);
  void onCompletion(uint32_t seqnum, uint64_t token, usb::UrbResult result);
  void sendRetSubmit(uint32_t seqnum, int32_t status, uint32_t actualLength, std::vector<uint8_t> data, size_t budget);
  void sendRetUnlink(uint32_t seqnum, int32_t status);
  void enqueue(Outgoing message);
  void writeMore();
  void protocolError(const std::string& what);
  [[nodiscard]] bool open() const { return !closed_; }

  ServerContext& context_;
  boost::asio::ip::tcp::socket socket_;
  boost::asio::steady_timer operationDeadline_;
  std::string peer_;
  RequestDecoder decoder_;
  std::array<uint8_t, 64 * 1024> readBuffer_{};
  bool reading_ = false;
  bool readPaused_ = false;  // too many replies queued: read again once they drain
  bool stopReading_ = false;  // after an OP reply: only the write remains
  bool closeAfterWrite_ = false;
  bool closed_ = false;

  ExportSlot* slot_ = nullptr;  // the imported device
  uint32_t devid_ = 0;
  uint64_t nextToken_ = 1;
  std::unordered_map<uint32_t, PendingUrb> pending_;
  size_t bytesInFlight_ = 0;

  std::deque<Outgoing> writeQueue_;
  size_t writing_ = 0;  // messages of writeQueue_'s front in the current async_write
};

}  // namespace coralsim::usbip

// UsbipClient: a userspace USB/IP client — no kernel, no vhci. It lists a server's devices,
// imports one, and then submits URBs and waits for their answers on one TCP connection, exactly
// as vhci would (same codec: usbip/pdu_serializer.h, usbip/stream_decoder.h). Any number of URBs
// may be in flight; answers for other seqnums are kept until asked for.
//
// Single-threaded: the calling thread does all socket I/O (blocking sends, reads bounded by the
// given timeouts through poll()). Not thread-safe. Failures (connection lost, bad bytes, refused
// import) throw UsbipClientError naming the server and the cause.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "usb/usb_types.h"
#include "usbip/pdus.h"
#include "usbip/stream_decoder.h"

namespace coralsim::usbip {

class UsbipClientError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ClientOptions {
  std::chrono::milliseconds connectTimeout{5000};
  // For OP replies (devlist, import).
  std::chrono::milliseconds operationTimeout{5000};
  DecoderLimits limits;
};

class UsbipClient {
 public:
  using Clock = std::chrono::steady_clock;

  // OP_REQ_DEVLIST on a connection of its own.
  [[nodiscard]] static std::vector<ExportedDeviceEntry> listDevices(const std::string& host, uint16_t port,
                                                                    const ClientOptions& options = {});

  // Connects and imports `busId` (OP_REQ_IMPORT); throws if the server refuses.
  UsbipClient(const std::string& host, uint16_t port, const std::string& busId, const ClientOptions& options = {});
  ~UsbipClient();
  UsbipClient(const UsbipClient&) = delete;
  UsbipClient& operator=(const UsbipClient&) = delete;

  [[nodiscard]] const UsbDeviceRecord& device() const { return device_; }
  [[nodiscard]] usb::UsbSpeed speed() const;
  // "usbip 127.0.0.1:3240/1-1", for messages.
  [[nodiscard]] const std::string& description() const { return description_; }

  // CMD_SUBMIT; each returns the URB's seqnum. `endpoint` is an address (0x01, 0x81) or a number
  // with the direction given by the call.
  uint32_t submitControl(const usb::ControlSetup& setup, std::span<const uint8_t> outData = {},
                         uint32_t transferFlags = 0);
  uint32_t submitOut(uint8_t endpoint, std::span<const uint8_t> data, uint32_t transferFlags = 0);
  uint32_t submitIn(uint8_t endpoint, uint32_t length, uint32_t transferFlags = 0);

  // The RET_SUBMIT of `seqnum`, waiting at most `timeout`; nullopt if it has not arrived (the URB
  // stays in flight).
  std::optional<RetSubmit> wait(uint32_t seqnum, std::chrono::milliseconds timeout);
  // Already arrived? Reads what the socket has without waiting.
  std::optional<RetSubmit> poll(uint32_t seqnum);

  struct UnlinkOutcome {
    int32_t status = 0;                // RET_UNLINK status: -ECONNRESET (cancelled) or 0
    std::optional<RetSubmit> completed;  // the URB's own answer, when it completed first
  };
  // CMD_UNLINK for `seqnum`, then waits (at most `timeout`) for the RET_UNLINK. Throws on timeout.
  UnlinkOutcome unlink(uint32_t seqnum, std::chrono::milliseconds timeout);

  [[nodiscard]] size_t inFlight() const { return pending_.size(); }
  // Closes the connection (the server treats it as an unplug and cancels everything).
  void close();

 private:
  UsbipClient(const std::string& host, uint16_t port, const ClientOptions& options);
  uint32_t submit(CmdSubmit command);
  void sendAll(std::span<const uint8_t> first, std::span<const uint8_t> second = {});
  // Reads and decodes until `done()` or the deadline; false on timeout.
  bool pumpUntil(Clock::time_point deadline, const std::function<bool()>& done);
  void receive(Reply reply);
  [[noreturn]] void fail(const std::string& what);

  std::string description_;
  ClientOptions options_;
  int fd_ = -1;
  ReplyDecoder decoder_;
  std::vector<uint8_t> readBuffer_;
  UsbDeviceRecord device_{};
  uint32_t devid_ = 0;
  uint32_t nextSeqnum_ = 1;
  std::unordered_map<uint32_t, PendingSubmit> pending_;
  std::unordered_map<uint32_t, RetSubmit> answered_;
  std::unordered_map<uint32_t, int32_t> unlinkAnswers_;
  std::optional<Reply> operationReply_;
};

}  // namespace coralsim::usbip

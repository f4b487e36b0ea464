// Streaming USB/IP decoders: bytes go in as they arrive from a socket — split anywhere, one byte
// at a time or many messages at once — and whole messages come out. Everything the peer controls
// is checked before it is trusted: the protocol version, message codes and commands, direction
// and endpoint numbers, transfer lengths against DecoderLimits, isochronous packet counts, device
// and interface counts. The first violation throws CodecError naming the PDU, the field and the
// stream offset; the decoder then stays failed (the connection is to be dropped).
//
//   RequestDecoder  what a server reads: OP_REQ_DEVLIST, OP_REQ_IMPORT, then USBIP_CMD_SUBMIT and
//                   USBIP_CMD_UNLINK.
//   ReplyDecoder    what a client reads: OP_REP_DEVLIST, OP_REP_IMPORT, then USBIP_RET_SUBMIT and
//                   USBIP_RET_UNLINK. A RET_SUBMIT header does not say whether it answers an IN
//                   URB (and so carries data), so the client tells the decoder through a lookup.
//
// Use: `n = feed(bytes)` consumes up to the end of one message; when hasMessage(), take() it
// (and change the phase if the message calls for it, e.g. after a successful import), then feed
// the rest. For large transfer buffers, payloadSpace()/commitPayload() let a reader receive
// straight into the message.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "usbip/codec_error.h"
#include "usbip/pdus.h"

namespace coralsim::usbip {

struct DecoderLimits {
  // Largest transfer_buffer_length / actual_length accepted (libedgetpu sends ≤ 1 MiB).
  uint32_t maxTransferLength = 16u << 20;
  // Largest number of devices accepted in an OP_REP_DEVLIST.
  uint32_t maxDevices = 256;
};

// Before import a connection carries OP_* messages; after a successful import, URB messages.
enum class StreamPhase { kOperation, kUrb };

// What a RET_SUBMIT needs to know about the command it answers.
struct PendingSubmit {
  bool in = false;
  uint32_t transferBufferLength = 0;
};
using PendingSubmitLookup = std::function<std::optional<PendingSubmit>(uint32_t seqnum)>;

// The machinery both decoders share: fixed-size segments gathered into a small buffer, transfer
// buffers gathered straight into the message, positions for error messages.
class StreamDecoderCore {
 public:
  explicit StreamDecoderCore(DecoderLimits limits) : limits_(limits) {}
  virtual ~StreamDecoderCore() = default;
  StreamDecoderCore(const StreamDecoderCore&) = delete;
  StreamDecoderCore& operator=(const StreamDecoderCore&) = delete;

  // Consumes bytes up to the end of the next complete message; returns how many. Returns 0 while
  // a complete message waits to be taken.
  size_t feed(std::span<const uint8_t> input);
  [[nodiscard]] bool hasMessage() const { return state_ == State::kReady; }
  // True between messages (nothing partial buffered).
  [[nodiscard]] bool atMessageBoundary() const { return state_ == State::kIdle; }
  [[nodiscard]] uint64_t position() const { return position_; }

  void setPhase(StreamPhase phase) { phase_ = phase; }
  [[nodiscard]] StreamPhase phase() const { return phase_; }
  [[nodiscard]] const DecoderLimits& limits() const { return limits_; }

  // The unfilled rest of the transfer buffer being received (empty outside a payload).
  [[nodiscard]] std::span<uint8_t> payloadSpace();
  // Records that `bytes` were written at the start of payloadSpace().
  void commitPayload(size_t bytes);

 protected:
  enum class State { kIdle, kFixed, kPayload, kReady };

  // Called by derived classes from beginMessage()/onFixed().
  void expectFixed(size_t bytes, size_t firstFieldOffset);
  void expectPayload(std::vector<uint8_t>& into, size_t bytes);
  void finishMessage() { state_ = State::kReady; }
  void consumedMessage() { state_ = State::kIdle; }
  [[nodiscard]] std::span<const uint8_t> fixedBytes() const { return {fixed_.data(), fixedNeed_}; }
  [[nodiscard]] uint64_t segmentStart() const { return segmentStart_; }
  [[noreturn]] void fail(std::string_view pdu, const FieldRef& field, const std::string& detail) const;

  virtual void beginMessage() = 0;  // sets the first fixed segment of the next message
  virtual void onFixed() = 0;       // a fixed segment is complete
  virtual void onPayload() = 0;     // the transfer buffer is complete

  DecoderLimits limits_;

 private:
  void completeFixed();
  void completePayload();

  StreamPhase phase_ = StreamPhase::kOperation;
  State state_ = State::kIdle;
  std::array<uint8_t, UsbDeviceRecord::kSize> fixed_{};  // the largest fixed block
  size_t fixedNeed_ = 0;
  size_t fixedHave_ = 0;
  size_t segmentFirstOffset_ = 0;
  uint64_t segmentStart_ = 0;
  std::vector<uint8_t>* payload_ = nullptr;
  size_t payloadHave_ = 0;
  uint64_t position_ = 0;
  std::optional<CodecError> failure_;
};

class RequestDecoder final : public StreamDecoderCore {
 public:
  explicit RequestDecoder(DecoderLimits limits = {}) : StreamDecoderCore(limits) {}
  // Precondition: hasMessage().
  [[nodiscard]] Request take();

 private:
  enum class Step { kOpHeader, kImportBody, kUrbHeader };
  void beginMessage() override;
  void onFixed() override;
  void onPayload() override { finishMessage(); }
  void onOpHeader();
  void onUrbHeader();

  Step step_ = Step::kOpHeader;
  Request current_;
};

class ReplyDecoder final : public StreamDecoderCore {
 public:
  explicit ReplyDecoder(PendingSubmitLookup lookup, DecoderLimits limits = {})
      : StreamDecoderCore(limits), lookup_(std::move(lookup)) {}
  // Precondition: hasMessage().
  [[nodiscard]] Reply take();

 private:
  enum class Step { kOpHeader, kDevlistHead, kDeviceRecord, kInterfaceRecord, kImportRecord, kUrbHeader };
  void beginMessage() override;
  void onFixed() override;
  void onPayload() override { finishMessage(); }
  void onOpHeader();
  void onUrbHeader();
  void nextDeviceOrFinish();

  PendingSubmitLookup lookup_;
  Step step_ = Step::kOpHeader;
  Reply current_;
  uint32_t devicesLeft_ = 0;
  uint32_t interfacesLeft_ = 0;
};

}  // namespace coralsim::usbip

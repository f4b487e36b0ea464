// The property the USB/IP fuzz target checks, shared with the unit test that replays the committed
// inputs (tests/unit/usbip_fuzz_inputs_test.cc). Header-only so both link just the codec.
//
// Input layout: byte 0 selects the decoder — bit 0: 0 = RequestDecoder (what a server reads),
// 1 = ReplyDecoder (what a client reads); bit 1: start in the URB phase instead of the operation
// phase. Byte 1 seeds the pattern of chunk sizes the stream is fed in. The rest is the stream.
//
// Property: feeding must end in complete messages and/or one clean CodecError — never a crash, a
// hang or another exception — and every message decoded must serialise back to bytes that decode
// (in a fresh decoder, in one piece) to the same message.
#pragma once

#include <algorithm>
#include <cstdint>
#include <exception>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "usbip/pdu_serializer.h"
#include "usbip/stream_decoder.h"

namespace coralsim::usbip::fuzz {

struct StreamOutcome {
  size_t messages = 0;
  bool rejected = false;      // ended in a CodecError
  std::string error;          // its text
  std::optional<std::string> violation;  // a broken property (the fuzz target aborts on it)
};

inline constexpr DecoderLimits kFuzzLimits{1u << 20, 64};

// RET_SUBMIT answers: odd seqnums are IN URBs, even ones OUT; capacities vary; seqnums that are
// multiples of 7 are not pending. Deterministic, so a replay sees what the fuzzer saw.
inline std::optional<PendingSubmit> fuzzPendingLookup(uint32_t seqnum) {
  if (seqnum % 7 == 0) return std::nullopt;
  return PendingSubmit{(seqnum & 1) != 0, 64u << (seqnum % 8)};
}

// The messages after which client and server switch to URB traffic.
inline bool switchesToUrbPhase(const Request& m) { return std::holds_alternative<OpReqImport>(m); }
inline bool switchesToUrbPhase(const Reply& m) {
  const auto* rep = std::get_if<OpRepImport>(&m);
  return rep != nullptr && rep->common.status == op_status::kOk;
}

template <typename Decoder, typename Message>
std::optional<std::string> checkReencodes(const Message& message, StreamPhase phase, Decoder fresh) {
  std::vector<uint8_t> bytes;
  try {
    bytes = serialize(message);
  } catch (const CodecError& e) {
    return std::string("a decoded message does not serialise: ") + e.what();
  }
  fresh.setPhase(phase);
  try {
    const size_t used = fresh.feed(bytes);
    if (!fresh.hasMessage() || used != bytes.size()) return std::string("re-serialised bytes do not decode to one message");
    const auto again = fresh.take();
    const Message* same = std::get_if<Message>(&again);
    if (same == nullptr || !(*same == message)) return std::string("re-serialised message differs from the decoded one");
  } catch (const CodecError& e) {
    return std::string("re-serialised bytes are rejected: ") + e.what();
  }
  return std::nullopt;
}

template <typename Decoder, typename MakeDecoder>
StreamOutcome runStream(std::span<const uint8_t> stream, bool startInUrbPhase, uint8_t splitSeed, MakeDecoder make) {
  StreamOutcome out;
  Decoder decoder = make();
  decoder.setPhase(startInUrbPhase ? StreamPhase::kUrb : StreamPhase::kOperation);
  uint32_t lcg = splitSeed * 2654435761u + 1;
  size_t at = 0;
  try {
    // Every round either consumes bytes or takes a message, so this ends.
    while (at < stream.size() || decoder.hasMessage()) {
      if (decoder.hasMessage()) {
        const StreamPhase phase = decoder.phase();
        auto message = decoder.take();
        ++out.messages;
        if (auto bad = std::visit([&](const auto& m) { return checkReencodes<Decoder>(m, phase, make()); }, message)) {
          out.violation = bad;
          return out;
        }
        if (switchesToUrbPhase(message)) decoder.setPhase(StreamPhase::kUrb);
        continue;
      }
      lcg = lcg * 1103515245u + 12345u;
      const size_t chunk = 1 + (lcg >> 16) % (splitSeed % 4 == 0 ? 1 : 97);
      const size_t n = std::min(chunk, stream.size() - at);
      const size_t used = decoder.feed(stream.subspan(at, n));
      if (used == 0 && !decoder.hasMessage()) {
        out.violation = "the decoder consumed nothing and produced nothing";
        return out;
      }
      at += used;
    }
  } catch (const CodecError& e) {
    out.rejected = true;
    out.error = e.what();
    if (e.pdu().empty()) out.violation = std::string("a CodecError without a PDU name: ") + e.what();
    if (e.streamOffset() > stream.size()) out.violation = std::string("error offset beyond the stream: ") + e.what();
  } catch (const std::exception& e) {
    out.violation = std::string("an exception other than CodecError: ") + e.what();
  }
  return out;
}

inline StreamOutcome exerciseUsbipStream(std::span<const uint8_t> input) {
  if (input.size() < 2) return {};
  const bool replies = (input[0] & 1) != 0;
  const bool urbPhase = (input[0] & 2) != 0;
  const uint8_t seed = input[1];
  const std::span<const uint8_t> stream = input.subspan(2);
  if (replies) {
    return runStream<ReplyDecoder>(stream, urbPhase, seed, [] { return ReplyDecoder(fuzzPendingLookup, kFuzzLimits); });
  }
  return runStream<RequestDecoder>(stream, urbPhase, seed, [] { return RequestDecoder(kFuzzLimits); });
}

}  // namespace coralsim::usbip::fuzz

// The parameter infeeds (0x25, InfeedIsInput 0) as segments of the run's parameter stream (docs/decoding-log.md
// "trk128"). A parameter 0x25 describes the bytes of the stream that its descriptor (tag 2, pushed just before or just
// after it) requests: the segment [S, S + L). Its fields state where the segment lies and how long it is:
//   InfeedOffset64 x 64 = S mod 128 KiB          (where the segment starts in the 128 KiB infeed ring)
//   InfeedWraps64K     = (L - 1) >> 16           (the 64 KiB boundaries the segment crosses: L = 262,144 is 3, not 4)
//   InfeedFirstBeats   = S / 64 - F  (mod 2^16)  (the segment's start beat in the stream, less F: a running beat count)
// with F one of three forms: min(L / 64, 2048) - 1 for a stream read whole from 0 (the parameter-caching programs' one
// segment: the first fill of the ring, less one), 2044 for the execution-only segments of the newer compiles (any S, any
// L: not decoded further), 0 where the compiler leaves the first fill unstated (the oldest compiles).
// Every 0x25 of a run whose stream the scalar core then waits for at a fence (0x24) lies in the bytes the run's
// descriptors delivered since the previous such fence, one after another: the first starts where the previous fence's
// bytes ended; each further one at the place its offset names, past the previous one by as many bytes as that one's wraps
// allow. 213 / 213 corpus parameter 0x25s (decoding log "trk128").
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace coralsim::lle {

// One parameter 0x25's fields, as the rung reads them at issue.
struct ParameterInfeed {
  uint32_t pc = 0;
  uint64_t ringOffset = 0;  // InfeedOffset64 x 64
  uint64_t wraps = 0;       // InfeedWraps64K
  uint64_t firstBeats = 0;  // InfeedFirstBeats, 16 bits as stored
};

// The segments' starts, each checked against the infeed's fields; `segmentsStart` is where the first starts (the run's
// stream bytes delivered before the previous fence), `delivered` the stream's bytes at this fence. Returns nullopt when
// the infeeds describe segments of those bytes; otherwise the sentence naming the infeed (its index into `infeeds`) and
// the fields that do not.
struct ParameterSegmentMismatch {
  size_t infeed = 0;
  std::string why;
};
[[nodiscard]] std::optional<ParameterSegmentMismatch> checkParameterSegments(std::span<const ParameterInfeed> infeeds,
                                                                             uint64_t segmentsStart, uint64_t delivered);

// The first-fill term F (see above) whose form a segment at `start` of `length` bytes may carry, if `firstBeats` is one
// of them; nullopt if none of the three forms gives it.
[[nodiscard]] std::optional<uint64_t> parameterFirstFillTerm(uint64_t start, uint64_t length, uint64_t firstBeats);

}  // namespace coralsim::lle

#include "models/lle/parameter_infeed_segments.h"

#include <algorithm>
#include <vector>

namespace coralsim::lle {
namespace {

constexpr uint64_t kRingBytes = 128 * 1024;  // the parameter infeed ring (InfeedRingLimit 1023 x 128 bytes at most)
constexpr uint64_t kBeatBytes = 64;
constexpr uint64_t kRingBeats = kRingBytes / kBeatBytes;
// The execution-only segments' first-fill term: 77 / 77 such 0x25s of the newer compiles (ensemble, the three
// MobileNet v1 co-compilations, the seven 128 x 128 trackers), whatever their start or length. Not decoded further.
constexpr uint64_t kExecutionOnlyFirstFill = 2044;

uint64_t wrapsOf(uint64_t length) { return (length - 1) >> 16; }
// The ring's first fill less one for a stream of `length` bytes read whole from byte 0 (at least one beat).
uint64_t firstFillLessOne(uint64_t length) { return std::min(std::max<uint64_t>(length / kBeatBytes, 1), kRingBeats) - 1; }

}  // namespace

std::optional<uint64_t> parameterFirstFillTerm(uint64_t start, uint64_t length, uint64_t firstBeats) {
  const uint64_t term = (start / kBeatBytes - firstBeats) & 0xffff;
  if (term == 0 || term == kExecutionOnlyFirstFill) return term;
  // A stream read whole from its start: the ring's first fill, less one.
  if (start == 0 && term == firstFillLessOne(length)) return term;
  return std::nullopt;
}

std::optional<ParameterSegmentMismatch> checkParameterSegments(std::span<const ParameterInfeed> infeeds, uint64_t segmentsStart,
                                                               uint64_t delivered) {
  // Each segment's start: the first at `segmentsStart`; a later one at the place its ring offset names, after the one
  // before it by a length that one's wraps allow (one such place: the wraps fix the length to 64 KiB, the offset to 128 KiB).
  std::vector<uint64_t> starts;
  for (size_t k = 0; k < infeeds.size(); ++k) {
    if (k == 0) {
      starts.push_back(segmentsStart);
      continue;
    }
    const uint64_t previous = starts.back();
    std::optional<uint64_t> found;
    for (uint64_t s = previous + kBeatBytes; s <= delivered; s += kBeatBytes) {
      if (s % kRingBytes == infeeds[k].ringOffset && wrapsOf(s - previous) == infeeds[k - 1].wraps) {
        found = s;
        break;
      }
    }
    if (!found) {
      return ParameterSegmentMismatch{k, "no place after the previous 0x25's segment (from byte " + std::to_string(previous) +
                                             ", InfeedWraps64K " + std::to_string(infeeds[k - 1].wraps) + ") and within the " +
                                             std::to_string(delivered) + " delivered bytes has ring offset " +
                                             std::to_string(infeeds[k].ringOffset) + " (InfeedOffset64 x 64)"};
    }
    starts.push_back(*found);
  }
  for (size_t k = 0; k < infeeds.size(); ++k) {
    const ParameterInfeed& f = infeeds[k];
    const uint64_t start = starts[k];
    const uint64_t end = k + 1 < starts.size() ? starts[k + 1] : delivered;
    const std::string segment = "the segment [" + std::to_string(start) + ", " + std::to_string(end) + ") of the parameter stream";
    if (end <= start) return ParameterSegmentMismatch{k, "no parameter bytes were delivered for it (" + segment + " is empty)"};
    const uint64_t length = end - start;
    if (start % kRingBytes != f.ringOffset) {
      return ParameterSegmentMismatch{k, "InfeedOffset64 x 64 = " + std::to_string(f.ringOffset) + " is not the start of " + segment +
                                             " modulo 128 KiB (" + std::to_string(start % kRingBytes) + ")"};
    }
    if (f.wraps != wrapsOf(length)) {
      return ParameterSegmentMismatch{k, "InfeedWraps64K = " + std::to_string(f.wraps) + " is not (L - 1) >> 16 = " +
                                             std::to_string(wrapsOf(length)) + " for " + segment};
    }
    if (!parameterFirstFillTerm(start, length, f.firstBeats)) {
      const int64_t signedBeats = static_cast<int16_t>(static_cast<uint16_t>(f.firstBeats));
      return ParameterSegmentMismatch{k, "InfeedFirstBeats = " + std::to_string(signedBeats) + " is not the start beat " +
                                             std::to_string(start / kBeatBytes) + " less 0, 2044 or the first fill less one (" +
                                             std::to_string(firstFillLessOne(length)) + ", from byte 0) for " +
                                             segment};
    }
  }
  return std::nullopt;
}

}  // namespace coralsim::lle

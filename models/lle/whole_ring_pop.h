// A parameter pop whose length is whole passes over its ring (docs/decoding-log.md "fcx" §B). A parameter pop's length is
// PopBeatsHigh passes over its ring (PopRingLimit + 1 beats: 1,024 in every multi-beat corpus parameter pop) and a last pass
// of PopBeatsLow + 1 beats that the repeat PopRingNeg16 restates; a repeat of 0 with PopBeatsLow 0 says the last pass is a
// whole ring as well -- the stream-feeding pop's reading ("rubens" §C), and the one-beat pop's (PopBeatsHigh 0: one whole
// ring, "recv11" §C). The 14 corpus parameter pops of that shape with PopBeatsHigh > 0 are the 128 x 128 trackers'
// FULLY_CONNECTED weight pops (3 passes + a whole one: 4,096 beats = 4,096 rows of 64 bytes, the next pop starting there).
#pragma once

#include <cstdint>
#include <optional>

namespace coralsim::lle {

// The pop's beats where it is that shape (PopBeatsHigh > 0, PopBeatsLow 0, repeat 0): PopBeatsHigh + 1 whole rings of
// `ringBeats`; nullopt otherwise (the pop's length is then PopBeatsHigh x 1,024 + PopBeatsLow + 1, or the one-beat form).
[[nodiscard]] inline std::optional<uint64_t> wholeRingPassBeats(uint64_t beatsHigh, uint64_t beatsLow, uint64_t repeat, uint64_t ringBeats) {
  if (beatsHigh == 0 || beatsLow != 0 || repeat != 0) return std::nullopt;
  return (beatsHigh + 1) * ringBeats;
}

}  // namespace coralsim::lle

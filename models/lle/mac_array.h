// The MAC array of one tile (docs/isa.md §1, §5.1): 64 output lanes, each taking 4 input bytes per
// step, reducing K = 4 x groups input bytes against the weights in the wide memory layout
//   byte(lane c, input i) at (i / 4) x 256 + c x 4 + (i % 4),  stored as int8 weight XOR 0x80.
// acc[c] = sum_i (x[i] - zpIn) x (w[c][i] - 128): the stored bytes are uint8 with offset 128, the
// activations uint8 with the packet's input zero point.
#pragma once

#include <cstdint>

namespace coralsim::lle {

inline constexpr unsigned kLanes = 64;        // output lanes (channels) per tile
inline constexpr unsigned kGroupBytes = 4;    // input bytes per lane per step
inline constexpr unsigned kGroupStride = kLanes * kGroupBytes;  // 256 weight bytes per step

// The implementation: portable C++, AVX2 or AVX-512 VNNI, chosen at run time from what the host has
// (the results are identical, exact int32 arithmetic on every path). macGroups has no AVX2 form of
// its own: its portable loop is what the compiler vectorises, so kAvx2 runs it.
enum class MacPath { kPortable, kAvx2, kAvx512Vnni };
[[nodiscard]] MacPath macPath();                 // the fastest path this host supports
[[nodiscard]] bool hostSupports(MacPath path);   // kPortable always

// `x`: 4 x groups activation bytes; `weights`: groups x 256 bytes; `acc`: 64 lanes (overwritten).
void macGroups(const uint8_t* x, int32_t zpIn, const uint8_t* weights, uint32_t groups, int32_t* acc);
// The same on a given path (falls back to portable when the host lacks it): tests and the bench.
void macGroups(const uint8_t* x, int32_t zpIn, const uint8_t* weights, uint32_t groups, int32_t* acc, MacPath path);

}  // namespace coralsim::lle

// The broadcast copy of 2-byte elements (docs/decoding-log.md "trk16" §A): the unrequantised copy (ComputeUnrequantisedCopy,
// "copy117") that re-reads ONE 4-byte group at every iteration of its Nest37 level 1 (stride 0: ComputeInputLevelMoves
// bit 1 clear, level 0 and levels 2-6 idle) and writes one unit an iteration -- the compiler's broadcast of a scalar over
// a tensor. Its idle levels' carries say how wide the tensor's element is: Nest37Carry1 = 4 x E bytes and
// ComputeKWrap37[1] = ComputeKWrap37[3] = E units, E = 1 in the 23 corpus byte broadcasts (bright / colour @ 0x0390 /
// 0x05be, 1,024 / 4,096 units = the image's bytes / 4) and E = 2 in the 23 others (the 0x03 chains' 0x0949 / 0x0a6a,
// MobileNet v1, the ensemble, nin_cnn: 2,048 / 8,192 units = the image's pixels x 2 / 4, 501 units for 1,001 classes).
// Where E = 2 the group is read as two 16-bit elements (little-endian, the 16-bit results of the weighing before it) and
// output lane c = sum over k < 2 of element k x signed byte k of the kept block's unit c -- the byte broadcast's rule
// (lane c = sum over k < 4 of byte k x byte k of unit c) with the group's elements 16 bits wide. The trackers' block is
// (1, 256, 1, 256) as 4-byte values (the fills @ 0x0935 / 0x093b): lanes (element 0, element 1, element 0, element 1) =
// (u_lo, u_hi, u_lo, u_hi) from 0x07d1's (u_lo, u_hi) -- u as a 16-bit element twice, u' = lane 0 + 256 x lane 1. Read as
// bytes (the byte rule) lane 1 would weigh the group's byte 1 (0) and u_hi would be lost.
// Executed where the reading is unambiguous: bytes 2-3 of every block unit 0 (no third element) and every lane's sum in
// 0 .. 255 (how the unrequantised copy writes a wider sum is not decoded; the 16-bit reading u = lane 0 x 1 + lane 1 x 256
// of the block's 4-byte values gives the same bytes there). Refused by name elsewhere.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>

#include "models/isa/word128.h"

namespace coralsim::lle {

struct TwoByteElementBroadcast {
  static constexpr uint64_t kUnitBytes = 4;
  static constexpr uint64_t kElementBytes = 2;
  static constexpr uint64_t kElements = kUnitBytes / kElementBytes;

  // True for the broadcast copy's walk: an unrequantised copy of 4-byte groups whose Nest37 counts at level 1 alone, with
  // stride 0 (the same group every iteration).
  [[nodiscard]] static bool isBroadcastCopy(std::span<const isa::Word128> words);

  // The element width in bytes the broadcast copy's idle carries name (Nest37Carry1 / 4, with ComputeKWrap37[1] and [3]
  // equal to it), or why they name none.
  [[nodiscard]] static std::variant<uint64_t, std::string> elementBytes(std::span<const isa::Word128> words);

  // The four output lanes of one group (kUnitBytes bytes: two little-endian 16-bit elements) weighed by the 16-byte
  // `block`, or why the reading is not decided there.
  [[nodiscard]] static std::variant<std::array<uint8_t, kUnitBytes>, std::string> lanes(std::span<const uint8_t> group,
                                                                                       std::span<const uint8_t> block);
};

}  // namespace coralsim::lle

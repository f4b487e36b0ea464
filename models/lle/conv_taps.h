// The convolution compute's inner product (conv_compute.h), for a batch of outputs that share one
// weight run: every output reads the same taps (byte offsets from its own run start in the input)
// against the same weight groups. Raw unsigned bytes, sums modulo 2^32 as the 32-bit accumulator
// wraps; the caller applies the zero points and weight offsets through the identity
//   sum (x - zpIn)(w - offset) = sum xw - offset sum x - zpIn sum w + n zpIn offset,
// so the kernel's inner loop is a plain byte dot product.
//
// Why a batch: the 40 x 40 convolutions spend nearly all of a run here (1,600 taps an output,
// 4 lanes of 4 bytes a tap). One output at a time, a tap is 16 scalar multiply-adds; sixteen
// outputs at a time, a tap is one gather of their 4-byte inputs and one vpdpbusd a lane
// (AVX-512 VNNI), or two vpmaddwd a lane for eight outputs (AVX2).
#pragma once

#include <cstdint>
#include <span>

#include "models/lle/mac_array.h"

namespace coralsim::lle {

inline constexpr unsigned kTapBatch = 16;  // outputs a batch holds at most (one 512-bit gather)

struct ConvTaps {
  std::span<const uint32_t> inputAt;   // per tap: byte offset of its 4 input bytes from the run start
  std::span<const uint32_t> weightAt;  // per tap: byte offset of its group (4 x lanes bytes) from the weight run
  unsigned lanes = 0;                  // output lanes, a multiple of 4, at most 64
};

// For each of `count` (1 .. kTapBatch) outputs o, whose run starts at byte `runStarts[o]` of `input`:
//   dot[o * lanes + c] = sum over taps t, bytes i of input[runStarts[o] + inputAt[t] + i] x
//                        weightRun[weightAt[t] + 4c + i]
//   sumX[o]            = sum over taps t, bytes i of input[runStarts[o] + inputAt[t] + i]
// Every byte read must lie inside `input`. Every path gives identical results (exact integer
// arithmetic modulo 2^32); `path` falls back (VNNI, AVX2, portable) to what the host has.
void dotConvTaps(const uint8_t* input, const uint32_t* runStarts, unsigned count, const uint8_t* weightRun,
                 const ConvTaps& taps, uint32_t* dot, uint32_t* sumX, MacPath path);

}  // namespace coralsim::lle

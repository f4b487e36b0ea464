// Which compute packets computed which layer of the CPU twin — the rule, and how sure it is.
//
// Rule (no per-model knowledge): the compiler emits the layers' compute packets in the twin's
// operator order, and a packet's MAC-loop work ((K groups) x (output positions) per tile, the
// decoded loop limits of models/chip/cost_model.h) is proportional to the MAC-array work it
// occupies (TwinLayer::arrayMacs: MACs with the output channels padded to the 64-wide tile). So
// the packets, in issue order, are laid along the cumulative array-MAC axis of the twin's Edge TPU
// layers that have MACs (both axes normalised to 1), and each packet goes to the layer whose
// interval holds the packet's midpoint. A layer is `mac-aligned` when its packets' share of all
// packet work is within 0.8-1.25x of its share of the array MACs; otherwise `uncertain`, with the
// ratio. Known limit: a packet's work is its decoded loop nest (taps included), but how many MAC
// cells an iteration fills is not decoded (depthwise layers fill part of them), so early MobileNet
// layers come out uncertain (docs/timing.md). Layers
// without MACs (pooling, add, concatenation, ...) get no packet: their work is not visible as
// compute packets on this model (`no compute packet`). Layers left on the CPU are `cpu`.
// Pass-through computes (ComputePacket::passThrough: no clamp, multiplier 1 — the identity copies
// that stage an input, the unrequantised passes through the kept identity block) compute no layer's
// output: they do not advance the work axis (their iterations count 0 on both sides) and go to the
// layer of the next working packet, whose input they stage (docs/decoding-log.md "dense44": without
// this, model_dense's 7 staging computes put its layer 1's second packet into layer 2).
#pragma once

#include <string>
#include <vector>

#include "sim/profile/compute_packet_log.h"
#include "sim/profile/twin_layers.h"

namespace coralsim::sim {

struct LayerAssignment {
  std::vector<size_t> packets;  // indices into the packet list, in issue order
  uint64_t packetIterations = 0;  // its working packets' iterations (pass-throughs count 0)
  double agreement = 0;          // (packet work share) / (MAC share); 0 without packets or MACs
  std::string mapping;           // "mac-aligned", "uncertain", "no compute packet", "cpu"
};

inline constexpr double kAgreementLow = 0.8;
inline constexpr double kAgreementHigh = 1.25;

// One assignment per layer (same order). Deterministic.
[[nodiscard]] std::vector<LayerAssignment> assignPackets(const std::vector<ComputePacket>& packets,
                                                         const std::vector<TwinLayer>& layers);

}  // namespace coralsim::sim

// A position's partial pass of lane groups (output_partial_pass.h, docs/decoding-log.md "w7codes", "dec16"): the
// output nest's highest counting level counts passes of N = ComputeLaneGroups + 1 units over a position of
// N - 1 + ComputeOut37Step units, each pass N units on, and its last pass holds only the k units the codes name
// (ComputeOutPartialUnits + 1): written whole, that pass would overwrite the next position's first N - k units,
// which the first pass wrote before it. The convolution form (conv_compute.h ConvCompute::unitsOfOutput) writes
// the k units -- the five 16-channel PoseNet / BodyPix decoders' 96-channel layers equal the twin's arithmetic in
// every byte of both passes. Every other form writes whole positions, so a compute with the codes that would run
// as one of them is refused by name here: which form takes it follows compute()'s dispatch, in its order.
// The hold that kept the convolution form from running it ("dec16" .. "round18") is lifted ("hold17"): past it the
// 16-channel decoders run fully, and their whole output equals an offline twin that runs the CPU model with the
// program's own f32 scales and the device's float32 ties-to-even requantisation (scripts/hold17_device_scale_twin.py);
// what separates them from the golden's CPU references is those references' own scales.

#include <string>

#include "models/lle/byte_stepped_weighing.h"
#include "models/lle/compute_output_bytes.h"
#include "models/lle/input_step.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"
#include "models/lle/output_partial_pass.h"
#include "models/lle/wide_streamed_square.h"

namespace coralsim::lle {

using models::DecodedPacket;

namespace {

constexpr uint64_t kGroupBytes = 4;
constexpr uint64_t kFourByteOutput = 4;

}  // namespace

// Whether compute() runs the packet as the convolution form: 4-byte output units and 4-byte input groups, none
// of the forms compute() dispatches before it, and a tile of its mask armed a weight stream on its tag (or a tap-row
// loop at Nest37 level 1 on a tile with a stream).
bool LleRung::runsAsConvolution(const DecodedPacket& packet) const {
  const auto words = packet.words;
  if (readField(words, LleField::ComputeOutputBytes) != kFourByteOutput) return false;
  if (WideStreamedSquare::isForm(words) || isTwoByteLaneGroupForm(words) || isTwoByteElementForm(packet)) return false;
  if (readField(words, LleField::ComputeInputBytes) == 0 && readField(words, LleField::ComputeInputBytesCode) == 0 &&
      !walksAChannelGrid(words)) {
    return false;
  }
  if (inputElementBytes(packet) != kGroupBytes) return false;
  if (ByteSteppedWeighing::isForm(words) || isRingIdentityCopy(packet) || isWalkedElementWise(packet)) return false;
  const uint64_t streamTag = readField(words, LleField::ComputeStreamTag);
  const bool tapRows = readField(words, LleField::ComputeNest37Limit1) != 0;
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if ((packet.tileMask & (1u << t)) && weightStreams_[t] && (tapRows || weightStreams_[t]->tag == streamTag)) return true;
  }
  return false;
}

void LleRung::refusePartialPassOutsideTheConvolution(const DecodedPacket& packet) const {
  const OutputPartialPassCodes codes = expectedOutputPartialPassCodes(packet.words);
  if (codes == OutputPartialPassCodes{} || runsAsConvolution(packet)) return;
  refuse(packet, "ComputeOutPartialUnits (word 7 bits 25:22) = " + std::to_string(codes.partialUnits) +
                     ": a position of ComputeLaneGroups + 1 units leaves a partial pass of " + std::to_string(codes.partialUnits + 1) +
                     " units at Output37 level " + std::to_string(codes.levelsWalked - 1) +
                     " (its last iteration); only the convolution form writes a partial pass, and this compute is not one "
                     "(no weight stream on its tag, or another form's fields)");
}

}  // namespace coralsim::lle

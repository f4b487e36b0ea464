#include "models/lle/conv_undefined_outputs.h"

namespace coralsim::lle {
namespace {

constexpr uint64_t kUnitBytes = 4;

}  // namespace

std::vector<bool> convUndefinedPositions(const ConvCompute& conv, const AddressedMemory& narrow) {
  const auto firstInput = static_cast<uint64_t>(conv.input.lowestUnit()) * kUnitBytes;
  const uint64_t inputSpan = (static_cast<uint64_t>(conv.input.highestUnit()) + 1) * kUnitBytes - firstInput;
  if (!narrow.firstUnwritten(firstInput, inputSpan)) return {};
  // Iteration i belongs to one output position: the i / reduction-th, or, where the reduction is split around
  // the positions (conv_compute.h SplitReduction), the position of its block that its taps sit in -- the same
  // grouping runConvCompute accumulates by.
  const auto split = conv.splitReduction();
  const uint64_t reduction = conv.reduction();
  const bool aroundPositions = split && split->taps != reduction;
  std::vector<bool> undefined(conv.outputs(), false);
  uint64_t i = 0;
  conv.input.forEachUnit([&](int64_t unit) {
    const uint64_t position =
        aroundPositions ? (i / (split->taps * split->positions * split->groups)) * split->positions + (i / split->taps) % split->positions
                        : i / reduction;
    ++i;
    if (position < undefined.size() && !undefined[position] &&
        narrow.firstUnwritten(static_cast<uint64_t>(unit) * kUnitBytes, kUnitBytes)) {
      undefined[position] = true;
    }
  });
  return undefined;
}

uint64_t forgetUndefinedPositions(const ConvCompute& conv, const std::vector<bool>& undefined, AddressedMemory& narrow) {
  const uint64_t groups = conv.lanes / kUnitBytes;
  uint64_t o = 0;
  uint64_t marked = 0;
  conv.output.forEachUnit([&](int64_t unit) {
    if (o < undefined.size() && undefined[o]) {
      narrow.forget(static_cast<uint64_t>(unit) * kUnitBytes, groups * kUnitBytes);
      ++marked;
    }
    ++o;
  });
  return marked;
}

}  // namespace coralsim::lle

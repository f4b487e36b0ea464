#include "models/chip/outfeed.h"

#include <algorithm>
#include <utility>

#include "models/isa/number_text.h"

namespace coralsim::models {

namespace {
constexpr uint32_t kReserveLimitBytes = 1u << 20;
}  // namespace

Outfeed::Outfeed(const sc_core::sc_module_name& name)
    : sc_core::sc_module(name), hostOut("hostOut"), datapath("datapath") {}

void Outfeed::reset() {
  window_.reset();
  readyCycle_ = 0;
  outputBytes_ = 0;
  notComputedBytes_ = 0;
}

void Outfeed::openWindow(uint32_t length, uint64_t cycle) {
  closeWindow(cycle);
  if (length == 0) return;  // an empty DMA: nothing reaches the host
  window_ = Window{length, {}};
  // The length comes from the program (a tag-3 descriptor), i.e. from the host: reserve at most
  // what a real output plausibly needs; a window announcing 4 GiB grows only with the words the
  // program actually streams (bounded by the cycle limit), never allocates 4 GiB up front.
  window_->bytes.reserve(std::min<uint32_t>(length, kReserveLimitBytes));
}

void Outfeed::streamWord(uint32_t word, uint64_t cycle) {
  if (!window_) {
    throw ChipFault(FaultKind::kOutfeed, "stream word " + isa::formatHex(word) +
                                             " with no open output window (no tag-3 descriptor is "
                                             "waiting for bytes)");
  }
  // A window whose length is not a multiple of 4 takes only the bytes that fit of its last word.
  const size_t room = window_->length - window_->bytes.size();
  for (size_t i = 0; i < std::min<size_t>(4, room); ++i) {
    window_->bytes.push_back(static_cast<uint8_t>(word >> (8 * i)));
  }
  if (window_->bytes.size() == window_->length) emit(cycle);
}

void Outfeed::closeWindow(uint64_t cycle) {
  if (!window_) return;
  emit(cycle);
}

void Outfeed::emit(uint64_t cycle) {
  OutputDma dma;
  dma.bytes = std::move(window_->bytes);
  // The tile outfeed produces the rest of the window from the datapath; what the datapath did not
  // compute (the protocol rung: all of it) goes out as zeros flagged "not computed". They follow
  // the produced bytes and are not materialised (see OutputDma).
  const std::vector<uint8_t> tail =
      datapath->windowTail(window_->length, std::span<uint8_t>(dma.bytes), cycle);
  dma.bytes.insert(dma.bytes.end(), tail.begin(), tail.end());
  dma.notComputedBytes = window_->length - dma.bytes.size();
  // Cost model (header): windows leave in order over the ring bus.
  readyCycle_ = std::max(readyCycle_, cycle) + outfeedCycles(timing_, Bytes{window_->length}).value();
  window_.reset();
  outputBytes_ += dma.size();
  notComputedBytes_ += dma.notComputedBytes;
  hostOut->pushOutput(std::move(dma));
}

}  // namespace coralsim::models

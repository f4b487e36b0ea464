#include "models/chip/instruction_queue.h"

#include <algorithm>
#include <limits>

namespace coralsim::models {

InstructionQueue::InstructionQueue(const sc_core::sc_module_name& name) : sc_core::sc_module(name) {}

void InstructionQueue::configure(units::Bytes buffer) { bufferBytes_ = static_cast<uint32_t>(buffer.value()); }

void InstructionQueue::reset() {
  chunks_.clear();
  nextSequence_ = 0;
  spaceEvent_.notify(sc_core::SC_ZERO_TIME);
}

void InstructionQueue::beginRecord(uint32_t length) {
  // A record the bridge abandoned (its parser was flushed mid-record) never completes: drop it,
  // or it would hold back every later chunk.
  if (!chunks_.empty() && !chunks_.back().complete()) chunks_.pop_back();
  chunks_.push_back(PendingChunk{InstructionChunk{nextSequence_++, {}}, length});
  if (length == 0) chunkEvent_.notify(sc_core::SC_ZERO_TIME);
}

uint64_t InstructionQueue::bytesAhead() const {
  uint64_t ahead = 0;
  for (size_t i = 1; i < chunks_.size(); ++i) ahead += chunks_[i].chunk.bytes.size();
  return ahead;
}

size_t InstructionQueue::tryWrite(std::span<const uint8_t> bytes) {
  if (chunks_.empty() || chunks_.back().complete()) return 0;  // no record open: nothing to take
  PendingChunk& back = chunks_.back();
  uint64_t room = back.length - back.chunk.bytes.size();
  if (chunks_.size() > 1) {
    const uint64_t ahead = bytesAhead();
    room = std::min<uint64_t>(room, ahead >= bufferBytes_ ? 0 : bufferBytes_ - ahead);
  }
  const size_t take = static_cast<size_t>(std::min<uint64_t>(room, bytes.size()));
  back.chunk.bytes.insert(back.chunk.bytes.end(), bytes.begin(), bytes.begin() + static_cast<ptrdiff_t>(take));
  if (back.complete()) chunkEvent_.notify(sc_core::SC_ZERO_TIME);
  return take;
}

uint32_t InstructionQueue::freeBytes() const {
  const uint64_t ahead = bytesAhead();
  const uint64_t free = ahead >= bufferBytes_ ? 0 : bufferBytes_ - ahead;
  return static_cast<uint32_t>(std::min<uint64_t>(free, std::numeric_limits<uint32_t>::max()));
}

std::optional<InstructionChunk> InstructionQueue::tryTakeChunk() {
  if (chunks_.empty() || !chunks_.front().complete()) return std::nullopt;
  InstructionChunk chunk = std::move(chunks_.front().chunk);
  chunks_.pop_front();
  // The next chunk is now the one the core needs: it may be accepted in full.
  spaceEvent_.notify(sc_core::SC_ZERO_TIME);
  return chunk;
}

}  // namespace coralsim::models

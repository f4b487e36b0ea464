#include "models/lle/block_prefix_write.h"

#include <utility>

#include "models/lle/lle_fields.h"
#include "models/lle/stage14_block_level.h"
#include "models/lle/write_nest.h"

namespace coralsim::lle {

std::string blockPrefixWriteProblem(std::span<const isa::Word128> words) {
  // Without a stream there is nothing for these to describe: every corpus write of the form holds 0 in all four.
  for (const LleField f : {LleField::Stage14StreamPrefixArrays, LleField::Stage14StreamPrefixOn, LleField::Stage14RingStream,
                           LleField::Stage14StreamPrefixRun}) {
    if (const uint64_t value = readField(words, f); value != 0) {
      return fieldText(f, value) + " where no prefixed stream receive comes before it: only the blocks are decoded for such a write";
    }
  }
  const WriteNest nest = WriteNest::fromPacket(words);
  if (!nest.revisitsAUnit()) {
    return "its nest comes back to no unit, so no level of it counts the " +
           std::to_string(readField(words, LleField::Stage14StreamPrefixBlocks) + 1) +
           " blocks it names: every corpus write naming blocks after no stream stages them over one place";
  }
  return stage14BlockLevelProblem(words, nest);
}

namespace {

constexpr uint8_t kExecutionReceive = 0x11;
constexpr uint8_t kWeightStreamReceive = 0x12;

}  // namespace

bool receivesBlockPrefixes(uint8_t receiveOpcode, std::span<const isa::Word128> receive, std::span<const isa::Word128> write) {
  const uint64_t tag = readField(write, LleField::Stage14FeedTag);
  if (receiveOpcode == kExecutionReceive) {
    if (readField(receive, LleField::Recv11ExecutionForm) == 0) return false;
    const bool prefixedStream = readField(receive, LleField::Recv11ExecInnerLevel) != 0 && readField(receive, LleField::Recv11PrefixOn) != 0;
    return !prefixedStream && readField(receive, LleField::Recv11ExecStream) == tag;
  }
  if (receiveOpcode == kWeightStreamReceive) {
    const bool prefixedStream = readField(receive, LleField::Recv12InnerLevel) != 0 && readField(receive, LleField::Recv12PrefixOn) != 0;
    return !prefixedStream && readField(receive, LleField::Recv12Stream) == tag;
  }
  return false;
}

std::string blockPrefixAfterReceiveProblem(uint8_t receiveOpcode, std::span<const isa::Word128> receive, std::span<const isa::Word128> write) {
  const bool ring = receiveOpcode == kWeightStreamReceive;
  const std::pair<LleField, uint64_t> expected[] = {{LleField::Stage14StreamPrefixArrays, 1},
                                                    {LleField::Stage14StreamPrefixOn, 1},
                                                    {LleField::Stage14RingStream, ring ? 1u : 0u},
                                                    {LleField::Stage14StreamPrefixRun, 0}};
  for (const auto& [f, want] : expected) {
    if (const uint64_t value = readField(write, f); value != want) {
      return fieldText(f, value) + " after a " + (ring ? "0x12" : "0x11") + " receive of its stream carrying the blocks' prefixes, where " +
             std::to_string(want) + " is decoded";
    }
  }
  const LleField runField = ring ? LleField::Recv12Run : LleField::Recv11ExecRun;
  const uint64_t blocks = readField(write, LleField::Stage14StreamPrefixBlocks), run = readField(receive, runField);
  if (blocks != run) {
    return fieldText(LleField::Stage14StreamPrefixBlocks, blocks) + " is not the receive's " + fieldText(runField, run) +
           ": the receive carries one prefix a block";
  }
  return blocks == 0 ? std::string() : stage14BlockLevelProblem(write, WriteNest::fromPacket(write));
}

std::string blockPrefixComputeProblem(uint64_t blocks, std::span<const isa::Word128> compute) {
  const uint64_t positions = readField(compute, LleField::ComputeOut37Limit2);
  if (positions != blocks) {
    return fieldText(LleField::ComputeOut37Limit2, positions) + " does not count the " + std::to_string(blocks + 1) +
           " blocks the write before it staged a prefix for (" + fieldText(LleField::Stage14StreamPrefixBlocks, blocks) + ")";
  }
  if (readField(compute, LleField::ComputeParamPrefix) == 0) {
    return "ComputeParamPrefix = 0 after a write that staged a prefix for each of its " + std::to_string(blocks + 1) + " blocks";
  }
  // The compute says it takes the staged prefix (115 / 115 corpus computes after such a write set the bit).
  if (const uint64_t staged = readField(compute, LleField::ComputeStagedPrefix); staged != 1) {
    return fieldText(LleField::ComputeStagedPrefix, staged) + " after a write that staged a prefix for each of its " +
           std::to_string(blocks + 1) + " blocks (docs/decoding-log.md \"misc\")";
  }
  return "";
}

}  // namespace coralsim::lle

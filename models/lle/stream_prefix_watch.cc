#include "models/lle/stream_prefix_watch.h"

#include <cstdio>

#include "models/lle/block_prefix_write.h"
#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"
#include "models/lle/receive_kind.h"

namespace coralsim::lle {

namespace {

constexpr uint8_t kExecutionReceive = 0x11;
constexpr uint8_t kWeightStreamReceive = 0x12;
constexpr uint8_t kStagingWrite = 0x14;
constexpr uint8_t kStagedRead = 0x13;
constexpr uint8_t kSync = 0x1a;
constexpr uint8_t kCompute = 0x01;
constexpr uint64_t kPrefixUnits8PerArray = 32;  // a 256-byte prefix array in the receives' 8-byte units

std::string hexPc(uint32_t pc) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%04x", pc);
  return text;
}

std::string hexByte(uint8_t value) {
  char text[8];
  std::snprintf(text, sizeof text, "0x%02x", value);
  return text;
}

// The prefixed stream a receive arms, as a compute-feeding write describes it.
struct StreamPrefix {
  bool ring = false;  // a 0x12: over the weight ring
  // Bytes8 = 32 x arrays + extra: 0 (whole arrays) or 1 (the bias form, "stride11" §B); more is not decoded.
  uint64_t extra8 = 0;
  bool level1Counts = false;
  uint64_t arrays = 0;
  // Output blocks - 1 as the write may count them (docs/decoding-log.md "bias14"): the receive's levels 2-3, the
  // levels above its K parts; or, where its level 1 counts, levels 1-3 -- level 1 then counts output blocks, not
  // K parts (one stream run is a block's whole K: the 3 x 3 taps of 4-lane depthwise-style blocks, the K groups of
  // a pointwise layer's 64-lane blocks). The receive alone does not say which (model_conv's and MobileNet v2's
  // receives are bit for bit the same nest, blocks 1 and 2): the write does, and the stream's feeding pop carries
  // that many prefixes (blocks x prefix rows + transfers, 134 / 134 corpus pops that tell the two apart).
  uint64_t blocks = 0;
  uint64_t blocksWithLevel1 = 0;

  // The prefix's parts - 1 as the write's run counts them (docs/decoding-log.md "pair14b"): the bias array is one
  // part, the scale / offset pair another (ComputeParamPrefix's two bits), so ceil(arrays / 2) - 1.
  [[nodiscard]] uint64_t run() const { return arrays == 0 ? 0 : (arrays + 1) / 2 - 1; }
  [[nodiscard]] bool countsBlocks(uint64_t written) const { return written == blocks || (level1Counts && written == blocksWithLevel1); }
};

// False when the packet arms no prefixed stream.
bool streamPrefixOf(uint8_t opcode, std::span<const isa::Word128> words, StreamPrefix& stream) {
  LleField on{}, bytes8{}, repeat{};
  if (opcode == kExecutionReceive && readField(words, LleField::Recv11ExecutionForm) != 0 &&
      readField(words, LleField::Recv11ExecInnerLevel) != 0) {
    on = LleField::Recv11PrefixOn, bytes8 = LleField::Recv11PrefixBytes8, repeat = LleField::Recv11ExecRepeat;
  } else if (opcode == kWeightStreamReceive && readField(words, LleField::Recv12InnerLevel) != 0) {
    on = LleField::Recv12PrefixOn, bytes8 = LleField::Recv12PrefixBytes8, repeat = LleField::Recv12Repeat;
  } else {
    return false;
  }
  if (readField(words, on) == 0) return false;
  const uint64_t units8 = readField(words, bytes8);
  const uint64_t levels23 = (readField(words, repeat, 1) + 1) * (readField(words, repeat, 2) + 1);
  stream = StreamPrefix{opcode == kWeightStreamReceive, units8 % kPrefixUnits8PerArray, readField(words, repeat, 0) != 0,
                        units8 / kPrefixUnits8PerArray, levels23 - 1, (readField(words, repeat, 0) + 1) * levels23 - 1};
  return true;
}

// A read kept for the tile's next compute (Stage13Route 0, 0): the compute-feeding write after it restates the
// read's level-1 limit (Stage13OuterLimit[0]) in the slot a prefixed stream's write gives its output blocks - 1
// (docs/decoding-log.md "soft14" §A: 23 / 23 writes after the softmax's records reads hold 1 beside a read
// counting its level 1 twice, 79 / 79 after the other kept reads hold 0 beside an idle level 1). False when
// `opcode` is not such a read.
bool keptReadLevel1(uint8_t opcode, std::span<const isa::Word128> words, uint64_t& level1) {
  if (opcode != kStagedRead || readField(words, LleField::Stage13Route, 0) != 0 || readField(words, LleField::Stage13Route, 1) != 0) {
    return false;
  }
  level1 = readField(words, LleField::Stage13OuterLimit, 0);
  return true;
}

}  // namespace

std::string StreamPrefixWatch::observe(const models::DecodedPacket& packet) {
  const auto op = static_cast<uint8_t>(packet.opcode);
  if (!packet.tilePacket || op == kSync) return "";
  // The compute after a write that staged a prefix a block with no stream before it (block_prefix_write.h) counts them.
  if (op == kCompute) {
    // A compute that says it takes a staged prefix (ComputeStagedPrefix) where no write staged one a block before it on
    // a tile: 2 corpus computes (MobileNet v1 alone, after a one-unit write after a 0x16); what it then takes is not
    // decoded.
    if (const uint64_t staged = readField(packet.words, LleField::ComputeStagedPrefix); staged != 0) {
      for (unsigned t = 0; t < kTiles; ++t) {
        if (!(packet.tileMask & (1u << t)) || blockPrefix_[t]) continue;
        return "opcode 0x01 at " + models::describePacketLocation(packet.pc, packet.words[0]) + ": " +
               fieldText(LleField::ComputeStagedPrefix, staged) + " on tile " + std::to_string(t) +
               " where no write before it staged a prefix a block: which prefix it takes is not decoded (docs/decoding-log.md \"misc\")";
      }
    }
    for (unsigned t = 0; t < kTiles; ++t) {
      if (!(packet.tileMask & (1u << t)) || !blockPrefix_[t]) continue;
      const BlockPrefix pending = *blockPrefix_[t];
      blockPrefix_[t].reset();
      if (const std::string why = blockPrefixComputeProblem(pending.blocks, packet.words); !why.empty()) {
        return "opcode 0x01 at " + models::describePacketLocation(packet.pc, packet.words[0]) + ": " + why + " on tile " +
               std::to_string(t) + ", after opcode 0x14 at PC " + hexPc(pending.pc) + " (docs/decoding-log.md \"nin14\")";
      }
    }
  }
  // A receive's kind code (receive_kind.h, docs/decoding-log.md "mnv1d" §A): the one its form allows, and where it says
  // block prefixes (48) the next packet on each of its tiles is the compute-feeding write that takes them (below).
  if (const std::string why = receiveKindProblem(op, packet.words); !why.empty()) {
    return "opcode " + hexByte(op) + " at " + models::describePacketLocation(packet.pc, packet.words[0]) + ": " + why +
           " (docs/decoding-log.md \"mnv1d\")";
  }
  for (unsigned t = 0; t < kTiles; ++t) {
    if (!(packet.tileMask & (1u << t)) || !previous_[t] || !receiveCarriesBlockPrefixes(previous_[t]->opcode, previous_[t]->words)) continue;
    const bool taken = op == kStagingWrite && readField(packet.words, LleField::Stage14FeedsCompute) != 0 &&
                       receivesBlockPrefixes(previous_[t]->opcode, previous_[t]->words, packet.words);
    if (!taken) {
      return "opcode " + hexByte(previous_[t]->opcode) + " at " + models::describePacketLocation(previous_[t]->pc, previous_[t]->words.front()) +
             ": its kind code says it carries the block prefixes of the compute-feeding write after it (" +
             fieldText(*receiveKindField(previous_[t]->opcode, previous_[t]->words), kReceiveKindBlockPrefixes) + "), but the next packet on tile " +
             std::to_string(t) + " is opcode " + hexByte(op) + " at " + models::describePacketLocation(packet.pc, packet.words[0]) +
             ", no such write of its stream (docs/decoding-log.md \"mnv1d\", \"nin14\")";
    }
  }
  bool blockPrefixWrite = false;
  // A compute-feeding write whose copy is the read before it (Stage14CopyInnerLevel clear, no prefix fields) stages
  // no stream prefix: read_copy_watch.h checks it.
  if (op == kStagingWrite && readField(packet.words, LleField::Stage14FeedsCompute) != 0 &&
      fieldPresent(LleField::Stage14StreamPrefixRun, packet.words)) {
    const uint64_t arrays = readField(packet.words, LleField::Stage14StreamPrefixArrays);
    const uint64_t on = readField(packet.words, LleField::Stage14StreamPrefixOn);
    const uint64_t blocks = readField(packet.words, LleField::Stage14StreamPrefixBlocks);
    const uint64_t ring = readField(packet.words, LleField::Stage14RingStream);
    const uint64_t run = readField(packet.words, LleField::Stage14StreamPrefixRun);
    const std::string at = "opcode 0x14 at " + models::describePacketLocation(packet.pc, packet.words[0]) + ": ";
    for (unsigned t = 0; t < kTiles; ++t) {
      if (!(packet.tileMask & (1u << t))) continue;
      const std::optional<Previous>& before = previous_[t];
      StreamPrefix stream;
      const bool streamed = before && streamPrefixOf(before->opcode, before->words, stream);
      const std::string after = " on tile " + std::to_string(t) + ", after " +
                                (before ? "opcode " + hexByte(before->opcode) + " at " +
                                              models::describePacketLocation(before->pc, before->words.front())
                                        : std::string("no packet")) +
                                " (docs/decoding-log.md \"prefix14\" §B)";
      uint64_t keptLevel1 = 0;
      if (!streamed && before && keptReadLevel1(before->opcode, before->words, keptLevel1)) {
        if (arrays != 0 || on != 0 || ring != 0 || run != 0 || blocks != keptLevel1) {
          return at + "after a kept read it restates the read's level-1 limit (" +
                 fieldText(LleField::Stage13OuterLimit, keptLevel1) + ") and describes no stream prefix, but holds " +
                 fieldText(LleField::Stage14StreamPrefixBlocks, blocks) + ", " + fieldText(LleField::Stage14StreamPrefixArrays, arrays) +
                 ", " + fieldText(LleField::Stage14StreamPrefixOn, on) + ", " + fieldText(LleField::Stage14RingStream, ring) + ", " +
                 fieldText(LleField::Stage14StreamPrefixRun, run) + " (docs/decoding-log.md \"soft14\" §A)" + after;
        }
        continue;
      }
      if (!streamed && before && receivesBlockPrefixes(before->opcode, before->words, packet.words)) {
        // A receive of the write's own stream carrying one prefix a block ("nin14"), which its kind code says (48).
        if (!receiveCarriesBlockPrefixes(before->opcode, before->words)) {
          const LleField kind = *receiveKindField(before->opcode, before->words);
          return at + "the receive before it is of its stream and arms no prefixed weight stream, but its " +
                 fieldText(kind, readField(before->words, kind)) + " does not say block prefixes (48)" + after +
                 " (docs/decoding-log.md \"mnv1d\")";
        }
        if (const std::string why = blockPrefixAfterReceiveProblem(before->opcode, before->words, packet.words); !why.empty()) {
          return at + why + after + "; as a prefix a block of the compute after it (docs/decoding-log.md \"nin14\")";
        }
        blockPrefix_[t] = BlockPrefix{packet.pc, blocks};
        blockPrefixWrite = true;
        continue;
      }
      if (!streamed && blocks != 0) {
        // After no stream and no kept read a write may stage a prefix a block for the compute after it ("nin14").
        if (const std::string why = blockPrefixWriteProblem(packet.words); !why.empty()) {
          return at + "it describes a stream prefix (" + fieldText(LleField::Stage14StreamPrefixArrays, arrays) + ", " +
                 fieldText(LleField::Stage14StreamPrefixOn, on) + ", " + fieldText(LleField::Stage14StreamPrefixBlocks, blocks) + ", " +
                 fieldText(LleField::Stage14RingStream, ring) + ", " + fieldText(LleField::Stage14StreamPrefixRun, run) +
                 ") where no prefixed stream receive comes before it" + after +
                 "; nor as a prefix a block of the compute after it (docs/decoding-log.md \"nin14\"): " + why;
        }
        blockPrefix_[t] = BlockPrefix{packet.pc, blocks};
        blockPrefixWrite = true;
        continue;
      }
      if (!streamed) {
        if (arrays != 0 || on != 0 || blocks != 0 || ring != 0 || run != 0) {
          return at + "it describes a stream prefix (" + fieldText(LleField::Stage14StreamPrefixArrays, arrays) + ", " +
                 fieldText(LleField::Stage14StreamPrefixOn, on) + ", " + fieldText(LleField::Stage14StreamPrefixBlocks, blocks) + ", " +
                 fieldText(LleField::Stage14RingStream, ring) + ", " + fieldText(LleField::Stage14StreamPrefixRun, run) +
                 ") where no prefixed stream receive comes before it" + after;
        }
        continue;
      }
      if (stream.extra8 > 1) {
        return at + "the stream before it carries a prefix of " + std::to_string(stream.arrays) + " arrays and " +
               std::to_string(stream.extra8) + " eight-byte units more: what the write stages of it is not decoded" + after;
      }
      if (ring != (stream.ring ? 1u : 0u)) {
        return at + fieldText(LleField::Stage14RingStream, ring) + " where the stream comes " +
               (stream.ring ? "over the weight ring (a 0x12)" : "from the host (a 0x11)") + after;
      }
      if (arrays != 0 && arrays != stream.arrays) {
        return at + fieldText(LleField::Stage14StreamPrefixArrays, arrays) + " is neither 0 nor the stream's " +
               std::to_string(stream.arrays) + " prefix arrays" + after;
      }
      if (on != (arrays != 0 ? 1u : 0u)) {
        return at + fieldText(LleField::Stage14StreamPrefixOn, on) + " with " + fieldText(LleField::Stage14StreamPrefixArrays, arrays) + after;
      }
      if (run != stream.run()) {
        return at + fieldText(LleField::Stage14StreamPrefixRun, run) + " is not the stream's prefix parts - 1 (" +
               std::to_string(stream.run()) + ": ceil(" + std::to_string(stream.arrays) + " arrays / 2) - 1, docs/decoding-log.md \"pair14b\")" +
               after;
      }
      if (!stream.countsBlocks(blocks)) {
        return at + fieldText(LleField::Stage14StreamPrefixBlocks, blocks) + " is not the stream's " + std::to_string(stream.blocks + 1) +
               " output blocks - 1 (its receive's levels 2-3)" +
               (stream.level1Counts ? " nor its " + std::to_string(stream.blocksWithLevel1 + 1) + " (levels 1-3: level 1 counting blocks, not K parts)"
                                    : std::string()) +
               after;
      }
    }
  }
  blockPrefixWrites_ += blockPrefixWrite ? 1 : 0;
  for (unsigned t = 0; t < kTiles; ++t) {
    if (packet.tileMask & (1u << t)) previous_[t] = Previous{packet.pc, op, std::vector<isa::Word128>(packet.words.begin(), packet.words.end())};
  }
  return "";
}

void StreamPrefixWatch::clear() {
  for (auto& p : previous_) p.reset();
  for (auto& b : blockPrefix_) b.reset();
  blockPrefixWrites_ = 0;
}

}  // namespace coralsim::lle

// LleRung: the low-level datapath rung (docs/ARCHITECTURE.md §3, docs/isa.md §7 stages B/C). It
// executes the tile and scalar-side packets of a program from their decoded fields
// (lle_fields.def), inside the envelope of the templates it supports (lle_envelope.def), and
// refuses everything else with the opcode, PC and word.
//
// What each packet does here:
//   0x25 infeed config   selects the host stream class (input / parameters) [INF]; for the
//                        parameter class its stream-size fields are checked against the stream
//                        at the next fence
//   0x11 receive         (the format with bit 61 set) names the tile-memory rows the next
//                        parameter pop to its tile fills: a prefix, then a row loop
//   0x26 pop             the decoded length of the class's stream from the decoded byte offset goes
//                        to the destination tiles: parameters into the rows of each tile's next
//                        receive (whole 256-byte rows only), activations to narrow memory at
//                        their stream position. The copy happens at the next scalar fence (0x24),
//                        when the core has waited for the infeed, or at the compute packet.
//   0x01 compute         per masked tile: the 64-lane MAC over K = 4 x (limit + 1) activation bytes
//                        (stream bytes [0, K) gathered from the compute tiles that hold them,
//                        see the staging row below) against the parameter prefix and weights (wide memory,
//                        docs/isa.md §5.1), then the requantisation epilogue (requantizer.h); the 64
//                        result bytes go to the tile's addressed narrow memory at ComputeOutputAt.
//                        One-byte input elements (ComputeInputBytes = 1): the identity copy of a staging
//                        window's passes, row by row, along the output nest (docs/decoding-log.md
//                        "identcopy"); a compute issued before its window is filled waits for it
//   0x14                 arms a narrow-memory write on its tiles at Stage14NarrowAt64 x 64 + 4 x Stage14NarrowUnit: the next pop
//                        to such a tile lands there too (addressed_memory.h), unit by unit along the
//                        write's five-level nest when an outer level counts (write_nest.h; a window,
//                        one outer level of stride 0, keeps every pass for the one-byte-element
//                        computes, staging_window.h; other nests writing a unit twice are refused); its two selects
//                        (Stage14SelectW4/W5, meaning not decoded) must be ones the hypothesis of
//                        docs/decoding-log.md "xraypair" §A covers, else refused
//   0x13                 arms the narrow-memory read at Stage13NarrowAt4 x 4 (along its nest, one
//                        counting level, read_nest.h) that the tile's next outfeed sends carry; a read whose second level repeats (Stage13Repeats > 0)
//                        is not sent (where the repeat goes is not decoded, "read13" §A). That is
//                        the sent form (Stage13Route 1, 1); the kept form (0, 0: the prologue's
//                        identity reads) copies its bytes out of narrow memory for the tile's next
//                        compute, which is refused while it holds them (how it takes them is not
//                        decoded, "form13"); the mixed forms are refused. The read's stream tag
//                        (Stage13Channel) must be the one its send names (Dma10Channel)
//   0x27 + 0x10          the outfeed sends the 0x27's bytes (OutfeedLines) from the 0x10's tile, read
//                        at its 0x13 address (refused when no packet of the run wrote them): compute
//                        results or popped bytes, in the order of the 0x10s. The nested 0x27
//                        (OutfeedNested) after a stream-feeding pop and the send with Dma10WeightFeed
//                        are the weight feed: the holding tile's rows go back to the parameter ring,
//                        checked (rows, tile) and sent nowhere the host sees (docs/decoding-log.md
//                        "conv32end"). The nested 0x27 to scalar memory (OutfeedPath 0) moves its
//                        row of OutfeedLines + 1 4-byte groups into the scalar core's data memory at
//                        OutfeedScalarWord (takeScalarMemoryWrites; the program streams them, "scalar27"):
//                        the rows take the sends' bytes in order, several rows of whole beats from one
//                        large send ("loop27"); every nested 0x27's line and beat fields must follow its
//                        count (outfeed_rows.h)
//   0x10 between tiles   (neither Dma10ToOutfeed nor Dma10WeightFeed) the read of its stream next on its tile goes
//                        into the staging write each tile of Dma10RingTiles armed before its execution-only
//                        receive (lle_rung_ring_send.cc, docs/decoding-log.md "bright10")
//   0x17 (immediate)     writes Fill17Value at every narrow 4-byte unit of its four-level nest from
//                        4 x Fill17At4 on its tiles (fill_nest.h; docs/decoding-log.md "op17",
//                        "fill17b"); other 0x17 forms refused
//   0x19                 the tile keeps the NLU table
//   0x11 (other format), 0x1a, 0x24, and the rest of 0x13/0x14
//                        data movement inside and between tile memories, and fences: pinned by the
//                        envelope and modelled as no-ops: their net effect in the supported templates
//                        is that every compute tile sees the whole activation vector, which the
//                        compute takes from the tile whose narrow memory holds it (the abstraction
//                        of docs/isa.md §7 "contiguous, in order", stated in docs/design-notes.md).
//                        The column-group strides of the Dense distribution 0x14s are not decoded:
//                        there the addressed image holds the whole pop at the landing address, which
//                        nothing in those templates reads (their outfeeds send the compute results).
// Parameter caching: wide memory survives runs until reset().
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "models/chip/datapath_rung.h"
#include "models/lle/compute_epilogue.h"
#include "models/lle/loop_nest.h"
#include "models/lle/mesh_stream.h"
#include "models/lle/next_packet_watch.h"
#include "models/lle/stream_prefix_watch.h"
#include "models/lle/parameter_infeed_segments.h"
#include "models/lle/partner_copy.h"
#include "models/lle/read_nest.h"
#include "models/lle/tile_state.h"

namespace coralsim::lle {

struct MeshLayout;  // mesh_sides.h
struct ConvCompute;  // conv_compute.h
struct InputByteWalk;  // input_byte_walk.h

// The two-byte lane-group form with a bias prefix (lle_rung_two_byte_lane_groups.cc, docs/decoding-log.md "soft14" §C):
// 2-byte input elements, 16-bit weights and a parameter prefix.
[[nodiscard]] bool isTwoByteLaneGroupForm(std::span<const isa::Word128> words);

class LleRung final : public models::DatapathRung {
 public:
  explicit LleRung(const models::ChipConfig& config);

  [[nodiscard]] models::ExecutionMode rung() const override { return models::ExecutionMode::kLle; }
  void reset() override;
  void beginRun() override;
  void packet(const models::DecodedPacket& packet, const models::RunStreams& streams, uint64_t cycle) override;
  [[nodiscard]] std::vector<uint8_t> windowTail(unsigned window, uint32_t windowLength, uint32_t streamedBytes,
                                                const models::RunStreams& streams) override;
  [[nodiscard]] std::vector<uint32_t> undefinedTailBytes(unsigned window) const override;
  void endRun() override;
  [[nodiscard]] std::vector<models::ScalarMemoryWrite> takeScalarMemoryWrites() override { return std::exchange(scalarWrites_, {}); }

  // For tests and the bench.
  [[nodiscard]] const TileState& tile(unsigned index) const { return tiles_.at(index); }
  [[nodiscard]] uint64_t macCount() const { return macs_; }  // int8 MACs since construction

 private:
  [[nodiscard]] std::string checkChunk(std::span<const uint8_t> chunk, const models::DecodedProgram* decoded) override;

  // The weight feed (docs/decoding-log.md "conv32end"): after the stream-feeding pop, the nested 0x27
  // (OutfeedNested) and the send of the tile holding the weights (Dma10WeightFeed) carry its rows back
  // into the parameter ring; none of their bytes reach the host.
  struct WeightFeed {
    uint64_t popPc = 0;
    uint64_t rows = 0;                 // 256-byte rows: the feeding pop's w0[103:96] + 1
    std::optional<unsigned> weightTile;  // the tile the convolutions read their weights from (one, or unknown)
    uint64_t weightBytes = 0;
    uint64_t weightRow = 0;  // the wide row they start at: the convolution reads wide address 0
    uint16_t tiles = 0;      // the pop's tiles (PopTiles): the convolutions waiting on them take the send's rows
  };

  // The tile-memory rows a 0x11 receive (bit 61 set) prepares for the next parameter pop to its tile.
  struct WideReceive {
    uint32_t pc = 0;
    uint32_t firstRow = 0;  // the prefix's first row (or the row loop's when there is no prefix)
    uint32_t rows = 0;      // prefix rows + row loop count
  };

  struct PendingPop {
    uint16_t tiles = 0;
    bool input = false;
    uint64_t offset = 0;
    uint64_t length = 0;  // stream bytes (PopBeatsHigh/Low)
    // Input pops: the span of the run's input stream their infeed's transfer holds (input_infeed_transfer.h);
    // the offset counts from its start, and bytes past its end belong to no transfer of this infeed.
    uint64_t transferStart = 0;
    uint64_t transferEnd = 0;
    struct SramWrite {
      unsigned tile = 0;
      uint64_t address = 0;  // narrow bytes, Stage14NarrowAt64 x 64 + 4 x Stage14NarrowUnit
      WriteNest nest;        // the units the bytes land on from there, in order
      uint64_t skipUnits = 0;  // the pop's units this tile lets pass first (Stage14SourceSkip + 1, or 0)
      bool sliced = false;     // the tile's slice of a dealt-out receive: its nest's units only, never the whole pop
    };
    std::vector<SramWrite> sramWrites;  // armed by a 0x14 on the pop's tiles
    std::array<uint64_t, 16> wideAddress{};  // parameters: per destination tile, where its receive puts them
    // Parameters: stream bytes per 256-byte destination row, from its first lane on (PopRowQuarters:
    // 64, 128, 192 or 256); each row takes the next that many stream bytes.
    uint64_t bytesPerRow = 0;
    // Parameters that are the rows of the weight stream a waiting convolution took on each of the pop's tiles, not
    // rows of a receive (lle_rung_host_stream.cc, docs/decoding-log.md "dense43b").
    bool feedsWaitingStream = false;
  };

  // A compute that waits for its input pop's bytes (its own copy of the packet's words).
  struct DeferredCompute {
    std::vector<isa::Word128> words;
    models::DecodedPacket packet;
  };

  struct InfeedCheck {
    uint32_t pc = 0;
    isa::Word128 word0;
    ParameterInfeed fields;
  };

  void infeed(const models::DecodedPacket& packet);
  [[nodiscard]] uint64_t outfeedBytes(const models::DecodedPacket& packet) const;  // checks the two decoded forms
  void stageWrite(const models::DecodedPacket& packet);
  // A 0x14 with word 4 zero: puts back a read kept on its tiles (kept_stream_write.h; lle_rung_kept_stream.cc).
  void writeKeptStream(const models::DecodedPacket& packet);
  // A 0x14 taking the bytes of the read just before it on its tiles (read_copy_watch.h; lle_rung_read_copy.cc), and
  // that read when it is a copy-marked one (its bytes gathered along its nest for the write).
  void writeReadCopy(const models::DecodedPacket& packet);
  // The 16-byte block kept on tile `t` under stream `tag` for a walked element-wise compute, if any.
  [[nodiscard]] std::optional<std::vector<uint8_t>> walkBlock(unsigned t, uint64_t tag) const;
  // The pop's units the write lets pass before it keeps any (Stage14Source*; refuses a pair it does not decode).
  [[nodiscard]] uint64_t sourceSkipUnits(const models::DecodedPacket& packet, uint64_t address) const;
  // The units of each group the write keeps in the row form (Stage14SourceRow*; 0 = the whole group).
  [[nodiscard]] bool checkSourceRowParts(const models::DecodedPacket& packet) const;
  [[nodiscard]] uint64_t inputPopOffset(const models::DecodedPacket& packet, uint64_t wrappedOffset);
  // Refuses a source-side unit count (Stage14SourceUnits) other than the units its group and skip span.
  void refuseOtherSourceUnits(const models::DecodedPacket& packet, uint64_t skipUnits) const;
  void stageRead(const models::DecodedPacket& packet);
  // The groups a 0x13 reads: from narrow byte `address`, `groups` groups of 4 bytes, `stride` 4-byte
  // units apart (its one counting level, read_nest.h).
  // A kept read whose counting levels do not chain (docs/decoding-log.md "pool4" §A) names its units one by one
  // instead, in the nest's order (`unitOrder`, 4-byte units from `address`; `groups` is their count).
  struct StagedNest {
    uint64_t address = 0;
    uint64_t groups = 0;
    int64_t stride = 1;
    std::vector<int64_t> unitOrder;
  };
  [[nodiscard]] StagedNest gatheredReach(const models::DecodedPacket& packet, const ReadNest& nest, uint64_t address) const;
  void keepRead(const models::DecodedPacket& packet, const StagedNest& reach, uint64_t repeats, uint64_t channel, uint64_t sequence);
  // The read a waiting streamed product takes: runs that compute with the read's bytes as its second operand.
  void takeStreamedOperand(const models::DecodedPacket& read, const StagedNest& reach);
  // The kept-operand read (Stage13FeedsReduction, no compute waiting) and the weighing that takes it as its 16-bit
  // weights (lle_rung_kept_operand.cc, docs/decoding-log.md "trk16" §B).
  void keepOperandRead(const models::DecodedPacket& read, const StagedNest& reach);
  void computeKeptOperandWeighing(const models::DecodedPacket& packet);
  void keepReadForCopy(const models::DecodedPacket& packet, const StagedNest& reach, uint64_t channel);
  // A read kept for an opcode-0x02 / 0x03 compute (Stage13FeedsNormalise, docs/decoding-log.md "bright13") or sent into its
  // sum (Stage13SentIntoSum, "nin16"): its second nest is the taker's beat walk (read_beat_walk.h).
  void keepReadForNormalise(const models::DecodedPacket& packet, const StagedNest& reach, uint64_t repeats, uint64_t channel,
                            uint64_t streamBeats, bool runs, uint64_t sequence);
  // A read routed (0, 1) taken by the max pass issued next on its tiles (max_pass_stream_read.h, docs/decoding-log.md
  // "nin15"): kept for that pass as a read kept for it (Stage13FeedsNormalise) is; the pass checks tag and bytes.
  void keepReadForMaxPass(const models::DecodedPacket& packet, const StagedNest& reach, uint64_t channel);
  void refuseAKeptReadOfUnwrittenBytes(const models::DecodedPacket& packet) const;
  // Whether a run of kept reads whose blocks are all equal is taken (a compute: "split" §E) or refused (a send).
  enum class RunOfEqualBlocks { kTaken, kRefused };
  void refuseARunOfKeptReads(const models::DecodedPacket& packet, RunOfEqualBlocks equalBlocks) const;
  [[nodiscard]] static std::variant<std::vector<uint8_t>, uint64_t> gather(const AddressedMemory& narrow,
                                                                          const StagedNest& reach);
  // A streamed product's two operands on tile `t`: the stream `read` gathers along `reach` and the compute's own
  // `inputBytes` from `inputAt`; an unwritten byte of either is refused naming its packet and the `form`.
  struct StreamedOperands {
    std::vector<uint8_t> input;
    std::vector<uint8_t> stream;
  };
  [[nodiscard]] StreamedOperands streamedOperands(unsigned t, const models::DecodedPacket& compute, const models::DecodedPacket& read,
                                                  const StagedNest& reach, uint64_t inputAt, uint64_t inputBytes,
                                                  const std::string& form) const;
  void writeImmediate(const models::DecodedPacket& packet);
  void meshTransfer(const models::DecodedPacket& packet, const models::RunStreams& streams);
  // Pairs the bytes sent towards `tile` in one mesh direction with the receive nests it armed, in
  // program order, writing each pair into the tile's narrow memory.
  void pairMeshTransfers(const models::DecodedPacket& packet, size_t direction, unsigned tile);
  // The relay form (docs/decoding-log.md "meshw3" §B): each tile of the mask takes the stream its upstream
  // neighbour sent, walks it through `buffer` and sends the same stream on.
  [[nodiscard]] unsigned meshNeighbour(const models::DecodedPacket& packet, const MeshLayout& layout, unsigned tile) const;
  void relayMeshStream(const models::DecodedPacket& packet, size_t direction, const LoopNest<4>& buffer);
  void passMeshStreamThrough(const models::DecodedPacket& packet, size_t direction, uint64_t units);
  // The upstream-first walk the relay and the pass-through share (lle_rung.cc): `take` sees each tile's stream before it
  // is sent on.
  void forwardMeshStreams(const models::DecodedPacket& packet, size_t direction, const char* form,
                          const std::function<void(unsigned tile, const MeshStream& stream)>& take);
  void receive(const models::DecodedPacket& packet);
  void dealRowsToStagingWrites(const models::DecodedPacket& packet);
  // The units an execution-only receive's last repetition drops (Recv11ExecLastShort, checked against its
  // run and last run); 0 where every repetition is whole.
  [[nodiscard]] uint64_t lastRepetitionShortfall(const models::DecodedPacket& packet) const;
  void checkInfeedSize(const models::RunStreams& streams);
  void pop(const models::DecodedPacket& packet);
  // The pop's length in 64-byte ring beats (an input pop's PopInputBeatsHigh/PopInputBeats, a parameter pop's PopBeatsHigh/Low).
  [[nodiscard]] uint64_t popBeats(const models::DecodedPacket& packet) const;
  // A stream-feeding pop's length: whole passes over its ring and a last pass the repeat names.
  [[nodiscard]] uint64_t feedingPopBeats(const models::DecodedPacket& packet, uint64_t repeat) const;
  void placeParameters(const models::DecodedPacket& packet, PendingPop& pop);
  void resolvePops(const models::RunStreams& streams);
  // The epilogue (compute_epilogue.h), refused naming the packet when the requantiser cannot model it.
  // With biasExecuted false (every form but the element-wise one) a ComputeBias other than 0 is refused.
  [[nodiscard]] ComputeEpilogue readEpilogue(const models::DecodedPacket& packet, bool biasExecuted = false) const;
  void refuseUnexecutedBias(const models::DecodedPacket& packet) const;
  [[nodiscard]] uint64_t inputElementBytes(const models::DecodedPacket& packet) const;  // 1, 2 or 4, else refused
  // packedExecuted: the caller executes a packed K reduction (the streamed product); its count is still checked.
  void refusePackedKCountDisagreeing(const models::DecodedPacket& packet, uint64_t elementBytes, bool packedExecuted = false) const;
  void compute(const models::DecodedPacket& packet, const models::RunStreams& streams);
  // The max reduction, opcode 0x02 (lle_rung_max_reduce.cc, docs/decoding-log.md "bright02").
  void maxReduce(const models::DecodedPacket& packet);
  // The softmax's sum, opcode 0x03 laid out as 0x01 (lle_rung_exp_sum.cc, exp_sum_form.h, docs/decoding-log.md "sum03"):
  // the stream of its kept read summed; the table's application refused by name.
  [[nodiscard]] static std::string sumFormProblem(std::span<const isa::Word128> words);
  void expSum(const models::DecodedPacket& packet);
  // A read marked for a max pass names the beats of the pass whose result it reads (Stage13MaxPassBeats), or 0xffff.
  void refuseMaxPassBeatsDisagreeing(const models::DecodedPacket& read, uint64_t address, bool keptForPass) const;
  void refuseComputeOverPositions(const models::DecodedPacket& packet) const;
  void refuseW0NestAboveLevel3(const models::DecodedPacket& packet) const;  // levels 4-6 outside the convolution form
  void refuseDenseNestOtherThanOnePosition(const models::DecodedPacket& packet) const;
  // Whether a loop nest (level 0 and the levels above it) counts `iterations` at one level at most,
  // running the others once.
  static bool countsAtOneLevel(std::span<const isa::Word128> words, LleField level0, LleField outerLevels, uint64_t iterations);
  void refuseOtherLanesOrPrefix(const models::DecodedPacket& packet, uint64_t laneGroups, uint64_t prefix, const char* form) const;
  [[nodiscard]] bool inputPopsDelivered(const models::RunStreams& streams) const;
  [[nodiscard]] static std::span<const uint8_t> popBytes(const PendingPop& p, const models::RunStreams& streams);
  void runDeferredComputes(const models::RunStreams& streams);
  // True while a compute waits for input bytes (the caller queues its packet); runs the waiting
  // packets once the bytes are there.
  bool waitsForInput(const models::RunStreams& streams);
  void dispatch(const models::DecodedPacket& packet, const models::RunStreams& streams);
  // The position loop of one 4-byte group per output with a 4 x 4 weight block (docs/decoding-log.md
  // "eltwise" §B): the raw element-wise programs. Its input is each tile's narrow memory at
  // ComputeInputAt4 x 4 ("identform" §B).
  void computeElementWise(const models::DecodedPacket& packet, uint64_t positions);
  // The same form over a walk of several levels (add_128_128; lle_rung_eltwise_walk.cc, docs/decoding-log.md
  // "eltw12" §B): Nest37's levels 1-3 read the groups, Output37 places the results.
  [[nodiscard]] bool isWalkedElementWise(const models::DecodedPacket& packet) const;
  void refuseWeightWrapsOutsideTheWalkedForm(const models::DecodedPacket& packet) const;
  void computeElementWiseWalk(const models::DecodedPacket& packet);
  // The byte-stepped weighing (lle_rung_byte_stepped_weighing.cc, byte_stepped_weighing.h, docs/decoding-log.md "loomid").
  void computeByteSteppedWeighing(const models::DecodedPacket& packet);
  // The units of a copy's output position (docs/decoding-log.md "colour", "w4hi"): ComputeLaneGroups + 1 -- the
  // grouped walk's K groups ("kstride"), each weighed into its own lane group as the ring copy's, or a broadcast's whole walk.
  [[nodiscard]] static uint64_t unitsAPosition(std::span<const isa::Word128> words);
  // The two-byte element form (lle_rung_two_byte_walk.cc, docs/decoding-log.md "twobyte"): each input byte
  // weighed by a 16-bit weight (ComputeWideWeights). isTwoByteElementForm refuses the bit and the element
  // size apart; computeTwoByteElementWise runs the walk.
  [[nodiscard]] bool isTwoByteElementForm(const models::DecodedPacket& packet) const;
  void computeTwoByteElementWise(const models::DecodedPacket& packet);
  // The one-byte output form (ComputeOutputBytes 1, docs/decoding-log.md "soft2b"): one input byte weighed by a
  // kept 16-bit weight less ComputeZpWeight, requantised, one byte written (lle_rung_one_byte_output.cc).
  void computeOneByteOutput(const models::DecodedPacket& packet);
  void computeBiasPrefixDense(const models::DecodedPacket& packet, uint32_t groups);
  // The average pool's form (lle_rung_average_pool.cc, docs/decoding-log.md "pool4" §B): ComputeInputBytes 0, the input
  // nest over units of ones, each lane's taps summed from the kept stream along the weight nest, requantised.
  void computeAveragePool(const models::DecodedPacket& packet);
  // The max pool's 0x02 (lle_rung_max_pool.cc, max_pool_form.h, docs/decoding-log.md "maxpool"): the same window walk,
  // each lane's largest tap of the kept stream, the epilogue after the maximum.
  void computeMaxPool(const models::DecodedPacket& packet);
  enum class PoolReduction { kSum, kMax };
  void computeWindowPool(const models::DecodedPacket& packet, PoolReduction reduction);
  // The two-byte lane-group form with a bias prefix (lle_rung_two_byte_lane_groups.cc, docs/decoding-log.md "soft14" §C):
  // the softmax's x - max, its bias the sum a one-byte-output compute kept under the row the write before it names.
  void computeTwoByteLaneGroups(const models::DecodedPacket& packet);
  // The streamed product (lle_rung_streamed_product.cc, streamed_product.h, docs/decoding-log.md "loom35"): a compute of
  // one-byte elements with nothing under its tag waits for the read marked Stage13TakenByCompute next on its tiles.
  [[nodiscard]] bool takesAStreamedOperand(const models::DecodedPacket& packet);
  void waitForStreamedOperand(const models::DecodedPacket& packet);
  void endTheWaitForAStreamedOperand(const models::DecodedPacket& packet, const models::RunStreams& streams);
  // The 16-bit streamed product (lle_rung_wide_streamed_square.cc, wide_streamed_square.h, docs/decoding-log.md "trk14b"):
  // the softmax's squaring waits for its read as the one-byte form does, and runs where its elements are all equal.
  void waitForWideStreamedSquare(const models::DecodedPacket& packet);
  void takeWideStreamedSquare(const models::DecodedPacket& read, const StagedNest& reach);
  template <typename Nest>
  void writeWalkedGroups(const models::DecodedPacket& packet, const Nest& out, const InputByteWalk& walk, uint64_t iterations);
  // The bytes a send (0x10) carries to the host: its tile's staged read (0x13), `bytes` long.
  // `undefinedAt` null: a byte no packet wrote is refused, naming it; else such bytes are sent and their offsets listed
  // there (the host-bound outfeed carries undefined bytes as undefined, docs/decoding-log.md "raw25").
  [[nodiscard]] std::vector<uint8_t> sendBytes(const models::DecodedPacket& packet, uint64_t bytes,
                                               std::vector<uint64_t>* undefinedAt = nullptr);
  [[nodiscard]] std::vector<uint8_t> sendKeptRead(const models::DecodedPacket& packet, TileState& tile, unsigned index,
                                                  uint64_t bytes) const;
  void send(const models::DecodedPacket& packet);
  void broadcastWeights(const models::DecodedPacket& packet);
  // The ring send between tiles (lle_rung_ring_send.cc, docs/decoding-log.md "bright10"): armed at the send,
  // carried when the 0x13 read of its stream comes next on its tile, into the destinations' staging writes.
  void ringSend(const models::DecodedPacket& packet);
  // The ring send of its tile's wide rows (Dma10RingSource 0): the weights of the convolutions waiting on the named tiles.
  void ringWeightFeed(const models::DecodedPacket& packet, unsigned sender, uint16_t tiles);
  void deliverRingSend(const models::DecodedPacket& read, unsigned tile);
  void deliverWaitingRingSends(const models::DecodedPacket& read);
  // A sent read's re-read count (lle_fields.def Stage13ResendSequence) against the last read of its bytes.
  void checkResendSequence(const models::DecodedPacket& packet, uint64_t address);
  [[nodiscard]] bool ringSendWaitsFor(const models::DecodedPacket& read) const;
  void refuseAPacketBeforeARingSendsRead(const models::DecodedPacket& packet) const;
  void noteExecutionReceive(const models::DecodedPacket& packet, uint64_t lastDrops);
  void armOutfeed(const models::DecodedPacket& packet);
  [[nodiscard]] uint64_t outfeedFormOf(const models::DecodedPacket& send) const;
  // The nested 0x27 after a stream-feeding pop, and the send that drains it (docs/decoding-log.md "conv32end").
  // A nested 0x27 to scalar data memory (OutfeedPath 0): its groups, and where they land.
  void armScalarMemoryOutfeed(const models::DecodedPacket& packet);
  void pairScalarMemoryOutfeeds(const models::DecodedPacket& packet);
  [[nodiscard]] std::optional<uint64_t> readLengthOf(const models::DecodedPacket& send) const;
  void writeScalarMemory(uint32_t firstWord, std::span<const uint8_t> bytes);
  void armWeightFeedOutfeed(const models::DecodedPacket& packet);
  void drainWeightFeed(const models::DecodedPacket& packet, WeightFeed feed);
  // The identity copy of one-byte input elements from a staging window into the padded grid
  // (docs/decoding-log.md "identcopy"), and the flow around it: a compute issued before its window
  // is filled waits (windowReaders_), the fence and the next compute run it once the pop has filled it.
  void refuseOtherIdentityWalk(const models::DecodedPacket& packet) const;
  // ComputeInputLevelMoves against the input nest's strides (docs/decoding-log.md "ringconv" §A).
  void refuseInputLevelMovesDisagreeingWithTheWalk(const models::DecodedPacket& packet, uint64_t elementBytes) const;
  void refuseAnotherStream(const models::DecodedPacket& packet, unsigned tile) const;
  void refuseOtherGroupWalk(const models::DecodedPacket& packet, uint64_t positions) const;
  void refuseNest37HighLevels(const models::DecodedPacket& packet, const char* form) const;
  void refuseWeightNestHighLevels(const models::DecodedPacket& packet, const char* form) const;
  void refuseARowPastTheInputRing(const models::DecodedPacket& packet, uint64_t rowBytes) const;
  void computeIdentityCopy(const models::DecodedPacket& packet);
  // The 4-byte identity copy of a ring input (the RingCanary convolutions, docs/decoding-log.md
  // "ring4copy" §C; lle_rung_ring_copy.cc): it waits for its window as the one-byte copy does.
  [[nodiscard]] static bool isRingIdentityCopy(const models::DecodedPacket& packet);
  void refuseOtherRingCopyWalk(const models::DecodedPacket& packet) const;
  void computeRingIdentityCopy(const models::DecodedPacket& packet);
  // A one-row ring copy whose input no revisiting staging write made a window of reads the row where a
  // contiguous staging write put it (add_128_128, docs/decoding-log.md "eltw12" §C): true once those
  // bytes are written on `tile`.
  [[nodiscard]] bool ringRowWrittenInPlace(const models::DecodedPacket& packet, unsigned tile) const;
  [[nodiscard]] StagingWindow* windowNamedBy(unsigned tile, const models::DecodedPacket& reader);
  [[nodiscard]] bool identityWindowFilled(const models::DecodedPacket& packet);
  [[nodiscard]] bool waitsForItsWindow(const models::DecodedPacket& packet);
  void runWindowReaders();
  // Where a convolution whose weights no tile holds at wide address 0 takes them once its weight-feed send names
  // them (docs/decoding-log.md "split2"): the send's tile, its wide row (Dma10Channel), the bytes the feed carries.
  // One weight broadcast's share of a 0x12 stream: `rows` wide rows of tile `tile` from its row `row` (Dma10Channel).
  struct BroadcastPart {
    unsigned tile = 0;
    uint64_t row = 0;
    uint64_t rows = 0;
  };
  struct FedWeights {
    unsigned tile = 0;
    uint64_t row = 0;
    uint64_t bytes = 0;
    // Set where the host's pop carried the stream itself (lle_rung_host_stream.cc): each tile's stream rows, its
    // prefix arrays then its transfers; tile and row are then unused.
    const std::array<std::vector<uint8_t>, 16>* hostRows = nullptr;
    // The pop's bytes a stream row (PopRowQuarters x 64): a part-row pop carries each row's lanes 0 .. 16 x quarters - 1
    // ("dense45").
    uint64_t hostRowBytes = 256;
    // Set where several weight broadcasts carried a 0x12 stream one after another (lle_rung_broadcast_wait.cc): each
    // sender's rows in program order; tile and row are then the last one's.
    const std::vector<BroadcastPart>* broadcastParts = nullptr;
  };
  void computeConvolution(const models::DecodedPacket& packet, std::optional<FedWeights> fed = std::nullopt);
  // Hands the compute observer tile t's outputs of `conv` (set only: callers check the observer).
  void reportConvolutionWrite(const models::DecodedPacket& packet, unsigned t, const ConvCompute& conv) const;
  // The pop that feeds the weight streams the convolution computes took (PopStreamFeed).
  void receiveWeightStream(const models::DecodedPacket& packet);
  // A compute-feeding 0x14 names the output blocks of the prefixed stream the receive before it armed on its tiles
  // (Stage14StreamPrefixBlocks + 1; docs/decoding-log.md "bias14"): the stream's blocks from then on.
  void takeStreamBlocksFromWrite(const models::DecodedPacket& packet);
  void feedWeightStreams(const models::DecodedPacket& packet, uint16_t tiles, uint64_t ringBytes);
  void refuseWhileAWindowReaderWaits(const models::DecodedPacket& packet) const;
  [[noreturn]] void refuse(const models::DecodedPacket& packet, const std::string& why) const;

  models::ChipConfig config_;
  std::vector<TileState> tiles_;
  bool infeedConfigured_ = false;
  bool infeedIsInput_ = false;
  // The run's input stream is its input infeeds' transfers back to back: the current one's span.
  uint64_t inputTransferStart_ = 0;
  uint64_t inputTransferEnd_ = 0;
  // Where the current transfer's last input pop started (its offset from the transfer): input pops run
  // forward through it, which places an offset past PopOffsetPlus1's 512 KiB (inputPopOffset()).
  uint64_t lastInputPopOffset_ = 0;
  std::vector<PendingPop> pendingPops_;
  std::deque<DeferredCompute> deferredComputes_;  // in program order (with the reads ring sends wait for)
  std::deque<DeferredCompute> waitingPackets_;    // every packet issued after a waiting compute, in program order
  std::deque<DeferredCompute> windowReaders_;     // identity copies (one-byte, ring 4-byte) waiting for their window, in program order
  std::optional<DeferredCompute> streamedOperandTaker_;  // a streamed product waiting for its read (streamed_product.h)
  bool computeUnstreamed_ = false;  // set while a compute whose wait ended runs as before the form (never waits again)
  std::array<std::deque<WideReceive>, 16> pendingReceives_;  // per tile, in program order
  // Mesh transfers not yet paired, per direction (mesh_sides.h kMeshLayouts) and receiving tile.
  std::array<std::array<std::deque<MeshStream>, 16>, 4> meshSent_;
  // The first packet of the run that produced undefined results (a compute over bytes no packet wrote,
  // conv_undefined_outputs.h; docs/decoding-log.md "convx"), named where an outfeed is refused for reading
  // undefined bytes; "" while none has.
  std::string firstUndefinedProducer_;
  void noteUndefinedOutputs(const models::DecodedPacket& packet, unsigned tile, uint64_t positions,
                            const char* over = "input bytes no packet wrote");
  // The undefined bytes among those queued for the host (absolute offsets into outQueue_, ascending), and those of the
  // tail windowTail handed out last (offsets into it) with its window (docs/decoding-log.md "raw25").
  std::vector<uint64_t> outUndefinedAt_;
  std::vector<uint32_t> tailUndefined_;
  unsigned tailWindow_ = 0;
  // Queues bytes for the host with the offsets of their undefined ones.
  void queueForHost(const std::vector<uint8_t>& bytes, const std::vector<uint64_t>& undefinedAt);
  [[nodiscard]] std::string undefinedOrigin() const;
  std::array<std::array<std::deque<LoopNest<4>>, 16>, 4> meshArmed_;
  // Units a mesh send read before any packet wrote them, landed unwritten on the receiving tile, until the window's tile
  // fence (0x1a) settles them (lle_rung_mesh_late_units.cc): the sender's unit and where it landed.
  struct LateMeshUnit {
    unsigned sourceTile;
    int64_t sourceUnit;
    unsigned tile;
    int64_t unit;
  };
  std::vector<LateMeshUnit> lateMeshUnits_;
  void noteLateMeshUnits(const MeshStream& stream, unsigned tile, const LoopNest<4>& nest);
  void settleLateMeshUnits();
  // The last looping execution-only receive of each tile (Recv11ExecRun > 0 with its inner level): the
  // weight stream a convolution compute naming its tag (ComputeStreamTag = Recv11ExecStream) takes.
  struct WeightStream {
    uint64_t pc;
    uint64_t transfers;
    uint64_t tag;
    uint8_t opcode;  // the receive that armed it: 0x11 (execution-only form) or 0x12
    // 256-byte parameter arrays in front of the transfers (Recv11PrefixBytes8 / 32, Recv12PrefixBytes8 /
    // 32): the stream-feeding pop carries them. Only a 0x12's are checked against the compute's prefix;
    // the 0x11 stream receive's prefix fields are checked by relations only.
    uint64_t prefixArrays = 0;
    // Output blocks of a stream with a prefix: the stream carries the prefix arrays again in front of each block's
    // transfers (RingCanary's two 64-lane halves, docs/decoding-log.md "ring128" §C). A 0x12's levels 2-3
    // ((Recv12Repeat[1] + 1) x (Recv12Repeat[2] + 1)) until the compute-feeding write after the receive names them
    // (Stage14StreamPrefixBlocks + 1, levels 2-3 or 1-3: "bias14"; takeStreamBlocksFromWrite); a 0x11's 1 until then.
    uint64_t blocks = 1;
    // The prefix's upper bound in 64-byte units (Recv12PrefixLast64 / Recv11PrefixLast64): the compute that
    // takes a stream with a weight offset array names it / 4 (ComputeOffsetPrefixLast, "p4w14").
    uint64_t prefixLast64 = 0;
    // Set when a convolution took the stream: the tile whose wide bytes it read, and how many.
    std::optional<unsigned> weightTile;
    uint64_t weightBytes = 0;
    // 256-byte rows of the stream: each block's prefix arrays and transfers.
    [[nodiscard]] uint64_t rows() const { return blocks * prefixArrays + transfers; }
    // A 0x11's level 1 and levels 2-3 repetitions (Recv11ExecRepeat), and whether the write's blocks include level 1:
    // then they lie side by side, else one after another (stream_block_layout.h, docs/decoding-log.md "dec17").
    uint64_t levelOneRepeats = 1;
    uint64_t levelsTwoThreeRepeats = 1;
    bool blocksSideBySide = false;
    // An input pop (PopIsInput) landed on its tile after it was armed: the host's input, not weights
    // (lle_rung_input_stream_tag.cc, docs/decoding-log.md "wait2").
    bool hostInput = false;
    // The stream's rows the weight broadcasts before the last one carried (lle_rung_broadcast_wait.cc): 0 where one did.
    uint64_t rowsBroadcastBefore = 0;
  };
  std::array<std::optional<WeightStream>, 16> weightStreams_;
  // lle_rung_input_stream_tag.cc: an input pop marks the 0x11 streams on its tiles as the host's input; a kept read on
  // such a stream's tag takes the tag from it (and is refused on a weight stream's).
  void markHostInputStreams(uint16_t tiles);
  void keptReadTakesStreamTag(const models::DecodedPacket& packet, unsigned t, uint64_t channel);
  // The streams a convolution compute took, per tile, until the pop that feeds them (PopStreamFeed).
  std::array<std::optional<WeightStream>, 16> streamsAwaitingFeed_;
  // The convolutions whose weights no tile holds at wide address 0, waiting for the send that feeds their stream (the
  // chip waits for its stream), with the streams they take, in program order: a host-bound weight feed runs one, a
  // ring send of wide rows (Dma10RingSource 0, lle_rung_ring_send.cc) every one on the tiles it names.
  struct ConvolutionAwaitingFeed {
    DeferredCompute compute;
    std::array<std::optional<WeightStream>, 16> streams;
    // The stream rows a host pop brought to each tile, and the tiles that have them (lle_rung_host_stream.cc).
    std::array<std::vector<uint8_t>, 16> hostRows;
    uint16_t hostFed = 0;
    uint64_t hostRowBytes = 256;  // the feeding pop's bytes a row (PopRowQuarters x 64)
    // The weight broadcasts that carried part of its 0x12 stream so far, in program order (lle_rung_broadcast_wait.cc).
    std::vector<BroadcastPart> broadcastParts;
  };
  // A parameter pop with no caching receive on its tiles whose tiles' streams a waiting convolution took: the pop is
  // those streams' rows (lle_rung_host_stream.cc). Checks the length against each stream's rows.
  [[nodiscard]] bool popFeedsAWaitingStream(const models::DecodedPacket& packet, const PendingPop& pop);
  // Hands a resolved such pop's bytes to the waiting convolutions and runs each once all its tiles have theirs.
  void feedWaitingStreamsFromHost(const PendingPop& pop, std::span<const uint8_t> bytes);
  std::deque<ConvolutionAwaitingFeed> convolutionsAwaitingFeedSend_;
  // The convolutions on a 0x12 stream, waiting for the weight broadcast that carries its rows (lle_rung_broadcast_wait.cc,
  // docs/decoding-log.md "bcast" §B): the broadcast's sender and Dma10Channel say whose rows they are.
  std::deque<ConvolutionAwaitingFeed> convolutionsAwaitingBroadcast_;
  ConvolutionAwaitingFeed& parkConvolution(std::deque<ConvolutionAwaitingFeed>& queue, const models::DecodedPacket& packet,
                                           std::string_view what);
  void awaitWeightBroadcast(const models::DecodedPacket& packet);
  void runConvolutionsAwaitingBroadcast(const models::DecodedPacket& packet, unsigned sender, uint16_t tiles);
  void refuseWhileAConvolutionAwaitsItsBroadcast(const models::DecodedPacket& packet) const;
  // Whether a convolution on tile t still waits for the rest of its stream's rows (a broadcast carried part of them).
  [[nodiscard]] bool awaitsMoreBroadcastRows(unsigned t) const;
  [[nodiscard]] std::vector<uint8_t> weightRowsOfStream(const models::DecodedPacket& packet, unsigned t, const WeightStream& stream,
                                                          const ConvCompute& conv, std::optional<FedWeights> fed);
  void refuseOffsetPrefixDisagreeing(const models::DecodedPacket& packet, unsigned t, const WeightStream& stream, bool offsetArray) const;
  std::vector<InfeedCheck> pendingInfeedChecks_;  // parameter-class 0x25s since the last fence, awaiting their stream
  uint64_t parameterSegmentsStart_ = 0;  // the run's parameter bytes delivered at the last fence that checked 0x25s
  PartnerCopyWatch partners_;  // 0x14s whose copied w0/w1 wait for their 0x11 (docs/decoding-log.md "pair14")
  NextPacketWatch nextPackets_;  // what a 0x14 says comes next on its tiles (Stage14FeedsCompute, "stride" §B)
  StreamPrefixWatch streamPrefixes_;  // what a compute-feeding 0x14 says of the stream before it ("prefix14" §B)
  std::optional<WeightFeed> feedAwaitingOutfeed_;  // taken pop, its nested 0x27 not yet issued
  // Each 0x27 waiting for its tile's 0x10: the bytes it sends to the host, or the weight feed it carries.
  struct ArmedOutfeed {
    uint64_t bytes = 0;
    std::optional<WeightFeed> weightFeed;
    std::optional<uint32_t> scalarWord;  // a nested outfeed to scalar data memory: the word its first group lands at
    bool endsOnABeat = true;             // its row fills whole 256-byte beats (OutfeedRows::wholeBeats)
  };
  std::deque<ArmedOutfeed> outfeedArmed_;
  // A host-bound 0x10 issued before its 0x27: its bytes and the outfeed format it names.
  struct WaitingSend {
    std::vector<uint8_t> bytes;
    uint64_t pc;
    uint64_t outfeedForm;  // Dma10OutfeedForm
    std::vector<uint64_t> undefinedAt;  // which of `bytes` are undefined (sendBytes), ascending
  };
  std::deque<WaitingSend> sendsWaiting_;
  // Ring sends between tiles: per tile, the rows its last execution-only receive takes (until a ring send
  // fills it), and the send issued on it whose read has not come yet, with the destination writes it took.
  struct ExecReceive {
    uint64_t pc = 0;
    uint64_t rows = 0;
  };
  std::array<std::optional<ExecReceive>, 16> lastExecReceive_;
  struct RingDelivery {
    unsigned tile = 0;
    uint64_t address = 0;  // narrow bytes, Stage14NarrowAt64 x 64 + 4 x Stage14NarrowUnit
    WriteNest nest;
  };
  struct RingSend {
    uint64_t pc = 0;
    uint64_t channel = 0;  // Dma10Channel: the read's Stage13Channel
    uint64_t beats = 0;    // Dma10RingBeats' product (capped past kMaxRingSendBeats)
    bool carriesKeptRead = false;  // Dma10ReadForm 0, 0: the read next on its tile is kept (Stage13Route 0, 0)
    std::vector<RingDelivery> writes;
  };
  static constexpr uint64_t kMaxRingSendBeats = uint64_t{1} << 32;  // five 16-bit limits could overflow the product
  std::array<std::optional<RingSend>, 16> ringSendsWaiting_;
  // The bytes a waiting ring send takes from the read next on its tile: the sent read's nest, or the kept read's bytes.
  [[nodiscard]] std::vector<uint8_t> ringSendBytes(const models::DecodedPacket& read, unsigned tile, const RingSend& send);
  std::vector<uint8_t> outQueue_;  // drained bytes not yet handed to an output window
  std::vector<models::ScalarMemoryWrite> scalarWrites_;  // not yet taken by the Datapath
  size_t outRead_ = 0;
  uint64_t macs_ = 0;
};

}  // namespace coralsim::lle

namespace coralsim::models {
// The lle rung for `config`. The chip gets it through RungFactories (models/beagle.cc), never by
// name.
[[nodiscard]] std::unique_ptr<DatapathRung> makeLleRung(const ChipConfig& config);
}  // namespace coralsim::models

#include "models/lle/lle_rung.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <variant>
#include <vector>

#include "models/chip/block_interfaces.h"
#include "models/isa/number_text.h"
#include "models/lle/byte_stepped_weighing.h"
#include "models/lle/carried_bytes.h"
#include "models/lle/fill_recv_stride.h"
#include "models/lle/kept_operand_read.h"
#include "models/lle/kept_operand_weighing.h"
#include "models/lle/max_pass_stream_read.h"
#include "models/lle/compute_observer.h"
#include "models/lle/stream_block_layout.h"
#include "models/lle/compute_output_bytes.h"
#include "models/lle/compute_write_report.h"
#include "models/lle/conv_compute.h"
#include "models/lle/exp_sum_form.h"
#include "models/lle/field_relations.h"
#include "models/lle/input_byte_walk.h"
#include "models/lle/input_infeed_transfer.h"
#include "models/lle/input_step.h"
#include "models/lle/weight_byte_walk.h"
#include "models/lle/fill_nest.h"
#include "models/lle/identity_copy.h"
#include "models/lle/kept_stream_write.h"
#include "models/lle/last_repetition.h"
#include "models/lle/loop_nest.h"
#include "models/lle/lle_fields.h"
#include "models/lle/mac_array.h"
#include "models/lle/mesh_pass_through.h"
#include "models/lle/mesh_sides.h"
#include "models/lle/nlu_apply.h"
#include "models/lle/one_transfer_stream.h"
#include "models/lle/packet_envelope.h"
#include "models/lle/part_row_stream.h"
#include "models/lle/partner_copy.h"
#include "models/lle/prefix_row_mark.h"
#include "models/lle/outfeed_line_fill.h"
#include "models/lle/read_copy_watch.h"
#include "models/lle/read_beat_walk.h"
#include "models/lle/outfeed_rows.h"
#include "models/lle/receive_kind.h"
#include "models/lle/receive_slice.h"
#include "models/lle/routed_read_mark.h"
#include "models/lle/output_nest.h"
#include "models/lle/output_partial_pass.h"
#include "models/lle/read_nest.h"
#include "models/lle/stage14_block_level.h"
#include "models/lle/stage14_level_marks.h"
#include "models/lle/sixteen_bit_results.h"
#include "models/lle/staging_window.h"
#include "models/lle/tile_list.h"
#include "models/lle/unrequantised_copy.h"
#include "models/lle/w0_nest_count.h"
#include "models/lle/wide_streamed_square.h"
#include "models/lle/whole_ring_pop.h"
#include "models/lle/write_nest.h"
#include "models/lle/requantizer.h"

namespace coralsim::lle {

using models::ChipFault;
using models::DecodedPacket;
using models::FaultKind;

namespace {

// Parameter prefix of one 64-lane block (docs/isa.md §5.1): f32 scale[64], u32 slot[64], weights.
constexpr uint32_t kScaleOffset = 0;
constexpr uint32_t kSlotOffset = kLanes * 4;
constexpr uint32_t kWeightOffset = kLanes * 8;
// The slot value of per-channel int8 layers without bias: the weight offset 128 (w_zp + 128).
// Other values (an int32 bias, docs/isa.md §5.3 / Q3) are refused until Q3 is settled.
constexpr uint32_t kWeightOffsetSlot = 128;
// The element-wise form's weight block: 4 lanes x one 4-byte group (the prologue's 4 x 4 identity).
constexpr uint64_t kElementWiseBlockBytes = kGroupBytes * kGroupBytes;
// The infeed rings' offsets count 32-byte units (lle_fields.def PopBuffer32: 4096 of them in the parameter
// ring, PopInputBuffer32: 65536 in the input stream's ring positions, 2 MiB).
constexpr uint64_t kRingOffsetUnit = 32;
// A tile-memory row as the 0x11 receive counts it: 64 lanes x 4 bytes (lle_fields.def Recv11Row).
constexpr uint64_t kRowBytes = kLanes * 4;
// Prefix positions of the receive: in 64-byte units (4 per row) and 8-byte units (32 per row).
constexpr uint64_t kPrefixUnits64PerRow = kRowBytes / 64;
constexpr uint64_t kPrefixUnits8PerRow = kRowBytes / 8;
// The infeed line loop's step per stream class (lle_fields.def InfeedLineStep; every enabled 0x25
// of the corpus).
constexpr uint64_t kParameterLineStep = 256;
constexpr uint64_t kInputLineStep = 4096;
// A ring beat: what one iteration of a 0x10 send's nest carries, the last beat of a stream partly
// (lle_fields.def Dma10Beats: beats = ceil(the read's bytes / 256) in 4,427 / 4,523 corpus sends).
constexpr uint64_t kRingBeatBytes = 256;
// The outfeed format a host-bound send names (lle_fields.def Dma10OutfeedForm): the line form (0x27
// w0 bit 120 clear) or the nested form (of which the rung executes the weight feed only).
constexpr uint64_t kLineOutfeedForm = 2;
constexpr uint64_t kNestedOutfeedForm = 1;

// The values of a 0x13's Stage13Flags (w6[35:32]) seen in the corpus: none, one of bits 33 / 34 / 35
// alone, or bit 34 with 32 or 33 (docs/decoding-log.md "keptread2"). What they select is not decoded.
bool isSeenStage13Flags(uint64_t flags) {
  return flags == 0 || flags == 0x2 || flags == 0x4 || flags == 0x5 || flags == 0x6 || flags == 0x8;
}

// The values of a 0x13's Stage13ConsumerMark (w4[32:31]) seen in the corpus (docs/decoding-log.md "keep13").
bool isSeenStage13ConsumerMark(uint64_t mark) { return mark == 0 || mark == 1 || mark == 3; }

// Why a host-bound send (at `sendPc`) is refused when the 0x27 that takes its bytes is of the other
// format than the one it names (lle_fields.def Dma10OutfeedForm): the line format, or the nested one
// (of which the rung arms the weight feed only).
std::string outfeedFormMismatch(uint64_t sendPc, uint64_t sendForm) {
  char pc[16];
  std::snprintf(pc, sizeof pc, "0x%04llx", static_cast<unsigned long long>(sendPc));
  const bool namesNested = sendForm == kNestedOutfeedForm;
  return std::string("the host-bound send at PC ") + pc + " names the " + (namesNested ? "nested" : "line") +
         " outfeed form (Dma10OutfeedForm, word 2 bits 93:92, 85:84 = " + (namesNested ? "1, 1" : "2, 2") + "), and its bytes meet a " +
         (namesNested ? "line-form outfeed (0x27 w0 bit 120 clear)" : "nested outfeed (the weight feed, or scalar memory)");
}

}  // namespace

LleRung::LleRung(const models::ChipConfig& config) : config_(config) {
  tiles_.reserve(config.tileCount());
  for (unsigned t = 0; t < config.tileCount(); ++t) {
    TileState tile;
    tile.narrow = TileMemory(static_cast<uint32_t>(config.narrowMemoryBytesPerTile.value()));
    tile.wide = TileMemory(static_cast<uint32_t>(config.wideMemoryBytesPerTile.value()));
    tile.narrowSram = AddressedMemory(static_cast<uint32_t>(config.narrowMemoryBytesPerTile.value()));
    tiles_.push_back(std::move(tile));
  }
}

void LleRung::reset() {
  for (TileState& t : tiles_) {
    t.narrow.release();
    t.narrowSram.release();
    t.wide.release();  // power-on / GCB reset: the cached parameters are gone
    t.widePartRows.clear();
    t.nlu.reset();
  }
  beginRun();
}

void LleRung::beginRun() {
  for (TileState& t : tiles_) {
    t.narrow.clear();
    t.narrowSram.forgetWrites();
    t.stagedWriteAt.reset();
    t.stagedReadAt.reset();
    t.stagedReadBytes = 0;
    t.stagedReadRepeats = 0;
    t.stagedReadStride = 1;
    t.stagedReadMixedRoute = false;
    t.stagedReadForMaxPass = false;
    t.lastMaxPass.reset();
    t.resendSequenceAt.clear();
    t.stagedReadChannel = 0;
    t.keptRead.reset();
    t.keptReadRepeats = 0;
    t.keptReadChannel = 0;
    t.keptReadSequence = 0;
    t.keptReadNumber = 0;
    t.keptReadNumberChannel = 0;
    t.keptReadFeedsNormalise = false;
    t.keptReadUnwrittenByte.reset();
    t.keptStreams.clear();
    t.keptSums.clear();
    t.fedRow.reset();
    t.windows.clear();
    t.readForCopy.reset();  // a copy-marked read whose write never came must not feed the next run's write
  }
  partners_.clear();
  nextPackets_.clear();
  streamPrefixes_.clear();
  windowReaders_.clear();
  streamedOperandTaker_.reset();
  meshSent_ = {};
  lateMeshUnits_.clear();
  meshArmed_ = {};
  firstUndefinedProducer_.clear();
  weightStreams_ = {};
  streamsAwaitingFeed_ = {};
  infeedConfigured_ = false;
  infeedIsInput_ = false;
  inputTransferStart_ = 0;
  inputTransferEnd_ = 0;
  lastInputPopOffset_ = 0;
  pendingInfeedChecks_.clear();
  parameterSegmentsStart_ = 0;
  pendingPops_.clear();
  deferredComputes_.clear();
  waitingPackets_.clear();
  for (auto& receives : pendingReceives_) receives.clear();
  outfeedArmed_.clear();
  feedAwaitingOutfeed_.reset();
  convolutionsAwaitingFeedSend_.clear();
  convolutionsAwaitingBroadcast_.clear();
  sendsWaiting_.clear();
  lastExecReceive_ = {};
  ringSendsWaiting_ = {};
  outQueue_.clear();
  outUndefinedAt_.clear();
  tailUndefined_.clear();
  scalarWrites_.clear();
  outRead_ = 0;
}

void LleRung::endRun() {
  pendingPops_.clear();
  deferredComputes_.clear();
  waitingPackets_.clear();
  windowReaders_.clear();
  streamedOperandTaker_.reset();
  meshSent_ = {};
  lateMeshUnits_.clear();
  meshArmed_ = {};
  weightStreams_ = {};
  streamsAwaitingFeed_ = {};
  feedAwaitingOutfeed_.reset();
  convolutionsAwaitingFeedSend_.clear();
  convolutionsAwaitingBroadcast_.clear();
}

namespace {

// Whether a read taken by a compute (routed_read_mark.h) comes just after the compute that waits for it: on each of its
// tiles the last tile packet before it (fences aside) is one compute of one-byte elements on the same tiles naming the
// read's Stage13Channel as its ComputeStreamTag (streamed_product.h).
bool computeWaitsForRead(const DecodedPacket& read, const std::array<const DecodedPacket*, 16>& lastOnTile) {
  if (!isTakenByCompute(read)) return false;
  for (unsigned t = 0; t < lastOnTile.size(); ++t) {
    if (!(read.tileMask & (1u << t))) continue;
    const DecodedPacket* before = lastOnTile[t];
    if (!before || static_cast<uint8_t>(before->opcode) != 0x01 || before->tileMask != read.tileMask ||
        (readField(before->words, LleField::ComputeInputBytes) != 1 && !WideStreamedSquare::isForm(before->words)) ||
        readField(before->words, LleField::ComputeStreamTag) != readField(read.words, LleField::Stage13Channel)) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::string LleRung::checkChunk(std::span<const uint8_t> chunk, const models::DecodedProgram* decoded) {
  std::shared_ptr<const models::DecodedProgram> own;  // only off-device: the core passes its decode
  if (!decoded) {
    try {
      own = models::DecodedProgram::fromBytes(chunk);
    } catch (const std::exception& e) {
      return std::string("the chunk cannot be segmented: ") + e.what();
    }
    decoded = own.get();
  }
  PartnerCopyWatch partners;  // a 0x14 copying its 0x11 is checked against it (docs/decoding-log.md "pair14")
  NextPacketWatch nextPackets;  // and what it says comes next on its tiles ("stride" §B)
  StreamPrefixWatch streamPrefixes;  // and, feeding a compute, what it says of the stream before it ("prefix14" §B)
  ReadCopyWatch readCopies;  // a read with the copy marks and the 0x14 that copies it ("mnv1b")
  std::array<const DecodedPacket*, 16> lastOnTile{};  // each tile's last tile packet, fences aside
  const std::span<const DecodedPacket> packets = decoded->packets();
  for (size_t index = 0; index < packets.size(); ++index) {
    const DecodedPacket& p = packets[index];
    if (p.action != models::PacketAction::kIssue) continue;
    const auto op = static_cast<uint8_t>(p.opcode);
    if (op >= 0x21 && op <= 0x23) continue;
    std::string why = partners.observe(p, checkEnvelope(p));
    // The sum's walk (exp_sum_form.h) is a form of the packet alone: one the rung does not walk is refused before the run.
    if (why.empty() && isSumOpcode(op)) {
      if (const std::string form = sumFormProblem(p.words); !form.empty()) {
        why = "opcode 0x03 at " + models::describePacketLocation(p.pc, p.words[0]) + ": " + form;
      }
    }
    if (why.empty()) why = nextPackets.observe(p);
    if (why.empty()) why = streamPrefixes.observe(p);
    if (why.empty()) why = readCopies.observe(p);
    // A read routed (0, 1) whose marks say a compute takes it is refused before the run unless the compute issued just
    // before it on its tiles waits for it (routed_read_mark.h, streamed_product.h): at run time a compute waiting for
    // the read comes first, and its refusal would not name the read.
    if (why.empty()) {
      // Or, marked Stage13FeedsReduction, the next compute on its tiles takes it as its kept operand (kept_operand_read.h,
      // "trk15" §C): accepted here, its gather and the compute are refused at run time.
      // Or, with Stage13FeedsReduction clear and no compute waiting, the max pass next on its tiles reduces it (max_pass_stream_read.h, "nin15").
      const bool waits = computeWaitsForRead(p, lastOnTile);
      const std::string maxPass = !waits && isMaxPassStreamReadForm(p) ? maxPassStreamReadProblem(packets, index) : "not of the form";
      const bool taken = waits || nextComputeTakesKeptOperand(packets, index) || maxPass.empty();
      if (const std::string mark = routedReadMarkProblem(p, taken); !mark.empty()) {
        why = "opcode 0x13 at " + models::describePacketLocation(p.pc, p.words[0]) + ": " + mark;
        if (!waits && isMaxPassStreamReadForm(p)) why += "; nor is it the stream of a max pass issued next: " + maxPass;
      }
    }
    // A read sent into the sum (Stage13SentIntoSum, read_beat_walk.h, "nin16"): the sum must be the next compute on its tiles.
    if (why.empty()) {
      if (const std::string taker = sentIntoSumTakerProblem(packets, index); !taker.empty()) {
        why = "opcode 0x13 at " + models::describePacketLocation(p.pc, p.words[0]) + ": Stage13SentIntoSum (word 3 bit 108) = 1: " + taker;
      }
    }
    if (p.tilePacket && op != 0x1a) {
      for (unsigned t = 0; t < lastOnTile.size(); ++t) {
        if (p.tileMask & (1u << t)) lastOnTile[t] = &p;
      }
    }
    if (!why.empty()) return why;
    if (p.tilePacket && (p.tileMask >> config_.tileCount()) != 0) {
      return "tile packet at " + models::describePacketLocation(p.pc, p.words[0]) + " addresses tiles beyond the " +
             std::to_string(config_.tileCount()) + " of this chip";
    }
  }
  if (std::string why = partners.finish(); !why.empty()) return why;
  return readCopies.finish();
}

void LleRung::refuse(const DecodedPacket& packet, const std::string& why) const {
  char op[8];
  std::snprintf(op, sizeof op, "%02x", static_cast<unsigned>(packet.opcode));
  throw ChipFault(FaultKind::kUnsupported, std::string("lle: opcode 0x") + op + " at " +
                                               models::describePacketLocation(packet.pc, packet.words[0]) + ": " + why);
}

void LleRung::packet(const DecodedPacket& packet, const models::RunStreams& streams, uint64_t /*cycle*/) {
  const auto op = static_cast<uint8_t>(packet.opcode);
  if (op >= 0x21 && op <= 0x23) return;  // halt, branch, loop: the scalar core's business
  if (const std::string why = partners_.observe(packet, checkEnvelope(packet)); !why.empty()) {
    throw ChipFault(FaultKind::kUnsupported, "lle: " + why);
  }
  if (const std::string why = nextPackets_.observe(packet); !why.empty()) throw ChipFault(FaultKind::kUnsupported, "lle: " + why);
  if (const std::string why = streamPrefixes_.observe(packet); !why.empty()) throw ChipFault(FaultKind::kUnsupported, "lle: " + why);
  if (packet.tilePacket && (packet.tileMask >> config_.tileCount()) != 0) {
    refuse(packet, "tile mask " + isa::formatHex(packet.tileMask) + " addresses tiles this chip does not have");
  }
  // A compute issued before its input pop's bytes arrived waits for them (the tile's queue holds
  // it; docs/decoding-log.md "eltwise" §D), and so does every packet issued after it: the programs
  // without a scalar fence (0x24) between their pops and what follows (the iwatake padding sweep,
  // "pad13") issue fills, reads and sends to the same tiles before the host has sent the input.
  // They run, in program order, once the bytes are there (the next packet, the fence, the outfeed).
  if (waitsForInput(streams)) {
    DeferredCompute& waiting = waitingPackets_.emplace_back();
    waiting.words.assign(packet.words.begin(), packet.words.end());
    waiting.packet = packet;
    waiting.packet.words = waiting.words;
    return;
  }
  dispatch(packet, streams);
}

bool LleRung::waitsForInput(const models::RunStreams& streams) {
  if (deferredComputes_.empty()) return false;
  if (!inputPopsDelivered(streams)) return true;
  runDeferredComputes(streams);
  // Replayed in order; one that finds a compute waiting again (a later pop) waits with the rest.
  auto waiting = std::move(waitingPackets_);
  waitingPackets_.clear();
  for (DeferredCompute& next : waiting) {
    next.packet.words = next.words;
    if (!deferredComputes_.empty() && !inputPopsDelivered(streams)) {
      waitingPackets_.push_back(std::move(next));
      continue;
    }
    runDeferredComputes(streams);
    dispatch(next.packet, streams);
  }
  return !deferredComputes_.empty() && !inputPopsDelivered(streams);
}

void LleRung::dispatch(const DecodedPacket& packet, const models::RunStreams& streams) {
  const auto op = static_cast<uint8_t>(packet.opcode);
  const auto words = packet.words;
  if (packet.tilePacket && op != 0x13 && op != 0x1a) refuseAPacketBeforeARingSendsRead(packet);
  endTheWaitForAStreamedOperand(packet, streams);
  switch (op) {
    case 0x25:
      infeed(packet);
      break;
    case 0x26:
      pop(packet);
      break;
    case 0x11:
      receive(packet);
      break;
    case 0x12:
      receiveWeightStream(packet);
      break;
    case 0x24:  // the scalar fence: the core waited for the infeed, so the popped bytes are here
      checkInfeedSize(streams);
      resolvePops(streams);
      runWindowReaders();
      break;
    case 0x27:
      armOutfeed(packet);
      break;
    case 0x10:
      send(packet);
      break;
    case 0x14:
      takeStreamBlocksFromWrite(packet);
      stageWrite(packet);
      break;
    case 0x13:
      // The read a ring send waits for carries popped bytes: like a compute, it waits for the host's input
      // and takes the pops before it (lle_rung_ring_send.cc).
      if (ringSendWaitsFor(packet)) {
        if (!inputPopsDelivered(streams) || !deferredComputes_.empty()) {
          DeferredCompute& waiting = deferredComputes_.emplace_back();
          waiting.words.assign(packet.words.begin(), packet.words.end());
          waiting.packet = packet;
          break;
        }
        resolvePops(streams);
      }
      stageRead(packet);
      break;
    case 0x17:
      // The prologue's immediate writes keep their own path (Fill17Flags checked); a 0x17 that sends,
      // or receives mesh data, is the mesh packet towards t - 4.
      if (readField(words, LleField::Mesh17SendStride) == 0 && readField(words, LleField::Fill17Immediate) != 0) {
        writeImmediate(packet);
      } else {
        meshTransfer(packet, streams);
      }
      break;
    case 0x15:
    case 0x16:
    case 0x18:
      meshTransfer(packet, streams);
      break;
    case 0x19:
      for (unsigned t = 0; t < tiles_.size(); ++t) {
        if (packet.tileMask & (1u << t)) tiles_[t].nlu = NluTable::fromPacket(words);
      }
      break;
    case 0x01:
      compute(packet, streams);
      break;
    case 0x02:
      maxReduce(packet);
      break;
    case 0x03:
      expSum(packet);
      break;
    case 0x1a:  // a tile fence; its fields are don't-care when every packet runs to completion in order
      settleLateMeshUnits();  // the window's mesh transfers have completed (lle_rung_mesh_late_units.cc)
      break;
    default:
      break;
  }
}

void LleRung::infeed(const DecodedPacket& packet) {
  const auto words = packet.words;
  infeedConfigured_ = true;
  infeedIsInput_ = readField(words, LleField::InfeedIsInput) != 0;
  // The line wrap's high bits (lle_fields.def InfeedLineWrapHigh): inputs wrap in 14 bits.
  const uint64_t high = readField(words, LleField::InfeedLineWrapHigh);
  if (infeedIsInput_) {
    const uint64_t lines = readField(words, LleField::InfeedLines);
    const uint64_t wrap14 = high << 10 | readField(words, LleField::InfeedLineWrap);
    const uint64_t want = (uint64_t{16384} - (lines + 1) % 16384) % 16384;
    if (wrap14 != want && !(lines == 0 && wrap14 == 0)) {
      refuse(packet, "the input-class line wrap (word 1 bits 44:31) = " + std::to_string(wrap14) + " is not -(" +
                         std::to_string(lines) + " + 1) mod 2^14 = " + std::to_string(want) + " (InfeedLineWrapHigh:InfeedLineWrap)");
    }
  } else if (high != 0) {
    refuse(packet, "InfeedLineWrapHigh (word 1 bits 44:41) = " + std::to_string(high) + " is not 0 (parameter-class wraps are 10 bits)");
  }
  // The line loop's step is one constant per class (lle_fields.def InfeedLineStep; its unit is not
  // decoded): another step would be another data movement.
  const uint64_t step = readField(words, LleField::InfeedLineStep);
  const uint64_t classStep = infeedIsInput_ ? kInputLineStep : kParameterLineStep;
  if (readField(words, LleField::InfeedLineLoopOn) != 0 && step != classStep) {
    refuse(packet, "InfeedLineStep (word 1 bits 13:0) = " + std::to_string(step) + " is not the " +
                       (infeedIsInput_ ? "input" : "parameter") + " class's line step " + std::to_string(classStep));
  }
  const uint64_t wraps = readField(words, LleField::InfeedWraps64K);
  const int64_t beats = readSigned(words, LleField::InfeedFirstBeats);
  if (infeedIsInput_) {
    // The first fill is stated for the parameter class only: 0 in every hinted input infeed of the corpus
    // (DeepLab cityscapes' six unhinted ones carry 32772, not decoded).
    if (beats != 0) {
      refuse(packet, "input-class infeed with InfeedFirstBeats (word 1 bits 70:55) = " + std::to_string(beats) +
                         " (decoded for the parameter class only; 0 in every hinted input infeed)");
    }
    // InfeedWraps64K counts whole fills of the input ring (input_infeed_transfer.h): the transfer follows the
    // previous input infeed's in the run's input stream.
    inputTransferStart_ = inputTransferEnd_;
    inputTransferEnd_ = inputTransferStart_ + InputInfeedTransfer::fromPacket(words).bytes();
    lastInputPopOffset_ = 0;
    return;
  }
  // Checked against the parameter stream at the fence, when the host has sent it (parameter_infeed_segments.h).
  pendingInfeedChecks_.push_back(InfeedCheck{packet.pc, packet.words[0],
                                             ParameterInfeed{packet.pc, readField(words, LleField::InfeedOffset64) * 64, wraps,
                                                             readField(words, LleField::InfeedFirstBeats)}});
}

uint64_t LleRung::outfeedBytes(const DecodedPacket& packet) const {
  // The two one-loop forms of lle_fields.def: a line loop (limit >= 1, bit 27 clear) or a single
  // line (limit 0, bit 27 set). Anything else is the nested format, not decoded.
  const uint64_t lines = readField(packet.words, LleField::OutfeedLines);
  const bool single = readField(packet.words, LleField::OutfeedSingleLine) != 0;
  if (single != (lines == 0)) {
    refuse(packet, "OutfeedSingleLine (word 0 bit 27) = " + std::to_string(single) + " with OutfeedLines (word 0 bits 57:43) = " +
                       std::to_string(lines) + ": not one of the two decoded forms (a line loop, or one line)");
  }
  return 8 * (lines + 1);
}

void LleRung::stageWrite(const DecodedPacket& packet) {
  // Stage14WordThreeMark (w3 bit 97) is clear exactly where word 3 is zero as a whole in all 5,816 corpus
  // 0x14s (docs/decoding-log.md "bright3"); the rung refuses it clear beside another bit of word 3.
  const LleFieldDef& mark = fieldDef(LleField::Stage14WordThreeMark);
  isa::Word128 restOfWordThree = packet.words.size() > mark.lsb / 128 ? packet.words[mark.lsb / 128] : isa::Word128{};
  (mark.lsb % 128 < 64 ? restOfWordThree.lo : restOfWordThree.hi) &= ~(uint64_t{1} << (mark.lsb % 64));
  const bool markSet = readField(packet.words, LleField::Stage14WordThreeMark) != 0;
  const bool restOfWordThreeSet = restOfWordThree.lo != 0 || restOfWordThree.hi != 0;
  if (!markSet && restOfWordThreeSet) {
    refuse(packet, fieldText(LleField::Stage14WordThreeMark, 0) +
                       " with other bits of word 3 set: clear only where word 3 is zero in all 5,816 corpus 0x14s (what the mark says is not decoded)");
  }
  // The marks above it and w6[104:102] (docs/decoding-log.md "dense"): not read for the bytes, checked for their corpus shape.
  if (std::string why = stage14LevelMarksProblem(packet.words); !why.empty()) refuse(packet, why);
  if (isKeptStreamWrite(packet.words)) {
    writeKeptStream(packet);
    return;
  }
  // A write that takes the bytes of the read just before it on its tiles (Stage14TakesTileRead, or a compute-feeding
  // write with Stage14CopyInnerLevel clear; "mnv1b", "mnv1c"; the pairing is checked before the run, read_copy_watch.h):
  // laid along its nest (lle_rung_read_copy.cc).
  if (takesTheReadBeforeIt(packet.words)) {
    writeReadCopy(packet);
    return;
  }
  // The two one-hot selects (lle_fields.def Stage14SelectW4/W5, docs/decoding-log.md "xraypair" §A):
  // not decoded; the rung's hypothesis is that they leave a contiguous write where its address says.
  // It covers one flag in w4 and at most one in w5, and no flag in w4 where the copied receive has one loop
  // (Stage14CopyInnerLevel 0, the corpus pairing: "bcast10" §E); the rest is refused, not guessed.
  const uint64_t selectW4 = readField(packet.words, LleField::Stage14SelectW4);
  const uint64_t selectW5 = readField(packet.words, LleField::Stage14SelectW5);
  const bool oneLoopCopy = selectW4 == 0 && readField(packet.words, LleField::Stage14CopyInnerLevel) == 0;
  if (selectW4 != 1 && selectW4 != 2 && !oneLoopCopy) {
    refuse(packet, "Stage14SelectW4 (word 4 bits 109:108) = " + std::to_string(selectW4) +
                       ": only one set flag (1 or 2) is covered by the rung's hypothesis (what the select means is not decoded)");
  }
  if (selectW5 == 3) {
    refuse(packet, "Stage14SelectW5 (word 5 bits 23:22) = 3: both flags set, never seen; what the select means is not decoded");
  }
  const uint64_t address =
      readField(packet.words, LleField::Stage14NarrowAt64) * 64 + readField(packet.words, LleField::Stage14NarrowUnit) * 4;
  // The write's nest (write_nest.h, docs/decoding-log.md "write14"): it must stay inside narrow
  // memory; more units than narrow memory holds cannot be one write (and bounds the strides).
  const WriteNest nest = WriteNest::fromPacket(packet.words);
  if (!nest.contiguous()) {
    const uint64_t capacityUnits = tiles_.empty() ? 0 : tiles_.front().narrowSram.capacity() / 4;
    // A window (staging_window.h) passes more units through than it holds: only where it reaches is bounded
    // (depthwise 1024^2: 88 rows of 768 units through one row, docs/decoding-log.md "dma14" §E).
    const auto first = static_cast<int64_t>(address / 4);
    const bool inside = StagingWindow::of(nest, address)
                            ? first + nest.lowestUnit() >= 0 && first + nest.highestUnit() < static_cast<int64_t>(capacityUnits)
                            : nest.staysInside(capacityUnits, first);
    if (!inside) {
      refuse(packet, "the write nest (Stage14Groups, Stage14OuterLimit, carries Stage14WrapA/B/D/E) from Stage14NarrowAt64 x 64 + "
                     "4 x Stage14NarrowUnit = " +
                         std::to_string(address) + " leaves the " + std::to_string(capacityUnits * 4) + "-byte narrow memory");
    }
    // A level that comes back to units already written (stride 0 in 2,057 corpus 0x14s: e.g. the iwatake
    // stride sweep's 16 input rows through one row's units) is a window whose earlier passes something
    // consumes while the write runs. The shape whose consumer is decoded, a window (staging_window.h:
    // level 0 over its units, one outer level of stride 0), keeps its passes for the one-byte-element
    // computes that drain it (docs/decoding-log.md "identcopy" §B); other revisiting nests are refused.
    // A compute-feeding write whose nest is not a window comes back to its units once a block of the stream whose
    // prefix it stages (stage14_block_level.h, docs/decoding-log.md "twice14"): each block's prefix over the last
    // one's (the corpus's window-shaped compute-feeding writes count their blocks the same way; they keep the window
    // rule). Checked; no byte is moved for it.
    const bool window = StagingWindow::of(nest, address).has_value();
    const bool feedsCompute = readField(packet.words, LleField::Stage14FeedsCompute) != 0;
    if (feedsCompute && !window && nest.revisitsAUnit()) {
      if (std::string why = stage14BlockLevelProblem(packet.words, nest); !why.empty()) refuse(packet, why);
    } else if (nest.revisitsAUnit() && !window) {
      refuse(packet, "the write nest (Stage14Groups, Stage14OuterLimit, carries Stage14WrapA/B/D/E) writes some units more than "
                     "once, and not as a window (level 0 over its units, one outer level of stride 0): what consumes the "
                     "earlier passes is not decoded");
    }
  }
  const uint64_t skipUnits = sourceSkipUnits(packet, address);
  const bool rowForm = checkSourceRowParts(packet);
  refuseOtherSourceUnits(packet, skipUnits);
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t))) continue;
    tiles_[t].stagedWriteAt = address;
    tiles_[t].stagedWriteNest = nest;
    tiles_[t].stagedWriteSkipUnits = skipUnits;
    tiles_[t].stagedWriteRowForm = rowForm;
    tiles_[t].stagedWriteWords.assign(packet.words.begin(), packet.words.end());
    tiles_[t].stagedWriteSliced = false;
  }
}

// The source side's unit count (lle_fields.def Stage14SourceUnits, docs/decoding-log.md "add128" §B,
// "w3rows"): the pop's 4-byte units from its first through the end of the tile's first group, at least
// one 256-byte row (64 units). A one-part write's group starts after its skip; a row-form group holds the
// skip already (RowRest + RowSkip = Stage14Groups). The writes with Stage14SelectW5 0 (each followed by a
// compute, not a receive, in the corpus) carry the span without the floor. The count moves no byte, so
// another value is a relation not decoded: refused.
void LleRung::refuseOtherSourceUnits(const DecodedPacket& packet, uint64_t skipUnits) const {
  if (readField(packet.words, LleField::Stage14SourceUnitsOn) == 0) return;
  constexpr uint64_t kUnitsPerRow = 64;  // a 256-byte row of 4-byte units
  const bool rowForm = readField(packet.words, LleField::Stage14SourceRowForm) != 0;
  const bool floorsToARow = readField(packet.words, LleField::Stage14SelectW5) != 0;
  const uint64_t groupUnits = readField(packet.words, LleField::Stage14Groups) + 1;
  const uint64_t spanned = groupUnits + (rowForm ? 0 : skipUnits);
  const uint64_t want = floorsToARow ? std::max(kUnitsPerRow, spanned) : spanned;
  const uint64_t units = readField(packet.words, LleField::Stage14SourceUnits);
  if (units != want) {
    refuse(packet, "Stage14SourceUnits (word 3 bits 122:106) = " + std::to_string(units) + " is not the " + std::to_string(want) +
                       " units of the pop through the end of the tile's first group (" + std::to_string(spanned) +
                       " units: Stage14Groups + 1" + (rowForm || skipUnits == 0 ? "" : " after the skip") +
                       (floorsToARow ? ", at least one 64-unit row" : "") + "): another count is not decoded");
  }
}

// The write's source side (lle_fields.def Stage14Source*, docs/decoding-log.md "src14"): every tile of
// a distribution sees the whole pop, and one whose write has Stage14SourceOn lets the first
// Stage14SourceSkip + 1 units pass. The address pair beside the skip (Base = where the distribution starts,
// End = Base + Skip, both modulo 2^16) names the distribution's origin and the last unit skipped; a
// base that is neither the write's address nor its pop position says something not decoded: refused.
uint64_t LleRung::sourceSkipUnits(const DecodedPacket& packet, uint64_t address) const {
  if (readField(packet.words, LleField::Stage14SourceOn) == 0) return 0;
  const uint64_t base = readField(packet.words, LleField::Stage14SourceBase);
  const uint64_t skip = readField(packet.words, LleField::Stage14SourceSkip);
  const uint64_t end = readField(packet.words, LleField::Stage14SourceEnd);
  const uint64_t modulus = uint64_t{1} << fieldDef(LleField::Stage14SourceBase).width;
  // Base is the distribution's origin, the address its first (non-skipping) tile writes (474 / 474 corpus
  // writes, docs/decoding-log.md "x14" §A). A skipping tile lands its kept units either at that origin too
  // (every tile its own copy at one address: Dense, add_128_128, the convolutions: 471) or at their place
  // in the pop laid out from the origin, Base + Skip + 1 (matmul_256's column groups: 3). Both put the
  // kept units at the write's own address, which the nest uses; another layout is not decoded.
  const uint64_t own = (address / 4) % modulus;
  if (base != own && (base + skip + 1) % modulus != own) {
    refuse(packet, "Stage14SourceBase (word 4 bits 49:34) = " + std::to_string(base) + " is neither the write's address " +
                       std::to_string(address / 4) + " (4-byte units) modulo " + std::to_string(modulus) +
                       " nor that address less the skipped units (" + std::to_string(skip + 1) +
                       "): what another base means is not decoded");
  }
  if (end != (base + skip) % modulus) {
    refuse(packet, "Stage14SourceEnd (word 4 bits 81:66) = " + std::to_string(end) +
                       " is not Stage14SourceBase + Stage14SourceSkip = " + std::to_string((base + skip) % modulus) +
                       ": what another end means is not decoded");
  }
  // The compile mark beside SourceOn (lle_fields.def Stage14SourceCompileMark): one of two bits in every
  // skipping write of the corpus, no effect shown on the units kept; none or both never seen.
  if (const uint64_t mark = readField(packet.words, LleField::Stage14SourceCompileMark); mark != 1 && mark != 2) {
    refuse(packet, "Stage14SourceCompileMark (word 4 bits 32:31) = " + std::to_string(mark) +
                       " with Stage14SourceOn: only the one-hot values 1 and 2 are seen; what another means is not decoded");
  }
  if (readField(packet.words, LleField::Stage14LoopOn) == 0) {
    refuse(packet, "Stage14SourceOn with the group loop off (Stage14LoopOn clear): a single-line write that skips part of "
                   "its pop, never seen");
  }
  return skip + 1;
}

// The row form of the source side (lle_fields.def Stage14SourceRow*, docs/decoding-log.md "rowform"
// §A, "rowrest"): each group of the write is kept in two parts, RowRest + 1 units and RowSkip more, the
// two adding up to the group (checked). The two parts are consecutive runs of the pop: the group the
// tile keeps is its Stage14Groups + 1 units from the skip on, whether the first part ends at the end of
// an image row (the row after the skip, the 256^2 sweeps) or inside one (conv 500^2's tile columns all
// split at the row's unit 55, with and without a skip: its second parts hold the rest of the row the
// computes read, 250,000 / 250,000 output bytes equal to the hardware's). Where the split falls moves no
// byte the rung models; what it does in the device (a burst or bank boundary) is not decoded.
// Returns whether the write has the row form.
bool LleRung::checkSourceRowParts(const DecodedPacket& packet) const {
  if (readField(packet.words, LleField::Stage14SourceRowForm) == 0) return false;
  const uint64_t rest = readField(packet.words, LleField::Stage14SourceRowRest);
  const uint64_t second = readField(packet.words, LleField::Stage14SourceRowSkip);
  const uint64_t groups = readField(packet.words, LleField::Stage14Groups);
  const uint64_t modulus = uint64_t{1} << fieldDef(LleField::Stage14SourceRowSkip).width;
  if ((rest + second) % modulus != groups) {
    refuse(packet, "Stage14SourceRowRest (word 3 bit 123, 16 bits) + Stage14SourceRowSkip (word 4 bits 29:14) = " +
                       std::to_string(rest) + " + " + std::to_string(second) + " is not Stage14Groups = " + std::to_string(groups) +
                       " (mod 2^16): parts that are not one group are not decoded");
  }
  // The padding form ("padform" §A): a first part longer than the group (RowRest 57 ... 60 for a
  // 2-unit group, the second part negative mod 2^16) leaves nothing to the second part; the tile keeps
  // the whole group, with or without a skip. What the exact RowRest counts beyond the group is not
  // decoded; no byte depends on it.
  return true;
}

// The mesh packets (docs/decoding-log.md "ringmesh" §C, "padform" §E, "conv32run" §B): every tile of
// the mask sends the units of its send nest to its neighbour (mesh_sides.h), and receives into its
// receive nest what the neighbour on its other side sends in the same direction -- or, with the fill
// flag, writes the immediate at every unit (the iwatake padding programs' zero-point quadrants, the
// zero halo at the image's edge). A send and the receive it feeds are often different packets (conv
// 32^2: the top row of tiles receives in one 0x17, the row below sends in the next), so each
// direction keeps, per receiving tile, the bytes sent and the receive nests armed, in program order,
// and pairs them as they come; a pair whose sizes differ is refused. A send reads what the identity
// copies wrote, so copies still waiting for their window run first (the pops are in by then).
void LleRung::meshTransfer(const DecodedPacket& packet, const models::RunStreams& streams) {
  const auto op = static_cast<uint8_t>(packet.opcode);
  const MeshLayout& m = *meshLayoutOf(op);
  const auto words = packet.words;
  const bool sends = readField(words, m.sendStride) != 0;
  const bool receives = readField(words, m.recvStride) != 0;
  const bool fills = readField(words, m.fill) != 0;
  if (fills && !receives) {
    refuse(packet, std::string(fieldDef(m.fill).name) + " without " + std::string(fieldDef(m.recvStride).name) +
                       ": a fill that is not a receive, never seen");
  }
  // Both sides off and marked (mesh_pass_through.h, docs/decoding-log.md "nin16"): the tiles forward what arrives.
  if (isMeshPassThroughForm(words, m)) {
    if (const auto why = meshPassThroughConflict(words, m, op)) refuse(packet, *why);
    passMeshStreamThrough(packet, static_cast<size_t>(&m - kMeshLayouts.data()), meshPassThroughUnits(words, m));
    return;
  }
  // Each side's run mask must agree with its limits (docs/decoding-log.md "mesh83"), unless the slot's bits
  // above the level bits mark the walk as a ring buffer (relay111: 0x11, both sides of every corpus relay):
  // then level 1 refills the ring, and the mark is read only on a relay whose walk is that ring.
  const bool relayForm = sends && receives && !fills &&
                         readField(words, m.sendAt4) == readField(words, m.recvAt4) &&
                         readField(words, m.sendStride) == readField(words, m.recvStride) &&
                         [&] {
                           for (unsigned i = 0; i < 4; ++i) {
                             if (readField(words, m.sendLimit, i) != readField(words, m.recvLimit, i)) return false;
                           }
                           for (unsigned i = 0; i < 3; ++i) {
                             if (readField(words, m.sendCarry, i) != readField(words, m.recvCarry, i)) return false;
                           }
                           return readField(words, m.sendLast.on) == readField(words, m.recvLast.on) &&
                                  readField(words, m.sendLast.lastRun) == readField(words, m.recvLast.lastRun);
                         }();
  const auto checkLevelMask = [&](bool active, LleField levelOn, LleField ringMarks, LleField stride, LleField limit,
                                  LleField carry, const char* bits) {
    if (!active) return;
    const std::string name(fieldDef(levelOn).name);
    if (const uint64_t marks = meshRingMarks(words, ringMarks); marks != 0) {
      const std::string marksText = std::string(fieldDef(ringMarks).name) + " (" + bits + ") = " + std::to_string(marks);
      if (marks != kMeshRingMarks) refuse(packet, marksText + ": only 0x11, the relay's ring, is decoded");
      if (!relayForm) refuse(packet, marksText + " on a packet that is not a relay (its two sides walk different units), never seen");
      if (const auto why = meshRingConflict(words, levelOn, stride, limit, carry)) {
        refuse(packet, marksText + " (a ring) but " + *why + ", never seen");
      }
      return;
    }
    if (const auto level = meshLevelMaskConflict(words, levelOn, limit)) {
      refuse(packet, name + " bit " + std::to_string(*level) + " is clear while " + std::string(fieldDef(limit).name) + "[" +
                         std::to_string(*level) + "] = " + std::to_string(readField(words, limit, *level)) +
                         ": a level that does not run has limit 0");
    }
  };
  // Each side's flags (docs/decoding-log.md "fill17c", "mesh83", "meshw3" §A): how the two halves of a
  // transfer meet (a send-only half with flags meets a receive-only half of the same value in 1,888 /
  // 1,953 corpus pairs). The rung pairs the halves in order, so the flags move no byte here and are
  // accepted at any value, not only at the corpus's 0, 1, 3, 5, 7, 9: a value is refused only on a
  // side that is off, where there is no half to meet (never seen).
  const auto checkFlags = [&](bool active, LleField field, const char* bits) {
    const uint64_t flags = readField(words, field);
    if (!active && flags != 0) {
      refuse(packet, std::string(fieldDef(field).name) + " (word 3 bits " + bits + ") = " + std::to_string(flags) +
                         " on a side that is off, never seen");
    }
  };
  checkFlags(receives, m.flags, "96:93");
  checkFlags(sends, m.sendFlags, "92:89");
  // The region (docs/decoding-log.md "meshregion"): the bus it names and how the transfer is paced on it;
  // no address, so no byte in the rung's serial execution. What it cannot read is refused by name.
  if (const auto why = meshRegionConflict(words, m.region, op, relayForm)) refuse(packet, *why);
  checkLevelMask(sends, m.sendLevelOn, m.sendRingMarks, m.sendStride, m.sendLimit, m.sendCarry, "word 1 bits 98:86");
  checkLevelMask(receives, m.recvLevelOn, m.recvRingMarks, m.recvStride, m.recvLimit, m.recvCarry, "word 3 bits 47:35");
  // Each side's shorter last repetition (docs/decoding-log.md "short18"): the walk's last pass of level 0 runs
  // LastRun + 1 units, as the execution-only 0x11's (last_repetition.h); a shortfall that is not limit0 - LastRun,
  // or the flag with levels 2-3 counting, is refused by name.
  if (sends) {
    if (const auto why = lastRepetitionConflict(words, m.sendLast)) refuse(packet, *why);
  }
  if (receives) {
    if (const auto why = lastRepetitionConflict(words, m.recvLast)) refuse(packet, *why);
  }
  if (sends && inputPopsDelivered(streams) && deferredComputes_.empty()) {
    resolvePops(streams);
    runWindowReaders();
  }
  if (sends) refuseWhileAWindowReaderWaits(packet);
  const auto direction = static_cast<size_t>(&m - kMeshLayouts.data());
  const LoopNest<4> sendNest = meshNest(words, m.sendAt4, m.sendStride, m.sendLimit, m.sendCarry, m.sendLast);
  const LoopNest<4> recvNest = meshNest(words, m.recvAt4, m.recvStride, m.recvLimit, m.recvCarry, m.recvLast);
  const auto value = static_cast<uint32_t>(readField(words, m.fillValue));
  const std::array<uint8_t, 4> fillBytes = {static_cast<uint8_t>(value), static_cast<uint8_t>(value >> 8),
                                            static_cast<uint8_t>(value >> 16), static_cast<uint8_t>(value >> 24)};
  const auto insideNarrow = [&](const LoopNest<4>& nest, unsigned t, const char* side) {
    const AddressedMemory& narrow = tiles_[t].narrowSram;
    if (!nest.staysInside(narrow.capacity() / 4)) {
      refuse(packet, std::string("the mesh ") + side + " nest from narrow unit " + std::to_string(nest.firstUnit) + " (" +
                         std::to_string(nest.units()) + " units) leaves the " + std::to_string(narrow.capacity()) +
                         "-byte narrow memory of tile " + std::to_string(t));
    }
  };
  // A packet whose two sides walk the same units is the relay form (docs/decoding-log.md "meshw3" §B): its
  // tiles forward the stream they receive, through a buffer the walk revisits.
  if (sends && receives && !fills && sendNest.firstUnit == recvNest.firstUnit && sendNest.limits == recvNest.limits &&
      sendNest.strides == recvNest.strides && sendNest.lastPassDrops == recvNest.lastPassDrops &&
      sendNest.shortFromLevel == recvNest.shortFromLevel) {
    for (unsigned t = 0; t < tiles_.size(); ++t) {
      if (packet.tileMask & (1u << t)) insideNarrow(recvNest, t, "relay");
    }
    relayMeshStream(packet, direction, recvNest);
    return;
  }
  // A fill writes its immediate without waiting for any mesh data, so it lands before the packet's own send reads: in
  // 163 corpus packets the send reads units the same packet fills (model_conv's input staging @ 0x00d4: the padding rows
  // above the image, then the image's first row; docs/decoding-log.md "w15b12" §D).
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t)) || !fills) continue;
    insideNarrow(recvNest, t, "receive");
    AddressedMemory& narrow = tiles_[t].narrowSram;
    recvNest.forEachUnit([&](int64_t unit) { (void)narrow.write(static_cast<uint64_t>(unit) * 4, fillBytes); });
  }
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t)) || !sends) continue;
    const unsigned destination = meshNeighbour(packet, m, t);
    insideNarrow(sendNest, t, "send");
    // Units no packet wrote go as undefined bytes (mesh_stream.h, docs/decoding-log.md "convx").
    MeshStream sent = MeshStream::read(tiles_[t].narrowSram, sendNest);
    sent.sourceTile = t;
    meshSent_[direction][destination].push_back(std::move(sent));
    pairMeshTransfers(packet, direction, destination);
  }
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t)) || !receives || fills) continue;
    insideNarrow(recvNest, t, "receive");
    meshArmed_[direction][t].push_back(recvNest);
    pairMeshTransfers(packet, direction, t);
  }
}

// The tile a mesh send of tile t goes to (mesh_sides.h: t + 4, t - 4, t - 1, t + 1); a send that would
// leave the 4 x 4 grid is refused.
unsigned LleRung::meshNeighbour(const DecodedPacket& packet, const MeshLayout& m, unsigned t) const {
  const int destination = static_cast<int>(t) + m.neighbourOffset;
  const bool sameRow = m.neighbourOffset == 4 || m.neighbourOffset == -4 || destination / 4 == static_cast<int>(t) / 4;
  if (destination < 0 || destination >= static_cast<int>(tiles_.size()) || !sameRow) {
    refuse(packet, std::string(fieldDef(m.sendStride).name) + " on tile " + std::to_string(t) +
                       ": its neighbour is outside the 4 x 4 tile grid");
  }
  return static_cast<unsigned>(destination);
}

// The relay form (docs/decoding-log.md "meshw3" §B; corpus: 903 packets, both sides at one address with one
// walk, mostly a 4-unit buffer walked again for every level-1 count, between a send-only packet and a
// receive-only one two tiles apart whose unit counts it carries): the chip's send reads each unit after the
// receive wrote it, so what leaves is the stream that arrived, not the buffer's last bytes. The tiles run
// in the stream's order -- upstream first, so a tile relaying what its neighbour relays in the same packet
// finds it sent -- each taking the oldest bytes sent towards it, leaving the last units of the stream in
// its buffer and sending the same bytes on. A relay whose stream has not arrived, or that an earlier
// receive of the tile is still waiting before, is refused: the rung runs packets one at a time.
void LleRung::relayMeshStream(const DecodedPacket& packet, size_t direction, const LoopNest<4>& buffer) {
  forwardMeshStreams(packet, direction, "relay", [&](unsigned t, const MeshStream& stream) {
    if (stream.size() != buffer.units() * 4) {
      refuse(packet, "the mesh relay on tile " + std::to_string(t) + " walks " + std::to_string(buffer.units() * 4) +
                         " bytes, the stream sent towards it carries " + std::to_string(stream.size()));
    }
    stream.writeInto(tiles_[t].narrowSram, buffer);
  });
}

// The pass-through form (mesh_pass_through.h, docs/decoding-log.md "nin16"): each tile of the mask sends on the oldest stream
// sent towards it, whole, writing none of it -- upstream tiles first, as the relay's, so a chain of hops in one packet
// finds each stream sent. A stream of another length than the packet's nest, or none, is refused.
void LleRung::passMeshStreamThrough(const DecodedPacket& packet, size_t direction, uint64_t units) {
  forwardMeshStreams(packet, direction, "pass-through", [&](unsigned t, const MeshStream& stream) {
    if (stream.size() != units * 4) {
      refuse(packet, "the mesh pass-through on tile " + std::to_string(t) + " names " + std::to_string(units * 4) +
                         " bytes (its nest), the stream sent towards it carries " + std::to_string(stream.size()));
    }
  });
}

// The walk the relay and the pass-through share: the tiles of the mask in the stream's order, upstream first, each
// taking the oldest stream sent towards it (refused, naming `form`, where none was sent or an earlier receive of the
// tile still waits), handing it to `take`, then sending it on to its downstream neighbour.
void LleRung::forwardMeshStreams(const DecodedPacket& packet, size_t direction, const char* form,
                                 const std::function<void(unsigned tile, const MeshStream& stream)>& take) {
  const MeshLayout& m = kMeshLayouts[direction];
  const bool upstreamIsHigher = m.neighbourOffset < 0;
  const auto count = static_cast<unsigned>(tiles_.size());
  for (unsigned k = 0; k < count; ++k) {
    const unsigned t = upstreamIsHigher ? count - 1 - k : k;
    if (!(packet.tileMask & (1u << t))) continue;
    const unsigned destination = meshNeighbour(packet, m, t);
    auto& arrived = meshSent_[direction][t];
    if (arrived.empty() || !meshArmed_[direction][t].empty()) {
      refuse(packet, std::string("the mesh ") + form + " on tile " + std::to_string(t) +
                         (arrived.empty() ? ": no stream was sent towards it before it runs"
                                          : ": an earlier receive of the tile still waits for its bytes"));
    }
    MeshStream stream = std::move(arrived.front());
    arrived.pop_front();
    stream.sourceTile.reset();  // forwarded: its units are no longer read from one tile's memory
    take(t, stream);
    meshSent_[direction][destination].push_back(std::move(stream));
    pairMeshTransfers(packet, direction, destination);
  }
}

void LleRung::pairMeshTransfers(const DecodedPacket& packet, size_t direction, unsigned tile) {
  auto& sent = meshSent_[direction][tile];
  auto& armed = meshArmed_[direction][tile];
  while (!sent.empty() && !armed.empty()) {
    const MeshStream bytes = std::move(sent.front());
    const LoopNest<4> nest = armed.front();
    sent.pop_front();
    armed.pop_front();
    if (bytes.size() != nest.units() * 4) {
      refuse(packet, "mesh opcode 0x" + isa::formatAddress(kMeshLayouts[direction].opcode) + " into tile " +
                         std::to_string(tile) + ": the send carries " + std::to_string(bytes.size()) +
                         " bytes, the receive it pairs with takes " + std::to_string(nest.units() * 4));
    }
    bytes.writeInto(tiles_[tile].narrowSram, nest);
    noteLateMeshUnits(bytes, tile, nest);
  }
}

// The immediate form of 0x17 (docs/decoding-log.md "op17", "fill17b"): the 32-bit value at every
// 4-byte unit of the packet's write nest (fill_nest.h), in the narrow memory of every tile of the
// mask. The other forms move data from a source that is not decoded: refused, naming the bit that
// tells them apart.
void LleRung::writeImmediate(const DecodedPacket& packet) {
  if (readField(packet.words, LleField::Fill17Immediate) == 0) {
    refuse(packet, "Fill17Immediate (word 5 bit 87) is 0: a tile transfer whose source is not decoded");
  }
  // Fill17Flags (docs/decoding-log.md "fill17c", "meshw3" §A): the receive side's flags, how it meets a
  // send; the values seen leave the bytes where the nest says (the aarch64 compiles' 5 against the
  // x86-64 compiles' 3) and the fill meets no send, so any value is accepted.
  // The immediate form sends nothing, so its send side's flags are 0, as in every corpus 0x17 without a send.
  if (const uint64_t sendFlags = readField(packet.words, LleField::Mesh17SendFlags); sendFlags != 0) {
    refuse(packet, "Mesh17SendFlags (word 3 bits 92:89) = " + std::to_string(sendFlags) + " on a side that is off, never seen");
  }
  // A fill without a send carries no region in the corpus (docs/decoding-log.md "meshregion"): nothing to pace.
  if (const uint64_t region = readField(packet.words, LleField::Mesh17RegionOn); region != 0) {
    refuse(packet, fieldText(LleField::Mesh17RegionOn, region) + " on the immediate form, which sends nothing: never seen");
  }
  if (const auto why = meshRegionConflict(packet.words, meshLayoutOf(0x17)->region, 0x17, false)) refuse(packet, *why);
  // Its level-0 step is Fill17Step; the mesh form's receive stride at w2[43:27] is 1 in every immediate
  // write the decode set holds, so the two readings agree there -- any other value is refused
  // (docs/decoding-log.md "conv32run" §B) but the 0x03 chains' pairs, whose level 0 steps by the
  // receive stride (fill_recv_stride.h, "trk15" §D).
  const std::optional<int64_t> recvStride = fillRecvStrideAsLevelZero(packet.words);
  if (const uint64_t stride = readField(packet.words, LleField::Mesh17RecvStride); stride != 1 && !recvStride) {
    refuse(packet, "Mesh17RecvStride (word 2 bits 43:27) = " + std::to_string(stride) +
                       " in the immediate form: which of it and Fill17Step steps level 0 is not separated; only 1 is read");
  }
  // Its nest's shorter last repetition is the receive side's (docs/decoding-log.md "short18").
  const LastRepetitionFields& last = meshLayoutOf(0x17)->recvLast;
  if (const auto why = lastRepetitionConflict(packet.words, last)) refuse(packet, *why);
  FillNest nest = recvStride ? FillNest::fromPacket(packet.words, *recvStride) : FillNest::fromPacket(packet.words);
  nest.lastPassDrops = coralsim::lle::lastRepetitionShortfall(packet.words, last);
  const auto value = static_cast<uint32_t>(readField(packet.words, LleField::Fill17Value));
  const std::array<uint8_t, 4> bytes = {static_cast<uint8_t>(value), static_cast<uint8_t>(value >> 8),
                                        static_cast<uint8_t>(value >> 16), static_cast<uint8_t>(value >> 24)};
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t))) continue;
    AddressedMemory& narrow = tiles_[t].narrowSram;
    // More writes than narrow memory has units cannot be a fill; it also bounds the strides (loop_nest.h).
    const uint64_t units = narrow.capacity() / 4;
    if (!nest.staysInside(units)) {
      refuse(packet, "the immediate write nest from narrow unit " + std::to_string(nest.firstUnit) + " (" +
                         std::to_string(nest.units()) + " writes of 4 bytes; Fill17At4, Fill17Limit, Fill17Carry, "
                         "Fill17Step) leaves the " + std::to_string(narrow.capacity()) +
                         "-byte narrow memory of tile " + std::to_string(t));
    }
    nest.forEachUnit([&](int64_t unit) { (void)narrow.write(static_cast<uint64_t>(unit) * 4, bytes); });
  }
}

void LleRung::stageRead(const DecodedPacket& packet) {
  refuseWhileAWindowReaderWaits(packet);
  const auto words = packet.words;
  const uint64_t address = readField(words, LleField::Stage13NarrowAt4) * 4;
  const bool loop = readField(words, LleField::Stage13LoopOn) != 0;
  // The read's nest (read_nest.h): levels 1..4 run where their enable is set.
  for (unsigned i = 0; i + 1 < ReadNest::kLevels; ++i) {
    if (readField(words, LleField::Stage13OuterLimit, i) != 0 && readField(words, LleField::Stage13OuterOn, i) == 0) {
      refuse(packet, "Stage13OuterLimit[" + std::to_string(i) + "] = " +
                         std::to_string(readField(words, LleField::Stage13OuterLimit, i)) + " while Stage13OuterOn[" +
                         std::to_string(i) + "] (word 2 bit " + std::to_string(21 + i) + ") = 0: a level that does not run has limit 0");
    }
  }
  const ReadNest nest = ReadNest::fromPacket(words);
  // One run of units where the counting levels chain (read_nest.h; a single counting level is one).
  const std::optional<ReadNest::Run> run = nest.asOneRun();
  // A read kept for the tile's compute (Stage13Route 0, 0, not for a normalise pass) or copied by the 0x14 after it
  // (the copy marks, lle_rung_read_copy.cc) whose levels do not chain gathers its units in the nest's order (docs/decoding-log.md "pool4" §A: gabor p4's pool read puts each position group's lane
  // groups one after the other); a sent or streamed read of such a nest is not modelled.
  const bool keptForCompute = readField(words, LleField::Stage13Route, 0) == 0 && readField(words, LleField::Stage13Route, 1) == 0 &&
                              readField(words, LleField::Stage13FeedsNormalise) == 0;
  // The kept-operand read ("trk15" §C, "trk16" §B): taken by a compute, marked for a reduction, no compute waiting for it --
  // its bytes are kept for the next compute on its tiles, gathered as a kept read's are.
  const bool keptOperand = isTakenByCompute(packet) && readField(words, LleField::Stage13FeedsReduction) != 0 && !streamedOperandTaker_;
  if (!run && !keptForCompute && !isTakenByCopy(packet) && !keptOperand) {
    refuse(packet, "the counting levels of the read's nest (Stage13Groups, Stage13OuterLimit: level set " +
                       isa::formatHex(nest.countingLevels()) +
                       "; Stage13Step, Stage13Wrap) do not follow each other into one run of units: gathering such a read "
                       "is modelled only where it is kept for the tile's compute (Stage13Route 0, 0)");
  }
  StagedNest reach = run ? StagedNest{address, run->units, run->stride, {}} : gatheredReach(packet, nest, address);
  // Stage13Flags (docs/decoding-log.md "keptread2"): not decoded; the values seen leave the read's
  // bytes as the nest says (the aarch64 compiles' 4 against the x86-64 compiles' 2). Others refused.
  const uint64_t flags = readField(words, LleField::Stage13Flags);
  if (!isSeenStage13Flags(flags)) {
    refuse(packet, "Stage13Flags (word 6 bits 35:32) = " + std::to_string(flags) +
                       ": never seen (0, 2, 4, 5, 6, 8 are); what the flags select is not decoded");
  }
  // Stage13ConsumerMark (docs/decoding-log.md "keep13"): goes with the consumer compute's word 12, not
  // decoded; the values seen are not read (golden outputs exact with each). The value never seen refused.
  const uint64_t mark = readField(words, LleField::Stage13ConsumerMark);
  if (!isSeenStage13ConsumerMark(mark)) {
    refuse(packet, "Stage13ConsumerMark (word 4 bits 32:31) = " + std::to_string(mark) +
                       ": never seen (0, 1, 3 are); what the mark selects is not decoded");
  }
  const uint64_t channel = readField(words, LleField::Stage13Channel);
  const uint64_t repeats =
      fieldPresent(LleField::Stage13Repeats, words) ? readField(words, LleField::Stage13Repeats) : 0;
  // Where the bytes go (lle_fields.def Stage13Route): sent (both bits set) or kept for the tile's
  // next compute (both clear). Bit 107 alone ("conv64", "eltw12" §D) is executed as a sent read as far
  // as a 0x10 send drains it (the sends key on bit 107: Dma10ReadForm); a compute on its tiles before
  // that send is refused (262 of the corpus's 952 such reads are followed by one). Bit 105 alone goes with
  // w3 bit 109 (Stage13FeedsNormalise, docs/decoding-log.md "bright13"): kept for an opcode-0x02 / 0x03 compute.
  const uint64_t route105 = readField(words, LleField::Stage13Route, 0);
  const uint64_t route107 = readField(words, LleField::Stage13Route, 1);
  const bool feedsNormalise = readField(words, LleField::Stage13FeedsNormalise) != 0;
  if (feedsNormalise != (route105 == 1 && route107 == 0)) {
    refuse(packet, "Stage13FeedsNormalise (word 3 bit 109) = " + std::to_string(feedsNormalise ? 1 : 0) + " with Stage13Route (word 3 bits 107, 105) = " +
                       std::to_string(route107) + ", " + std::to_string(route105) +
                       ": the bit is set exactly in the reads routed by bit 105 alone in the corpus (38 / 38); this pairing is not decoded");
  }
  // The slot at w2[129:114] (lle_fields.def Stage13RepeatSlot, docs/decoding-log.md "conv64"): with w2
  // bit 97 clear it is the read's stream beats, the form of every corpus read routed (0, 1) and of no
  // other; that read is sent like a (1, 1) one (its send has Dma10ReadForm set), its beats checked below.
  const bool slotBeats = readField(words, LleField::Stage13RepeatSlot) == 0;
  const bool routedOnlyBy107 = route105 == 0 && route107 == 1;
  // Its consumer marks (routed_read_mark.h, docs/decoding-log.md "loomgab"): only the bytes that leave the tile are run.
  // With no compute waiting, a read of the max pass's form is that pass's stream (max_pass_stream_read.h; paired before the run).
  // Its reduction mark is clear, the kept operand's set: the two forms are disjoint.
  const bool forNextMaxPass = !streamedOperandTaker_ && isMaxPassStreamReadForm(packet);
  if (const std::string routeMarks =
          routedReadMarkProblem(packet, streamedOperandTaker_.has_value() || keptOperand || forNextMaxPass);
      !routeMarks.empty()) {
    refuse(packet, routeMarks);
  }
  // A read a 0x14 copies (the copy marks, "mnv1b"): the pairing is checked before the run (read_copy_watch.h); its bytes
  // are gathered now, in its nest's order, for that 0x14 to lay along its own nest (lle_rung_read_copy.cc, "mnv1c"). Its beats (Stage13SlotBeats) are not checked: 256-byte beats of its bytes in 53 of the 70 corpus such reads only.
  if (isTakenByCopy(packet)) {
    keepReadForCopy(packet, reach, readField(words, LleField::Stage13Channel));
    return;
  }
  if (slotBeats != routedOnlyBy107) {
    refuse(packet, "Stage13RepeatSlot (word 2 bit 97) = " + std::to_string(slotBeats ? 0 : 1) + " with Stage13Route (word 3 bits 107, 105) = " +
                       std::to_string(route107) + ", " + std::to_string(route105) +
                       ": the slot holds the stream beats only in reads routed (0, 1) in the corpus; this pairing is not decoded");
  }
  if (slotBeats) {
    if (readField(words, LleField::Stage13RepeatOn) != 0) {
      refuse(packet, "Stage13RepeatOn (word 3 bit 101) = 1 with Stage13RepeatSlot (word 2 bit 97) = 0: the slot at word 2 bits "
                     "129:114 cannot be both the second nest's limit and the stream beats");
    }
    const bool counts = loop || nest.countingLevels() != 0;
    const uint64_t bytes = counts ? 4 * reach.groups : 0;
    // A read a compute takes streams into it one 4-byte group a beat (looming's two: 256 beats of 1,024 bytes,
    // docs/decoding-log.md "loom35" §B); a sent read fills 256-byte ring beats.
    // The kept operand names beats of 16 bytes, one block each (the trackers' 224 reads: 32 / 128 beats of 512 / 2,048 bytes;
    // Guess, "trk16" §B).
    const uint64_t beatBytes = keptOperand ? 16 : isTakenByCompute(packet) ? 4 : kRingBeatBytes;
    const uint64_t want = (bytes + beatBytes - 1) / beatBytes;
    const uint64_t slot = readField(words, LleField::Stage13SlotBeats);
    if (slot + 1 != want) {
      refuse(packet, "the read names " + std::to_string(slot + 1) + " beats of " + std::to_string(beatBytes) +
                         " bytes (Stage13SlotBeats, word 2 bits 129:114); its nest reads " + std::to_string(bytes) +
                         " bytes = " + std::to_string(want) + " beats");
    }
  } else if (route105 != route107 && !feedsNormalise) {
    refuse(packet, "Stage13Route (word 3 bits 107, 105) = " + std::to_string(route107) + ", " + std::to_string(route105) +
                       ": a read that is neither sent (1, 1 or, with its beats in word 2, 0, 1) nor kept for the tile's "
                       "compute (0, 0) is not decoded");
  }
  // A read the compute waiting on its tiles takes (routed_read_mark.h): that compute's second operand (streamed_product.h).
  if (keptOperand) {
    keepOperandRead(packet, reach);
    return;
  }
  // The max pass's stream, kept under its channel for the 0x02 issued next on its tiles (max_pass_stream_read.h).
  if (forNextMaxPass) {
    keepReadForMaxPass(packet, reach, readField(words, LleField::Stage13Channel));
    deliverWaitingRingSends(packet);
    return;
  }
  if (isTakenByCompute(packet)) {
    takeStreamedOperand(packet, reach);
    return;
  }
  // The stream's beats (lle_fields.def Stage13StreamBeats): a slot of the second nest, decoded for a
  // sent read only.
  const uint64_t streamBeats =
      fieldPresent(LleField::Stage13StreamBeats, words) ? readField(words, LleField::Stage13StreamBeats) : 0;
  // w4's sequence form (lle_fields.def Stage13KeptSequence, docs/decoding-log.md "keep13"): bit 75 set exactly
  // when w4[59:43] is not 0; with bit 59 clear, only kept reads, numbered 1, 2, 3, ... (checked in keepRead).
  const uint64_t w4On = readField(words, LleField::Stage13W4On);
  const bool sequenceForm = readField(words, LleField::Stage13W4Bit59) == 0;
  const uint64_t sequence = sequenceForm ? readField(words, LleField::Stage13KeptSequence) : 0;
  // Its pacing number beside it (Stage13KeptPace, "col13"): not read for the bytes; part of the slot bit 75 answers for.
  const uint64_t slot = sequenceForm ? (readField(words, LleField::Stage13KeptPace) << 9) | sequence : 0;
  if (w4On != ((!sequenceForm || slot != 0) ? 1u : 0u)) {
    refuse(packet, "Stage13W4On (word 4 bit 75) = " + std::to_string(w4On) + " with word 4 bits 59:43 = " +
                       std::to_string(sequenceForm ? slot : (uint64_t{1} << 16) | sequence) +
                       ": the bit is set exactly when those bits are not 0 in every corpus read");
  }
  // The kept read's consumer-form mark (lle_fields.def Stage13KeptConsumerForm, docs/decoding-log.md "bit40"): w4[41:40]
  // one-hot where the w4 fields are on (bit 41: the consumer weighs by 16-bit weights), 0 where they are off. Not read
  // for the bytes (hypothesis: a mark for the consumer); the combinations never seen are refused.
  if (sequenceForm) {
    const uint64_t consumerForm = readField(words, LleField::Stage13KeptConsumerForm);
    const bool seen = w4On != 0 ? (consumerForm == 1 || consumerForm == 2) : consumerForm == 0;
    if (!seen) {
      refuse(packet, "Stage13KeptConsumerForm (word 4 bits 41:40) = " + std::to_string(consumerForm) + " with Stage13W4On = " +
                         std::to_string(w4On) + ": never seen (1 or 2 with the w4 fields on, 0 with them off); not decoded");
    }
  }
  if (sequenceForm && slot != 0 && route107 != 0) {
    refuse(packet, "Stage13KeptSequence (word 4 bits 51:43) = " + std::to_string(sequence) +
                       " with Stage13W4Bit59 clear in a sent read (Stage13Route[1] set): never seen, every sent read sets bit 59");
  }
  // The max-pass mark (w4 bit 35, a field of the reads with bit 105: docs/decoding-log.md "bright02"): a kept read
  // for a pass is always marked; a marked sent read is taken by the tile's next 0x02 and names the beats of the pass
  // whose result it reads, or 0xffff.
  const bool forMaxPass = fieldPresent(LleField::Stage13MaxPassMark, words) && readField(words, LleField::Stage13MaxPassMark) != 0;
  if (feedsNormalise && !forMaxPass) {
    refuse(packet, "Stage13MaxPassMark (word 4 bit 35) = 0 in a read kept for an opcode-0x02 / 0x03 compute (Stage13FeedsNormalise): "
                   "every corpus one is marked (38 / 38)");
  }
  // A sent read marked for the tile's next sum (Stage13SentIntoSum, read_beat_walk.h, docs/decoding-log.md "nin16"): no send
  // drains it; the 0x03 after it takes its stream as it takes a read kept for it, so it is kept as one.
  const bool intoSum = readField(words, LleField::Stage13SentIntoSum) != 0;
  if (forMaxPass) refuseMaxPassBeatsDisagreeing(packet, address, feedsNormalise || intoSum);
  if (feedsNormalise || intoSum) {
    keepReadForNormalise(packet, reach, repeats, channel, streamBeats, loop || nest.countingLevels() != 0, sequence);
    deliverWaitingRingSends(packet);
    return;
  }
  if (route107 == 0) {
    if (streamBeats != 0) {
      refuse(packet, "Stage13StreamBeats (word 3 bits 34:19) = " + std::to_string(streamBeats) +
                         " in a read kept for the tile's compute (Stage13Route 0, 0): its meaning there is not decoded");
    }
    keepRead(packet, reach, repeats, channel, sequence);
    deliverWaitingRingSends(packet);
    return;
  }
  // The nest covers 4-byte groups; with no level running the read is one line (the outfeed says how long).
  const bool runs = loop || nest.countingLevels() != 0;
  // A sent read names the beats of 256 bytes its bytes fill ("pad13"): as many as they need. With
  // Stage13Repeats set as well (four ensemble reads) what the pair counts is not decoded.
  if (fieldPresent(LleField::Stage13StreamBeats, words) && (streamBeats != 0 || runs)) {
    if (repeats != 0 && streamBeats != 0) {
      refuse(packet, "Stage13StreamBeats (word 3 bits 34:19) = " + std::to_string(streamBeats) + " with Stage13Repeats = " +
                         std::to_string(repeats) + ": what a sent read's second nest counts with both levels is not decoded");
    }
    const uint64_t bytes = runs ? 4 * reach.groups : 0;
    const uint64_t want = (bytes + kRingBeatBytes - 1) / kRingBeatBytes;
    if (repeats == 0 && streamBeats + 1 != want) {
      refuse(packet, "the read names " + std::to_string(streamBeats + 1) + " beats of " + std::to_string(kRingBeatBytes) +
                         " bytes (Stage13StreamBeats, word 3 bits 34:19); its nest reads " + std::to_string(bytes) +
                         " bytes = " + std::to_string(want) + " beats");
    }
  }
  if (route107 != 0 && fieldPresent(LleField::Stage13ResendSequence, words)) checkResendSequence(packet, address);
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t))) continue;
    tiles_[t].stagedReadAt = address;
    tiles_[t].stagedReadBytes = runs ? 4 * reach.groups : 0;
    tiles_[t].stagedReadStride = reach.stride;
    tiles_[t].stagedReadChannel = channel;
    tiles_[t].stagedReadRepeats = repeats;
    tiles_[t].stagedReadMixedRoute = routedOnlyBy107;
    tiles_[t].stagedReadForMaxPass = forMaxPass;
    tiles_[t].stagedReadMaxPassBeats =
        forMaxPass && readField(words, LleField::Stage13MaxPassBeats) != 0xffff ? readField(words, LleField::Stage13MaxPassBeats) : 0;
    tiles_[t].keptRead.reset();
    tiles_[t].keptReadSequence = 0;
    tiles_[t].keptReadNumber = 0;
    tiles_[t].keptReadRunDiffers = false;
    tiles_[t].keptReadUnwrittenByte.reset();
  }
  deliverWaitingRingSends(packet);
}

// Stage13ResendSequence (docs/decoding-log.md "bright3"): 0xffff starts a count of the sent reads of the same
// bytes; every other value is one more than the last such read's on each of the read's tiles (1,770 / 1,770 corpus).
void LleRung::checkResendSequence(const DecodedPacket& packet, uint64_t address) {
  constexpr uint64_t kNone = 0xffff;
  const uint64_t sequence = readField(packet.words, LleField::Stage13ResendSequence);
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t))) continue;
    auto& last = tiles_[t].resendSequenceAt;
    if (sequence != kNone) {
      const auto before = last.find(address);
      if (before == last.end() || ((before->second + 1) & kNone) != sequence) {
        refuse(packet, fieldText(LleField::Stage13ResendSequence, 0) + " on tile " + std::to_string(t) + " at narrow address " +
                           std::to_string(address) + ": " +
                           (before == last.end() ? std::string("no sent read of these bytes before it")
                                                 : "the sent read of these bytes before it carried " + std::to_string(before->second)) +
                           "; every corpus value is 0xffff or that one + 1");
      }
    }
    last[address] = sequence;
  }
}

// A ring send issued on the read's tile takes this read (lle_rung_ring_send.cc).
void LleRung::deliverWaitingRingSends(const DecodedPacket& packet) {
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if ((packet.tileMask & (1u << t)) && ringSendsWaiting_[t]) deliverRingSend(packet, t);
  }
}

// The bytes of `reach` (4 bytes per group, `stride` units apart) from a tile's narrow memory, or the
// first byte this run did not write (the caller refuses, naming it).
std::variant<std::vector<uint8_t>, uint64_t> LleRung::gather(const AddressedMemory& narrow, const StagedNest& reach) {
  std::vector<uint8_t> bytes;
  bytes.reserve(4 * reach.groups);
  for (uint64_t g = 0; g < reach.groups; ++g) {
    const int64_t unit = reach.unitOrder.empty() ? static_cast<int64_t>(g) * reach.stride : reach.unitOrder[g];
    const int64_t at = static_cast<int64_t>(reach.address) + 4 * unit;
    if (at < 0 || static_cast<uint64_t>(at) + 4 > narrow.capacity()) return at < 0 ? uint64_t{0} : static_cast<uint64_t>(at);
    if (const auto hole = narrow.firstUnwritten(static_cast<uint64_t>(at), 4)) return *hole;
    const std::span<const uint8_t> group = narrow.read(static_cast<uint64_t>(at), 4);
    bytes.insert(bytes.end(), group.begin(), group.end());
  }
  return bytes;
}

// The units of a kept read whose counting levels do not chain, in the order its nest walks them (level 0 fastest,
// read_nest.h). More units than the tiles' narrow memory holds is no gather of it: refused before walking.
LleRung::StagedNest LleRung::gatheredReach(const DecodedPacket& packet, const ReadNest& nest, uint64_t address) const {
  uint64_t capacityUnits = UINT64_MAX;
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (packet.tileMask & (1u << t)) capacityUnits = std::min<uint64_t>(capacityUnits, tiles_[t].narrowSram.capacity() / 4);
  }
  if (nest.units() > capacityUnits) {
    refuse(packet, "the read's nest (Stage13Groups, Stage13OuterLimit, Stage13Step, Stage13Wrap) walks " + std::to_string(nest.units()) +
                       " units, more than the " + std::to_string(capacityUnits) + " of its tiles' narrow memory");
  }
  StagedNest reach{address, nest.units(), 1, {}};
  reach.unitOrder.reserve(nest.units());
  nest.forEachUnit([&](int64_t unit) { reach.unitOrder.push_back(unit); });
  return reach;
}

// A read kept in the tile (Stage13Route 0, 0): the nest's bytes are taken from narrow memory now, as
// the packet runs, so a later write there does not change them; they wait for the tile's next
// compute. The send path is disarmed: the tile's next outfeed has no read to carry.
// `sequence` (Stage13KeptSequence, docs/decoding-log.md "keep13", "col13"): a read numbered N > 1 follows read N - 1
// on each of its tiles: with no compute between (a run the next compute takes, "keep13"), or, where a compute (or
// another consumer) took the tile's run, the last numbered read of the same stream was N - 1 -- the compiler
// numbers a stream's kept reads across their consumers (140 / 140 corpus reads, the colour templates' 2 among them).
void LleRung::keepRead(const DecodedPacket& packet, const StagedNest& reach, uint64_t repeats, uint64_t channel,
                       uint64_t sequence) {
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t))) continue;
    const TileState& tile = tiles_[t];
    const uint64_t held = tile.keptReadSequence;
    const bool inRun = held + 1 == sequence;
    const bool afterTaken = held == 0 && tile.keptReadNumber + 1 == sequence && tile.keptReadNumberChannel == channel;
    if (sequence > 1 && !inRun && !afterTaken) {
      refuse(packet, "Stage13KeptSequence (word 4 bits 51:43) = " + std::to_string(sequence) + " on tile " + std::to_string(t) +
                         ", whose last kept read since its last compute is number " + std::to_string(held) +
                         " (its stream's last numbered kept read: " + std::to_string(tile.keptReadNumber) + ", stream " +
                         std::to_string(tile.keptReadNumberChannel) +
                         "): only a run 1, 2, 3, ... of kept reads, or one numbered on after a compute took the one before, is decoded");
    }
  }
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t))) continue;
    keptReadTakesStreamTag(packet, t, channel);  // the host's input stream on its tag gives it up (lle_rung_input_stream_tag.cc)
    TileState& tile = tiles_[t];
    // The read's place in the run the tile's next compute takes: its number, but 1 where a compute took the one before
    // ("col13": the run starts again; the stream's numbering goes on in keptReadNumber).
    tile.keptReadSequence = sequence > 1 ? tile.keptReadSequence + 1 : sequence;
    tile.keptReadNumber = sequence;
    tile.keptReadNumberChannel = channel;
    tile.keptReadFeedsNormalise = false;
    auto bytes = gather(tile.narrowSram, reach);
    // A later read of a run: does it keep the bytes the one before it kept ("split" §E)?
    const auto* taken = std::get_if<std::vector<uint8_t>>(&bytes);
    tile.keptReadRunDiffers =
        tile.keptReadSequence > 1 && (tile.keptReadRunDiffers || !taken || !tile.keptRead || *taken != *tile.keptRead);
    tile.stagedReadAt.reset();
    tile.stagedReadBytes = 0;
    tile.stagedReadRepeats = 0;
    tile.stagedReadMixedRoute = false;
    tile.stagedReadForMaxPass = false;
    // Bytes this run did not write are refused where they are taken, not here: a tile the program
    // never computes on may read them (tile_state.h keptReadUnwrittenByte).
    if (const uint64_t* hole = std::get_if<uint64_t>(&bytes)) {
      tile.keptRead.reset();
      tile.keptReadUnwrittenByte = *hole;
      tile.keptReadRepeats = repeats;
      tile.keptReadChannel = channel;
      tile.keptStreams[channel].reset();
      continue;
    }
    tile.keptReadUnwrittenByte.reset();
    tile.keptStreams[channel] = std::get<std::vector<uint8_t>>(bytes);
    tile.keptRead = std::move(std::get<std::vector<uint8_t>>(bytes));
    tile.keptReadRepeats = repeats;
    tile.keptReadChannel = channel;
  }
}

// A read kept for the tile's next opcode-0x02 / 0x03 compute (Stage13FeedsNormalise, docs/decoding-log.md
// "bright13"), or sent into its sum (Stage13SentIntoSum, "nin16"): taken from narrow memory now, as a kept read is, and
// marked so that no other consumer (an 0x01 compute, a send) takes it. Its second nest is the taker's beat walk
// (read_beat_walk.h: its groups a beat, its beats, a shorter last beat): the walk must cover the read's groups here, and
// the taker checks its beats against the walk (expSum, maxReduce). It paces the stream and moves no byte.
void LleRung::keepReadForNormalise(const DecodedPacket& packet, const StagedNest& reach, uint64_t repeats, uint64_t channel,
                                   uint64_t streamBeats, bool runs, uint64_t sequence) {
  if (!fieldPresent(LleField::Stage13StreamBeats, packet.words)) {
    refuse(packet, "a read a softmax pass takes without the one-level second nest (Stage13RepeatOn, Stage13RepeatLevel1On): every "
                   "corpus one (42 / 42) names the taker's beats there; another form is not decoded");
  }
  const uint64_t groups = runs ? reach.groups : 1;
  if (const uint64_t walked = readBeatWalkGroups(packet.words); walked != groups) {
    refuse(packet, "the second nest's beat walk (Stage13Repeats + 1 = " + std::to_string(repeats + 1) + " groups a beat, Stage13StreamBeats + 1 = " +
                       std::to_string(streamBeats + 1) + " beats, less Stage13RepeatLastShort) covers " + std::to_string(walked) +
                       " groups; the read's nest reads " + std::to_string(groups) + " (42 / 42 corpus reads a softmax pass takes agree)");
  }
  keepRead(packet, reach, repeats, channel, sequence);
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t))) continue;
    tiles_[t].keptReadFeedsNormalise = true;
    tiles_[t].keptReadBeatWalk = std::pair{repeats, streamBeats};
  }
}

// A compute or a send on a tile holding a run of more than one numbered kept read (Stage13KeptSequence) is
// refused: which of them the consumer takes, or how it takes several, is not decoded ("keep13").
void LleRung::refuseARunOfKeptReads(const DecodedPacket& packet, RunOfEqualBlocks equalBlocks) const {
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    // A compute over a run whose blocks are all equal takes that block whichever of them each step reads ("split" §E).
    if (equalBlocks == RunOfEqualBlocks::kTaken && !tiles_[t].keptReadRunDiffers) continue;
    if ((packet.tileMask & (1u << t)) && tiles_[t].keptReadSequence > 1) {
      refuse(packet, "tile " + std::to_string(t) + " holds a run of " + std::to_string(tiles_[t].keptReadSequence) +
                         " kept reads (Stage13KeptSequence 1 ... " + std::to_string(tiles_[t].keptReadSequence) + ", stream " +
                         std::to_string(tiles_[t].keptReadChannel) + (equalBlocks == RunOfEqualBlocks::kTaken ? ", not all the same bytes" : "") +
                         "): how a compute or a send takes several is not decoded");
    }
  }
}

// A compute or a send that would take bytes a kept read found unwritten (keepRead) is refused, naming them.
void LleRung::refuseAKeptReadOfUnwrittenBytes(const DecodedPacket& packet) const {
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t)) || !tiles_[t].keptReadUnwrittenByte) continue;
    refuse(packet, "tile " + std::to_string(t) + " holds a read kept for its compute (Stage13Route 0, 0; stream " +
                       std::to_string(tiles_[t].keptReadChannel) + ") over narrow byte " +
                       std::to_string(*tiles_[t].keptReadUnwrittenByte) +
                       ", which was not written in this run or lies outside narrow memory");
  }
}

void LleRung::checkInfeedSize(const models::RunStreams& streams) {
  if (pendingInfeedChecks_.empty()) return;
  const std::vector<InfeedCheck> checks = std::move(pendingInfeedChecks_);
  pendingInfeedChecks_.clear();
  // The 0x25s since the last fence are segments of the bytes the run's descriptors delivered since then, one after
  // another (parameter_infeed_segments.h; docs/decoding-log.md "trk128"): a caching program's one 0x25 is its whole
  // stream, an execution-only program's each the part its descriptor requests.
  const uint64_t delivered = streams.parameterBytes().size();
  std::vector<ParameterInfeed> infeeds;
  for (const InfeedCheck& c : checks) infeeds.push_back(c.fields);
  const auto mismatch = checkParameterSegments(infeeds, parameterSegmentsStart_, delivered);
  parameterSegmentsStart_ = delivered;
  if (mismatch) {
    const InfeedCheck& c = checks[mismatch->infeed];
    throw ChipFault(FaultKind::kUnsupported, "lle: opcode 0x25 at " + models::describePacketLocation(c.pc, c.word0) + ": " + mismatch->why);
  }
}

// The execution-only nest's shorter last repetition (lle_fields.def Recv11ExecLastRunOn; docs/decoding-log.md
// "oldrecv"): the units it drops, Recv11ExecRun - Recv11ExecLastRun, which Recv11ExecLastShort states; 0 without
// the bit. The reading is the mesh sides' too (last_repetition.h): a shortfall that is not that, or levels 2-3
// counting, is refused.
uint64_t LleRung::lastRepetitionShortfall(const DecodedPacket& packet) const {
  if (const auto why = lastRepetitionConflict(packet.words, kRecv11ExecLastRepetition)) refuse(packet, *why);
  return coralsim::lle::lastRepetitionShortfall(packet.words, kRecv11ExecLastRepetition);
}

void LleRung::receive(const DecodedPacket& packet) {
  const auto words = packet.words;
  // The execution-only form's fields are not decoded (lle_fields.def Recv11ExecutionForm): pinned, no
  // rows queued; its two flags are don't-care for the bytes (Recv11ExecFlagA/B, "recvexec"), and in its
  // pop-fed single-transfer form its bits are the same whatever the pop's length (the div2 sweep, 64 to
  // 512 bytes) and the 0x14 before it addresses the bytes. Bit 61 (Recv11NewerForm) does not change where the rows go ("recv11" §A).
  if (readField(words, LleField::Recv11ExecutionForm) != 0) {
    // Its loop nest (Recv11ExecRun and its repeats, "add128" §A; the relations check wraps and step)
    // moves no bytes here: the 0x14 before it places its pop. A receive that runs its inner level more
    // than once is also, on its tiles, the stream a convolution compute naming its tag takes its weight
    // groups from ("conv32run" §C: conv 32^2's runs 9 transfers, the compute's 9 taps, on the compute's
    // tag); the compute checks the tag and the count ("conv32merge" §A). A receive with a prefix
    // (Recv11PrefixOn) arms the stream of its prefixed compute whatever its run: every such receive
    // names that compute's tag ("stride11" §A, 1,109 / 1,109), and the stride sweep's runs once (the
    // 1 x 1 convolution's one weight group, "stride" §D).
    dealRowsToStagingWrites(packet);
    const uint64_t run = readField(words, LleField::Recv11ExecRun);
    const bool prefixed = readField(words, LleField::Recv11PrefixOn) != 0;
    const uint64_t lastDrops = lastRepetitionShortfall(packet);
    noteExecutionReceive(packet, lastDrops);
    if (readField(words, LleField::Recv11ExecInnerLevel) == 0) return;
    // One transfer without a prefix: the pop-fed input form, or a weight stream of one transfer (one_transfer_stream.h).
    if (run == 0 && !prefixed && !oneTransferReceiveArmsAStream(packet.tileMask, tiles_)) return;
    uint64_t transfers = run + 1;
    for (unsigned i = 0; i < 3; ++i) transfers *= readField(words, LleField::Recv11ExecRepeat, i) + 1;
    transfers -= lastDrops;
    const uint64_t tag = readField(words, LleField::Recv11ExecStream);
    const uint64_t prefixArrays = prefixed ? readField(words, LleField::Recv11PrefixBytes8) / kPrefixUnits8PerRow : 0;
    for (unsigned t = 0; t < tiles_.size(); ++t) {
      if (packet.tileMask & (1u << t)) {
        weightStreams_[t] = WeightStream{packet.pc, transfers, tag, 0x11, prefixArrays, 1, readField(words, LleField::Recv11PrefixLast64), std::nullopt, 0};
        weightStreams_[t]->levelOneRepeats = readField(words, LleField::Recv11ExecRepeat, 0) + 1;
        weightStreams_[t]->levelsTwoThreeRepeats = (readField(words, LleField::Recv11ExecRepeat, 1) + 1) * (readField(words, LleField::Recv11ExecRepeat, 2) + 1);
      }
    }
    return;
  }
  const uint64_t row = readField(words, LleField::Recv11Row);
  uint64_t prefixRows = 0;
  if (readField(words, LleField::Recv11PrefixOn) != 0) {
    // The prefix takes the rows just below the row loop, in the 64- and 8-byte units of its fields
    // (docs/decoding-log.md "decode4" §A): any other arrangement is not decoded.
    const uint64_t bytes8 = readField(words, LleField::Recv11PrefixBytes8);
    prefixRows = bytes8 / kPrefixUnits8PerRow;
    const uint64_t at64 = readField(words, LleField::Recv11PrefixAt64);
    const uint64_t last64 = readField(words, LleField::Recv11PrefixLast64);
    const uint64_t span8 = readField(words, LleField::Recv11PrefixSpan8);
    // Recv11PrefixLast64 names the last prefix row, or (older compiles, "dense2" §A) the row after it,
    // Recv11Row: the rows written are the same either way (Bytes8 and the pop's length say one row).
    const uint64_t lastRow64 = at64 + kPrefixUnits64PerRow * (prefixRows - 1);
    const bool lastNamesAPrefixBound = last64 == lastRow64 || last64 == lastRow64 + kPrefixUnits64PerRow;
    if (bytes8 == 0 || bytes8 % kPrefixUnits8PerRow != 0 || prefixRows > row ||
        at64 != kPrefixUnits64PerRow * (row - prefixRows) || !lastNamesAPrefixBound ||
        span8 != kPrefixUnits8PerRow * (prefixRows - 1)) {
      refuse(packet, "the receive prefix (Recv11PrefixBytes8 " + std::to_string(bytes8) + ", Recv11PrefixAt64 " +
                         std::to_string(at64) + ", Recv11PrefixLast64 " + std::to_string(last64) + ", Recv11PrefixSpan8 " +
                         std::to_string(span8) + ") is not whole rows just below Recv11Row " + std::to_string(row));
    }
  }
  const WideReceive r{packet.pc, static_cast<uint32_t>(row - prefixRows),
                      static_cast<uint32_t>(prefixRows + readField(words, LleField::Recv11Rows) + 1)};
  if ((uint64_t{r.firstRow} + r.rows) * kRowBytes > config_.wideMemoryBytesPerTile.value()) {
    refuse(packet, "rows " + std::to_string(r.firstRow) + " .. " + std::to_string(r.firstRow + r.rows - 1) +
                       " lie beyond the " + std::to_string(config_.wideMemoryBytesPerTile.value() / kRowBytes) + " rows of wide memory");
  }
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (packet.tileMask & (1u << t)) pendingReceives_[t].push_back(r);
  }
}

// A receive whose tiles' staging writes copy slices of its rows (receive_slice.h; the partner watch checked
// that they deal its rows out whole): each tile keeps its slice of the pop, (Stage14CopyStream - the
// receive's tag) rows of 256 bytes in, as many as its own run counts ("prefix14" §A). A write that copies
// the whole receive keeps the placement it had.
void LleRung::dealRowsToStagingWrites(const DecodedPacket& packet) {
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t)) || !tiles_[t].stagedWriteAt || tiles_[t].stagedWriteWords.empty()) continue;
    const std::optional<ReceiveSlice> slice = sliceOfReceive(tiles_[t].stagedWriteWords, packet.words);
    if (!slice || slice->rows == slice->receiveRows) continue;
    if (tiles_[t].stagedWriteSkipUnits != 0 || tiles_[t].stagedWriteRowForm) {
      refuse(packet, "tile " + std::to_string(t) + "'s staging write both skips part of its pop (Stage14SourceOn / row form) and "
                     "copies a slice of this receive: never seen, not decoded");
    }
    tiles_[t].stagedWriteSkipUnits = slice->firstRow * kReceiveSliceRowBytes / 4;
    tiles_[t].stagedWriteSliced = true;
  }
}

// The weight-stream receive 0x12 (lle_fields.def Recv12Stream, docs/decoding-log.md "op12"): the
// execution-only 0x11's layout, arming on its tiles the stream a convolution compute naming its tag
// takes: (Run + 1) x product (repeat + 1) weight groups after Bytes8 / 32 prefix arrays. The compute
// checks both against its own nests and prefix; the bytes themselves come from the parameter rows the
// ring send after the compute carries (tag 0 from the caching tile), as with the 0x11 stream.
void LleRung::receiveWeightStream(const DecodedPacket& packet) {
  const auto words = packet.words;
  // A 0x12 whose kind code says block prefixes (Recv12Kind 48, receive_kind.h; every corpus 0x12 without its nest)
  // arms no weight stream: the compute-feeding write after it, which the static check ties to it, stages what it carries.
  if (receiveCarriesBlockPrefixes(0x12, words)) return;
  if (readField(words, LleField::Recv12InnerLevel) == 0) {
    refuse(packet, "Recv12InnerLevel (word 0 bit 78) = 0: the 0x12 without its loop nest is not decoded");
  }
  // Its last repetition may run short, as the 0x11's (Recv12LastRunOn, "mnv1d" §B): the transfers less Recv12LastShort.
  if (const auto why = lastRepetitionConflict(words, kRecv12LastRepetition)) refuse(packet, *why);
  uint64_t transfers = readField(words, LleField::Recv12Run) + 1;
  for (unsigned i = 0; i < 3; ++i) transfers *= readField(words, LleField::Recv12Repeat, i) + 1;
  transfers -= coralsim::lle::lastRepetitionShortfall(words, kRecv12LastRepetition);
  uint64_t prefixArrays = 0;
  uint64_t blocks = 1;
  if (readField(words, LleField::Recv12PrefixOn) != 0) {
    blocks = (readField(words, LleField::Recv12Repeat, 1) + 1) * (readField(words, LleField::Recv12Repeat, 2) + 1);
    // Whole 256-byte rows, or one row with the newer compiler's mark (33: prefix_row_mark.h, "w3b103" §B).
    const uint64_t bytes8 = readField(words, LleField::Recv12PrefixBytes8);
    const std::optional<uint64_t> arrays = prefixArraysOfBytes8(bytes8);
    if (!arrays) {
      refuse(packet, "Recv12PrefixBytes8 (word 2 bits 63:57) = " + std::to_string(bytes8) + " is not whole 256-byte prefix rows (" +
                         std::to_string(kPrefixUnits8PerRow) + " each) nor one row with the mark (33)");
    }
    prefixArrays = arrays.value_or(0);
  }
  const uint64_t tag = readField(words, LleField::Recv12Stream);
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (packet.tileMask & (1u << t)) {
      weightStreams_[t] = WeightStream{packet.pc, transfers, tag, 0x12, prefixArrays, blocks, readField(words, LleField::Recv12PrefixLast64), std::nullopt, 0};
    }
  }
}

// The compute-feeding write after a prefixed stream receive names the stream's output blocks (lle_fields.def
// Stage14StreamPrefixBlocks, checked by StreamPrefixWatch to be the receive's levels 2-3, or 1-3 where its level 1
// counts; docs/decoding-log.md "bias14"). The receive alone does not say whether its level 1 counts K parts or
// blocks, so the stream takes the write's count: the convolution checks it against its weight nest's blocks and
// the feeding pop against its length (a prefix a block).
void LleRung::takeStreamBlocksFromWrite(const DecodedPacket& packet) {
  if (readField(packet.words, LleField::Stage14FeedsCompute) == 0) return;
  const uint64_t blocks = readField(packet.words, LleField::Stage14StreamPrefixBlocks) + 1;
  // The row it names: where a one-byte-output compute kept its sum, the next compute's bias prefix ("soft14" §C).
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (packet.tileMask & (1u << t)) tiles_[t].fedRow = readField(packet.words, LleField::Stage14FeedTag);
  }
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if ((packet.tileMask & (1u << t)) && weightStreams_[t] && weightStreams_[t]->prefixArrays != 0) {
      WeightStream& stream = *weightStreams_[t];
      stream.blocks = blocks;
      // Blocks that include the receive's level 1 lie side by side, the others one after another (stream_block_layout.h).
      stream.blocksSideBySide = stream.opcode == 0x11 && hostStreamBlocksLieSideBySide(stream.levelOneRepeats, stream.levelsTwoThreeRepeats, blocks);
    }
  }
}

void LleRung::pop(const DecodedPacket& packet) {
  const auto words = packet.words;
  const bool input = readField(words, LleField::PopIsInput) != 0;
  if (!infeedConfigured_) refuse(packet, "pop before any infeed configuration (0x25)");
  // A pop that feeds a weight stream (PopStreamFeed) takes no bytes from the infeed's class.
  const bool feedsStream = readField(words, LleField::PopStreamFeed) != 0;
  if (!feedsStream && input != infeedIsInput_) {
    refuse(packet, std::string("pop of the ") + (input ? "input" : "parameter") +
                       " stream while the infeed is configured for the other class");
  }
  const bool units64 = readField(words, LleField::PopUnits64) != 0;
  const uint64_t plus1 = readField(words, LleField::PopOffsetPlus1);
  if (plus1 == 0) refuse(packet, "PopOffsetPlus1 (word 2 bits 79:64) is 0: the offset is one-based");
  const uint64_t wrappedOffset = (plus1 - 1) * (units64 ? 64 : 8);
  const uint64_t offset = input && !feedsStream ? inputPopOffset(packet, wrappedOffset) : wrappedOffset;
  // The infeed-ring offset is the same position in other units: a cross-check of the decoding.
  const LleField ringField = input ? LleField::PopInputBuffer32 : LleField::PopBuffer32;
  const uint64_t ring = readField(words, ringField);
  const LleFieldDef& ringDef = fieldDef(ringField);
  const uint64_t ringSpan = kRingOffsetUnit << ringDef.width;
  // The stream-feeding form reads no infeed ring: its w0[24:13] is 1 in all 789 corpus such pops,
  // whatever their offset ("conv32merge" §B); what the 1 says is not decoded, so only 1 is taken.
  if (feedsStream && ring != 1) {
    refuse(packet, "PopBuffer32 (word 0 bits 24:13) = " + std::to_string(ring) +
                       " in a stream-feeding pop (PopStreamFeed): every corpus one reads 1, other values are not decoded");
  }
  if (!feedsStream && (ring * kRingOffsetUnit) % ringSpan != (offset * (units64 ? 1 : 8)) % ringSpan) {
    refuse(packet, "the infeed-ring offset " + isa::formatHex(ring) + " (" + std::string(ringDef.name) + ", word 0 bits " +
                       std::to_string(ringDef.lsb + ringDef.width - 1) + ":" + std::to_string(ringDef.lsb) +
                       ") does not match the stream offset " + std::to_string(offset) + " (word 2 bits 79:64, units " +
                       (units64 ? "64" : "8") + ")");
  }
  const auto tiles = static_cast<uint16_t>(readField(words, LleField::PopTiles));
  if (tiles == 0 || (tiles >> config_.tileCount()) != 0) {
    refuse(packet, "destination tile mask " + isa::formatHex(tiles) + " is empty or names tiles this chip does not have");
  }
  // The input's pop marks the 0x11 streams armed on its tiles as the host's input (lle_rung_input_stream_tag.cc).
  if (input && !feedsStream) markHostInputStreams(tiles);
  // The length, in 64-byte ring beats (an input byte takes 8 ring bytes, see PopBuffer32), and again as
  // -(ring bytes / 16 - 1): in an input pop 8 + 20 bits of beats - 1 and the repeat in 16 bits (PopInputBeatsHigh,
  // PopInputBeats, PopInputRingNeg16; docs/decoding-log.md "win14" §C, "oldrecv" §B), in a parameter pop 10 + 8
  // bits and 12, the four bits above the repeat 0 (PopBeatsLow / High, PopRingNeg16, PopRingNeg16Sign; "xraypair" §B).
  const uint64_t ringPerByte = units64 ? 1 : 8;
  // The stream-feeding form's repeat is kept mod 256 (113, 129, 65 for 36, 32, 48 beats: 172 / 172 such
  // pops with PopBeatsLow > 0, "conv32merge" §B), and its length counts passes over its ring
  // (feedingPopBeats).
  const LleField repeatField = input ? LleField::PopInputRingNeg16 : LleField::PopRingNeg16;
  const uint64_t repeat = readField(words, repeatField);
  // A parameter pop of whole passes over its ring (whole_ring_pop.h, docs/decoding-log.md "fcx" §B) reads as a feeding pop does.
  const std::optional<uint64_t> wholePasses =
      input || feedsStream ? std::nullopt
                           : wholeRingPassBeats(readField(words, LleField::PopBeatsHigh), readField(words, LleField::PopBeatsLow), repeat,
                                                readField(words, LleField::PopRingLimit) + 1);
  const uint64_t beats = feedsStream ? feedingPopBeats(packet, repeat) : wholePasses.value_or(popBeats(packet));
  const uint64_t modulus = feedsStream ? 256 : uint64_t{1} << fieldDef(repeatField).width;
  // A one-beat pop runs its beat loop once and carries 0 in the repeat; its ring loop then counts the
  // beats: PopRingLimit + 1 of them (docs/decoding-log.md "recv11" §C).
  const bool oneBeatZero = beats == 1 && repeat == 0;
  const uint64_t ringBytes = (oneBeatZero ? readField(words, LleField::PopRingLimit) + 1 : beats) * 64;
  // A feeding pop's repeat names its last pass; 0 there is a whole ring (feedingPopBeats), not a length.
  const bool wholeLastPass = (feedsStream || wholePasses) && repeat == 0;
  if (repeat != (modulus - (ringBytes / 16 - 1) % modulus) % modulus && !oneBeatZero && !wholeLastPass) {
    const LleFieldDef& f = fieldDef(repeatField);
    refuse(packet, std::string(f.name) + " (word 1 bits " + std::to_string(f.lsb % 128 + f.width - 1) + ":" +
                       std::to_string(f.lsb % 128) + ") = " + std::to_string(readSigned(words, repeatField)) +
                       " does not repeat the length of " + std::to_string(beats) + " beats (" +
                       (input ? "PopInputBeats" : "PopBeatsHigh/Low") + ")");
  }
  if (!input && readField(words, LleField::PopRingNeg16Sign) != 0) {
    refuse(packet, "PopRingNeg16Sign (word 1 bits 90:87) = " + std::to_string(readField(words, LleField::PopRingNeg16Sign)) +
                       " is not 0 (parameter pops); its other values are not decoded");
  }
  if (feedsStream) {
    feedWeightStreams(packet, tiles, ringBytes);
    return;
  }
  // A parameter pop may fill the first 1..4 64-byte quarters of each row (lanes 0 .. 16 x quarters - 1,
  // docs/decoding-log.md "rows"); every input pop of the corpus fills whole rows, so a part-row input
  // pop is not decoded.
  const uint64_t quarters = readField(words, LleField::PopRowQuarters) + 1;
  if (quarters != 4 && input) {
    refuse(packet, "an input pop fills " + std::to_string(quarters) +
                       " of the 4 64-byte quarters of each row (PopRowQuarters): part rows are decoded for parameter pops only");
  }
  // An input pop's offset counts from its infeed's transfer (input_infeed_transfer.h); one that starts past
  // the transfer would read bytes no infeed of this run brought.
  if (input && offset >= inputTransferEnd_ - inputTransferStart_) {
    refuse(packet, "an input pop at stream offset " + std::to_string(offset) + " (PopOffsetPlus1) starts past its infeed's " +
                       std::to_string(inputTransferEnd_ - inputTransferStart_) +
                       "-byte transfer (InfeedWraps64K, InfeedRingLimit, InfeedLines, InfeedLineWrapOn)");
  }
  PendingPop pending{tiles, input, offset, ringBytes / ringPerByte, inputTransferStart_, inputTransferEnd_, {}, {}, quarters * 64};
  // A parameter pop with no receive whose tiles' convolutions wait for their execution-only stream is that stream's rows
  // ("dense43b"), whole or part rows ("dense45": the part carries the compute's lanes).
  if (!input) pending.feedsWaitingStream = popFeedsAWaitingStream(packet, pending);
  // A staging write armed on a destination tile (0x14) receives this pop at its narrow address.
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(tiles & (1u << t)) || !tiles_[t].stagedWriteAt) continue;
    // Beside a waiting stream the write takes a part-row pop as it takes a whole-row one (model_dense's K-split
    // layers, "dense43b" §B open: where that write's bytes go is not decoded, and no compute reads them there); a
    // part-row pop into a staging write alone is not decoded (156 corpus pops: the co-compiled MobileNet v1s, ensemble).
    if (quarters != 4 && !pending.feedsWaitingStream) {
      refuse(packet, "a part-row pop (PopRowQuarters) into a staging write (0x14) is not decoded");
    }
    // The tile keeps the nest's units of the pop after the units its source side lets pass
    // (docs/decoding-log.md "src14"): Dense's column group k is the pop's bytes [64k, 64k + 64). A
    // contiguous write without a skip keeps the rung's placement of the whole pop from the address
    // ("xray" §B: the single-line writes of the raw programs, whose group loop does not run).
    const WriteNest& nest = tiles_[t].stagedWriteNest;
    const uint64_t skip = tiles_[t].stagedWriteSkipUnits;
    const bool sliced = tiles_[t].stagedWriteSliced;
    const bool wholePop = nest.contiguous() && skip == 0 && !sliced;
    // A window whose passes run past the pop's end is the window rule below, with or without a skip:
    // the padding programs pop their top row (8 bytes) to the windows of tiles 0 and 2, whose two passes
    // of 8 bytes each ask for 16 (docs/decoding-log.md "pad13"); split_concat's tile column 0 ("splitcat"
    // §C) writes 3 passes of 6 units from a 12-unit pop of two rows: pass 2 stays empty, and its identity
    // computes read passes 0-1.
    const bool window = StagingWindow::of(nest, *tiles_[t].stagedWriteAt).has_value();
    if (!nest.contiguous() && skip == 0 && pending.length != 4 * nest.units() && !(window && pending.length < 4 * nest.units())) {
      refuse(packet, "a pop of " + std::to_string(pending.length) + " bytes into tile " + std::to_string(t) +
                         "'s staging write nest of " + std::to_string(4 * nest.units()) +
                         " bytes (Stage14Groups, Stage14OuterLimit) without a source skip: which bytes the tile keeps is "
                         "not decoded");
    }
    // A window's last pass may run past the pop's end (conv 32² tile column 3: 6 + 64 units of a
    // 64-unit pop, docs/decoding-log.md "convwire" §C): the pass stays short, a compute that reads past
    // its bytes is refused, and the units the write reaches past the end count as unwritten. Other
    // skipping writes must find their part inside the pop.
    if (!wholePop && !window && 4 * (skip + nest.units()) > pending.length) {
      refuse(packet, "a pop of " + std::to_string(pending.length) + " bytes into tile " + std::to_string(t) +
                         "'s staging write: its part, " + std::to_string(4 * nest.units()) + " bytes (Stage14Groups, "
                         "Stage14OuterLimit) after " + std::to_string(4 * skip) + " (Stage14SourceSkip), runs past the pop's end");
    }
    pending.sramWrites.push_back({t, *tiles_[t].stagedWriteAt, nest, skip, sliced});
    tiles_[t].stagedWriteAt.reset();
    tiles_[t].stagedWriteSliced = false;
  }
  // model_dense's K-split pops also find the compute-feeding 0x14 before the compute armed on their tiles (its staged
  // write above takes the bytes as before): whether that write, not the stream, is where they land is not decoded.
  if (!input && !pending.feedsWaitingStream) placeParameters(packet, pending);
  // The waiting convolution runs when the pop's bytes are here; until then what follows waits behind it (waitsForInput).
  if (pending.feedsWaitingStream) {
    DeferredCompute& waiting = deferredComputes_.emplace_back();
    waiting.words.assign(packet.words.begin(), packet.words.end());
    waiting.packet = packet;
  }
  pendingPops_.push_back(std::move(pending));
}

// A stream-feeding pop walks its ring (PopRingLimit + 1 beats; 64 in every corpus one) PopBeatsHigh whole
// times, then a last pass of PopBeatsLow + 1 beats, which the repeat -(4 x (PopBeatsLow + 1) - 1) mod 256
// names (164 / 164 corpus feeding pops with a repeat); a repeat of 0 (PopBeatsLow 0 in 609 / 609) says the
// last pass is a whole ring as well (docs/decoding-log.md "rubens" §C): the 40 x 40 convolutions' 99 passes
// and a whole one are the 1,600 taps x 256 bytes of their weight stream, conv 32^2 6 x 6's 2 x 64 + 16 beats
// its 36 taps.
uint64_t LleRung::feedingPopBeats(const DecodedPacket& packet, uint64_t repeat) const {
  const uint64_t ring = readField(packet.words, LleField::PopRingLimit) + 1;
  const uint64_t low = readField(packet.words, LleField::PopBeatsLow);
  if (repeat == 0 && low != 0) {
    refuse(packet, "PopBeatsLow = " + std::to_string(low) + " in a stream-feeding pop whose repeat (PopRingNeg16) is 0: "
                   "every corpus one without a repeat has 0 there, another value is not decoded");
  }
  return readField(packet.words, LleField::PopBeatsHigh) * ring + (repeat == 0 ? ring : low + 1);
}

// An input pop's stream offset past 512 KiB (docs/decoding-log.md "rowrest" §B): PopOffsetPlus1 counts
// 8-byte units in 16 bits, so it holds the offset modulo 2^19 bytes, and PopInputBuffer32 (ring bytes mod
// 2 MiB, 8 per stream byte) the same bits again. Depthwise 500^2's fourth input pop (tiles 12-15, image
// row 375 less one unit: byte 562,496 of its 750,000-byte transfer) carries 4,777 = 70,313 mod 65,536.
// Where the transfer holds one offset that agrees with the field, that is the pop's (every transfer up to
// 512 KiB). Where it holds several, the pops of one transfer are taken to run forward through it (the tile
// rows in order; corpus-fitted, no backward pop is seen in those): the first at or after the transfer's
// previous input pop; none is refused.
uint64_t LleRung::inputPopOffset(const DecodedPacket& packet, uint64_t wrappedOffset) {
  const uint64_t span = uint64_t{8} << fieldDef(LleField::PopOffsetPlus1).width;  // 512 KiB
  const uint64_t transfer = inputTransferEnd_ - inputTransferStart_;
  uint64_t offset = wrappedOffset;
  const bool several = wrappedOffset + span < transfer;
  if (several && offset < lastInputPopOffset_) offset += (lastInputPopOffset_ - offset + span - 1) / span * span;
  if (several && offset >= transfer) {
    refuse(packet, "an input pop at stream offset " + std::to_string(wrappedOffset) + " modulo " + std::to_string(span) +
                       " (PopOffsetPlus1) has no such offset at or after the previous input pop's " +
                       std::to_string(lastInputPopOffset_) + " inside its infeed's " + std::to_string(transfer) +
                       "-byte transfer: a pop going back is not decoded");
  }
  lastInputPopOffset_ = offset;
  return offset;
}

// The pop's length in 64-byte ring beats (docs/decoding-log.md "win14" §C): an input pop's PopInputBeatsHigh x 16,384
// + PopInputBeats + 1 ("oldrecv" §B; PopInputBeats' bit 10 is what "add128" §D read as PopBeats1024), a parameter
// pop's PopBeatsHigh x 1024 + PopBeatsLow + 1.
uint64_t LleRung::popBeats(const DecodedPacket& packet) const {
  if (readField(packet.words, LleField::PopIsInput) != 0) {
    constexpr uint64_t kBeatsPerHighUnit = 16384;
    const uint64_t high = readField(packet.words, LleField::PopInputBeatsHigh);
    const uint64_t low = readField(packet.words, LleField::PopInputBeats);
    // Every corpus pop with the high part keeps the rest below 16,384; a larger rest beside it is not decoded.
    if (high != 0 && low >= kBeatsPerHighUnit) {
      refuse(packet, "PopInputBeats = " + std::to_string(low) + " beside PopInputBeatsHigh = " + std::to_string(high) +
                         ": which beats the high part counts then is not decoded");
    }
    return high * kBeatsPerHighUnit + low + 1;
  }
  return (readField(packet.words, LleField::PopBeatsHigh) << 10 | readField(packet.words, LleField::PopBeatsLow)) + 1;
}

void LleRung::placeParameters(const DecodedPacket& packet, PendingPop& pop) {
  // Each destination tile's next receive says where the bytes go: its rows from the first on, each
  // row taking the pop's bytes per row (PopRowQuarters) at its lane 0.
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(pop.tiles & (1u << t))) continue;
    if (pendingReceives_[t].empty()) {
      refuse(packet, "parameter pop into tile " + std::to_string(t) +
                         " without a receive (a parameter-caching 0x11) before it: where the bytes go is not decoded");
    }
    const WideReceive r = pendingReceives_[t].front();
    pendingReceives_[t].pop_front();
    // The pop fills the receive's rows; its last row may be a part row.
    if (pop.length > uint64_t{r.rows} * pop.bytesPerRow || pop.length <= (uint64_t{r.rows} - 1) * pop.bytesPerRow) {
      refuse(packet, "a pop of " + std::to_string(pop.length) + " bytes into tile " + std::to_string(t) + " does not fill the " +
                         std::to_string(r.rows) + " rows of its receive at PC 0x" +
                         isa::formatAddress(r.pc) + " at " + std::to_string(pop.bytesPerRow) + " bytes per row");
    }
    pop.wideAddress[t] = uint64_t{r.firstRow} * kRowBytes;
  }
}

void LleRung::resolvePops(const models::RunStreams& streams) {
  for (const PendingPop& p : pendingPops_) {
    const std::span<const uint8_t> from = popBytes(p, streams);
    if (p.feedsWaitingStream) {
      feedWaitingStreamsFromHost(p, from);
      continue;
    }
    for (unsigned t = 0; t < tiles_.size(); ++t) {
      if (!(p.tiles & (1u << t))) continue;
      // Parameters land in the rows of the tile's receive (placeParameters()); activations keep
      // their stream position, so the slices of different tile rows stay apart and the compute
      // gathers them (see compute()).
      if (p.input) {
        tiles_[t].narrow.write(p.offset, from);
      } else {
        // Whole rows in one write; a part-row pop row by row, leaving the upper lanes of each row as they were.
        // A part-row pop's rows are kept as such (part_row_stream.h): a weight-feed send of them carries the parts in order.
        const uint64_t perWrite = p.bytesPerRow == kRowBytes ? std::max<uint64_t>(from.size(), 1) : p.bytesPerRow;
        const uint64_t firstRow = p.wideAddress[t] / kRowBytes;
        for (uint64_t done = 0, row = 0; done < from.size(); done += perWrite, ++row) {
          const uint64_t length = std::min(perWrite, from.size() - done);
          tiles_[t].wide.write(p.wideAddress[t] + row * kRowBytes, from.subspan(done, length));
          if (p.bytesPerRow != kRowBytes) tiles_[t].widePartRows[firstRow + row] = length;
        }
        if (p.bytesPerRow == kRowBytes) {
          const uint64_t rows = (from.size() + kRowBytes - 1) / kRowBytes;
          tiles_[t].widePartRows.erase(tiles_[t].widePartRows.lower_bound(firstRow), tiles_[t].widePartRows.lower_bound(firstRow + rows));
        }
      }
    }
    for (const auto& [t, address, nest, skipUnits, sliced] : p.sramWrites) {
      // The part of the pop the tile keeps: after the units its source side lets pass ("src14").
      const std::span<const uint8_t> part = from.subspan(std::min<uint64_t>(4 * skipUnits, from.size()));
      // A window keeps each pass of its part for its readers; narrow memory keeps the last (what the
      // units hold when the write has run).
      if (auto window = nest.revisitsAUnit() ? StagingWindow::of(nest, address) : std::nullopt) {
        window->fill(part);
        tiles_[t].windows.push_back(std::move(*window));
      }
      if (!nest.contiguous() || skipUnits != 0 || sliced) {
        // Unit k of the nest takes the pop's bytes [4 (skip + k), 4 (skip + k) + 4); stageWrite bounded
        // the units, pop() the skip.
        uint64_t k = 0;
        nest.forEachUnit([&](int64_t unit) {
          const uint64_t at = address + static_cast<uint64_t>(unit) * 4;
          if (4 * k >= part.size()) {
            // A window's pass past the pop's end: what the unit holds is not decoded.
            tiles_[t].narrowSram.forget(at, 4);
          } else if (!tiles_[t].narrowSram.write(at, part.subspan(4 * k, std::min<uint64_t>(4, part.size() - 4 * k)))) {
            throw ChipFault(FaultKind::kUnsupported, "lle: a staging write to tile " + std::to_string(t) + " at narrow address " +
                                                         std::to_string(at) + " leaves its " +
                                                         std::to_string(tiles_[t].narrowSram.capacity()) + "-byte narrow memory");
          }
          ++k;
        });
        continue;
      }
      if (!tiles_[t].narrowSram.write(address, from)) {
        throw ChipFault(FaultKind::kUnsupported, "lle: a pop of " + std::to_string(from.size()) + " bytes to tile " +
                                                     std::to_string(t) + " staged at narrow address " +
                                                     std::to_string(address) + " leaves its " +
                                                     std::to_string(tiles_[t].narrowSram.capacity()) + "-byte narrow memory");
      }
    }
  }
  pendingPops_.clear();
}

bool LleRung::countsAtOneLevel(std::span<const isa::Word128> words, LleField level0, LleField outerLevels, uint64_t iterations) {
  unsigned counting = readField(words, level0) != 0 ? 1 : 0;
  for (unsigned e = 0; e < fieldDef(outerLevels).count; ++e) counting += readField(words, outerLevels, e) != 0 ? 1 : 0;
  return counting <= 1 && nestIterations(words, level0, outerLevels) == iterations;
}

// The loops above K (ComputeLimitW0, the w0 nest's levels 1-3; docs/decoding-log.md "convcompute"
// §A) step the compute over output positions and rows: the convolutions' identity and tap computes.
// Their counts are decoded; where each position reads its input and writes its lanes (the output
// nest of w5, §B) is not executed yet, so a compute over more than one position is refused by name.
void LleRung::refuseComputeOverPositions(const DecodedPacket& packet) const {
  const LleFieldDef& def = fieldDef(LleField::ComputeLimitW0);
  for (unsigned level = 0; level < def.count; ++level) {
    const uint64_t limit = readField(packet.words, LleField::ComputeLimitW0, level);
    if (limit == 0) continue;
    const unsigned bit = def.lsb + level * def.stride;  // word 0: the absolute bit is the bit of w0
    refuse(packet, "ComputeLimitW0[" + std::to_string(level) + "] (word 0 bits " + std::to_string(bit + def.width - 1) + ":" +
                       std::to_string(bit) + ") = " + std::to_string(limit) + ": the compute runs over " +
                       std::to_string(limit + 1) + " output positions at level " + std::to_string(level + 1) +
                       " of its loop nest; only a single-position compute is executed");
  }
}

// The w0 nest's levels 4-6 (ComputeLimitW0Level4, ComputeLimitW0Levels56; docs/decoding-log.md "w1lo" §A) loop above
// the rows of the forms other than the convolution, which walk at most four levels: refused by name where one counts.
void LleRung::refuseW0NestAboveLevel3(const DecodedPacket& packet) const {
  if (const uint64_t level4 = readField(packet.words, LleField::ComputeLimitW0Level4); level4 != 0) {
    refuse(packet, "ComputeLimitW0Level4 (word 0 bits 127:118, word 1 bits 3:0) = " + std::to_string(level4) +
                       ": the compute's loop nest repeats " + std::to_string(level4 + 1) +
                       " times at level 4; only the convolution form walks a fifth level");
  }
  const LleFieldDef& def = fieldDef(LleField::ComputeLimitW0Levels56);
  for (unsigned e = 0; e < def.count; ++e) {
    if (const uint64_t limit = readField(packet.words, LleField::ComputeLimitW0Levels56, e); limit != 0) {
      const unsigned bit = def.lsb % 128 + e * def.stride;  // word 1
      refuse(packet, "ComputeLimitW0Levels56[" + std::to_string(e) + "] (word 1 bits " + std::to_string(bit + def.width - 1) + ":" +
                         std::to_string(bit) + ") = " + std::to_string(limit) + ": the compute's loop nest repeats " +
                         std::to_string(limit + 1) + " times at level " + std::to_string(5 + e) +
                         "; only the convolution form walks levels above 4");
    }
  }
  if (const uint64_t level7 = readField(packet.words, LleField::ComputeLimitW0Level7); level7 != 0) {
    refuse(packet, "ComputeLimitW0Level7 (word 1 bits 45:32) = " + std::to_string(level7) + ": the compute's whole walk repeats " +
                       std::to_string(level7 + 1) + " times, an output block a pass; only the convolution form executes the passes");
  }
}

// The two position relations of lle_relations.def at one position (Nest37 slot 0's carry 1 unit, Output37 level 1
// run once; a loop that runs once may leave its wrap 0), which the relation table leaves to the executors of a
// compute with a parameter prefix (isPrefixedCompute, docs/decoding-log.md "split" §D): the Dense gather reads its K
// groups as one run.
void LleRung::refuseDenseNestOtherThanOnePosition(const DecodedPacket& packet) const {
  const int64_t step = readSigned(packet.words, LleField::ComputePositionStep37);
  const uint64_t outPositions = readField(packet.words, LleField::ComputeOutPositions);
  if ((step != 1 && step != 0) || outPositions != 0) {
    refuse(packet, "ComputePositionStep37 (word 1 bits 136:120) = " + std::to_string(step) + ", ComputeOutPositions (word 5 bits 62:45) = " +
                       std::to_string(outPositions) + " in the single-position (Dense) compute: one position is 1 (or 0) and 0");
  }
}

// The lanes a weight group feeds, the parameter prefix and the weight zero point (docs/decoding-log.md "convmac" §A) are
// read by the convolution compute (conv_compute.h); the Dense and element-wise paths model one
// value of each and refuse the others by name.
void LleRung::refuseOtherLanesOrPrefix(const DecodedPacket& packet, uint64_t laneGroups, uint64_t prefix, const char* form) const {
  const uint64_t gotLanes = readField(packet.words, LleField::ComputeLaneGroups);
  const uint64_t gotPrefix = readField(packet.words, LleField::ComputeParamPrefix);
  const uint64_t gotZpWeight = readField(packet.words, LleField::ComputeZpWeight);
  if (gotLanes != laneGroups || gotPrefix != prefix || gotZpWeight != 0) {
    refuse(packet, "ComputeLaneGroups (word 4 bits 118:99) = " + std::to_string(gotLanes) + ", ComputeParamPrefix (word 16 bits 46:45) = " +
                       std::to_string(gotPrefix) + ", ComputeZpWeight (word 14 bits 70:62) = " + std::to_string(gotZpWeight) + ": the " +
                       form + " models " + std::to_string(laneGroups) + ", " + std::to_string(prefix) + " and 0");
  }
  // Without a prefix there is no weight offset array for ComputeOffsetPrefix* to place ("p4w14"). Dense's
  // prefix holds one (its ComputeOffsetPrefixLast is 1, the offset's row after the scale's), but its MAC array
  // models the offset as 128 (mac_array.h) and reads no row: there the three numbers are not read.
  const uint64_t offsetPlace = readField(packet.words, LleField::ComputeOffsetPrefixFirst) | readField(packet.words, LleField::ComputeOffsetPrefixCount) |
                               readField(packet.words, LleField::ComputeOffsetPrefixLast);
  if (prefix == 0 && offsetPlace != 0) {
    refuse(packet, "ComputeOffsetPrefixFirst / Count / Last (word 14 bits 127:94, word 15 bits 1:0) not 0: the " + std::string(form) +
                       " has no weight offset array to place");
  }
}

bool LleRung::inputPopsDelivered(const models::RunStreams& streams) const {
  // A pop that is a waiting convolution's weight stream (lle_rung_host_stream.cc) waits for its parameter bytes alike:
  // the compute runs when they are here, and what follows it on the chip waits for it.
  return std::ranges::all_of(pendingPops_, [&](const PendingPop& p) {
    if (p.feedsWaitingStream) return p.offset + p.length <= streams.parameterBytes().size();
    return !p.input || std::min(p.transferStart + p.offset + p.length, p.transferEnd) <= streams.inputBytes().size();
  });
}

// The stream bytes a pop delivers, as far as the host has sent them: a parameter pop's from the parameter
// stream at its offset; an input pop's from its infeed's transfer, bytes past the transfer's end excluded.
std::span<const uint8_t> LleRung::popBytes(const PendingPop& p, const models::RunStreams& streams) {
  const std::span<const uint8_t> stream = p.input ? streams.inputBytes() : streams.parameterBytes();
  const uint64_t first = p.input ? p.transferStart + p.offset : p.offset;
  const uint64_t end = std::min<uint64_t>(p.input ? std::min(first + p.length, p.transferEnd) : first + p.length, stream.size());
  return first < end ? stream.subspan(first, end - first) : std::span<const uint8_t>{};
}

void LleRung::runDeferredComputes(const models::RunStreams& streams) {
  // Taken out of the queue together, in program order: a compute that finds the queue non-empty
  // waits behind it, so running them one by one from a queue still holding the others would requeue them.
  auto waiting = std::move(deferredComputes_);
  deferredComputes_.clear();
  for (DeferredCompute& next : waiting) {
    next.packet.words = next.words;
    if (static_cast<uint8_t>(next.packet.opcode) == 0x13) {  // a ring send's read (dispatch)
      resolvePops(streams);
      stageRead(next.packet);
      continue;
    }
    if (static_cast<uint8_t>(next.packet.opcode) == 0x26) {  // a host pop into a waiting stream: its compute runs (pop())
      resolvePops(streams);
      continue;
    }
    compute(next.packet, streams);
  }
}

// The size of one input element (docs/decoding-log.md "identcopy" §A): ComputeInputBytes is
// one-hot and ComputeInputBytesCode names the same size (1 -> 1, 2 -> 2, 4 -> 0). The other pairs of
// the corpus ((0, 0), (1, 0)) are not decoded: refused, naming both fields.
uint64_t LleRung::inputElementBytes(const DecodedPacket& packet) const {
  const uint64_t bytes = readField(packet.words, LleField::ComputeInputBytes);
  const uint64_t code = readField(packet.words, LleField::ComputeInputBytesCode);
  // A channel grid's step (input_step.h): the lanes read 4-byte units, code 0 as in (4, 0); the step is C bytes.
  if (walksAChannelGrid(packet.words) && code == 0 && bytes % kGroupBytes == 0) return kGroupBytes;
  const bool oneHot = bytes == 1 || bytes == 2 || bytes == 4;
  if (!oneHot || code != (bytes == 4 ? 0 : bytes)) {
    refuse(packet, "ComputeInputBytes (word 1 bits 83:81) = " + std::to_string(bytes) + " with ComputeInputBytesCode (word 1 bits 119:118) = " +
                       std::to_string(code) + ": not one of the decoded element sizes (1, 1), (2, 2), (4, 0)");
  }
  return bytes;
}

// Where the K count is written over elements narrower than its 4-byte group, w11 bit 98 says so and the
// K loop's level 0 counts the elements the groups pack (docs/decoding-log.md "looming98"): the flag must
// be set exactly there, and the count must agree with the limit. Neither form is executed here (refused
// after this check); a packet breaking either rule says something else, refused naming the fields.
void LleRung::refusePackedKCountDisagreeing(const DecodedPacket& packet, uint64_t elementBytes, bool packedExecuted) const {
  const auto& words = packet.words;
  const uint64_t count = readField(words, LleField::ComputeKCount);
  const uint64_t packed = readField(words, LleField::ComputeKCountOfPackedElements);
  const bool narrowWithCount = elementBytes < kGroupBytes && count != 0;
  if ((packed != 0) != narrowWithCount) {
    refuse(packet, "ComputeKCountOfPackedElements (word 11 bit 98) = " + std::to_string(packed) + " with ComputeKCount (word 9 bits 75:64) = " +
                       std::to_string(count) + " and ComputeInputBytes = " + std::to_string(elementBytes) +
                       ": the flag is set exactly where a K count is written over 1- or 2-byte elements");
  }
  if (packed == 0) return;
  const uint64_t elements = readField(words, LleField::ComputeK4W0) + 1;
  if (elements != count * kGroupBytes / elementBytes) {
    refuse(packet, "ComputeK4W0 + 1 = " + std::to_string(elements) + " with ComputeKCountOfPackedElements (word 11 bit 98) set: the K loop counts " +
                       std::to_string(count) + " group(s) of " + std::to_string(kGroupBytes / elementBytes) + " " + std::to_string(elementBytes) +
                       "-byte elements (ComputeKCount x 4 / ComputeInputBytes)");
  }
  if (packedExecuted) return;  // the streamed product reduces its K packed elements (streamed_product.h)
  refuse(packet, "ComputeKCountOfPackedElements (word 11 bit 98) set: a K reduction of " + std::to_string(elements) + " " +
                     std::to_string(elementBytes) + "-byte elements packed in " + std::to_string(count) +
                     " 4-byte group(s) is decoded but not executed (not the identity copy)");
}

// The epilogue fields both compute forms share (docs/isa.md §4.2), with the ranges the requantiser
// models: zero points of one byte, a finite multiplier, ordered clamps.
ComputeEpilogue LleRung::readEpilogue(const DecodedPacket& packet, bool biasExecuted) const {
  const ComputeEpilogue e = readComputeEpilogue(packet.words);
  if (const std::string problem = epilogueProblem(e); !problem.empty()) refuse(packet, problem);
  if (!biasExecuted) refuseUnexecutedBias(packet);
  return e;
}

// The accumulator's addend (docs/decoding-log.md "eltw12" §A) is executed by the element-wise form; the
// Dense, convolution and identity-copy forms carry 0 in every corpus compute, and where their sums
// would take it (before or after the per-lane scale, with the parameter slots' bias mode) is not decoded.
void LleRung::refuseUnexecutedBias(const DecodedPacket& packet) const {
  if (const int32_t bias = readComputeBias(packet.words); bias != 0) {
    refuse(packet, "ComputeBias (word 15 bits 127:125, word 16 bits 28:0) = " + std::to_string(bias) +
                       ": an accumulator addend outside the element-wise form is not executed");
  }
}

void LleRung::compute(const DecodedPacket& packet, const models::RunStreams& streams) {
  // The w0 nest's shorter last iteration (w0_last_run.h, docs/decoding-log.md "smx"): the softmax passes (0x02, 0x03) execute
  // their short last beat, the weighing by a kept operand (the softmax normalisations) its last position's dropped K steps,
  // and the convolution form (4-byte K groups on tiles that armed a weight stream on its tag) the tail of a split
  // reduction's last K pass (the co-compiled classifiers; ConvCompute::unsupported refuses any other shape). Every other
  // 0x01 form is refused by name, not run as if every iteration were whole.
  // Whether the packet can be the convolution form: none of the marks dispatched on before it, 4-byte K groups in and out,
  // and a tile of its mask armed a weight stream on its tag.
  const auto mayBeTheConvolution = [&] {
    const auto w = packet.words;
    if (readField(w, LleField::ComputeInputBytes) != kGroupBytes || readField(w, LleField::ComputeOutputBytes) != kGroupBytes) return false;
    if (WideStreamedSquare::isForm(w) || isTwoByteLaneGroupForm(w) || ByteSteppedWeighing::isForm(w)) return false;
    if (isRingIdentityCopy(packet) || isWalkedElementWise(packet)) return false;
    const uint64_t tag = readField(w, LleField::ComputeStreamTag);
    for (unsigned t = 0; t < tiles_.size(); ++t) {
      if ((packet.tileMask & (1u << t)) && weightStreams_[t] && weightStreams_[t]->tag == tag) return true;
    }
    return false;
  };
  if (const uint64_t level = readField(packet.words, LleField::ComputeW0LastRunLevel);
      level != 0 && !KeptOperandWeighing::isForm(packet.words) && !mayBeTheConvolution()) {
    refuse(packet, fieldText(LleField::ComputeW0LastRunLevel, level) + ", " +
                       fieldText(LleField::ComputeW0LastRun, readField(packet.words, LleField::ComputeW0LastRun)) +
                       ": a shorter last iteration of the w0 nest in an 0x01 compute is not executed");
  }
  // Every executed form writes 4-byte output units (ComputeOutputBytes, docs/decoding-log.md "w4b82").
  if (const std::string problem = outputElementBytesProblem(packet.words); !problem.empty()) refuse(packet, problem);
  // Unsigned 16-bit weights (docs/decoding-log.md "sum03" §E): every executed form reads its 16-bit weights signed.
  // The 16-bit streamed product (wide_streamed_square.h, "trk14b") is the one form that reads them, and the one that
  // writes 16-bit results without a table.
  const bool wideSquare = WideStreamedSquare::isForm(packet.words);
  // The byte-stepped weighing writes 16-bit results without a table through its diagonal rule ("trk15").
  const bool steppedSixteen = readField(packet.words, LleField::ComputeInputBytes) == ByteSteppedWeighing::kUnitBytes &&
                              ByteSteppedWeighing::isForm(packet.words) && readField(packet.words, LleField::ComputeNluApply) == 0;
  // The weighing by a kept operand (kept_operand_weighing.h, "trk16" §B) reads them too: the normalisation by the exponentials.
  if (readField(packet.words, LleField::ComputeUnsignedWideWeights) != 0 && !wideSquare && !KeptOperandWeighing::isForm(packet.words)) {
    refuse(packet, "ComputeUnsignedWideWeights (word 7 bit 76) = 1: 16-bit weights read unsigned outside the 16-bit streamed product and "
                   "the weighing by a kept operand are not executed");
  }
  // 16-bit results are written only through a table (ComputeSixteenBitResults beside ComputeNluApply, "exp19" §A): the
  // mark without a table is refused here, a table without the mark by the forms that apply one (the others name the table).
  if (readField(packet.words, LleField::ComputeSixteenBitResults) != 0 && !wideSquare && !steppedSixteen) {
    if (const std::string problem = sixteenBitResultsProblem(packet.words); !problem.empty()) refuse(packet, problem);
  }
  // A position that leaves a partial pass of lane groups (its w7 codes set, output_partial_pass.h; docs/decoding-log.md
  // "w7codes", "dec16"): the convolution form writes the last pass's k units (ConvCompute::unitsOfOutput, byte-checked
  // against the twin). Held here: past it the 16-channel decoders run fully, their layers equal to the twin's but for
  // requantisation LSBs that grow through the network ("dec17"), about 90 % of their output bytes equal to the golden's
  // preferred reference (max |d| 2) -- full runs that are not the golden.
  if (const OutputPartialPassCodes codes = expectedOutputPartialPassCodes(packet.words); codes != OutputPartialPassCodes{}) {
    refuse(packet, "ComputeOutPartialUnits (word 7 bits 25:22) = " + std::to_string(codes.partialUnits) +
                       ": a position of ComputeLaneGroups + 1 units leaves a partial pass of " +
                       std::to_string(codes.partialUnits + 1) + " units at Output37 level " +
                       std::to_string(codes.levelsWalked - 1) + " (its last iteration); the convolution writes them, but is held: "
                       "the corpus programs that reach it run fully past it without being golden-exact");
  }
  if (!inputPopsDelivered(streams) || !deferredComputes_.empty()) {
    DeferredCompute& waiting = deferredComputes_.emplace_back();
    waiting.words.assign(packet.words.begin(), packet.words.end());
    waiting.packet = packet;
    return;
  }
  resolvePops(streams);
  runWindowReaders();
  refuseWhileAConvolutionAwaitsItsBroadcast(packet);
  const auto words = packet.words;
  // The unrequantised copy (ComputeUnrequantisedCopy, docs/decoding-log.md "copy117"): its epilogue must
  // say "no requantisation", and it runs only as the walked element-wise form (through the kept identity).
  if (isUnrequantisedCopy(words)) {
    if (const std::string problem = unrequantisedCopyProblem(words); !problem.empty()) refuse(packet, problem);
    if (!isWalkedElementWise(packet)) {
      refuse(packet, "ComputeUnrequantisedCopy (word 11 bit 117) set outside the walked element-wise form (4-byte groups outside a "
                     "ring, Nest37 level 0 run once, a 16-byte block kept on every tile of the mask): not executed");
    }
  }
  // A compute ends its tiles' run of numbered kept reads (Stage13KeptSequence, "keep13"); it takes a run of equal
  // blocks as that block ("split" §E).
  refuseARunOfKeptReads(packet, RunOfEqualBlocks::kTaken);
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (packet.tileMask & (1u << t)) tiles_[t].keptReadSequence = 0;
  }
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if ((packet.tileMask & (1u << t)) && tiles_[t].stagedReadMixedRoute) {
      refuse(packet, "tile " + std::to_string(t) + " holds a read with Stage13Route (word 3 bits 107, 105) = 1, 0 that no 0x10 send drained: "
                     "whether this compute takes its bytes is not decoded");
    }
    if ((packet.tileMask & (1u << t)) && tiles_[t].stagedReadForMaxPass) {
      refuse(packet, "tile " + std::to_string(t) + " holds a read marked for a max pass (Stage13MaxPassMark, word 4 bit 35): "
                     "an 0x01 compute taking it is never seen and not decoded");
    }
    if ((packet.tileMask & (1u << t)) && tiles_[t].keptReadFeedsNormalise) {
      refuse(packet, "tile " + std::to_string(t) + " holds a read kept for an opcode-0x02 / 0x03 compute (Stage13FeedsNormalise, word 3 bit 109, "
                     "or a max pass's streamed read; stream " +
                         std::to_string(tiles_[t].keptReadChannel) + "): an 0x01 compute taking it is never seen and not decoded");
    }
  }
  // The one-byte output form (lle_rung_one_byte_output.cc, docs/decoding-log.md "soft2b"): one byte weighed by a
  // 16-bit weight, one byte written; outputElementBytesProblem above has checked the slot-6 pair beside it.
  if (readField(words, LleField::ComputeOutputBytes) == kOneByteOutput) {
    computeOneByteOutput(packet);
    return;
  }
  if (wideSquare) {
    waitForWideStreamedSquare(packet);
    return;
  }
  // The two-byte element form (lle_rung_two_byte_walk.cc, docs/decoding-log.md "twobyte") counts all its
  // nests' levels, the w0 nest's fifth among them (model_mat_Add's 128 x 128 rows).
  if (isTwoByteLaneGroupForm(words)) {
    computeTwoByteLaneGroups(packet);
    return;
  }
  // 4-byte input units weighed by a kept operand's unsigned 16-bit weights (kept_operand_weighing.h, "trk16" §B).
  if (KeptOperandWeighing::isForm(words)) {
    computeKeptOperandWeighing(packet);
    return;
  }
  if (isTwoByteElementForm(packet)) {
    computeTwoByteElementWise(packet);
    return;
  }
  // The w0 nest's levels 4-6 (docs/decoding-log.md "splitcat" §B, "w1lo" §A): model_mat_Add's 128 x 128 rows,
  // model_conv's output columns. Only the convolution form walks levels above 3 (Nest37 / Nest29's odometers);
  // the other forms refuse them by name (refuseW0NestAboveLevel3) rather than run them as if they ran once.
  // One-byte input elements: the convolutions' identity computes, which copy their tile's block of
  // the image out of a staging window into the padded grid (docs/decoding-log.md "identcopy"). One
  // issued before its window is filled waits for it, as do the ones after it (program order).
  // ComputeInputBytes 0 over ones: the average pool (lle_rung_average_pool.cc, docs/decoding-log.md "pool4" §B).
  // A step with high bits (input_step.h) is no pool: a depthwise over a channel grid, the convolution form below.
  if (readField(words, LleField::ComputeInputBytes) == 0 && readField(words, LleField::ComputeInputBytesCode) == 0 &&
      !walksAChannelGrid(words)) {
    computeAveragePool(packet);
    return;
  }
  const uint64_t elementBytes = inputElementBytes(packet);
  // One-byte elements with nothing on the tiles under the compute's tag: the streamed product, which waits for the read
  // that brings its second operand (lle_rung_streamed_product.cc); its K reduction is the packed one.
  const bool streamedProduct = elementBytes == 1 && !computeUnstreamed_ && takesAStreamedOperand(packet);
  refusePackedKCountDisagreeing(packet, elementBytes, streamedProduct);
  if (streamedProduct) {
    waitForStreamedOperand(packet);
    return;
  }
  // 4-byte groups weighed through a weight walk in bytes (byte_stepped_weighing.h, docs/decoding-log.md "loomid").
  if (elementBytes == kGroupBytes && ByteSteppedWeighing::isForm(words)) {
    computeByteSteppedWeighing(packet);
    return;
  }
  // Where Nest37 level 1 counts, the weight nests' wrap relation is the rung's to check (lle_relations.def):
  // the walked element-wise form keeps its block (wraps 0), the other forms keep the relation.
  if (elementBytes == kGroupBytes && readField(words, LleField::ComputeNest37Limit1) != 0 && !isWalkedElementWise(packet)) {
    refuseWeightWrapsOutsideTheWalkedForm(packet);
  }
  if (elementBytes == 1) {
    refuseW0NestAboveLevel3(packet);
    refuseNest37HighLevels(packet, "the identity copy");
    refuseWeightNestHighLevels(packet, "the identity copy");
    refuseOtherIdentityWalk(packet);
    refuseInputLevelMovesDisagreeingWithTheWalk(packet, elementBytes);
    if (waitsForItsWindow(packet)) return;
    computeIdentityCopy(packet);
    return;
  }
  // A ring input of 4-byte K groups: the RingCanary convolutions' identity copy (lle_rung_ring_copy.cc),
  // which waits for its window as the one-byte copy does.
  if (isRingIdentityCopy(packet)) {
    refuseW0NestAboveLevel3(packet);
    refuseWeightNestHighLevels(packet, "the 4-byte identity copy");
    refuseOtherRingCopyWalk(packet);
    refuseInputLevelMovesDisagreeingWithTheWalk(packet, elementBytes);
    if (waitsForItsWindow(packet)) return;
    computeRingIdentityCopy(packet);
    return;
  }
  // The other forms executed here read 4-byte input elements (a K group, an element-wise group); the
  // bilinear templates' 2-byte elements are not executed.
  if (elementBytes != kGroupBytes) {
    refuse(packet, "ComputeInputBytes (word 1 bits 83:81) = " + std::to_string(elementBytes) + ": " + std::to_string(elementBytes) +
                       "-byte input elements; only 1-byte (identity copy) and 4-byte elements (K groups) are executed");
  }
  if (const uint64_t firstByte = readField(words, LleField::ComputeInputByte); firstByte != 0) {
    refuse(packet, "ComputeInputByte (word 1 bits 64:63) = " + std::to_string(firstByte) +
                       " with 4-byte input elements: an input that starts inside a K group is not decoded (only the one-byte "
                       "identity computes set it)");
  }
  refuseWhileAWindowReaderWaits(packet);
  // The pixel walk is exempt from the weight-wrap and position relations (lle_relations.def) because the
  // walked element-wise executor checks them; on tiles without its kept block it is no form executed here.
  const uint64_t streamTag = readField(words, LleField::ComputeStreamTag);
  bool armsStreamOnItsTag = false;
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    armsStreamOnItsTag = armsStreamOnItsTag || ((packet.tileMask & (1u << t)) && weightStreams_[t] && weightStreams_[t]->tag == streamTag);
  }
  // A pixel walk whose tiles armed a weight stream on its tag is the convolution form with one weight group an
  // output (split_concat's 0x0272, "split2"): the convolution executor walks its nests.
  if (isPixelWalk(words) && !isWalkedElementWise(packet) && !armsStreamOnItsTag) {
    refuse(packet, "ComputeK4W0 = " + std::to_string(readField(words, LleField::ComputeK4W0)) + " with ComputeK4W1 = 0 and ComputePositions = " +
                       std::to_string(readField(words, LleField::ComputePositions)) +
                       " (a pixel walk at Nest37 level 2) on tiles without a 16-byte kept block or with a weight stream on its tag: not decoded");
  }
  if (isWalkedElementWise(packet)) {
    refuseW0NestAboveLevel3(packet);
    refuseAKeptReadOfUnwrittenBytes(packet);
    computeElementWiseWalk(packet);
    return;
  }
  // A tap-row loop at Nest37 level 1 on tiles that armed a weight stream is the convolution form
  // ("convmac" §B, "conv32run" §C); without a stream the Dense and element-wise forms refuse the loop
  // (refuseOtherGroupWalk).
  // Without a tap-row loop the compute is still of that form where its tiles armed a stream on its own
  // tag: the stride sweep's 1 x 1 convolution, one step from a prefixed receive's stream ("stride" §D).
  const bool tapRows = readField(words, LleField::ComputeNest37Limit1) != 0;
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if ((packet.tileMask & (1u << t)) && weightStreams_[t] && (tapRows || weightStreams_[t]->tag == streamTag)) {
      refuseInputLevelMovesDisagreeingWithTheWalk(packet, elementBytes);
      computeConvolution(packet);
      return;
    }
  }
  refuseW0NestAboveLevel3(packet);
  refuseAKeptReadOfUnwrittenBytes(packet);
  const uint64_t limit = readField(words, LleField::ComputeK4W0);
  // Nest37 splits the work into K groups (level 0) x positions (level 2); Nest29's level 0 and its
  // repeat in w10 count all the iterations (docs/decoding-log.md "taps", "eltwise" §B).
  const uint64_t positions = readField(words, LleField::ComputePositions) + 1;
  refuseOtherGroupWalk(packet, positions);
  refuseInputLevelMovesDisagreeingWithTheWalk(packet, elementBytes);
  const uint64_t iterations = (limit + 1) * positions;
  if (readField(words, LleField::ComputeK4W1) != limit) {
    refuse(packet, "loop limit ComputeK4W1 = " + std::to_string(readField(words, LleField::ComputeK4W1)) + " is not " +
                       std::to_string(limit) + " (ComputeK4W0)");
  }
  // Nest29 and the w10 nest count all the iterations at one of their levels 0-2: level 0 in Dense and
  // the x86-64 compiles, level 2 in the aarch64 ones (docs/decoding-log.md "dense2" §B).
  const std::pair<LleField, LleField> nests[] = {{LleField::ComputeK4W7, LleField::ComputeLimit29},
                                                 {LleField::ComputeK4W10, LleField::ComputeLimitW10}};
  // Their level 3 (the RingCanary identity copies' rows, docs/decoding-log.md "ring4copy" §A) is a loop
  // these forms do not have.
  for (const LleField level3 : {LleField::ComputeLimit29Level3, LleField::ComputeLimitW10Level3}) {
    if (const uint64_t rowsLimit = readField(words, level3); rowsLimit != 0) {
      refuse(packet, std::string(fieldDef(level3).name) + " = " + std::to_string(rowsLimit) +
                         ": a level-3 loop of the weight nests the Dense and element-wise forms do not run");
    }
  }
  refuseWeightNestHighLevels(packet, "the Dense and element-wise forms");
  for (const auto& [level0, outer] : nests) {
    if (!countsAtOneLevel(words, level0, outer, iterations)) {
      std::string levels = std::to_string(readField(words, level0));
      for (unsigned e = 0; e < fieldDef(outer).count; ++e) levels += ", " + std::to_string(readField(words, outer, e));
      refuse(packet, "loop limits " + std::string(fieldDef(level0).name) + ", " + std::string(fieldDef(outer).name) + " = " +
                         levels + " do not count " + std::to_string(iterations) + " iterations at one level (ComputeK4W0 = " +
                         std::to_string(limit) + ", ComputePositions = " + std::to_string(positions - 1) + ")");
    }
  }
  // The position loop's bit must be set where there is more than one position. Set with one position the loop runs
  // once: the same one output as without it (docs/decoding-log.md "mdense" §D: model_dense's unrequantised passes @
  // 0x00de / 0x00ef set it with one group, as all 926 corpus computes of their mode bits w15[11:4] = 0x06 do; the
  // element-wise templates' one-position computes clear it).
  if (readField(words, LleField::ComputePositionLoopOn) == 0 && positions > 1) {
    refuse(packet, "ComputePositionLoopOn (word 11 bit 111) = 0 with " + std::to_string(positions) +
                       " positions (set wherever there is more than one)");
  }
  if (positions > 1 && limit != 0) {
    refuse(packet, "a position loop (ComputePositions = " + std::to_string(positions - 1) + ") over K groups (ComputeK4W0 = " +
                       std::to_string(limit) + "): only one group per position is decoded");
  }
  if (limit == 0) {
    // One 4-byte group per output. With a 16-byte block kept for it by a 0x13 (the prologue's
    // identity, docs/decoding-log.md "eltwise" §B) this is the element-wise form: the block is the
    // weights.
    for (unsigned t = 0; t < tiles_.size(); ++t) {
      if ((packet.tileMask & (1u << t)) && tiles_[t].keptRead && tiles_[t].keptRead->size() == kElementWiseBlockBytes) {
        computeElementWise(packet, positions);
        return;
      }
    }
    if (positions > 1) refuse(packet, "a position loop without a 16-byte weight block kept by a 0x13 read on its tiles");
  }
  const auto groups = static_cast<uint32_t>(limit + 1);
  const uint64_t outputAt = readField(words, LleField::ComputeOutputAt);
  const auto [zpIn, zpOut, mult, lo, hi] = readEpilogue(packet);
  // A read kept for this compute (Stage13Route 0, 0: the prologue identity reads) is one of its
  // operands, but which one (weights or activations) and in what layout is not decoded. A read kept in another
  // stream is not this compute's (its consumer names the stream, tile_state.h): model_dense's identity block, kept on
  // all 16 tiles in stream 2052 and taken on tiles 0 / 8 only, still lies on tile 1 at its Dense on stream 2029.
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t)) || !tiles_[t].keptRead || tiles_[t].keptReadChannel != streamTag) continue;
    refuse(packet, "tile " + std::to_string(t) + " holds " + std::to_string(tiles_[t].keptRead->size()) +
                       " bytes a 0x13 kept for its compute (Stage13Route 0, 0; stream " +
                       std::to_string(tiles_[t].keptReadChannel) + "; read " + std::to_string(tiles_[t].keptReadRepeats + 1) +
                       " times): whether the compute takes them as weights or activations is not decoded");
  }
  // From here on the compute is the single-position form (Dense): one K reduction into 64 lanes.
  refuseComputeOverPositions(packet);
  refuseDenseNestOtherThanOnePosition(packet);
  // The K-loop wraps the relation table leaves to the prefixed form's executors (docs/decoding-log.md "stride2"):
  // this one reads its K groups as one run, so it holds them as a compute without a prefix is held.
  if (const std::string problem = singlePositionKWrapProblem(words); !problem.empty()) refuse(packet, problem);
  // The bias array alone as the prefix (ComputeParamPrefix 1, docs/decoding-log.md "loomdense"): its own executor, which
  // also runs the form without a prefix (0: the K groups' wide rows from the tag's, "fcx" §A).
  if (readField(words, LleField::ComputeParamPrefix) <= 1) {
    computeBiasPrefixDense(packet, groups);
    return;
  }
  refuseOtherLanesOrPrefix(packet, kLanes / 4 - 1, 2, "single-position (Dense) compute: 64 lanes, f32 scale and u32 weight offset");
  if (readField(words, LleField::ComputeNluApply) != 0) {
    refuse(packet, "ComputeNluApply (word 15 bit 26) in the single-position form: the NLU table is applied in the element-wise form "
                   "only (where the single-position form's 16-bit results go is not decoded)");
  }
  // The Dense gather below takes stream bytes [0, K), where both templates' staging steps put the
  // vector (narrow 0, docs/decoding-log.md "identform" §B); an input elsewhere is not what it models.
  if (const uint64_t inputAt4 = readField(words, LleField::ComputeInputAt4); inputAt4 != 0) {
    refuse(packet, "ComputeInputAt4 (word 1 bits 80:65) = " + std::to_string(inputAt4) +
                       ": the single-position compute's activations are gathered from narrow address 0 only");
  }
  const uint32_t inputBytes = 4 * groups;
  const uint32_t paramBytes = kWeightOffset + groups * kGroupStride;
  // The activations: the ring/mesh staging between the pop and the compute (0x14/0x11/0x10/0x13,
  // not decoded) gives every tile of the compute the whole vector. The rung gathers stream bytes
  // [0, K) from the compute tiles that received them (each pop delivers exactly its decoded
  // length), and refuses when the pops did not deliver every byte the compute reads.
  std::vector<uint8_t> gathered(inputBytes);
  for (uint32_t pos = 0; pos < inputBytes;) {
    const TileMemory* holder = nullptr;
    for (unsigned t = 0; t < tiles_.size() && !holder; ++t) {
      if ((packet.tileMask & (1u << t)) && tiles_[t].narrow.holds(pos, 1)) holder = &tiles_[t].narrow;
    }
    if (!holder) {
      refuse(packet, "no tile of the compute holds activation byte " + std::to_string(pos) + " of the " +
                         std::to_string(inputBytes) + " it reads (no input pop delivered it)");
    }
    const auto run = static_cast<uint32_t>(std::min<uint64_t>(holder->runFrom(pos), inputBytes - pos));
    std::memcpy(gathered.data() + pos, holder->at(pos), run);
    pos += run;
  }
  const uint8_t* activations = gathered.data();
  int32_t acc[kLanes];
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t))) continue;
    TileState& tile = tiles_[t];
    if (tile.narrow.empty()) {
      refuse(packet, "tile " + std::to_string(t) + " computes but received no activations in this run");
    }
    if (!tile.wide.holds(0, paramBytes)) {
      refuse(packet, "tile " + std::to_string(t) + " wide memory holds " + tile.wide.describe() + ", the compute reads " +
                         std::to_string(paramBytes) + " from address 0 (no parameter-caching run since reset?)");
    }
    const uint8_t* wide = tile.wide.at(0);
    macGroups(activations, zpIn, wide + kWeightOffset, groups, acc);
    macs_ += uint64_t{kLanes} * inputBytes;
    uint8_t results[kLanes];
    for (unsigned c = 0; c < kLanes; ++c) {
      uint32_t slot = 0;
      std::memcpy(&slot, wide + kSlotOffset + 4 * c, 4);
      if (slot != kWeightOffsetSlot) {
        refuse(packet, "tile " + std::to_string(t) + " lane " + std::to_string(c) + ": parameter slot " +
                           std::to_string(slot) + " is not the weight offset 128 (bias mode, docs/isa.md Q3, not modelled)");
      }
      uint32_t scaleBits = 0;
      std::memcpy(&scaleBits, wide + kScaleOffset + 4 * c, 4);
      const Requantizer requant(std::bit_cast<float>(scaleBits), mult, lo, hi, zpOut, config_.requantRounding);
      results[c] = requant(acc[c]);
    }
    // One byte per lane at the decoded output address; the outfeed sends them from there (0x13).
    if (!tile.narrowSram.write(outputAt, results)) {
      refuse(packet, "the lane results of tile " + std::to_string(t) + " at narrow address " + std::to_string(outputAt) +
                         " (ComputeOutputAt) leave its " + std::to_string(tile.narrowSram.capacity()) + "-byte narrow memory");
    }
    if (config_.lleComputeObserver) {
      const uint64_t at[] = {outputAt};
      config_.lleComputeObserver->computed(packet, t, ComputeWrite{ComputeForm::kSinglePosition, kLanes, at, results});
    }
  }
}

void LleRung::computeElementWise(const DecodedPacket& packet, uint64_t positions) {
  const auto words = packet.words;
  // The w0 nest counts the same positions at one of its levels 1-3 and runs the others once ("eltwise"
  // §B, "convcompute" §A; level 1 in the x86-64 compiles, level 2 in the aarch64 ones, "dense2" §B): a
  // packet that says otherwise is another form.
  const LleFieldDef& w0Nest = fieldDef(LleField::ComputeLimitW0);
  unsigned counting = 0;
  for (unsigned level = 0; level < w0Nest.count; ++level) {
    if (const uint64_t got = readField(words, LleField::ComputeLimitW0, level); got != 0) {
      if (got != positions - 1 || ++counting > 1) {
        refuse(packet, "ComputeLimitW0[" + std::to_string(level) + "] = " + std::to_string(got) + " in the element-wise form over " +
                           std::to_string(positions) + " positions (want " + std::to_string(positions - 1) +
                           " at one level, 0 at the others)");
      }
    }
  }
  if (positions > 1 && counting == 0) {
    refuse(packet, "no level of ComputeLimitW0 counts the " + std::to_string(positions) + " positions of the element-wise form");
  }
  refuseOtherLanesOrPrefix(packet, 0, 0, "element-wise compute: 4 lanes, no parameter prefix");
  const uint64_t outputAt = readField(words, LleField::ComputeOutputAt);
  const auto [zpIn, zpOut, mult, lo, hi] = readEpilogue(packet, true);
  // Each lane's sum takes the packet's addend before the multiplier ("eltw12" §A: the two-input ADDs'
  // -(za Wa + zb Wb); 0 in the single-input programs).
  const int32_t bias = readComputeBias(words);
  // The positions' 4-byte groups: each tile's narrow memory from the decoded input address
  // (ComputeInputAt4 x 4, docs/decoding-log.md "identform" §B), the bytes this run wrote there.
  const uint64_t inputAt = readField(words, LleField::ComputeInputAt4) * 4;
  const uint64_t inputBytes = kGroupBytes * positions;
  // No parameter row comes with this form: the per-tensor multiplier is the whole scale (docs/isa.md
  // §4.2 "the whole s_in s_w / s_out for per-tensor layers"), so each lane's scale is 1.
  const Requantizer requant(1.0f, mult, lo, hi, zpOut, config_.requantRounding);
  // With ComputeNluApply the clamped value is the tile's table's x and each result is 16 bits
  // (docs/decoding-log.md "nlu"); the corpus's table computes all carry output zero point 0.
  const bool nlu = readField(words, LleField::ComputeNluApply) != 0;
  const NluApplication applyTable(1.0f, mult, lo, hi);
  if (const std::string problem = sixteenBitResultsProblem(words); nlu && !problem.empty()) refuse(packet, problem);
  if (nlu && zpOut != 0) {
    refuse(packet, "ComputeNluApply with output zero point " + std::to_string(zpOut) +
                       " (ComputeZpOut): how a zero point enters a table's 16-bit result is not decoded");
  }
  const uint64_t resultBytes = nlu ? NluApplication::kResultBytes : 1;
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t))) continue;
    TileState& tile = tiles_[t];
    if (!tile.keptRead || tile.keptRead->size() != kElementWiseBlockBytes) {
      refuse(packet, "tile " + std::to_string(t) + " of the element-wise compute holds no 16-byte weight block kept by a 0x13");
    }
    refuseAnotherStream(packet, t);
    if (nlu && !tile.nlu) {
      refuse(packet, "tile " + std::to_string(t) + " applies an NLU table (ComputeNluApply) but no 0x19 loaded one since reset");
    }
    // Lane c's weights are bytes 4c .. 4c + 3 of the block, int8 (the prologue's identity is 1 on
    // its diagonal, 0 elsewhere: no weight offset, unlike Dense's 128). Which index of the block
    // is the lane and which the input byte is not decoded: the identity is symmetric. The read's
    // second level (keptReadRepeats: the raw programs read the block twice) passes over the same
    // bytes again; what a second pass adds is not decoded and not modelled.
    if (const auto missing = tile.narrowSram.firstUnwritten(inputAt, inputBytes)) {
      refuse(packet, "tile " + std::to_string(t) + " holds no input byte at narrow address " + std::to_string(*missing) + " of the " +
                         std::to_string(inputBytes) + " its " + std::to_string(positions) + " positions read from ComputeInputAt4 x 4 = " +
                         std::to_string(inputAt));
    }
    const auto input = tile.narrowSram.read(inputAt, inputBytes);
    const std::vector<uint8_t> x(input.begin(), input.end());
    const std::vector<uint8_t> block = std::move(*tile.keptRead);
    tile.keptRead.reset();  // the compute consumes it
    std::vector<uint8_t> results(inputBytes * resultBytes);
    for (uint64_t p = 0; p < positions; ++p) {
      for (unsigned c = 0; c < kGroupBytes; ++c) {
        int32_t acc = bias;
        for (unsigned k = 0; k < kGroupBytes; ++k) {
          acc += (int32_t{x[kGroupBytes * p + k]} - zpIn) * int32_t{static_cast<int8_t>(block[kGroupBytes * c + k])};
        }
        const uint64_t at = (kGroupBytes * p + c) * resultBytes;
        if (nlu) {
          // Little-endian, as every multi-byte value of the packets (the order is not decoded).
          const uint16_t value = applyTable(*tile.nlu, acc);
          results[at] = static_cast<uint8_t>(value);
          results[at + 1] = static_cast<uint8_t>(value >> 8);
        } else {
          results[at] = requant(acc);
        }
      }
    }
    macs_ += uint64_t{kGroupBytes} * inputBytes;
    // Four lanes per position, one after the other from the decoded output address (2 bytes each
    // through a table).
    if (!tile.narrowSram.write(outputAt, results)) {
      refuse(packet, "the results of tile " + std::to_string(t) + " at narrow address " + std::to_string(outputAt) +
                         " (ComputeOutputAt) leave its " + std::to_string(tile.narrowSram.capacity()) + "-byte narrow memory");
    }
    if (config_.lleComputeObserver) {
      const uint64_t positionBytes = kGroupBytes * resultBytes;
      std::vector<uint64_t> at(positions);
      for (uint64_t p = 0; p < positions; ++p) at[p] = outputAt + p * positionBytes;
      config_.lleComputeObserver->computed(packet, t, ComputeWrite{ComputeForm::kElementWise, static_cast<unsigned>(positionBytes), at, results});
    }
  }
}

// The staging window on `tile` that `reader`'s input address names (staging_window.h), the latest first;
// null when none. The reader's input ring (ComputeInputRingBytes, two image rows) names the second row's half.
StagingWindow* LleRung::windowNamedBy(unsigned tile, const DecodedPacket& reader) {
  const uint64_t unit = readField(reader.words, LleField::ComputeInputAt4);
  const uint64_t ringHalfUnits =
      readField(reader.words, LleField::ComputeInputRingOn) != 0 ? readField(reader.words, LleField::ComputeInputRingBytes) / 8 : 0;
  auto& windows = tiles_[tile].windows;
  for (auto w = windows.rbegin(); w != windows.rend(); ++w) {
    if (w->isNamedBy(unit, ringHalfUnits)) return &*w;
  }
  return nullptr;
}

// True when every tile of a one-byte-element compute has a filled window its input address names.
bool LleRung::identityWindowFilled(const DecodedPacket& packet) {
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t))) continue;
    const StagingWindow* window = windowNamedBy(t, packet);
    if (window && window->hasUnreadPass()) continue;
    if (!window && isRingIdentityCopy(packet) && ringRowWrittenInPlace(packet, t)) continue;
    return false;
  }
  return true;
}

// The convolution compute (docs/decoding-log.md "convmac", "conv32run" §C): conv_compute.h's three
// nests over the tile's narrow memory -- the padded grid the identity copies and the mesh halo wrote --
// and its weight groups. Every tile of the mask must have armed the weight stream (its last looping
// execution-only receive, on the compute's stream tag, of N transfers); N must be the reduction (one
// weight group a tap). The
// groups come from the parameter rows the parameter-caching run left in wide memory: the tile's own,
// or, where only one tile holds them (conv 32^2: the PC receive and pop name tile 0 alone), that
// tile's, which the stream carries to every tile -- which packet sends them is not decoded (no 0x10
// or 0x13 carries the compute's stream tag), so a program with several holders is refused.
void LleRung::computeConvolution(const DecodedPacket& packet, std::optional<FedWeights> fed) {
  refuseUnexecutedBias(packet);
  const ConvCompute conv = [&] {
    ConvCompute c = ConvCompute::fromPacket(packet.words);
    // A host stream's output blocks over one K pass lie side by side in wide memory where they include the receive's
    // level 1 ("bias14"), else one after another, each its prefix then its groups (stream_block_layout.h, "dec17").
    const auto first = static_cast<unsigned>(std::countr_zero(packet.tileMask));
    if (first < tiles_.size() && weightStreams_[first] && weightStreams_[first]->opcode == 0x11) {
      (weightStreams_[first]->blocksSideBySide ? c.sideBySideBlocks : c.streamBlocks) = weightStreams_[first]->blocks;
    }
    // A 0x12's blocks lie one after another in its rows, each its prefix then its groups (conv_compute.h, "dec16").
    if (first < tiles_.size() && weightStreams_[first] && weightStreams_[first]->opcode == 0x12) c.streamBlocks = weightStreams_[first]->blocks;
    return c;
  }();
  if (const std::string why = conv.unsupported(); !why.empty()) refuse(packet, "the convolution compute: " + why);
  // The form walks Nest37 / Nest29's seven levels; its w0 nest, levels 4-6 included, must count their iterations.
  if (const std::string why = w0NestCountProblem(packet.words); !why.empty()) refuse(packet, "the convolution compute: " + why);
  // Passes of the whole walk (ComputeLimitW0Level7, whole_walk_passes.h) read one block of the stream each.
  const uint64_t weightBytes = conv.passes * conv.blocks() * conv.prefixBytes() + conv.streamGroups() * conv.groupBytes();
  const TileState* onlyHolder = nullptr;
  unsigned holders = 0;
  for (const TileState& tile : tiles_) {
    if (tile.wide.holds(0, weightBytes)) {
      ++holders;
      onlyHolder = &tile;
    }
  }
  // No tile, or several, hold the weights at wide address 0 and the stream is an execution-only 0x11's: the weights are
  // the rows the weight-feed send after the compute reads (Dma10Channel, "split2" §B). The chip's compute waits for its
  // stream; the rung runs it when that send names them, taking the streams the feeding pop expects now. Several holders
  // are the same wait even where each tile of the compute holds bytes at its own wide address 0: every tile of the feed's
  // pop takes the one sender's rows over the ring, and a tile's own rows 0.. may be another layer's (the 16-channel
  // PoseNet decoders: tiles 0 and 2 hold Conv2d_2's / Conv2d_12's parameters where the send of Conv2d_1's comes from
  // tile 1, docs/decoding-log.md "feed2"; looming's two convolutions, "loom35" §D). One holder names its source; the
  // send's checks (drainWeightFeed) then hold it to that tile and row.
  const auto first = static_cast<unsigned>(std::countr_zero(packet.tileMask));
  if (!fed && holders != 1 && first < tiles_.size() && weightStreams_[first] && weightStreams_[first]->opcode == 0x11) {
    ConvolutionAwaitingFeed& waiting = parkConvolution(convolutionsAwaitingFeedSend_, packet, "weight-feed send");
    for (unsigned t = 0; t < tiles_.size(); ++t) {
      if (!(packet.tileMask & (1u << t))) continue;
      if (!weightStreams_[t]) continue;  // refused when the compute runs
      waiting.streams[t] = weightStreams_[t];
      streamsAwaitingFeed_[t] = *weightStreams_[t];
      weightStreams_[t].reset();
    }
    return;
  }
  // A 0x12 stream's rows come with the weight broadcast after the compute: it waits for it (lle_rung_broadcast_wait.cc).
  if (!fed && first < tiles_.size() && weightStreams_[first] && weightStreams_[first]->opcode == 0x12) {
    awaitWeightBroadcast(packet);
    return;
  }
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t))) continue;
    const uint64_t tag = readField(packet.words, LleField::ComputeStreamTag);
    if (!weightStreams_[t] || weightStreams_[t]->tag != tag) {
      refuse(packet, "tile " + std::to_string(t) + " of the convolution compute (ComputeStreamTag " + std::to_string(tag) +
                         ") armed no weight stream on that tag (a looping execution-only 0x11 or a 0x12: Recv11ExecStream, Recv12Stream)");
    }
    const WeightStream stream = *weightStreams_[t];
    weightStreams_[t].reset();
    streamsAwaitingFeed_[t] = stream;
    // Passes of the whole walk (ComputeLimitW0Level7) take one block of the stream each ("wrap10": 2,096 / 2,096 tile-feeds).
    if (stream.blocks != conv.streamOutputBlocks()) {
      refuse(packet, "the weight stream armed at PC 0x" + isa::formatAddress(stream.pc) + " on tile " + std::to_string(t) + " carries " +
                         std::to_string(stream.blocks) +
                         " output blocks (a 0x12's levels 2-3, or Stage14StreamPrefixBlocks + 1 of the compute-feeding write after it), the " +
                         "convolution's weight nest counts " + std::to_string(conv.blocks()) + " above its K groups, times " +
                         std::to_string(conv.passes) + " passes (ComputeLimitW0Level7 + 1)");
    }
    // Less the iterations a shorter last K pass drops (ConvCompute::droppedIterations, "smx"): the stream is that short.
    if (stream.transfers != conv.streamGroups()) {
      refuse(packet, "the weight stream armed at PC 0x" + isa::formatAddress(stream.pc) + " on tile " + std::to_string(t) + " carries " +
                         std::to_string(stream.transfers) + " transfers (" +
                         (stream.opcode == 0x12 ? "Recv12Run + 1, times its repeats, less Recv12LastShort" : "Recv11ExecRun + 1, times its repeats, less Recv11ExecLastShort") +
                         "), the convolution "
                         "reduces over " + std::to_string(conv.reduction()) + " weight groups in each of " +
                         std::to_string(conv.streamOutputBlocks()) + " output blocks" +
                         (conv.droppedIterations ? ", less " + std::to_string(conv.droppedIterations) + " its shorter last K pass drops" : ""));
    }
    // Several output blocks of a host stream (a 0x11, whose write names them: "bias14") are read from wide memory over
    // one K pass, side by side or one after another (stream_block_layout.h); any other layout is not decoded: refused.
    if (stream.opcode == 0x11 && stream.blocks > 1 &&
        (stream.blocksSideBySide ? conv.sideBySideBlocks : conv.streamBlocks) != stream.blocks) {
      refuse(packet, "the weight stream armed at PC 0x" + isa::formatAddress(stream.pc) + " on tile " + std::to_string(t) + " carries " +
                         std::to_string(stream.blocks) + " output blocks from the host (a 0x11, Stage14StreamPrefixBlocks + 1): where each "
                         "block's prefix and weight groups lie in wide memory is not decoded");
    }
    // Both layouts are read over one K pass; a host stream's blocks over several K passes (the receive's level 1
    // counting K parts) are not decoded, as before "dec17": refused, not read as a 0x12's ("ring128").
    // A level-7 pass of one K pass reads its block as one K pass does (the passes are the blocks); one whose reduction is
    // split into K passes (onePassSplit) is the same unread layout.
    const bool plainPasses = conv.passes > 1 && !conv.onePassSplit();
    if (const auto split = conv.splitReduction(); stream.opcode == 0x11 && stream.blocks > 1 && !plainPasses && (!split || split->groups != 1)) {
      refuse(packet, "the weight stream armed at PC 0x" + isa::formatAddress(stream.pc) + " on tile " + std::to_string(t) + " carries " +
                         std::to_string(stream.blocks) + " output blocks from the host (a 0x11) over several K passes: where each "
                         "block's K parts lie in wide memory is not decoded");
    }
    // A 0x12 stream that opens with one prefix array where the compute names none (ComputeParamPrefix 0: the
    // gabor templates): that array is the per-lane u32 weight offset ("bcast10" §D; corpus-fitted).
    const uint64_t unreadPrefixBytes = stream.opcode == 0x12 && conv.prefix == 0 && stream.prefixArrays == 1 ? conv.groupBytes() : 0;
    if (stream.opcode == 0x12 && unreadPrefixBytes == 0 && stream.prefixArrays * conv.groupBytes() != conv.prefixBytes()) {
      refuse(packet, "the weight stream armed at PC 0x" + isa::formatAddress(stream.pc) + " on tile " + std::to_string(t) +
                         " opens with " + std::to_string(stream.prefixArrays) + " prefix arrays (Recv12PrefixBytes8 / " +
                         std::to_string(kPrefixUnits8PerRow) + "), the convolution's ComputeParamPrefix " +
                         std::to_string(conv.prefix) + " reads " + std::to_string(conv.prefixBytes() / conv.groupBytes()) +
                         ": where the other arrays go is not decoded (822 of the 825 corpus 0x12 streams agree; the gabor "
                         "templates' carry one the compute does not read)");
    }
    refuseOffsetPrefixDisagreeing(packet, t, stream, (conv.prefix & 2) != 0 || unreadPrefixBytes != 0);
    TileState& tile = tiles_[t];
    if (stream.opcode == 0x12) {
      // A 0x12 stream carries one 256-byte row a beat (the weight broadcast, "bcast10" §B): its prefix arrays,
      // then one weight group a transfer, each at lane 0 of its row of the holding tile's wide memory.
      ConvCompute streamConv = conv;
      streamConv.streamOffsetArray = unreadPrefixBytes != 0;
      const std::vector<uint8_t> groups = weightRowsOfStream(packet, t, stream, conv, fed);
      uint64_t undefined = 0;
      if (const std::string why = runConvCompute(streamConv, tile.narrowSram, groups, config_.requantRounding, macs_, &undefined); !why.empty()) {
        refuse(packet, "the convolution compute on tile " + std::to_string(t) + ": " + why);
      }
      noteUndefinedOutputs(packet, t, undefined);
      if (config_.lleComputeObserver) reportConvolutionWrite(packet, t, conv);
      continue;
    }
    if (fed && fed->hostRows) {
      // The host's pop carried the stream (lle_rung_host_stream.cc): row r of it is the pop's bytes [w r, w r + w), w its
      // bytes a row (256, or a part row's 64 x PopRowQuarters: "dense45"), its group at lane 0, as a 0x12 stream's rows
      // are ("bcast" §B): the prefix arrays, then one weight group a transfer. A group wider than the part is refused.
      const std::vector<uint8_t>& rows = (*fed->hostRows)[t];
      const uint64_t rowBytes = fed->hostRowBytes;
      if (conv.groupBytes() > rowBytes) {
        refuse(packet, "the host's pop carries " + std::to_string(rowBytes) + " bytes of each row of tile " + std::to_string(t) +
                           "'s weight stream (PopRowQuarters), the convolution's groups are " + std::to_string(conv.groupBytes()) +
                           " bytes (its lanes x 4): the rest of the row is not carried");
      }
      if (stream.prefixArrays * conv.groupBytes() != conv.prefixBytes() || rows.size() != stream.rows() * rowBytes) {
        refuse(packet, "the host's pop carries " + std::to_string(rows.size()) + " bytes of tile " + std::to_string(t) +
                           "'s weight stream armed at PC 0x" + isa::formatAddress(stream.pc) + " (" + std::to_string(stream.prefixArrays) +
                           " prefix arrays, " + std::to_string(stream.transfers) + " transfers); the convolution's prefix is " +
                           std::to_string(conv.prefixBytes()) + " bytes of " + std::to_string(conv.groupBytes()) + "-byte groups: not decoded");
      }
      std::vector<uint8_t> groups;
      groups.reserve(stream.rows() * conv.groupBytes());
      for (uint64_t r = 0; r < stream.rows(); ++r) groups.insert(groups.end(), rows.begin() + static_cast<std::ptrdiff_t>(r * rowBytes),
                                                                  rows.begin() + static_cast<std::ptrdiff_t>(r * rowBytes + conv.groupBytes()));
      if (const std::string why = runConvCompute(conv, tile.narrowSram, groups, config_.requantRounding, macs_); !why.empty()) {
        refuse(packet, "the convolution compute on tile " + std::to_string(t) + ": " + why);
      }
      if (config_.lleComputeObserver) reportConvolutionWrite(packet, t, conv);
      continue;
    }
    if (fed) {
      const uint64_t at = fed->row * kRowBytes;
      // Rows a part-row caching pop wrote carry the stream a part a row (part_row_stream.h, docs/decoding-log.md "conv7" §C:
      // model_conv's 7 x 7 convolutions, 128 bytes a row); a whole-row caching keeps it contiguous from the first row.
      const std::optional<std::vector<uint8_t>> spread = partRowStream(tiles_[fed->tile], fed->row, weightBytes, kRowBytes);
      if (!spread && !tiles_[fed->tile].wide.holds(at, weightBytes)) {
        refuse(packet, "tile " + std::to_string(fed->tile) + " does not hold the " + std::to_string(weightBytes) + " parameter bytes at wide row " +
                           std::to_string(fed->row) + " its weight-feed send reads (Dma10Channel), contiguous or a part row each");
      }
      streamsAwaitingFeed_[t]->weightTile = fed->tile;
      streamsAwaitingFeed_[t]->weightBytes = weightBytes;
      const std::span<const uint8_t> rows = spread ? std::span<const uint8_t>(*spread)
                                                   : std::span<const uint8_t>(tiles_[fed->tile].wide.at(at), std::max(weightBytes, fed->bytes));
      uint64_t undefined = 0;
      if (const std::string why = runConvCompute(conv, tile.narrowSram, rows, config_.requantRounding, macs_, &undefined); !why.empty()) {
        refuse(packet, "the convolution compute on tile " + std::to_string(t) + ": " + why);
      }
      noteUndefinedOutputs(packet, t, undefined);
      if (config_.lleComputeObserver) reportConvolutionWrite(packet, t, conv);
      continue;
    }
    const TileState* source = tile.wide.holds(0, weightBytes) ? &tile : (holders == 1 ? onlyHolder : nullptr);
    if (!source) {
      refuse(packet, "tile " + std::to_string(t) + ": " + std::to_string(holders) + " tiles hold the " + std::to_string(weightBytes) +
                         " parameter bytes the convolution reads from wide address 0, this one not; which one the weight stream "
                         "carries them from is not decoded");
    }
    streamsAwaitingFeed_[t]->weightTile = static_cast<unsigned>(source - tiles_.data());
    streamsAwaitingFeed_[t]->weightBytes = weightBytes;
    const std::span<const uint8_t> wide(source->wide.at(0), weightBytes);
    uint64_t undefined = 0;
    if (const std::string why = runConvCompute(conv, tile.narrowSram, wide, config_.requantRounding, macs_, &undefined); !why.empty()) {
      refuse(packet, "the convolution compute on tile " + std::to_string(t) + ": " + why);
    }
    noteUndefinedOutputs(packet, t, undefined);
    if (config_.lleComputeObserver) reportConvolutionWrite(packet, t, conv);
  }
}

// Where the compute says its weight offset array sits (lle_fields.def ComputeOffsetPrefix*, docs/decoding-log.md
// "p4w14"): with an offset array -- ComputeParamPrefix bit 1, or gabor's unnamed array -- ComputeOffsetPrefixLast is
// the last 256-byte unit of the stream's prefix (its receive's PrefixLast64 / 4); without one all three numbers are 0.
// The convolution reads the offsets from the stream's bytes, so First and Count (not decoded) are not read.
void LleRung::refuseOffsetPrefixDisagreeing(const DecodedPacket& packet, unsigned t, const WeightStream& stream, bool offsetArray) const {
  const auto words = packet.words;
  const uint64_t last = readField(words, LleField::ComputeOffsetPrefixLast);
  const uint64_t count = readField(words, LleField::ComputeOffsetPrefixCount);
  const uint64_t first = readField(words, LleField::ComputeOffsetPrefixFirst);
  const std::string receive = stream.opcode == 0x12 ? "Recv12PrefixLast64" : "Recv11PrefixLast64";
  if (offsetArray && last != stream.prefixLast64 / kPrefixUnits64PerRow) {
    refuse(packet, "ComputeOffsetPrefixLast (word 14 bits 105:94) = " + std::to_string(last) + " on tile " + std::to_string(t) +
                       ": the weight stream armed at PC 0x" + isa::formatAddress(stream.pc) + " ends its prefix at " + receive + " " +
                       std::to_string(stream.prefixLast64) + " / " + std::to_string(kPrefixUnits64PerRow) + " = " +
                       std::to_string(stream.prefixLast64 / kPrefixUnits64PerRow) +
                       ": an offset array anywhere else is not decoded");
  }
  if (!offsetArray && (last | count | first) != 0) {
    refuse(packet, "ComputeOffsetPrefixFirst / Count / Last (word 14 bits 127:94, word 15 bits 1:0) = " + std::to_string(first) + ", " +
                       std::to_string(count) + ", " + std::to_string(last) +
                       " where the convolution's prefix carries no weight offset array: never seen (0 in all 7,875 such corpus computes)");
  }
}

// Each output position's lanes side by side from its unit (conv_compute.cc's writeOutput). A split
// reduction's output blocks of one position that lie side by side (RingCanary's two 64-lane halves of 128
// channels, docs/decoding-log.md "ring128") are reported as one position of all their lanes, as the layer holds them.
void LleRung::reportConvolutionWrite(const DecodedPacket& packet, unsigned t, const ConvCompute& conv) const {
  std::vector<uint64_t> at = positionAddresses(conv.output, 1);
  unsigned bytesPerPosition = conv.lanes;
  if (const uint64_t blocks = conv.blocks(); blocks > 1 && at.size() % blocks == 0) {
    const size_t positions = at.size() / blocks;
    bool sideBySide = true;
    for (size_t p = 0; p < positions; ++p) {
      for (uint64_t b = 1; b < blocks; ++b) sideBySide = sideBySide && at[b * positions + p] == at[p] + b * conv.lanes;
    }
    if (sideBySide) {
      at.resize(positions);
      // A partial last block (the last pass, "dec16") holds its k units, not all the lanes.
      bytesPerPosition = static_cast<unsigned>(conv.lanes * (blocks - 1) + 4 * conv.unitsOfOutput(conv.outputs() - 1));
      reportComputeWrite(*config_.lleComputeObserver, packet, t, ComputeForm::kConvolution, bytesPerPosition, at, tiles_[t].narrowSram);
      return;
    }
  }
  // Positions of a partial pass (its last iteration, "dec16") hold fewer units; a report has one size a position, so
  // they are left out here (in the corpus the partial pass is always a side-by-side last block, reported above).
  if (conv.partialUnits != 0) at.resize(at.size() - at.size() / (conv.output.limits[conv.partialLevel] + 1));
  reportComputeWrite(*config_.lleComputeObserver, packet, t, ComputeForm::kConvolution, bytesPerPosition, at, tiles_[t].narrowSram);
}

// The weight groups a 0x12 stream carries to tile t's convolution: row r of the stream is the sender's wide row
// Dma10Channel + r ("bcast" §B), its group at lane 0: the prefix arrays, then the weight groups. The broadcast's sender
// (`fed`) holds them; without one (a compute run directly) the one tile holding rows 0.. (the tile itself first).
std::vector<uint8_t> LleRung::weightRowsOfStream(const DecodedPacket& packet, unsigned t, const WeightStream& stream, const ConvCompute& conv,
                                                 std::optional<FedWeights> fed) {
  const uint64_t rows = stream.rows();
  const uint64_t groupBytes = conv.groupBytes();
  const uint64_t firstRow = fed ? fed->row : 0;
  const auto holdsRowsFrom = [&](const TileState& tile, uint64_t from, uint64_t count) {
    for (uint64_t r = 0; r < count; ++r) {
      if (!tile.wide.holds((from + r) * kRowBytes, groupBytes)) return false;
    }
    return true;
  };
  const auto holdsRows = [&](const TileState& tile) { return holdsRowsFrom(tile, firstRow, rows); };
  if (fed && fed->broadcastParts) {
    // Several broadcasts carried the stream, one after another (lle_rung_broadcast_wait.cc): row r is the r-th row they
    // carried, each part from its sender's wide row Dma10Channel on.
    std::vector<uint8_t> groups;
    groups.reserve(rows * groupBytes);
    for (const BroadcastPart& part : *fed->broadcastParts) {
      if (!holdsRowsFrom(tiles_[part.tile], part.row, part.rows)) {
        refuse(packet, "tile " + std::to_string(t) + ": the weight broadcast's sender, tile " + std::to_string(part.tile) + ", does not hold the " +
                           std::to_string(part.rows) + " rows of " + std::to_string(groupBytes) + " bytes from wide row " +
                           std::to_string(part.row) + " (Dma10Channel) its part of the weight stream armed at PC 0x" +
                           isa::formatAddress(stream.pc) + " carries");
      }
      for (uint64_t r = 0; r < part.rows; ++r) {
        const uint8_t* row = tiles_[part.tile].wide.at((part.row + r) * kRowBytes);
        groups.insert(groups.end(), row, row + groupBytes);
      }
    }
    if (groups.size() != rows * groupBytes) {
      refuse(packet, "tile " + std::to_string(t) + ": the weight broadcasts carry " + std::to_string(groups.size() / groupBytes) +
                         " rows, the weight stream armed at PC 0x" + isa::formatAddress(stream.pc) + " takes " + std::to_string(rows));
    }
    streamsAwaitingFeed_[t]->weightTile = fed->tile;
    streamsAwaitingFeed_[t]->weightBytes = rows * kRowBytes;
    return groups;
  }
  if (fed && !holdsRows(tiles_[fed->tile])) {
    refuse(packet, "tile " + std::to_string(t) + ": the weight broadcast's sender, tile " + std::to_string(fed->tile) + ", does not hold the " +
                       std::to_string(rows) + " rows of " + std::to_string(groupBytes) + " bytes from wide row " + std::to_string(firstRow) +
                       " (Dma10Channel) the weight stream armed at PC 0x" + isa::formatAddress(stream.pc) + " carries");
  }
  std::optional<unsigned> source = fed ? std::optional<unsigned>(fed->tile) : holdsRows(tiles_[t]) ? std::optional<unsigned>(t) : std::nullopt;
  for (unsigned h = 0; h < tiles_.size() && !source; ++h) {
    if (!holdsRows(tiles_[h])) continue;
    for (unsigned other = h + 1; other < tiles_.size(); ++other) {
      if (holdsRows(tiles_[other])) {
        refuse(packet, "tile " + std::to_string(t) + ": several tiles hold the " + std::to_string(rows) +
                           " weight-stream rows; which one the stream carries them from is not decoded");
      }
    }
    source = h;
  }
  if (!source) {
    refuse(packet, "tile " + std::to_string(t) + ": no tile holds the " + std::to_string(rows) + " rows of " + std::to_string(groupBytes) +
                       " bytes the weight stream armed at PC 0x" + isa::formatAddress(stream.pc) + " carries");
  }
  streamsAwaitingFeed_[t]->weightTile = *source;
  streamsAwaitingFeed_[t]->weightBytes = rows * kRowBytes;
  std::vector<uint8_t> groups;
  groups.reserve(rows * groupBytes);
  for (uint64_t r = 0; r < rows; ++r) {
    const uint8_t* row = tiles_[*source].wide.at((firstRow + r) * kRowBytes);
    groups.insert(groups.end(), row, row + groupBytes);
  }
  return groups;
}

// The pop that feeds the weight streams (lle_fields.def PopStreamFeed, docs/decoding-log.md "conv32merge"
// §B): it follows the convolution compute in program order, which on the chip waits for its stream; the
// rung ran the compute at issue with the weights from the tile holding them, so the pop moves no bytes
// here. Each of its tiles must have a stream a convolution took and not yet fed, and the pop's ring bytes
// must be its transfers x 256 (2,304 = 9 taps in conv 32^2); anything else is refused.
void LleRung::feedWeightStreams(const DecodedPacket& packet, uint16_t tiles, uint64_t ringBytes) {
  if (readField(packet.words, LleField::PopStreamFeed) != 3 || readField(packet.words, LleField::PopIsInput) != 0) {
    refuse(packet, "PopStreamFeed (word 2 bits 60:59) = " + std::to_string(readField(packet.words, LleField::PopStreamFeed)) +
                       " with PopIsInput " + std::to_string(readField(packet.words, LleField::PopIsInput)) +
                       ": only 3 on a parameter-class pop is seen (the stream-feeding form)");
  }
  // The rows the feed carries (w0[103:96] + 1): its nested 0x27 repeats it. The same count is the pop's passes
  // over its 64-beat ring, the last one partial (feedingPopBeats, docs/decoding-log.md "rubens" §C): a ring of
  // 4,096 bytes is 16 taps x 256, a row 16 taps x 16 weight bytes.
  WeightFeed feed{packet.pc, readField(packet.words, LleField::PopBeatsHigh) + 1, std::nullopt, 0, 0, tiles};
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(tiles & (1u << t))) continue;
    if (!streamsAwaitingFeed_[t]) {
      refuse(packet, "tile " + std::to_string(t) + " of the stream-feeding pop (PopStreamFeed) has no weight stream a "
                     "convolution compute took and no pop fed yet");
    }
    // A prefixed stream carries its prefix arrays first, one 256-byte row each ("stride" §E).
    const WeightStream& fed = *streamsAwaitingFeed_[t];
    if (ringBytes != fed.rows() * kRowBytes) {
      refuse(packet, "the stream-feeding pop carries " + std::to_string(ringBytes) + " ring bytes (PopBeatsHigh/Low); tile " +
                         std::to_string(t) + "'s weight stream armed at PC 0x" + isa::formatAddress(fed.pc) + " has " +
                         std::to_string(fed.prefixArrays) + " prefix arrays" + (fed.blocks > 1 ? " for each of " + std::to_string(fed.blocks) + " blocks" : "") + " and " + std::to_string(fed.transfers) +
                         " transfers of " + std::to_string(kRowBytes) + " bytes: what the length counts otherwise is not decoded");
    }
    if (t == static_cast<unsigned>(std::countr_zero(tiles))) {
      feed.weightTile = fed.weightTile;
      feed.weightBytes = fed.weightBytes;
    } else if (feed.weightTile != fed.weightTile) {
      feed.weightTile.reset();  // streams whose weights came from different tiles: no one send carries them all
    }
    feed.weightBytes = std::max(feed.weightBytes, fed.weightBytes);
    streamsAwaitingFeed_[t].reset();
  }
  if (feedAwaitingOutfeed_) {
    refuse(packet, "a second stream-feeding pop while the one at PC 0x" + isa::formatAddress(feedAwaitingOutfeed_->popPc) +
                       " still waits for its nested outfeed (OutfeedNested): in the corpus each feeding pop has one before the next");
  }
  feedAwaitingOutfeed_ = feed;
}

void LleRung::runWindowReaders() {
  while (!windowReaders_.empty()) {
    windowReaders_.front().packet.words = windowReaders_.front().words;
    if (!identityWindowFilled(windowReaders_.front().packet)) return;
    DeferredCompute reader = std::move(windowReaders_.front());
    windowReaders_.pop_front();
    reader.packet.words = reader.words;
    if (isRingIdentityCopy(reader.packet)) {
      computeRingIdentityCopy(reader.packet);
    } else {
      computeIdentityCopy(reader.packet);
    }
  }
}

// While a one-byte-element compute waits for its window, a packet that reads what it will write
// (another compute, a staging read, an outfeed send) would read the grid before the copy: refused.
void LleRung::refuseWhileAWindowReaderWaits(const DecodedPacket& packet) const {
  if (windowReaders_.empty()) return;
  refuse(packet, "the compute at PC 0x" + isa::formatAddress(windowReaders_.front().packet.pc) +
                     " (one-byte input elements) still waits for the staging window its ComputeInputAt4 names, and this packet "
                     "would read narrow memory before it");
}

// The identity copy (docs/decoding-log.md "identcopy"): T x R positions (the w0 nest's levels 1 and 3,
// ComputeLimitW0[0] and [2]) of C one-byte channels each (the K loop). Row r takes the first C T bytes
// of the window's next pass; the position's 4-byte group (its channels, then bytes the zero point 0
// fills) is weighted by the block a kept 0x13 holds (the prologue's 4 x 4 identity), requantised with
// scale 1 and the packet's epilogue, and its four lanes go to the next unit of the output nest
// (output_nest.h; the interior of the convolution's padded grid, "gridcopy").
void LleRung::computeIdentityCopy(const DecodedPacket& packet) {
  const auto words = packet.words;
  // The K loop runs over a position's one-byte channels (C = ComputeK4W0 + 1: 1 in the convolutions, 3
  // in the depthwise sweep), which fill the position's 4-byte group from byte 0.
  const uint64_t channels = readField(words, LleField::ComputeK4W0) + 1;
  if (channels > kGroupBytes) {
    refuse(packet, "ComputeK4W0 = " + std::to_string(channels - 1) + " with 1-byte elements (ComputeInputBytes = 1): " +
                       std::to_string(channels) + " channels a position do not fit one 4-byte group");
  }
  // T positions of M lines of R passes (the w0 nest's levels 1-3; M > 1 in the stride-2 PoseNet /
  // DeepLab copies, docs/decoding-log.md "level2copy"), checked against the input nest at issue.
  const IdentityCopy copy = IdentityCopy::fromPacket(words);
  const uint64_t columns = copy.columns;
  const uint64_t rows = copy.rows;
  const uint64_t lines = copy.lines;
  const auto [zpIn, zpOut, mult, lo, hi] = readEpilogue(packet);
  if (zpIn != 0) {
    refuse(packet, "ComputeZpIn = " + std::to_string(zpIn) +
                       " with 1-byte elements: what fills the other three bytes of a position's 4-byte group is not decoded "
                       "(the corpus's identity computes have zero points 0)");
  }
  const uint64_t outputAt = readField(words, LleField::ComputeOutputAt);
  // The input's byte address is w1[80:63]: the unit ComputeInputAt4 names, from its byte
  // ComputeInputByte ("padform" §B); each row of the copy starts that far into its pass.
  const uint64_t firstByte = copy.firstByte;
  const OutputNest out = OutputNest::fromPacket(words, static_cast<int64_t>(outputAt / 4));
  if (outputAt % 4 != 0 || out.units() != columns * lines * rows) {
    refuse(packet, "the output nest (w5, Output37) from ComputeOutputAt = " + std::to_string(outputAt) + " covers " +
                       std::to_string(out.units()) + " 4-byte units; the compute has " + std::to_string(columns) + " x " +
                       std::to_string(lines) + " x " + std::to_string(rows) + " positions (ComputeLimitW0[0], [1], [2])");
  }
  const Requantizer requant(1.0f, mult, lo, hi, zpOut, config_.requantRounding);
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t))) continue;
    TileState& tile = tiles_[t];
    // The kept block: the 4 x 4 block, alone (16 bytes) or followed by 64 zero units (272 bytes: the
    // convolutions' prologue reads 68 units); the zeros would weight lanes the 4-byte unit does not hold.
    // The block kept under the compute's stream (ComputeStreamTag): the tile's last kept read, or an earlier one
    // on that stream with other reads kept since (conv 1024^2's later passes, docs/decoding-log.md "dma14" §D).
    const uint64_t tag = readField(packet.words, LleField::ComputeStreamTag);
    const auto onStream = tile.keptStreams.find(tag);
    const std::optional<std::vector<uint8_t>>& kept =
        tile.keptRead && tile.keptReadChannel == tag ? tile.keptRead
        : onStream != tile.keptStreams.end()        ? onStream->second
                                                    : tile.keptRead;
    const bool blockAlone = kept && kept->size() == kElementWiseBlockBytes;
    const bool blockAndZeros = kept && kept->size() == kElementWiseBlockBytes + kLanes * kGroupBytes &&
                               std::all_of(kept->begin() + kElementWiseBlockBytes, kept->end(), [](uint8_t b) { return b == 0; });
    if (!blockAlone && !blockAndZeros) {
      refuse(packet, "tile " + std::to_string(t) + " of the one-byte-element compute holds no kept 16-byte block (alone, or followed by " +
                         "256 zero bytes) from a 0x13");
    }
    if (&kept == &tile.keptRead) refuseAnotherStream(packet, t);
    if (!out.staysInside(tile.narrowSram.capacity() / 4)) {
      refuse(packet, "the output nest (w5, Output37) from ComputeOutputAt = " + std::to_string(outputAt) + " leaves the " +
                         std::to_string(tile.narrowSram.capacity()) + "-byte narrow memory of tile " + std::to_string(t));
    }
    // A step of 0 (the 2-byte bilinear computes carry it, not executed) or carries that come back would
    // write a unit twice: what the copy then leaves there is not decoded.
    if (out.revisitsAUnit()) {
      refuse(packet, "the output nest (w5, Output37; step ComputeOut37Step = " + std::to_string(out.strides[0]) +
                         ") writes some 4-byte unit twice: not decoded for the identity copy");
    }
    StagingWindow& window = *windowNamedBy(t, packet);  // identityWindowFilled() found it
    if (window.passesRead + rows > window.passBytes.size()) {
      refuse(packet, "tile " + std::to_string(t) + ": the staging window at unit " + std::to_string(window.firstUnit) + " (" +
                         std::to_string(window.units) + " units) holds " + std::to_string(window.passBytes.size()) + " passes, " +
                         std::to_string(window.passesRead) + " already read; this compute reads " + std::to_string(rows) + " more");
    }
    for (uint64_t r = 0; r < rows; ++r) {
      if (window.passBytes[window.passesRead + r].size() < copy.rowSpanBytes()) {
        refuse(packet, "tile " + std::to_string(t) + ": pass " + std::to_string(window.passesRead + r) + " of the staging window holds " +
                           std::to_string(window.passBytes[window.passesRead + r].size()) + " bytes, the row reads " +
                           std::to_string(copy.rowSpanBytes() - firstByte) + " from its byte " + std::to_string(firstByte));
      }
    }
    // The block stays in its stream for the layer's next copy: the later identity computes of a layer
    // name the same tag and have no read of their own (docs/decoding-log.md "w7ident" §C, Next (3)).
    // The convolutions' identity read that passes twice (Stage13Repeats 1) serving their two identity
    // computes ("conv32run" §C) is one case of it ("conv32merge" §A).
    const std::vector<uint8_t> block = *kept;
    copy.run(window, window.passesRead, block, requant, out, tile.narrowSram);
    if (config_.lleComputeObserver) {
      reportComputeWrite(*config_.lleComputeObserver, packet, t, ComputeForm::kIdentityCopy, kGroupBytes, positionAddresses(out, 1),
                         tile.narrowSram);
    }
    window.passesRead += rows;
    macs_ += uint64_t{kGroupBytes} * channels * columns * lines * rows;
  }
}

// ComputeInputLevelMoves has a bit per Nest37 level: set where the level moves the input address,
// clear where it reads the same input again (docs/decoding-log.md "ringconv" §A). Only the levels that
// count are checked -- a level run once moves nothing whatever its bit says; levels 4-6 too (the row
// walk's rows, conv 1024^2's level 4 with bit 4 set, docs/decoding-log.md "conv1024"). A disagreement would leave the bytes to depend on whether the bit gates the
// address or only describes it, which is not decoded: refused, naming the level.
void LleRung::refuseInputLevelMovesDisagreeingWithTheWalk(const DecodedPacket& packet, uint64_t elementBytes) const {
  const uint64_t moves = readField(packet.words, LleField::ComputeInputLevelMoves);
  const InputByteWalk walk = InputByteWalk::fromPacket(packet.words, elementBytes);
  for (unsigned level = 0; level < InputByteWalk::kLevels; ++level) {
    if (walk.limits[level] == 0) continue;
    const bool bit = ((moves >> level) & 1) != 0;
    if (bit != (walk.strideBytes[level] != 0)) {
      refuse(packet, "ComputeInputLevelMoves (word 3 bits 127:121) = " + std::to_string(moves) + " says level " + std::to_string(level) +
                         (bit ? " moves" : " does not move") + " the input, but the input nest's level " + std::to_string(level) +
                         " (limit " + std::to_string(walk.limits[level]) + ") steps " + std::to_string(walk.strideBytes[level]) +
                         " bytes: which one the hardware follows is not decoded");
    }
  }
}

// The identity copy's input walk (Nest37 in bytes, docs/decoding-log.md "convwire" §A): C one-byte
// channels (level 0), the row's T positions C bytes apart (level 1), M lines S bytes apart (level 2: once
// in the rubensrech sweep, the image rows of a pass in the stride-2 copies, "level2copy"), and R rows that
// all start where the first did (level 3 stride 0: each reads the staging window's next pass, which
// the window brings to the same units). Any other walk reads other bytes: refused at issue, naming
// the levels.
void LleRung::refuseOtherIdentityWalk(const DecodedPacket& packet) const {
  const IdentityCopy copy = IdentityCopy::fromPacket(packet.words);
  const uint64_t channels = copy.channels;
  const uint64_t columns = copy.columns;
  const uint64_t rows = copy.rows;
  const uint64_t lines = copy.lines;
  const InputByteWalk walk = InputByteWalk::fromPacket(packet.words, 1);
  // Level 2 counts the M lines of a pass (ComputeLimitW0[1]), each S >= 0 bytes after the last
  // (docs/decoding-log.md "level2copy" §A): a line before the pass's first byte is not a copy of it.
  const bool same = walk.limits[0] == channels - 1 && walk.limits[1] == columns - 1 && walk.limits[2] == lines - 1 &&
                    walk.limits[3] == rows - 1 && (columns == 1 || walk.strideBytes[1] == static_cast<int64_t>(channels)) &&
                    (lines == 1 || walk.strideBytes[2] >= 0) && (rows == 1 || walk.strideBytes[3] == 0);
  // The weight walk (Nest29 in bytes, docs/decoding-log.md "w7ident" §B): the position's C bytes at
  // level 0, then the same C bytes again for every position (level 1) and row (level 2) -- each slot's
  // carry -(C - 1) bytes, as in all 534 identity computes of the corpus; the copy weighs every position
  // by the one kept block. Another walk weighs positions by other bytes: not executed.
  const WeightByteWalk weights = WeightByteWalk::fromPacket(packet.words);
  const int64_t back = -static_cast<int64_t>(channels - 1);
  // Its level 2 counts the M lines of every row together (R M - 1, "w7ident" §B).
  const bool sameWeights = weights.limits[0] == channels - 1 && weights.limits[1] == columns - 1 && weights.limits[2] == rows * lines - 1 &&
                           weights.limits[3] == 0 &&
                           std::all_of(weights.carryBytes.begin(), weights.carryBytes.end(), [back](int64_t c) { return c == back; });
  if (!sameWeights) {
    std::string carries;
    for (const int64_t carry : weights.carryBytes) carries += (carries.empty() ? "" : ", ") + std::to_string(carry);
    refuse(packet, "the weight nest (Nest29 in bytes: ComputeK4W7, ComputeLimit29[0], [1], ComputeLimit29Level3; carries ComputeKWrapW7 / ComputeKWrap29 x 4 + "
                   "ComputeNest29CarryLow) has limits " + std::to_string(weights.limits[0]) + ", " + std::to_string(weights.limits[1]) + ", " +
                   std::to_string(weights.limits[2]) + ", " + std::to_string(weights.limits[3]) + " and slot carries (" + carries + ") bytes; the identity copy of " + std::to_string(rows) +
                   " rows of " + std::to_string(lines) + " lines of " + std::to_string(columns) + " positions of " + std::to_string(channels) +
                   " one-byte channels walks limits " + std::to_string(channels - 1) + ", " + std::to_string(columns - 1) + ", " +
                   std::to_string(rows * lines - 1) + ", 0 with every carry " +
                   std::to_string(back) + " (the same C weight bytes for every position)");
  }
  if (same) {
    refuseARowPastTheInputRing(packet, copy.rowSpanBytes());
    return;
  }
  std::string levels;
  for (unsigned i = 0; i < InputByteWalk::kLevels; ++i) {
    levels += (i ? ", " : "") + std::string("(") + std::to_string(walk.limits[i]) + ", " + std::to_string(walk.strideBytes[i]) + ")";
  }
  refuse(packet, "the input nest (Nest37 in bytes: ComputeK4W1, ComputeNest37Limit1, ComputePositions, ComputeNest37Limit3; carries "
                 "ComputePositionStep37 / ComputeInputBytesCode, ComputeNest37Carry1, ComputeKWrap37[0] / ComputeNest37CarryLow[0]) "
                 "walks (limit, stride in bytes) " + levels + "; the identity copy of " + std::to_string(rows) + " rows of " +
                 std::to_string(lines) + " lines of " + std::to_string(columns) + " positions of " + std::to_string(channels) +
                 " one-byte channels (ComputeK4W0, ComputeLimitW0[0], [1], [2]) walks (C - 1, 1), (T - 1, C), (M - 1, S >= 0), (R - 1, 0)");
}

// An identity copy at issue (one-byte or ring 4-byte): the stream it takes is known now, the read kept
// on its tiles (checked again when it runs); one issued before its window is filled, or behind another
// that waits, is kept in program order (windowReaders_) and run by runWindowReaders(). True if it waits.
bool LleRung::waitsForItsWindow(const DecodedPacket& packet) {
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if ((packet.tileMask & (1u << t)) && tiles_[t].keptRead) refuseAnotherStream(packet, t);
  }
  if (windowReaders_.empty() && identityWindowFilled(packet)) return false;
  DeferredCompute& waiting = windowReaders_.emplace_back();
  waiting.words.assign(packet.words.begin(), packet.words.end());
  waiting.packet = packet;
  return true;
}

// The stream a compute takes its kept operand from (ComputeStreamTag, docs/decoding-log.md "w7ident" §A):
// the tag its kept read entered (Stage13Channel, "form13" §D). A compute naming another stream takes
// bytes the rung does not hold (another read's, or a stream not modelled): refused, naming both tags.
void LleRung::refuseAnotherStream(const DecodedPacket& packet, unsigned tile) const {
  const uint64_t tag = readField(packet.words, LleField::ComputeStreamTag);
  if (tag != tiles_[tile].keptReadChannel) {
    refuse(packet, "ComputeStreamTag (word 7 bits 74:63) = " + std::to_string(tag) + " but tile " + std::to_string(tile) +
                       " holds the read kept in stream " + std::to_string(tiles_[tile].keptReadChannel) +
                       " (Stage13Channel): the compute takes another stream's bytes, which the rung does not hold");
  }
}

// The input ring (docs/decoding-log.md "convwire2" §A): where ComputeInputRingOn is set the input
// addresses presumably wrap in a ring of ComputeInputRingBytes bytes. An identity copy's row reads its
// first C x T bytes (every row the same, level 3 stride 0), so the wrap moves no byte while the row
// fits: a row that would reach past the ring's end is refused, as it would wrap where the rung reads on.
void LleRung::refuseARowPastTheInputRing(const DecodedPacket& packet, uint64_t rowBytes) const {
  if (readField(packet.words, LleField::ComputeInputRingOn) == 0) return;
  if (const uint64_t ring = readField(packet.words, LleField::ComputeInputRingBytes); rowBytes > ring) {
    refuse(packet, "the identity copy's row reads " + std::to_string(rowBytes) + " bytes of an input ring of " + std::to_string(ring) +
                       " (ComputeInputRingBytes, word 4 bits 18:3): the wrap past the ring's end is not executed");
  }
}

// Nest37's levels 4-6 run only in the convolution form (its position rows, conv_compute.h) and the walked
// element-wise form's row walk (lle_rung_eltwise_walk.cc, docs/decoding-log.md "conv1024").
void LleRung::refuseNest37HighLevels(const DecodedPacket& packet, const char* form) const {
  for (unsigned e = 0; e < fieldDef(LleField::ComputeNest37LimitHigh).count; ++e) {
    if (const uint64_t limit = readField(packet.words, LleField::ComputeNest37LimitHigh, e); limit != 0) {
      refuse(packet, "ComputeNest37LimitHigh[" + std::to_string(e) + "] (Nest37 level " + std::to_string(e + 4) + ") = " +
                         std::to_string(limit) + ": a loop " + form + " do" + (std::string(form).starts_with("the identity") ? "es" : "") +
                         " not run");
    }
  }
}

// Levels 4-6 of the weight nests (ComputeLimit29High, ComputeLimitW10High; docs/decoding-log.md "w8mid"): the
// image-window copies count positions and rows there (the walked element-wise form runs them, lle_rung_eltwise_walk.cc)
// and the convolution walks Nest29 at every level (conv_compute.h); a form that runs them once refuses them by name.
void LleRung::refuseWeightNestHighLevels(const DecodedPacket& packet, const char* form) const {
  for (const LleField field : {LleField::ComputeLimit29High, LleField::ComputeLimitW10High}) {
    for (unsigned e = 0; e < fieldDef(field).count; ++e) {
      if (const uint64_t limit = readField(packet.words, field, e); limit != 0) {
        refuse(packet, std::string(fieldDef(field).name) + "[" + std::to_string(e) + "] (level " + std::to_string(e + 4) + ") = " +
                           std::to_string(limit) + ": a loop of the weight nests " + form + " do" +
                           (std::string(form).starts_with("the Dense") ? "" : "es") + " not run");
      }
    }
  }
}

// The 4-byte forms (Dense, element-wise) walk Nest37 in 4-byte units at levels 0 and 2 (K groups,
// positions one unit apart); a level-1 or level-3 loop or a carry that is not a whole unit is a walk
// they do not execute (docs/decoding-log.md "convwire" §A): refused, naming the field.
void LleRung::refuseOtherGroupWalk(const DecodedPacket& packet, uint64_t positions) const {
  const auto words = packet.words;
  for (const LleField field : {LleField::ComputeNest37Limit1, LleField::ComputeNest37Limit3}) {
    if (const uint64_t limit = readField(words, field); limit != 0) {
      refuse(packet, std::string(fieldDef(field).name) + " = " + std::to_string(limit) +
                         " with 4-byte input elements: a loop the Dense and element-wise forms do not run (the convolution "
                         "form runs it on tiles that armed a weight stream, a looping execution-only 0x11)");
    }
  }
  refuseNest37HighLevels(packet, "the Dense and element-wise forms");
  for (unsigned e = 0; e < fieldDef(LleField::ComputeNest37CarryLow).count; ++e) {
    if (const uint64_t low = readField(words, LleField::ComputeNest37CarryLow, e); low != 0) {
      refuse(packet, "ComputeNest37CarryLow[" + std::to_string(e) + "] = " + std::to_string(low) +
                         " with 4-byte input elements: a carry that is not a whole 4-byte group");
    }
  }
  for (unsigned e = 0; e < fieldDef(LleField::ComputeNest29CarryLow).count; ++e) {
    if (const uint64_t low = readField(words, LleField::ComputeNest29CarryLow, e); low != 0) {
      refuse(packet, "ComputeNest29CarryLow[" + std::to_string(e) + "] = " + std::to_string(low) +
                         " with 4-byte input elements: a weight carry that is not a whole 4-byte group");
    }
  }
  for (const LleField field : {LleField::ComputeOut37Limit0, LleField::ComputeOut37Limit2}) {
    if (const uint64_t limit = readField(words, field); limit != 0) {
      refuse(packet, std::string(fieldDef(field).name) + " = " + std::to_string(limit) +
                         " with 4-byte input elements: the Dense and element-wise forms write one unit per position");
    }
  }
  if (const int64_t carry = readSigned(words, LleField::ComputeOut37Carry0); positions > 1 && carry != 1) {
    refuse(packet, "ComputeOut37Carry0 (word 5 bits 44:28) = " + std::to_string(carry) + " over " + std::to_string(positions) +
                       " positions: the element-wise form writes them one 4-byte unit apart");
  }
  // No Dense or element-wise compute the rung executes has an input ring or the one-byte walk's flag
  // ("convwire2" §A: the RingCanary convolutions and add_128_128 have the ring, not executed).
  for (const LleField field : {LleField::ComputeInputRingOn, LleField::ComputeInputRingBytes, LleField::ComputeByteWalkFlag}) {
    if (const uint64_t value = readField(words, field); value != 0) {
      refuse(packet, std::string(fieldDef(field).name) + " = " + std::to_string(value) +
                         " with 4-byte input elements: an input ring the Dense and element-wise forms do not execute");
    }
  }
  const InputByteWalk walk = InputByteWalk::fromPacket(words, kGroupBytes);
  if (positions > 1 && walk.strideBytes[2] != kGroupBytes) {
    refuse(packet, "the element-wise positions (ComputePositions = " + std::to_string(positions - 1) + ") step " +
                       std::to_string(walk.strideBytes[2]) + " bytes (ComputeNest37Carry1 = " +
                       std::to_string(readSigned(words, LleField::ComputeNest37Carry1)) + "); one 4-byte group is decoded");
  }
}

// The weight broadcast (lle_fields.def Dma10BroadcastRows, docs/decoding-log.md "bcast10"): a send between
// tiles with Dma10WeightFeed set carries the parameter rows one tile cached into the weight stream (0x12)
// of every tile it names, one 256-byte row a beat: the stream's prefix arrays, then its transfers. The
// convolution compute before it in program order ran with those rows, read from the holding tile's wide
// memory (computeConvolution), so here the rung checks that the send is that delivery -- from the tile
// the streams' weights came from, to tiles whose stream a convolution took and nothing fed yet, the
// stream's rows exactly -- and marks the streams fed. Anything else is refused, naming the field.
void LleRung::broadcastWeights(const DecodedPacket& packet) {
  const auto words = packet.words;
  if (!std::has_single_bit(packet.tileMask)) {
    refuse(packet, "weight broadcast (Dma10WeightFeed, word 3 bit 82, without Dma10ToOutfeed) from tiles " + tileList(packet.tileMask) +
                       ": one sending tile in all 907 corpus broadcasts");
  }
  if (readField(words, LleField::Dma10FeedLevelOn) != 1) {
    refuse(packet, "weight broadcast with Dma10FeedLevelOn (word 1 bits 85:82) = " + std::to_string(readField(words, LleField::Dma10FeedLevelOn)) +
                       ": only level 0 runs (1) in all 907 corpus broadcasts");
  }
  const unsigned sender = static_cast<unsigned>(std::countr_zero(packet.tileMask));
  const uint64_t rows = readField(words, LleField::Dma10BroadcastRows) + 1;
  const uint64_t tiles = readField(words, LleField::Dma10BroadcastTiles);
  if (tiles == 0) refuse(packet, "weight broadcast to no tile (Dma10BroadcastTiles, word 3 bits 98:83 = 0)");
  runConvolutionsAwaitingBroadcast(packet, sender, static_cast<uint16_t>(tiles));
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(tiles & (1u << t))) continue;
    if (awaitsMoreBroadcastRows(t)) continue;  // part of a stream that comes in several broadcasts (lle_rung_broadcast_wait.cc)
    if (!streamsAwaitingFeed_[t] || streamsAwaitingFeed_[t]->opcode != 0x12) {
      refuse(packet, "weight broadcast to tile " + std::to_string(t) + ", which has no 0x12 weight stream a convolution took and "
                     "nothing fed yet (Dma10BroadcastTiles, word 3 bits 98:83)");
    }
    const WeightStream& fed = *streamsAwaitingFeed_[t];
    if (fed.rowsBroadcastBefore + rows != fed.rows()) {
      refuse(packet, "weight broadcast of " + std::to_string(rows) + " rows (Dma10BroadcastRows + 1, word 0 bits 110:95) to tile " +
                         std::to_string(t) + ", whose weight stream armed at PC 0x" + isa::formatAddress(fed.pc) + " takes " +
                         std::to_string(fed.prefixArrays) + " prefix arrays" + (fed.blocks > 1 ? " for each of " + std::to_string(fed.blocks) + " blocks" : "") + " and " + std::to_string(fed.transfers) +
                         " transfers of one row: another row count is not decoded");
    }
    if (fed.weightTile != sender) {
      refuse(packet, "weight broadcast from tile " + std::to_string(sender) + " to tile " + std::to_string(t) +
                         ", whose convolution read its weights from " +
                         (fed.weightTile ? "tile " + std::to_string(*fed.weightTile) : std::string("no one tile")));
    }
    streamsAwaitingFeed_[t].reset();
  }
}

// A host-bound send (Dma10ToOutfeed, docs/decoding-log.md "dense2" §C) drains the outfeed (0x27) armed
// before it (the x86-64 compiles, Dense), or comes first, as in the aarch64 compiles and 327 other
// corpus pairs: then its bytes wait, in order, for the next 0x27. A send that is not host-bound is a
// ring send between tiles, whose net effect the rung models elsewhere (design note 18): it sends
// nothing to the host.
void LleRung::send(const DecodedPacket& packet) {
  if (readField(packet.words, LleField::Dma10ToOutfeed) == 0) {
    if (readField(packet.words, LleField::Dma10WeightFeed) != 0) {
      broadcastWeights(packet);
    } else {
      ringSend(packet);
    }
    return;
  }
  const uint64_t form = outfeedFormOf(packet);
  const bool weightFeed = readField(packet.words, LleField::Dma10WeightFeed) != 0;
  if (!outfeedArmed_.empty()) {
    const ArmedOutfeed armed = outfeedArmed_.front();
    // The weight feed's 0x27 is of the nested format; every other 0x27 the rung arms is of the line format.
    if (!armed.scalarWord && form != (armed.weightFeed ? kNestedOutfeedForm : kLineOutfeedForm)) {
      refuse(packet, outfeedFormMismatch(packet.pc, form));
    }
    if (armed.scalarWord) {
      if (weightFeed) refuse(packet, "Dma10WeightFeed (word 3 bit 82) set on a send that drains an outfeed to scalar memory (OutfeedPath 0)");
      if (form != kNestedOutfeedForm) refuse(packet, outfeedFormMismatch(packet.pc, form));
      // The send carries its read whole; the outfeeds armed before it take their rows from it in order and
      // the rest waits for the next ones ("loop27" §B). A read whose length is not known is the outfeed's.
      sendsWaiting_.push_back({sendBytes(packet, readLengthOf(packet).value_or(armed.bytes)), packet.pc, form, {}});
      pairScalarMemoryOutfeeds(packet);
      return;
    }
    outfeedArmed_.pop_front();
    if (armed.weightFeed) {
      if (!weightFeed) {
        refuse(packet, "the send drains the weight-feed outfeed armed for the pop at PC 0x" + isa::formatAddress(armed.weightFeed->popPc) +
                           " but Dma10WeightFeed (word 3 bit 82) is clear: set in all 789 corpus sends of that form");
      }
      drainWeightFeed(packet, *armed.weightFeed);
      return;
    }
    if (weightFeed) {
      refuse(packet, "Dma10WeightFeed (word 3 bit 82) set on a send that drains a host outfeed (OutfeedLines): clear in all 1,695 "
                     "corpus sends of that form");
    }
    std::vector<uint64_t> undefinedAt;
    const auto out = sendBytes(packet, armed.bytes, &undefinedAt);
    queueForHost(out, undefinedAt);
    return;
  }
  if (weightFeed) {
    refuse(packet, "Dma10WeightFeed (word 3 bit 82) set with no weight-feed outfeed (OutfeedNested) armed before the send: in the "
                   "corpus the nested 0x27 always comes first");
  }
  if (!std::has_single_bit(packet.tileMask)) {
    refuse(packet, "host-bound send from tiles " + tileList(packet.tileMask) + " (one tile expected)");
  }
  const std::optional<uint64_t> length = readLengthOf(packet);
  if (!length) {
    refuse(packet, "a host-bound send (Dma10ToOutfeed) before its outfeed from a one-line read: its length is the outfeed's, "
                   "not known yet");
  }
  std::vector<uint64_t> undefinedAt;
  std::vector<uint8_t> sent = sendBytes(packet, *length, &undefinedAt);
  sendsWaiting_.push_back({std::move(sent), packet.pc, form, std::move(undefinedAt)});
}

// The bytes a host-bound send's read carries, where the read says: a kept read's are the bytes it copied
// (Dma10ReadForm 0, 0), a staged read's its groups; a one-line read's length is its outfeed's.
std::optional<uint64_t> LleRung::readLengthOf(const DecodedPacket& send) const {
  if (!std::has_single_bit(send.tileMask)) return std::nullopt;
  const TileState& tile = tiles_[static_cast<unsigned>(std::countr_zero(send.tileMask))];
  if (tile.keptRead) return tile.keptRead->size();
  if (tile.stagedReadBytes == 0) return std::nullopt;
  return tile.stagedReadBytes;
}

// The outfeed format a host-bound send names (lle_fields.def Dma10OutfeedForm, docs/decoding-log.md
// "splitpad" §A): its two elements are equal in every corpus send, 2 for the line form, 1 for the
// nested one; anything else has never been seen.
uint64_t LleRung::outfeedFormOf(const DecodedPacket& send) const {
  const uint64_t low = readField(send.words, LleField::Dma10OutfeedForm, 0);
  const uint64_t high = readField(send.words, LleField::Dma10OutfeedForm, 1);
  if (low != high || (low != kLineOutfeedForm && low != kNestedOutfeedForm)) {
    refuse(send, "Dma10OutfeedForm (word 2 bits 93:92, 85:84) = " + std::to_string(high) + ", " + std::to_string(low) +
                     ": a host-bound send names 2, 2 (a line-form outfeed) or 1, 1 (the nested form) in every corpus send");
  }
  return low;
}

void LleRung::armOutfeed(const DecodedPacket& packet) {
  const bool nested = readField(packet.words, LleField::OutfeedNested) != 0;
  // The format again in word 1, and where the bytes go (lle_fields.def OutfeedLineFormat, OutfeedPath).
  if (const uint64_t line = readField(packet.words, LleField::OutfeedLineFormat); line != (nested ? 0u : 1u)) {
    refuse(packet, "OutfeedLineFormat (word 1 bit 100) = " + std::to_string(line) + " with OutfeedNested (word 0 bit 120) = " +
                       std::to_string(nested) + ": the two disagree in no corpus 0x27");
  }
  constexpr uint64_t kToHostWindow = 3, kToParameterRing = 1, kToScalarMemory = 0;
  const uint64_t path = readField(packet.words, LleField::OutfeedPath);
  if (!nested && path != kToHostWindow) {
    refuse(packet, "OutfeedPath (word 1 bits 46:45) = " + std::to_string(path) + " in a line-format 0x27: 3 (the host window) in all 1,146");
  }
  if (nested) {
    if (const std::string problem = OutfeedRows::of(packet.words).slotProblem(packet.words); !problem.empty()) refuse(packet, problem);
  }
  if (nested && path == kToScalarMemory) {
    armScalarMemoryOutfeed(packet);
    return;
  }
  if (nested && path != kToParameterRing) {
    refuse(packet, "OutfeedPath (word 1 bits 46:45) = " + std::to_string(path) + " in a nested 0x27: 1 (the weight feed) or 0 (scalar memory) in the corpus");
  }
  if (const uint64_t word = readField(packet.words, LleField::OutfeedScalarWord); nested && word != 0) {
    refuse(packet, "OutfeedScalarWord (word 0 bits 26:12) = " + std::to_string(word) + " in a weight feed: 0 in all 789 corpus feeds");
  }
  if (nested) {
    armWeightFeedOutfeed(packet);
    return;
  }
  const uint64_t bytes = outfeedBytes(packet);
  if (sendsWaiting_.empty()) {
    outfeedArmed_.push_back(ArmedOutfeed{bytes, std::nullopt, std::nullopt});
    return;
  }
  WaitingSend first = std::move(sendsWaiting_.front());
  sendsWaiting_.pop_front();
  if (first.outfeedForm != kLineOutfeedForm) refuse(packet, outfeedFormMismatch(first.pc, first.outfeedForm));
  // The outfeed moves whole 8-byte lines: a send of 4 (mod 8) bytes fills its last line half (outfeed_line_fill.h).
  if (!outfeedLinesCarry(bytes, first.bytes.size())) {
    refuse(packet, "the outfeed sends " + std::to_string(bytes) + " bytes (OutfeedLines), the host-bound send before it carried " +
                       std::to_string(first.bytes.size()) + " (not its bytes filled to whole 8-byte lines)");
  }
  const std::vector<uint8_t> waiting = filledToOutfeedLines(std::move(first.bytes), bytes);
  queueForHost(waiting, first.undefinedAt);
}

// The nested 0x27 to scalar data memory (OutfeedPath 0, docs/decoding-log.md "splitpad" §B, "scalar27",
// "loop27"): OutfeedLines + 1 4-byte groups of the host-bound sends (Dma10OutfeedForm 1, 1), taken in
// program order, land at data-memory word OutfeedScalarWord; the scalar program loads and streams them.
// A send may carry more than one such row: each 0x27 takes its row from the front of what the sends
// before it left, so a read larger than the scalar core's buffer reaches the host in rows of at most 16
// KiB (conv 500^2: 62,500 bytes a tile in rows of 4,096, 4,096, 4,096 and 3,337 groups). A row that
// stops inside a beat ends its send (the corpus's partial beats end a read); a row that repeats
// (OutfeedFeedRows) is not decoded for this path.
void LleRung::armScalarMemoryOutfeed(const DecodedPacket& packet) {
  if (const uint64_t repeats = readField(packet.words, LleField::OutfeedFeedRows); repeats != 0) {
    refuse(packet, "OutfeedFeedRows (word 0 bits 88:74) = " + std::to_string(repeats) + " in an outfeed to scalar memory: 0 in all 724 "
                   "corpus ones; where a repeated row lands is not decoded");
  }
  const OutfeedRows rows = OutfeedRows::of(packet.words);
  const auto word = static_cast<uint32_t>(readField(packet.words, LleField::OutfeedScalarWord));
  outfeedArmed_.push_back(ArmedOutfeed{rows.bytes(), std::nullopt, word, rows.wholeBeats()});
  pairScalarMemoryOutfeeds(packet);
}

// Pairs the armed outfeeds to scalar memory with the waiting sends' bytes, front to front, until one
// side runs out: each outfeed takes its row from the front of the oldest send.
void LleRung::pairScalarMemoryOutfeeds(const DecodedPacket& packet) {
  while (!outfeedArmed_.empty() && outfeedArmed_.front().scalarWord && !sendsWaiting_.empty()) {
    const ArmedOutfeed outfeed = outfeedArmed_.front();
    WaitingSend& send = sendsWaiting_.front();
    if (send.outfeedForm != kNestedOutfeedForm) refuse(packet, outfeedFormMismatch(send.pc, send.outfeedForm));
    if (!send.undefinedAt.empty()) {
      refuse(packet, "the outfeed to scalar memory takes the host-bound send at PC 0x" + isa::formatAddress(send.pc) + ", whose byte " +
                         std::to_string(send.undefinedAt.front()) + " was not written in this run: undefined bytes into scalar memory, "
                         "which the scalar program may compute with, are not modelled" + undefinedOrigin());
    }
    if (send.bytes.size() < outfeed.bytes) {
      refuse(packet, "the outfeed to scalar memory moves " + std::to_string(outfeed.bytes) + " bytes ((OutfeedLines + 1) x 4), the "
                     "host-bound send at PC 0x" + isa::formatAddress(send.pc) + " has " + std::to_string(send.bytes.size()) +
                     " left: a row spanning two sends is not seen in the corpus");
    }
    const auto row = std::span<const uint8_t>(send.bytes).first(outfeed.bytes);
    writeScalarMemory(*outfeed.scalarWord, row);
    if (send.bytes.size() == outfeed.bytes) {
      sendsWaiting_.pop_front();
    } else {
      if (!outfeed.endsOnABeat) {
        refuse(packet, "an outfeed row of " + std::to_string(outfeed.bytes / 4) + " groups ends inside a 256-byte beat and the send at "
                       "PC 0x" + isa::formatAddress(send.pc) + " carries " + std::to_string(send.bytes.size() - outfeed.bytes) +
                       " bytes more: in the corpus a partial beat ends its send; where the rest goes is not decoded");
      }
      send.bytes.erase(send.bytes.begin(), send.bytes.begin() + static_cast<std::ptrdiff_t>(outfeed.bytes));
    }
    outfeedArmed_.pop_front();
  }
}

void LleRung::writeScalarMemory(uint32_t firstWord, std::span<const uint8_t> bytes) {
  models::ScalarMemoryWrite write{firstWord, std::vector<uint32_t>((bytes.size() + 3) / 4, 0)};
  for (size_t i = 0; i < bytes.size(); ++i) write.words[i / 4] |= uint32_t{bytes[i]} << (8 * (i % 4));
  scalarWrites_.push_back(std::move(write));
}

// The nested 0x27 of the weight feed (lle_fields.def OutfeedNested / OutfeedFeedRows, docs/decoding-log.md
// "conv32end"): it comes after the stream-feeding pop, names the pop's rows again, and arms the path the
// holding tile's send takes back into the parameter ring. Any other nested 0x27 is a host-bound form
// whose nest is not decoded: refused.
void LleRung::armWeightFeedOutfeed(const DecodedPacket& packet) {
  if (!feedAwaitingOutfeed_) {
    refuse(packet, "a nested outfeed (OutfeedNested, word 0 bit 120) with no stream-feeding pop (PopStreamFeed) before it: only the "
                   "weight-feed form is decoded; the host-bound nested form's nest is not");
  }
  // The feed form's row: 64 4-byte units, one 256-byte beat (its line and beat fields checked with the slot), in 789 / 789.
  if (const uint64_t groups = OutfeedRows::of(packet.words).groups; groups != kOutfeedGroupsABeat) {
    refuse(packet, "OutfeedLines (word 0 bits 57:43) + 1 = " + std::to_string(groups) + " groups in a weight-feed outfeed: only " +
                       std::to_string(kOutfeedGroupsABeat) + " (a 256-byte row) is seen in the 789 corpus feeds");
  }
  const uint64_t rows = readField(packet.words, LleField::OutfeedFeedRows) + 1;
  if (rows != feedAwaitingOutfeed_->rows) {
    refuse(packet, "OutfeedFeedRows (word 0 bits 88:74) + 1 = " + std::to_string(rows) + " rows; the stream-feeding pop at PC 0x" +
                       isa::formatAddress(feedAwaitingOutfeed_->popPc) + " carries " + std::to_string(feedAwaitingOutfeed_->rows) +
                       " (its w0[103:96] + 1): equal in all 789 corpus feeds");
  }
  if (!sendsWaiting_.empty()) {
    refuse(packet, "a weight-feed outfeed after a host-bound send that waits for its 0x27: in the corpus the feed's send comes after it");
  }
  outfeedArmed_.push_back(ArmedOutfeed{rows * kRingBeatBytes, feedAwaitingOutfeed_, std::nullopt});
  feedAwaitingOutfeed_.reset();
}

// The send of the weight feed: one tile, the tile the convolutions read their weights from, its nest
// counting the feed's rows (Dma10Beats, 256 bytes each), and the weights inside them. Its bytes go to the
// parameter ring, which the rung does not model (the convolution read them at issue): nothing reaches
// the host. Its Dma10Channel is the wide row the send reads (docs/decoding-log.md "split2": a row its tile's caching
// run received in 789 / 789 corpus feed sends, 0 in 404): it must be the row the convolution read its weights from.
void LleRung::drainWeightFeed(const DecodedPacket& packet, WeightFeed feed) {
  if (!std::has_single_bit(packet.tileMask)) {
    refuse(packet, "weight-feed send from tiles " + tileList(packet.tileMask) + " (one tile expected)");
  }
  const auto index = static_cast<unsigned>(std::countr_zero(packet.tileMask));
  // The convolution that waited for this send runs now, its weights the rows the send reads ("split2").
  // Every convolution waiting on the pop's tiles takes this send's rows: one layer's computes split over disjoint tile
  // sets (parkConvolution refuses overlap), all on the one stream tag the pop feeds (docs/decoding-log.md "feed2").
  if (!convolutionsAwaitingFeedSend_.empty()) {
    const uint64_t row = readField(packet.words, LleField::Dma10Channel);
    while (!convolutionsAwaitingFeedSend_.empty()) {
      ConvolutionAwaitingFeed waiting = std::move(convolutionsAwaitingFeedSend_.front());
      convolutionsAwaitingFeedSend_.pop_front();
      if (const uint16_t outside = waiting.compute.packet.tileMask & ~feed.tiles; outside != 0) {
        refuse(packet, "the weight-feed send's pop at PC 0x" + isa::formatAddress(feed.popPc) + " feeds tiles " + tileList(feed.tiles) +
                           "; the convolution at PC 0x" + isa::formatAddress(waiting.compute.packet.pc) + " waiting for it also runs on tiles " +
                           tileList(outside) + " (in the corpus every waiting convolution's tiles are the pop's: 789 / 789 feeds)");
      }
      waiting.compute.packet.words = waiting.compute.words;
      std::swap(weightStreams_, waiting.streams);
      computeConvolution(waiting.compute.packet, FedWeights{index, row, feed.rows * kRowBytes});
      std::swap(weightStreams_, waiting.streams);
      const auto first = static_cast<unsigned>(std::countr_zero(waiting.compute.packet.tileMask));
      feed.weightBytes = std::max(feed.weightBytes, streamsAwaitingFeed_[first] ? streamsAwaitingFeed_[first]->weightBytes : uint64_t{0});
    }
    feed.weightTile = index;
    feed.weightRow = row;
    streamsAwaitingFeed_ = {};
  }
  if (const uint64_t tiles = readField(packet.words, LleField::Dma10ToTiles); tiles != 0) {
    refuse(packet, "the weight-feed send also goes to tiles " + tileList(static_cast<uint16_t>(tiles)) +
                       " (Dma10ToTiles, word 3 bits 98:83)");
  }
  if (readField(packet.words, LleField::Dma10ReadForm, 0) != 0 || readField(packet.words, LleField::Dma10ReadForm, 1) != 0) {
    refuse(packet, "Dma10ReadForm (word 1 bits 88, 86) set in a weight-feed send: clear in all 789 corpus feeds (it reads no 0x13)");
  }
  uint64_t beats = 1;
  for (unsigned level = 0; level < fieldDef(LleField::Dma10Beats).count && beats <= feed.rows; ++level) {
    beats *= readField(packet.words, LleField::Dma10Beats, level) + 1;
  }
  // Its rows one after the other: level 0 does not count, level 1 steps one row, wraps back and is marked
  // running (Dma10FeedStep1 / Dma10FeedWrap / Dma10FeedLevelOn, docs/decoding-log.md "rubens" §E); another
  // walk is not decoded.
  const uint64_t level1 = readField(packet.words, LleField::Dma10Beats, 1);
  bool consecutive = readField(packet.words, LleField::Dma10Beats, 0) == 0 &&
                     readField(packet.words, LleField::Dma10FeedStep1) == (level1 != 0 ? 1u : 0u) &&
                     readField(packet.words, LleField::Dma10FeedLevelOn) == (level1 != 0 ? 3u : 1u);
  for (unsigned slot = 0; slot < fieldDef(LleField::Dma10FeedWrap).count; ++slot) {
    consecutive = consecutive && readSigned(packet.words, LleField::Dma10FeedWrap, slot) == -static_cast<int64_t>(level1);
  }
  if (!consecutive) {
    refuse(packet, "the weight-feed send's nest (Dma10Beats[0] = " + std::to_string(readField(packet.words, LleField::Dma10Beats, 0)) +
                       ", Dma10FeedStep1 = " + std::to_string(readField(packet.words, LleField::Dma10FeedStep1)) +
                       ", Dma10FeedLevelOn = " + std::to_string(readField(packet.words, LleField::Dma10FeedLevelOn)) +
                       ", Dma10FeedWrap = " + std::to_string(readSigned(packet.words, LleField::Dma10FeedWrap, 0)) + ", " +
                       std::to_string(readSigned(packet.words, LleField::Dma10FeedWrap, 1)) +
                       ") does not walk its rows one after the other at level 1");
  }
  if (beats != feed.rows) {
    refuse(packet, "the weight-feed send's nest counts " + std::string(beats > feed.rows ? "at least " : "") + std::to_string(beats) +
                       " rows of 256 bytes (Dma10Beats); its outfeed (OutfeedFeedRows) and pop carry " + std::to_string(feed.rows));
  }
  if (!feed.weightTile) {
    refuse(packet, "the weight streams fed by the pop at PC 0x" + isa::formatAddress(feed.popPc) +
                       " took their weights from different tiles; one send cannot carry them all");
  }
  if (*feed.weightTile != index) {
    refuse(packet, "the weight-feed send comes from tile " + std::to_string(index) + "; the convolution read its weights from tile " +
                       std::to_string(*feed.weightTile) + "'s wide memory");
  }
  if (const uint64_t row = readField(packet.words, LleField::Dma10Channel); row != feed.weightRow) {
    refuse(packet, "the weight-feed send reads wide row " + std::to_string(row) + " (Dma10Channel, word 0 bits 73:62); the convolution read its " +
                       "weights from row " + std::to_string(feed.weightRow) + " of tile " + std::to_string(*feed.weightTile) + "'s wide memory");
  }
  if (feed.weightBytes > feed.rows * kRingBeatBytes) {
    refuse(packet, "the weight-feed send carries " + std::to_string(feed.rows * kRingBeatBytes) + " bytes; the convolution read " +
                       std::to_string(feed.weightBytes) + " weight bytes");
  }
}

// A send of the tile's kept read (Dma10ReadForm 0, 0): its bytes as the 0x13 copied them, in the
// stream the read entered, once; the send consumes them.
std::vector<uint8_t> LleRung::sendKeptRead(const DecodedPacket& packet, TileState& tile, unsigned index, uint64_t bytes) const {
  if (tile.keptReadFeedsNormalise) {
    refuse(packet, "the kept read of tile " + std::to_string(index) + " is kept for an opcode-0x02 / 0x03 compute (Stage13FeedsNormalise, "
                   "word 3 bit 109): a send taking it is never seen and not decoded");
  }
  if (const uint64_t channel = readField(packet.words, LleField::Dma10Channel); channel != tile.keptReadChannel) {
    refuse(packet, "the send takes stream " + std::to_string(channel) + " (Dma10Channel, word 0 bits 73:62); the kept read of tile " +
                       std::to_string(index) + " entered stream " + std::to_string(tile.keptReadChannel) +
                       " (Stage13Channel, word 2 bits 92:81)");
  }
  if (tile.keptReadRepeats != 0) {
    refuse(packet, "the kept read of tile " + std::to_string(index) + " repeats " + std::to_string(tile.keptReadRepeats + 1) +
                       " times (Stage13Repeats); where a repeated read goes is not decoded");
  }
  if (!outfeedLinesCarry(bytes, tile.keptRead->size())) {
    refuse(packet, "the kept read of tile " + std::to_string(index) + " holds " + std::to_string(tile.keptRead->size()) +
                       " bytes (Stage13Groups, Stage13OuterLimit), the outfeed sends " + std::to_string(bytes) +
                       " (OutfeedLines; not the read filled to whole 8-byte lines)");
  }
  std::vector<uint8_t> sent = filledToOutfeedLines(std::move(*tile.keptRead), bytes);
  tile.keptRead.reset();
  return sent;
}

std::vector<uint8_t> LleRung::sendBytes(const DecodedPacket& packet, uint64_t bytes, std::vector<uint64_t>* undefinedAt) {
  refuseWhileAWindowReaderWaits(packet);
  if (const uint64_t tiles = readField(packet.words, LleField::Dma10ToTiles); tiles != 0) {
    refuse(packet, "the outfeed send also goes to tiles " + tileList(static_cast<uint16_t>(tiles)) +
                       " (Dma10ToTiles, word 3 bits 98:83): deliveries between tiles are not modelled");
  }
  // The send carries its stream in 256-byte beats: as many as the bytes need, no more, no fewer
  // (docs/decoding-log.md "ringmesh" §A). The product stops growing once it passes the bytes'
  // beats: five 16-bit limits could overflow.
  const uint64_t want = (bytes + kRingBeatBytes - 1) / kRingBeatBytes;
  uint64_t beats = 1;
  for (unsigned level = 0; level < fieldDef(LleField::Dma10Beats).count && beats <= want; ++level) {
    beats *= readField(packet.words, LleField::Dma10Beats, level) + 1;
  }
  if (beats != want) {
    refuse(packet, "the send's nest counts " + std::string(beats > want ? "at least " : "") + std::to_string(beats) + " beats of " +
                       std::to_string(kRingBeatBytes) + " bytes (Dma10Beats, word 0 bits 110:95 and word 1 bits 0, 33, 66, 99); the outfeed drains " +
                       std::to_string(bytes) + " bytes = " + std::to_string(want) + " beats");
  }
  if (!std::has_single_bit(packet.tileMask)) {
    refuse(packet, "outfeed drain from tiles " + tileList(packet.tileMask) + " (one tile expected)");
  }
  const auto index = static_cast<unsigned>(std::countr_zero(packet.tileMask));
  TileState& tile = tiles_[index];
  // The send names the form of the read it drains (lle_fields.def Dma10ReadForm, docs/decoding-log.md
  // "pad13" §D): bits 86 and 88 set for a read with Stage13Route[1] set, clear for one with both route
  // bits clear — which the rung holds as the tile's kept read.
  const uint64_t form86 = readField(packet.words, LleField::Dma10ReadForm, 0);
  const uint64_t form88 = readField(packet.words, LleField::Dma10ReadForm, 1);
  if (form86 != form88) {
    refuse(packet, "Dma10ReadForm (word 1 bits 88, 86) = " + std::to_string(form88) + ", " + std::to_string(form86) +
                       ": the two bits differ in no corpus send; not decoded");
  }
  const bool drainsKeptRead = form86 == 0;
  refuseARunOfKeptReads(packet, RunOfEqualBlocks::kRefused);
  refuseAKeptReadOfUnwrittenBytes(packet);
  if (tile.keptRead) {
    if (!drainsKeptRead) {
      refuse(packet, "outfeed drain from tile " + std::to_string(index) +
                         " whose last 0x13 kept its bytes (Stage13Route 0, 0), while the send's Dma10ReadForm (word 1 bits 88, 86) = 1, 1 "
                         "names a read with Stage13Route[1] set");
    }
    return sendKeptRead(packet, tile, index, bytes);
  }
  if (drainsKeptRead) {
    refuse(packet, "Dma10ReadForm (word 1 bits 88, 86) = 0, 0 names a read with Stage13Route 0, 0; tile " + std::to_string(index) +
                       " holds no such read");
  }
  if (!tile.stagedReadAt) refuse(packet, "outfeed drain from a tile with no staging read (0x13) armed");
  if (tile.stagedReadForMaxPass) {
    refuse(packet, "the staging read of tile " + std::to_string(index) + " is marked for a max pass (Stage13MaxPassMark, word 4 bit 35): "
                   "a send taking it is never seen and not decoded");
  }
  const uint64_t at = *tile.stagedReadAt;
  // The send takes the stream its tag names (lle_fields.def Dma10Channel / Stage13Channel).
  if (const uint64_t channel = readField(packet.words, LleField::Dma10Channel); channel != tile.stagedReadChannel) {
    refuse(packet, "the send takes stream " + std::to_string(channel) + " (Dma10Channel, word 0 bits 73:62); the staging read of tile " +
                       std::to_string(index) + " entered stream " + std::to_string(tile.stagedReadChannel) +
                       " (Stage13Channel, word 2 bits 92:81)");
  }
  if (tile.stagedReadRepeats != 0) {
    refuse(packet, "the staging read of tile " + std::to_string(index) + " repeats " +
                       std::to_string(tile.stagedReadRepeats + 1) +
                       " times (Stage13Repeats); where a repeated read goes is not decoded");
  }
  // The outfeed moves whole 8-byte lines: a read of 4 (mod 8) bytes fills its last line half (outfeed_line_fill.h).
  // A read with no level running (stagedReadBytes 0) is one line, the outfeed's length.
  if (tile.stagedReadBytes != 0 && !outfeedLinesCarry(bytes, tile.stagedReadBytes)) {
    refuse(packet, "the staging read of tile " + std::to_string(index) + " covers " + std::to_string(tile.stagedReadBytes) +
                       " bytes (Stage13Groups), the outfeed sends " + std::to_string(bytes) +
                       " (OutfeedLines; not the read filled to whole 8-byte lines)");
  }
  const uint64_t readBytes = tile.stagedReadBytes != 0 ? tile.stagedReadBytes : bytes;
  tile.stagedReadMixedRoute = false;  // drained by its send
  // The nest's groups in order (stride 1: the contiguous bytes [at, at + readBytes)).
  if (undefinedAt != nullptr) {
    // Bound for the host: a byte no packet wrote goes out as undefined, the host told which (docs/decoding-log.md "raw25").
    if (auto carried = CarriedBytes::gather(tile.narrowSram, at, readBytes / 4, tile.stagedReadStride)) {
      for (uint64_t k = 0; k < carried->bytes.size(); ++k) {
        if (carried->isUndefined(k)) undefinedAt->push_back(k);
      }
      return filledToOutfeedLines(std::move(carried->bytes), bytes);
    }
  }
  const auto sent = gather(tile.narrowSram, StagedNest{at, readBytes / 4, tile.stagedReadStride, {}});
  if (const uint64_t* hole = std::get_if<uint64_t>(&sent)) {
    refuse(packet, "the outfeed reads narrow bytes [" + std::to_string(at) + ", " + std::to_string(at + readBytes) + ") of tile " +
                       std::to_string(index) + " (Stage13NarrowAt4); byte " + std::to_string(*hole) +
                       " was not written in this run" + undefinedOrigin());
  }
  return filledToOutfeedLines(std::get<std::vector<uint8_t>>(sent), bytes);
}

std::vector<uint8_t> LleRung::windowTail(unsigned window, uint32_t windowLength, uint32_t streamedBytes,
                                         const models::RunStreams& streams) {
  (void)waitsForInput(streams);  // the packets that waited for the input run now that it is here
  const size_t want = windowLength - streamedBytes;
  const size_t have = outQueue_.size() - outRead_;
  const size_t n = std::min(want, have);
  std::vector<uint8_t> tail(outQueue_.begin() + static_cast<std::ptrdiff_t>(outRead_),
                            outQueue_.begin() + static_cast<std::ptrdiff_t>(outRead_ + n));
  tailWindow_ = window;
  tailUndefined_.clear();
  for (const uint64_t at : outUndefinedAt_) {
    if (at >= outRead_ && at < outRead_ + n) tailUndefined_.push_back(static_cast<uint32_t>(at - outRead_));
  }
  outRead_ += n;
  return tail;
}

}  // namespace coralsim::lle

namespace coralsim::models {

std::unique_ptr<DatapathRung> makeLleRung(const ChipConfig& config) { return std::make_unique<lle::LleRung>(config); }

}  // namespace coralsim::models

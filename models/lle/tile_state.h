// The functional state of one tile as the low-level datapath sees it: narrow memory (activations:
// the stream mirror the compute gathers from, and the memory as the staging packets and the
// compute address it), wide memory (parameters), the last NLU table. Plain C++: the SystemC Tile modules (models/chip/tile.h) account
// for time, this holds the numbers (docs/design-notes.md, "functional tile state").
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "models/lle/addressed_memory.h"
#include "models/lle/nlu_table.h"
#include "models/lle/staging_window.h"
#include "models/lle/write_nest.h"

namespace coralsim::lle {

// One tile memory: the byte ranges written so far, disjoint (a write merges with the ranges it
// overlaps or touches and overwrites their bytes), addressed as the rung addresses them — narrow
// memory by stream position ("mirror" addressing: stream byte o lands at address o, so a range says
// exactly which stream bytes the tile received), wide memory by receive row x 256 (lle_rung.h). A
// parameter-caching program fills many rows of a tile from many pops; every one stays readable.
class TileMemory {
 public:
  explicit TileMemory(uint32_t capacity = 0) : capacity_(capacity) {}

  [[nodiscard]] uint32_t capacity() const { return capacity_; }
  [[nodiscard]] bool empty() const { return ranges_.empty(); }
  // Whether one written range covers [address, address + length).
  [[nodiscard]] bool holds(uint64_t address, uint64_t length) const {
    const auto r = rangeAt(address);
    return r != ranges_.end() && address + length <= r->first + r->second.size();
  }
  // How many bytes are written contiguously from `address` (0 when it is not written).
  [[nodiscard]] uint64_t runFrom(uint64_t address) const {
    const auto r = rangeAt(address);
    return r == ranges_.end() ? 0 : r->first + r->second.size() - address;
  }
  // The bytes at [address, address + length); the caller checked holds().
  [[nodiscard]] const uint8_t* at(uint64_t address) const {
    const auto r = rangeAt(address);
    return r->second.data() + (address - r->first);
  }
  // "2560 bytes at 9728" per range, for refusal messages.
  [[nodiscard]] std::string describe() const {
    if (ranges_.empty()) return "nothing";
    std::string text;
    for (const auto& [base, bytes] : ranges_) {
      if (!text.empty()) text += ", ";
      text += std::to_string(bytes.size()) + " bytes at " + std::to_string(base);
    }
    return text;
  }

  // Writes `bytes` at `address`, at most `capacity` of them (a tile memory holds at most
  // `capacity` bytes per write, whatever the stream length). Returns the bytes written.
  uint32_t write(uint64_t address, std::span<const uint8_t> bytes) {
    const auto n = static_cast<uint32_t>(std::min<size_t>(bytes.size(), capacity_));
    if (n == 0) return 0;
    uint64_t begin = address;
    uint64_t end = address + n;
    // The ranges this one overlaps or touches become part of it.
    auto first = ranges_.upper_bound(address);
    if (first != ranges_.begin() && std::prev(first)->first + std::prev(first)->second.size() >= address) --first;
    auto last = first;
    while (last != ranges_.end() && last->first <= end) ++last;
    for (auto r = first; r != last; ++r) {
      begin = std::min(begin, r->first);
      end = std::max(end, r->first + r->second.size());
    }
    std::vector<uint8_t> merged(end - begin);
    for (auto r = first; r != last; ++r) std::copy(r->second.begin(), r->second.end(), merged.begin() + (r->first - begin));
    std::copy_n(bytes.begin(), n, merged.begin() + (address - begin));
    ranges_.erase(first, last);
    ranges_.emplace(begin, std::move(merged));
    return n;
  }
  void clear() { ranges_.clear(); }
  void release() { ranges_.clear(); }

 private:
  // The range that contains `address`, or end().
  [[nodiscard]] std::map<uint64_t, std::vector<uint8_t>>::const_iterator rangeAt(uint64_t address) const {
    auto r = ranges_.upper_bound(address);
    if (r == ranges_.begin()) return ranges_.end();
    --r;
    return address < r->first + r->second.size() ? r : ranges_.end();
  }

  uint32_t capacity_;
  std::map<uint64_t, std::vector<uint8_t>> ranges_;  // base address -> bytes
};

struct TileState {
  TileMemory narrow;  // the stream mirror the compute gathers its activations from (design note 18)
  TileMemory wide;
  // Wide rows a part-row parameter pop wrote (PopRowQuarters < 3): row -> the bytes it put at lane 0; a whole-row
  // write of the row removes it (part_row_stream.h, docs/decoding-log.md "conv7" §C).
  std::map<uint64_t, uint64_t> widePartRows;
  std::optional<NluTable> nlu;
  // Narrow memory as the staging packets address it (addressed_memory.h), and the staging DMAs
  // armed on this tile: where the next data popped to it lands (0x14), and where the next
  // outfeed send reads (0x13), with the bytes its group loop covers (0: a single line).
  AddressedMemory narrowSram;
  std::optional<uint64_t> stagedWriteAt;
  WriteNest stagedWriteNest;  // the units the popped bytes land on from stagedWriteAt (write_nest.h)
  // The units of the pop the write lets pass before it keeps any (Stage14SourceSkip + 1 with
  // Stage14SourceOn, else 0; docs/decoding-log.md "src14").
  uint64_t stagedWriteSkipUnits = 0;
  // Whether the write has the row form (Stage14SourceRowForm): its groups are kept in two parts, consecutive
  // runs of the pop (docs/decoding-log.md "rowform", "rowrest"); a dealt-out slice of such a write is not decoded.
  bool stagedWriteRowForm = false;
  // The armed write's words (its copy of the receive next on the tile) and whether that receive dealt the
  // tile a slice of its rows: then the tile keeps only its slice's bytes, from stagedWriteSkipUnits on
  // (receive_slice.h, docs/decoding-log.md "prefix14" §A).
  std::vector<isa::Word128> stagedWriteWords;
  bool stagedWriteSliced = false;
  std::optional<uint64_t> stagedReadAt;
  uint64_t stagedReadBytes = 0;
  // The read's second-level limit (Stage13Repeats; 0 when absent): where a repeated read goes is not
  // decoded, so an outfeed refuses to send one.
  uint64_t stagedReadRepeats = 0;
  // The stream the armed read's bytes entered (Stage13Channel): the send that takes them names it.
  uint64_t stagedReadChannel = 0;
  // 4-byte units between the read's groups (its counting level's stride, read_nest.h; 1 for level 0).
  int64_t stagedReadStride = 1;
  // The armed read has Stage13Route 1, 0 (bit 107 alone, docs/decoding-log.md "eltw12" §D): executed as a
  // sent read for the 0x10 send that drains it; a compute on the tile before that send is refused.
  bool stagedReadMixedRoute = false;
  // The armed sent read is marked for the tile's next max pass (Stage13MaxPassMark, docs/decoding-log.md "bright02"):
  // only an opcode-0x02 compute takes it.
  bool stagedReadForMaxPass = false;
  // The beats of the pass whose result that read takes (Stage13MaxPassBeats; 0 where it names none, 0xffff).
  uint64_t stagedReadMaxPassBeats = 0;
  // The tile's last max pass (opcode 0x02): where its result lies and its beats (Max02Beats + 1), which the read
  // of that result names (Stage13MaxPassBeats).
  struct MaxPassResult {
    uint64_t outputAt = 0;
    uint64_t beats = 0;
  };
  std::optional<MaxPassResult> lastMaxPass;
  // The last Stage13ResendSequence of a sent read by narrow address: the next read of the same bytes counts on from it.
  std::map<uint64_t, uint64_t> resendSequenceAt;
  // A read kept in the tile (Stage13Route both clear, docs/decoding-log.md "form13"): the bytes it
  // read from narrow memory, one pass of its group loop, for the tile's next compute, and how many
  // times its second level repeats that pass. How the compute takes them (weights or activations)
  // is not decoded, so a compute on a tile holding them is refused; an outfeed never sends them.
  std::optional<std::vector<uint8_t>> keptRead;
  uint64_t keptReadRepeats = 0;
  uint64_t keptReadChannel = 0;  // its Stage13Channel: the consuming compute names it (ComputeStreamTag)
  // Its Stage13KeptSequence (docs/decoding-log.md "keep13"): 0 outside a run of numbered kept reads; N where
  // the tile took kept reads 1 ... N since its last compute. How a compute takes more than one is not decoded.
  uint64_t keptReadSequence = 0;
  // The number and stream (Stage13KeptSequence, Stage13Channel) of the tile's last numbered kept read, kept when a
  // compute takes it (docs/decoding-log.md "col13"): the compiler numbers a stream's kept reads across the computes that
  // take them (the colour templates' 2 after the 1 tile 0's copy took). A sent read ends the numbering (never seen).
  uint64_t keptReadNumber = 0;
  uint64_t keptReadNumberChannel = 0;
  // A read of the run after the first kept other bytes than the one before it (or bytes this run did not write):
  // how a compute takes several is not decoded, so it takes only a run whose blocks are all equal -- then any of
  // them is the same operand (docs/decoding-log.md "split" §E: split_concat's three 4 x 4 identities).
  bool keptReadRunDiffers = false;
  // The kept read is for the tile's next opcode-0x02 / 0x03 compute (Stage13FeedsNormalise, docs/decoding-log.md
  // "bright13"): no 0x01 compute or send takes it.
  bool keptReadFeedsNormalise = false;
  // Its second nest where it has one, the beat walk of the pass that takes it: (groups a beat - 1, beats - 1) =
  // (Stage13Repeats, Stage13StreamBeats); the taker's own beats must be these (read_beat_walk.h, docs/decoding-log.md
  // "nin16"). None for the max pass's streamed read (no second nest, "nin15").
  std::optional<std::pair<uint64_t, uint64_t>> keptReadBeatWalk;
  // A kept read over bytes this run never wrote (the padding programs read the prologue's identity on
  // all 16 tiles and wrote it on four, docs/decoding-log.md "pad13"): the first such byte. Harmless
  // until something takes the bytes: a compute with 4-byte elements or an outfeed then refuses, naming it.
  std::optional<uint64_t> keptReadUnwrittenByte;
  // Every kept read's bytes by stream tag (its Stage13Channel), the last one of each: a kept-stream write
  // (0x14 with word 4 zero, kept_stream_write.h) puts them back. nullopt: the read met a byte this run
  // never wrote (a write taking it is refused).
  std::map<uint64_t, std::optional<std::vector<uint8_t>>> keptStreams;
  // A read with the copy marks (Stage13TakenByCopy, docs/decoding-log.md "mnv1b"): its bytes in its nest's order, for
  // the 0x14 next on the tile (lle_rung_read_copy.cc); no bytes where it met one this run never wrote.
  struct ReadForCopy {
    uint64_t channel = 0;
    std::optional<std::vector<uint8_t>> bytes;
    std::optional<uint64_t> unwrittenByte;
  };
  std::optional<ReadForCopy> readForCopy;
  // The 32-bit sums one-byte-output computes keep under their ComputePartialSumRow, and the row the last compute-feeding
  // 0x14 on the tile named (Stage14FeedTag): the two-byte lane-group form's bias prefix (docs/decoding-log.md "soft14" §C).
  std::map<uint64_t, int32_t> keptSums;
  std::optional<uint64_t> fedRow;
  // The staging windows this run's 0x14s opened on the tile (staging_window.h), in program order: the
  // one-byte-element computes read their passes.
  std::vector<StagingWindow> windows;
};

}  // namespace coralsim::lle

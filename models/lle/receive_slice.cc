#include "models/lle/receive_slice.h"

#include "models/lle/last_repetition.h"
#include "models/lle/lle_fields.h"
#include "models/lle/write_nest.h"

namespace coralsim::lle {

namespace {

std::optional<ReceiveSlice> fail(std::string* whyNot, std::string why) {
  if (whyNot) *whyNot = std::move(why);
  return std::nullopt;
}

// The receive's rows: its run repeated by its outer levels, the last repetition shorter by
// Recv11ExecLastShort where Recv11ExecLastRunOn says so ("add128" §A, "oldrecv" §A).
uint64_t receiveRows(std::span<const isa::Word128> receive) {
  uint64_t rows = readField(receive, LleField::Recv11ExecRun) + 1;
  for (unsigned i = 0; i < fieldDef(LleField::Recv11ExecRepeat).count; ++i) rows *= readField(receive, LleField::Recv11ExecRepeat, i) + 1;
  return rows - lastRepetitionShortfall(receive, kRecv11ExecLastRepetition);
}

}  // namespace

std::optional<ReceiveSlice> sliceOfReceive(std::span<const isa::Word128> copy, std::span<const isa::Word128> receive,
                                           std::string* whyNot) {
  if (copy.size() < 6 || receive.size() < 3) return fail(whyNot, "not a 0x14 and a 0x11");
  if (readField(receive, LleField::Recv11ExecutionForm) == 0 || readField(receive, LleField::Recv11ExecInnerLevel) == 0) {
    return fail(whyNot, "the receive is not of the execution-only form with its loop nest");
  }
  if (readField(copy, LleField::Stage14CopyInnerLevel) == 0) return fail(whyNot, "the copy has no loop nest (Stage14CopyInnerLevel 0)");
  // The copy's own nest: one level (no repeats), wraps -run, step 1 (0 or 1 where it runs once).
  const uint64_t run = readField(copy, LleField::Stage14CopyLimit, 0);
  for (unsigned level = 1; level < fieldDef(LleField::Stage14CopyLimit).count; ++level) {
    if (readField(copy, LleField::Stage14CopyLimit, level) != 0) return fail(whyNot, "the copy repeats its run (Stage14CopyLimit[1..3])");
  }
  const LleFieldDef& wrap = fieldDef(LleField::Stage14CopyWrap);
  const uint64_t minusRun = ((uint64_t{1} << wrap.width) - run) & ((uint64_t{1} << wrap.width) - 1);
  for (unsigned level = 0; level < wrap.count; ++level) {
    if (readField(copy, LleField::Stage14CopyWrap, level) != minusRun) return fail(whyNot, "a wrap of the copy is not -its run (Stage14CopyWrap)");
  }
  const uint64_t step = readField(copy, LleField::Stage14CopyStep);
  if (step != 1 && !(run == 0 && step == 0)) return fail(whyNot, "the copy's step (Stage14CopyStep) is not 1");
  // A tile's slice waits for nothing of its own: the receive holds the wait (count 0, flag 0).
  if (readField(copy, LleField::Stage14CopyCount) != 0 || readField(copy, LleField::Stage14CopyFlag) != 0) {
    return fail(whyNot, "the copy holds a wait (Stage14CopyCount / Stage14CopyFlag)");
  }
  // Whole rows: no shorter last repetition in the copy (w1[127:99], where the receive keeps its own).
  if (copy[1].bits(99, 29) != 0) return fail(whyNot, "the copy sets w1[127:99] (a shorter last repetition)");
  // The descriptor's other bits (w0[94:74]: bit 78 the nest, the rest pinned in the receive) are the receive's.
  if (copy[0].bits(74, 21) != receive[0].bits(74, 21)) return fail(whyNot, "w0[94:74] differs from the receive's");
  const uint64_t copyTag = readField(copy, LleField::Stage14CopyStream);
  const uint64_t tag = readField(receive, LleField::Recv11ExecStream);
  const uint64_t all = receiveRows(receive);
  if (copyTag < tag || copyTag - tag + run + 1 > all) {
    return fail(whyNot, "its rows " + std::to_string(copyTag) + " .. " + std::to_string(copyTag + run) +
                            " (Stage14CopyStream, Stage14CopyLimit[0]) lie outside the receive's " + std::to_string(tag) + " .. " +
                            std::to_string(tag + all - 1));
  }
  const uint64_t written = WriteNest::fromPacket(copy).units() * 4;
  if (written != (run + 1) * kReceiveSliceRowBytes) {
    return fail(whyNot, std::to_string(run + 1) + " rows of " + std::to_string(kReceiveSliceRowBytes) + " bytes where the write's nest puts " +
                            std::to_string(written) + " bytes");
  }
  return ReceiveSlice{copyTag - tag, run + 1, all};
}

}  // namespace coralsim::lle

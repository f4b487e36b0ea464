// The immediate 0x17 whose level 0 steps by its receive stride (models/lle/fill_recv_stride.h; docs/decoding-log.md
// "trk15" §D): level 0 alone counting (Fill17Step = 1, its run mask), Fill17Carry[0] = -limit x stride. Here stride 3 with 3
// writes from unit 100 on tile 5 -- the corpus's 46 such fills all have stride 2 and 2 writes (the 0x03 chains' 1 / 256 pairs).
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/chip/block_interfaces.h"
#include "models/chip_config.h"
#include "models/lle/addressed_memory.h"
#include "models/lle/fill_recv_stride.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"
#include "tests/unit/lle_empty_streams.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_fill_recv_stride_test {
namespace {

using models::DecodedPacket;

constexpr uint16_t kTile = 0x20;  // tile 5

uint64_t negative(int64_t v) { return static_cast<uint64_t>(-v); }

// An immediate fill of 0x0403020a from unit 100: level-0 limit 2, receive stride `stride`, Fill17Step `step`, level 1's
// carry `carry` (the other carries and limits 0).
DecodedPacket fill(EnvelopePackets& f, uint64_t stride, uint64_t step, uint64_t carry) {
  DecodedPacket p = f.make(0x17, kTile);
  const std::vector<std::pair<LleField, uint64_t>> fields = {{LleField::Fill17Immediate, 1}, {LleField::Fill17Value, 0x0403020a},
                                                             {LleField::Fill17At4, 100},     {LleField::Mesh17RecvStride, stride},
                                                             {LleField::Fill17Step, step}};
  for (const auto& [field, value] : fields) f.lastWords()[fieldDef(field).lsb / 128].setBits(fieldDef(field).lsb % 128, fieldDef(field).width, value);
  const LleFieldDef& limit = fieldDef(LleField::Fill17Limit);
  f.lastWords()[limit.lsb / 128].setBits(limit.lsb % 128, limit.width, 2);
  const LleFieldDef& c = fieldDef(LleField::Fill17Carry);
  f.lastWords()[c.lsb / 128].setBits(c.lsb % 128, c.width, carry & ((uint64_t{1} << c.width) - 1));
  return p;
}

struct FillRun {
  std::string refusal;
  std::vector<bool> written;  // units 100 .. 107
};

FillRun run(uint64_t stride, uint64_t step, uint64_t carry) {
  models::ChipConfig config;
  LleRung rung(config);
  EnvelopePackets f(0x100);
  EmptyStreams streams;
  FillRun r;
  try {
    rung.beginRun();
    rung.packet(fill(f, stride, step, carry), streams, 0);
  } catch (const models::ChipFault& e) {
    r.refusal = e.what();
    return r;
  }
  const AddressedMemory& narrow = rung.tile(5).narrowSram;
  for (uint64_t u = 100; u < 108; ++u) {
    const bool w = !narrow.firstUnwritten(u * 4, 4).has_value();
    r.written.push_back(w);
    if (w) {
      const auto b = narrow.read(u * 4, 4);
      EXPECT_EQ(b[0], 0x0a) << "unit " << u;
      EXPECT_EQ(b[3], 0x04) << "unit " << u;
    }
  }
  return r;
}

TEST(LleFillRecvStride, LevelZeroStepsByTheReceiveStrideWhereItAloneRunsAndItsCarryReturnsThatWalk) {
  EnvelopePackets f(0x100);
  EXPECT_EQ(fillRecvStrideAsLevelZero(fill(f, 3, 1, negative(6)).words), std::optional<int64_t>(3));
  const FillRun r = run(3, 1, negative(6));
  ASSERT_EQ(r.refusal, "");
  const std::vector<bool> want = {true, false, false, true, false, false, true, false};  // units 100, 103, 106
  EXPECT_EQ(r.written, want);
}

TEST(LleFillRecvStride, AnotherCarryOrRunMaskKeepsTheStrideRefusedByName) {
  EnvelopePackets f(0x100);
  EXPECT_EQ(fillRecvStrideAsLevelZero(fill(f, 3, 1, negative(2)).words), std::nullopt);  // the stride-1 walk's return
  EXPECT_EQ(fillRecvStrideAsLevelZero(fill(f, 3, 3, negative(6)).words), std::nullopt);  // levels 0-1 run
  EXPECT_EQ(fillRecvStrideAsLevelZero(fill(f, 1, 1, negative(2)).words), std::nullopt);  // stride 1: Fill17Step's reading
  EXPECT_NE(run(3, 1, negative(2)).refusal.find("Mesh17RecvStride (word 2 bits 43:27) = 3"), std::string::npos);
  EXPECT_NE(run(3, 3, negative(6)).refusal.find("Mesh17RecvStride (word 2 bits 43:27) = 3"), std::string::npos);
  // Stride 1 is unchanged: three consecutive units.
  const std::vector<bool> consecutive = {true, true, true, false, false, false, false, false};
  EXPECT_EQ(run(1, 1, negative(2)).written, consecutive);
}

}  // namespace
}  // namespace coralsim::lle::lle_fill_recv_stride_test

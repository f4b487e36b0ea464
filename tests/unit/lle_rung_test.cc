// The lle rung on synthetic packets: words taken from the envelope (so only the decoded fields
// vary), a parameter-caching run then execution-only runs, against a reference computed here from
// docs/isa.md §4.2/§5.1 (acc = sum (x - zp_in)(W), y = round(acc x scale), clamp, + zp_out).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "models/chip/block_interfaces.h"
#include "models/isa/assembler.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"
#include "models/lle/packet_envelope.h"

namespace coralsim::lle {
namespace {

using models::ChipFault;
using models::DecodedPacket;

class FakeStreams : public models::RunStreams {
 public:
  std::vector<uint8_t> input, params;
  [[nodiscard]] std::span<const uint8_t> inputBytes() const override { return input; }
  [[nodiscard]] std::span<const uint8_t> parameterBytes() const override { return params; }
};

// Owns the words of the packets it builds (DecodedPacket holds a span).
class PacketFactory {
 public:
  DecodedPacket make(uint8_t op, const std::vector<std::pair<LleField, uint64_t>>& fields, unsigned element = 0) {
    const unsigned length = isa::packetLength(static_cast<isa::Opcode>(op));
    auto& words = storage_.emplace_back(length);
    for (unsigned k = 0; k < length; ++k) words[k] = envelopeValue(op, k);
    for (const auto& [field, value] : fields) {
      const LleFieldDef& f = fieldDef(field);
      const uint32_t lsb = f.lsb + element * f.stride;
      words[lsb / 128].setBits(lsb % 128, f.width, value);
    }
    DecodedPacket p;
    p.pc = pc_++;
    p.opcode = static_cast<isa::Opcode>(op);
    p.length = static_cast<uint8_t>(length);
    p.words = words;
    p.tilePacket = op < 0x20;
    if (p.tilePacket) p.tileMask = static_cast<uint16_t>(words[0].bits(12, 16));
    return p;
  }

 private:
  std::vector<std::vector<isa::Word128>> storage_;
  uint32_t pc_ = 1;
};

constexpr uint32_t kGroups = 8;  // K = 32 input bytes
constexpr uint8_t kZpIn = 120, kZpOut = 129;

struct Dense {
  std::vector<int8_t> w = std::vector<int8_t>(64 * 4 * kGroups);  // W[c][i]
  std::vector<float> scale = std::vector<float>(64);
  std::vector<uint8_t> params() const {
    std::vector<uint8_t> p(512 + 256 * kGroups);
    for (unsigned c = 0; c < 64; ++c) {
      std::memcpy(&p[4 * c], &scale[c], 4);
      const uint32_t slot = 128;
      std::memcpy(&p[256 + 4 * c], &slot, 4);
      for (unsigned i = 0; i < 4 * kGroups; ++i) p[512 + (i / 4) * 256 + c * 4 + i % 4] = static_cast<uint8_t>(w[c * 4 * kGroups + i]) ^ 0x80;
    }
    return p;
  }
  uint8_t expected(const std::vector<uint8_t>& x, unsigned c) const {
    int32_t acc = 0;
    for (unsigned i = 0; i < 4 * kGroups; ++i) acc += (x[i] - kZpIn) * w[c * 4 * kGroups + i];
    const float y = std::nearbyint(std::clamp(static_cast<float>(acc) * scale[c], -129.0f, 126.0f));
    return static_cast<uint8_t>(y + kZpOut);
  }
};

class LleRungTest : public ::testing::Test {
 protected:
  LleRungTest() : rung(config) {
    std::mt19937 rng(5);
    for (auto& v : dense.w) v = static_cast<int8_t>(rng());
    for (auto& s : dense.scale) s = 0.001f + static_cast<float>(rng() % 1000) * 1e-5f;
    streams.params = dense.params();
    streams.input.resize(4 * kGroups);
    for (auto& b : streams.input) b = static_cast<uint8_t>(rng());
  }

  DecodedPacket pop(bool input, uint16_t tiles) {
    return f.make(0x26, {{LleField::PopIsInput, input}, {LleField::PopUnits128, input ? 0 : 1},
                         {LleField::PopFlag64, 1}, {LleField::PopOffset16, 0}, {LleField::PopBuffer32, 0},
                         {LleField::PopTiles, tiles}});
  }
  DecodedPacket compute(uint16_t tiles, uint64_t limit = kGroups - 1) {
    return f.make(0x01, {{LleField::ComputeMask, tiles}, {LleField::ComputeK4W0, limit}, {LleField::ComputeK4W1, limit},
                         {LleField::ComputeK4W7, limit}, {LleField::ComputeK4W10, limit},
                         {LleField::ComputeNW4, 4 * (limit + 1)}, {LleField::ComputeZpIn, kZpIn},
                         {LleField::ComputeZpOut, kZpOut}, {LleField::ComputeMult, std::bit_cast<uint32_t>(1.0f)},
                         {LleField::ComputeClampHi, std::bit_cast<uint32_t>(126.0f)},
                         {LleField::ComputeClampLo, std::bit_cast<uint32_t>(-129.0f)}});
  }
  void parameterCachingRun(uint16_t tiles) {
    rung.beginRun();
    rung.packet(f.make(0x25, {{LleField::InfeedIsInput, 0}}), streams, 0);
    rung.packet(pop(false, tiles), streams, 0);
    rung.packet(f.make(0x24, {}), streams, 0);
    rung.endRun();
  }
  std::vector<uint8_t> executionRun(uint16_t tiles) {
    rung.beginRun();
    rung.packet(f.make(0x25, {{LleField::InfeedIsInput, 1}}), streams, 0);
    rung.packet(pop(true, tiles), streams, 0);
    rung.packet(f.make(0x24, {}), streams, 0);
    rung.packet(compute(tiles), streams, 0);
    for (unsigned t = 0; t < 16; ++t) {
      if (!(tiles & (1u << t))) continue;
      rung.packet(f.make(0x27, {}), streams, 0);
      rung.packet(f.make(0x10, {{LleField::Dma10Mask, 1u << t}}), streams, 0);
    }
    std::vector<uint8_t> out = rung.windowTail(0, 64 * std::popcount(tiles), 0, streams);
    rung.endRun();
    return out;
  }

  models::ChipConfig config;
  LleRung rung;
  PacketFactory f;
  FakeStreams streams;
  Dense dense;
};

TEST_F(LleRungTest, ComputesTheDenseEpilogueAndDrainsInTileOrder) {
  parameterCachingRun(0x3);
  const std::vector<uint8_t> out = executionRun(0x3);
  ASSERT_EQ(out.size(), 128u);
  for (unsigned c = 0; c < 64; ++c) {
    EXPECT_EQ(out[c], dense.expected(streams.input, c)) << "tile 0 lane " << c;
    EXPECT_EQ(out[64 + c], dense.expected(streams.input, c)) << "tile 1 lane " << c << " (same parameters)";
  }
  EXPECT_EQ(rung.macCount(), 2u * 64 * 4 * kGroups);
}

TEST_F(LleRungTest, CachedParametersSurviveRunsUntilReset) {
  parameterCachingRun(0x1);
  streams.params.clear();  // execution-only runs send no parameters
  const auto first = executionRun(0x1);
  const auto second = executionRun(0x1);
  EXPECT_EQ(first, second);
  rung.reset();
  EXPECT_THROW(executionRun(0x1), ChipFault);
}

TEST_F(LleRungTest, RefusesInconsistentLoopLimitsAndUnmodelledParameterSlots) {
  parameterCachingRun(0x1);
  rung.beginRun();
  rung.packet(f.make(0x25, {{LleField::InfeedIsInput, 1}}), streams, 0);
  rung.packet(pop(true, 0x1), streams, 0);
  DecodedPacket bad = compute(0x1);
  const auto limitField = fieldDef(LleField::ComputeK4W7);
  auto words = std::vector<isa::Word128>(bad.words.begin(), bad.words.end());
  words[limitField.lsb / 128].setBits(limitField.lsb % 128, limitField.width, 3);
  bad.words = words;
  try {
    rung.packet(bad, streams, 0);
    FAIL() << "accepted differing K limits";
  } catch (const ChipFault& e) {
    EXPECT_EQ(e.kind(), models::FaultKind::kUnsupported);
    EXPECT_NE(std::string(e.what()).find("ComputeK4W7"), std::string::npos) << e.what();
  }
  // A bias in the second prefix slot (docs/isa.md Q3) is refused, not guessed.
  streams.params[256] = 7;
  parameterCachingRun(0x1);
  EXPECT_THROW(executionRun(0x1), ChipFault);
}

TEST_F(LleRungTest, RefusesPacketsOutsideTheEnvelopeNamingOpcodeAndPc) {
  // A bare tile.sync: its undecoded payload bits are zero, unlike every template's.
  const auto program = isa::assemble("program {\n  tile.dma15 mask=0x1\n}\n");
  std::vector<uint8_t> bytes(program.words.size() * 16);
  for (size_t i = 0; i < program.words.size(); ++i) program.words[i].toBytes(&bytes[16 * i]);
  const std::string why = rung.acceptChunk(bytes);
  EXPECT_NE(why.find("opcode 0x15"), std::string::npos) << why;
  EXPECT_NE(why.find("PC 0x"), std::string::npos) << why;
  const auto sync = isa::assemble("program {\n  tile.sync mask=0x1\n}\n");
  bytes.assign(sync.words.size() * 16, 0);
  for (size_t i = 0; i < sync.words.size(); ++i) sync.words[i].toBytes(&bytes[16 * i]);
  const std::string syncWhy = rung.acceptChunk(bytes);
  EXPECT_NE(syncWhy.find("undecoded bits"), std::string::npos) << syncWhy;
  EXPECT_NE(rung.acceptChunk(std::vector<uint8_t>(5, 0)).find("cannot be segmented"), std::string::npos);
}

TEST_F(LleRungTest, AComputeWithoutDeliveredActivationsIsRefused) {
  parameterCachingRun(0x1);
  rung.beginRun();
  EXPECT_THROW(rung.packet(compute(0x1), streams, 0), ChipFault);
}

}  // namespace
}  // namespace coralsim::lle

namespace coralsim::lle {
namespace {

TEST_F(LleRungTest, RefusesPopsWhoseTwoOffsetsDisagreeOrWhoseClassIsNotTheInfeeds) {
  rung.beginRun();
  rung.packet(f.make(0x25, {{LleField::InfeedIsInput, 1}}), streams, 0);
  // Stream offset 16 x 16 = 256 bytes, ring offset 0: the cross-check of docs/decoding-log.md fails.
  const DecodedPacket mismatched =
      f.make(0x26, {{LleField::PopIsInput, 1}, {LleField::PopUnits128, 0}, {LleField::PopFlag64, 1},
                    {LleField::PopOffset16, 16}, {LleField::PopBuffer32, 0}, {LleField::PopTiles, 1}});
  EXPECT_THROW(rung.packet(mismatched, streams, 0), ChipFault);
  // The same position in both units is accepted: ring = 8 x 256 / 32 = 64.
  const DecodedPacket agreeing =
      f.make(0x26, {{LleField::PopIsInput, 1}, {LleField::PopUnits128, 0}, {LleField::PopFlag64, 1},
                    {LleField::PopOffset16, 16}, {LleField::PopBuffer32, 64}, {LleField::PopTiles, 1}});
  EXPECT_NO_THROW(rung.packet(agreeing, streams, 0));
  // A parameter pop while the infeed streams inputs.
  EXPECT_THROW(rung.packet(pop(false, 0x1), streams, 0), ChipFault);
}

TEST_F(LleRungTest, RefusesADrainFromSeveralTilesAtOnce) {
  parameterCachingRun(0x3);
  rung.beginRun();
  rung.packet(f.make(0x25, {{LleField::InfeedIsInput, 1}}), streams, 0);
  rung.packet(pop(true, 0x3), streams, 0);
  rung.packet(compute(0x3), streams, 0);
  rung.packet(f.make(0x27, {}), streams, 0);
  EXPECT_THROW(rung.packet(f.make(0x10, {{LleField::Dma10Mask, 0x3}}), streams, 0), ChipFault);
}

}  // namespace
}  // namespace coralsim::lle

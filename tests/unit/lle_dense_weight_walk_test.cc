// The single-position (Dense) compute's weight wraps (docs/decoding-log.md "dense43"): the Dense executor reads its K
// groups as one run, which the K-loop wrap rows say as "every weight wrap = -ComputeK4W0" -- or, as the convolution's
// weight walk says it (weight_group_walk.h, "conv7"), Nest29 walking the reduction's groups one after another: a level
// of the reduction carries +1, a level above -(groups - 1), a level that runs once applies no carry. model_dense's
// bias-prefix Dense layers write +1 at Nest29's slot 1 (ComputeKWrap29[0]), a level that runs once. Nest37's wrap row is
// held either way. Sizes no corpus compute has: 5 K groups.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "models/isa/field.h"
#include "models/isa/word128.h"
#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"
#include "models/lle/weight_group_walk.h"

namespace coralsim::lle::lle_dense_weight_walk_test {
namespace {

constexpr int64_t kGroups = 5;

struct Packet {
  std::vector<isa::Word128> words = std::vector<isa::Word128>(17);
  void set(LleField f, int64_t v, unsigned e = 0) {
    const LleFieldDef& d = fieldDef(f);
    isa::writePacketBits(words, d.lsb + e * d.stride, d.width, static_cast<uint64_t>(v) & ((uint64_t{1} << d.width) - 1));
  }
  void all(LleField f, int64_t v) {
    for (unsigned e = 0; e < fieldDef(f).count; ++e) set(f, v, e);
  }
};

// Where Nest29 counts the K groups: level 0 (the Dense and x86-64 compiles) or level 2 (the aarch64 ones, "dense2").
enum class KLevel { kZero, kTwo };

// A Dense compute of kGroups groups, its weight wraps all -ComputeK4W0 (the relation's form).
Packet densePacket(KLevel level) {
  Packet p;
  p.set(LleField::ComputeInputBytes, 4);
  p.set(LleField::ComputeParamPrefix, 1);
  p.set(LleField::ComputeK4W0, kGroups - 1);
  p.set(LleField::ComputeK4W1, kGroups - 1);
  p.set(LleField::ComputeK4W10, kGroups - 1);
  if (level == KLevel::kZero) {
    p.set(LleField::ComputeK4W7, kGroups - 1);
  } else {
    p.set(LleField::ComputeLimit29, kGroups - 1, 1);
  }
  p.all(LleField::ComputeKWrap37, -(kGroups - 1));  // -(Nest29's iterations - 1)
  p.all(LleField::ComputeKWrap29, -(kGroups - 1));
  p.set(LleField::ComputeKWrapW7, -(kGroups - 1));
  return p;
}

TEST(LleDenseWeightWalk, WrapsOfMinusTheLimitPassAsBefore) {
  EXPECT_EQ(singlePositionKWrapProblem(densePacket(KLevel::kZero).words), "");
  EXPECT_EQ(singlePositionKWrapProblem(densePacket(KLevel::kTwo).words), "");
}

// model_dense's form: +1 at slot 1 (applied when level 2 counts, which runs once). Refused on main as "ComputeKWrap29[0]
// (word 8 bits 19:7) = 1 is not -1 x ComputeK4W0"; the walk reads it.
TEST(LleDenseWeightWalk, APlusOneAtALevelThatRunsOnceIsTheWalksNextGroupAndPasses) {
  Packet p = densePacket(KLevel::kZero);
  p.set(LleField::ComputeKWrap29, 1, 0);
  EXPECT_EQ(weightGroupWalkProblem(p.words), "");
  EXPECT_EQ(singlePositionKWrapProblem(p.words), "");
  // The aarch64 form's counting level 2 stepping one group (+1 at slot 1) walks the groups in order too.
  Packet two = densePacket(KLevel::kTwo);
  two.set(LleField::ComputeKWrap29, 1, 0);
  EXPECT_EQ(singlePositionKWrapProblem(two.words), "");
}

// A wrap that breaks both readings is refused with both: the relation's sentence and the walk's reason, naming the field.
TEST(LleDenseWeightWalk, AWrapThatIsNeitherMinusTheLimitNorTheWalkIsRefusedNamingIt) {
  Packet two = densePacket(KLevel::kTwo);
  two.set(LleField::ComputeKWrap29, 2, 0);  // level 2 counting, two groups a step
  const std::string why = singlePositionKWrapProblem(two.words);
  EXPECT_NE(why.find("ComputeKWrap29[0] (word 8 bits 19:7) = 2 is not -1 x ComputeK4W0 = -4"), std::string::npos) << why;
  EXPECT_NE(why.find("step 2 weight groups, not the 1 the levels below walk"), std::string::npos) << why;
  Packet back = densePacket(KLevel::kTwo);
  back.set(LleField::ComputeKWrap29, -1, 0);  // level 2 counting one group back
  EXPECT_NE(singlePositionKWrapProblem(back.words).find("ComputeKWrap29[0]"), std::string::npos);
}

// The walk answers for Nest29's rows only: an odd Nest37 wrap is refused beside a walked +1.
TEST(LleDenseWeightWalk, TheInputNestsWrapRowIsHeldBesideAWalk) {
  Packet p = densePacket(KLevel::kZero);
  p.set(LleField::ComputeKWrap29, 1, 0);
  p.set(LleField::ComputeKWrap37, 1, 0);
  const std::string why = singlePositionKWrapProblem(p.words);
  EXPECT_NE(why.find("ComputeKWrap37[0]"), std::string::npos) << why;
}

}  // namespace
}  // namespace coralsim::lle::lle_dense_weight_walk_test

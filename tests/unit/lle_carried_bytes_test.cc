// The bytes a ring send carries from a sent read, byte by byte defined or not (models/lle/carried_bytes.h,
// docs/decoding-log.md "trkrun" §A): the one-lane max pass writes lane 0 of its 4-byte output element and leaves lanes 1-3
// undefined; the broadcast's send of that unit must carry the maximum and land lanes 1-3 unwritten -- over stale bytes the
// destination held there. A unit-wise mark (mesh_stream.h) would drop the maximum; a refusal (the rung before this change)
// stops bright at 0x0242. Addresses, strides and bytes are made up (no corpus send has them).
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "models/lle/addressed_memory.h"
#include "models/lle/carried_bytes.h"

namespace coralsim::lle::lle_carried_bytes_test {
namespace {

TEST(CarriedBytes, AnUnwrittenByteIsCarriedUndefinedAndLandsUnwrittenOverStaleBytes) {
  AddressedMemory source(1024);
  const std::vector<uint8_t> lane0{0xfe};
  ASSERT_TRUE(source.write(500, lane0));                    // group 0: lane 0 only
  ASSERT_TRUE(source.write(508, std::vector<uint8_t>{1, 2, 3, 4}));  // group 1 (stride 2 units): whole
  const std::optional<CarriedBytes> carried = CarriedBytes::gather(source, 500, 2, 2);
  ASSERT_TRUE(carried.has_value());
  ASSERT_EQ(carried->bytes.size(), 8u);
  EXPECT_EQ(carried->bytes[0], 0xfe);
  for (uint64_t k = 0; k < 8; ++k) EXPECT_EQ(carried->isUndefined(k), k >= 1 && k <= 3) << "byte " << k;
  EXPECT_EQ(std::vector<uint8_t>(carried->bytes.begin() + 4, carried->bytes.end()), (std::vector<uint8_t>{1, 2, 3, 4}));

  AddressedMemory destination(1024);
  ASSERT_TRUE(destination.write(96, std::vector<uint8_t>{9, 9, 9, 9, 9, 9, 9, 9}));  // stale bytes
  ASSERT_TRUE(carried->writeInto(destination, 96, 0, 4));
  ASSERT_TRUE(carried->writeInto(destination, 100, 4, 4));
  EXPECT_FALSE(destination.firstUnwritten(96, 1).has_value());
  EXPECT_EQ(destination.read(96, 1)[0], 0xfe);
  for (uint64_t a = 97; a < 100; ++a) EXPECT_EQ(destination.firstUnwritten(a, 1), std::optional<uint64_t>(a)) << "address " << a;
  EXPECT_FALSE(destination.firstUnwritten(100, 4).has_value());
  EXPECT_EQ(destination.read(100, 4)[3], 4);
}

TEST(CarriedBytes, AWholeDefinedGatherHasNoMarksAndAGroupOutsideTheMemoryIsNone) {
  AddressedMemory source(64);
  ASSERT_TRUE(source.write(0, std::vector<uint8_t>(64, 7)));
  const std::optional<CarriedBytes> whole = CarriedBytes::gather(source, 0, 16, 1);
  ASSERT_TRUE(whole.has_value());
  EXPECT_TRUE(whole->undefined.empty());
  EXPECT_FALSE(CarriedBytes::gather(source, 0, 17, 1).has_value());
  EXPECT_TRUE(CarriedBytes::gather(source, 60, 2, -1).has_value());  // a backwards stride that stays inside
  EXPECT_FALSE(CarriedBytes::gather(source, 0, 2, -1).has_value());
  AddressedMemory small(8);
  EXPECT_FALSE(whole->writeInto(small, 4, 0, 8));
}

}  // namespace
}  // namespace coralsim::lle::lle_carried_bytes_test

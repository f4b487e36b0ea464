// The parameter stream of a part-row caching (models/lle/part_row_stream.h, docs/decoding-log.md "conv7" §C): a pop that
// puts 128 bytes of its stream at lane 0 of each wide row is read back, for the weight-feed send of those rows, as the
// rows' parts in order -- the bias array, then one weight group a row. Sizes and addresses no corpus caching has.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "models/lle/part_row_stream.h"
#include "models/lle/tile_state.h"

namespace coralsim::lle::lle_part_row_stream_test {
namespace {

constexpr uint64_t kRow = 256;

// `rows` part rows of `part` bytes from row `first`, the stream's byte i = (7 i + 3) mod 256, the upper lanes of every
// row holding 0xee (another pop's bytes: a part row leaves them as they were).
TileState partRows(uint64_t first, uint64_t rows, uint64_t part, uint64_t lastPart) {
  TileState tile;
  tile.wide = TileMemory(1u << 20);
  const std::vector<uint8_t> other(kRow, 0xee);
  uint64_t i = 0;
  for (uint64_t r = 0; r < rows; ++r) {
    tile.wide.write((first + r) * kRow, other);
    const uint64_t length = r + 1 == rows ? lastPart : part;
    std::vector<uint8_t> bytes(length);
    for (uint8_t& b : bytes) b = static_cast<uint8_t>(7 * i++ + 3);
    tile.wide.write((first + r) * kRow, bytes);
    tile.widePartRows[first + r] = length;
  }
  return tile;
}

TEST(LlePartRowStream, APartRowCachingIsReadBackAsItsStreamInOrder) {
  const TileState tile = partRows(40, 5, 128, 80);  // 4 x 128 + 80 = 592 stream bytes
  const auto stream = partRowStream(tile, 40, 592, kRow);
  ASSERT_TRUE(stream.has_value());
  ASSERT_EQ(stream->size(), 592u);
  for (uint64_t i = 0; i < stream->size(); ++i) ASSERT_EQ((*stream)[i], static_cast<uint8_t>(7 * i + 3)) << i;
  // From the second row on: the stream's bytes from 128.
  const auto later = partRowStream(tile, 41, 200, kRow);
  ASSERT_TRUE(later.has_value());
  EXPECT_EQ((*later)[0], static_cast<uint8_t>(7 * 128 + 3));
  EXPECT_EQ((*later)[199], static_cast<uint8_t>(7 * 327 + 3));
  // Read contiguously the rows would give the other pop's 0xee after 128 bytes: the two readings differ.
  EXPECT_EQ(tile.wide.at(40 * kRow)[128], 0xee);
}

TEST(LlePartRowStream, RowsThatAreNotOnePartRowRunGiveNoStream) {
  const TileState tile = partRows(40, 5, 128, 80);
  EXPECT_FALSE(partRowStream(tile, 39, 128, kRow).has_value());        // a row no part-row pop wrote
  EXPECT_FALSE(partRowStream(tile, 40, 592 + 1, kRow).has_value());    // past the run's last byte
  TileState mixed = partRows(40, 5, 128, 128);
  mixed.widePartRows[42] = 64;  // a row of another width inside the run
  EXPECT_FALSE(partRowStream(mixed, 40, 512, kRow).has_value());
  EXPECT_TRUE(partRowStream(mixed, 40, 256, kRow).has_value());  // the rows before it
  TileState whole;
  whole.wide = TileMemory(1u << 20);
  whole.wide.write(0, std::vector<uint8_t>(1024, 1));  // whole rows: no part-row record
  EXPECT_FALSE(partRowStream(whole, 0, 512, kRow).has_value());
}

}  // namespace
}  // namespace coralsim::lle::lle_part_row_stream_test

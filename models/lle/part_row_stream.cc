#include "models/lle/part_row_stream.h"

#include <algorithm>

namespace coralsim::lle {

std::optional<std::vector<uint8_t>> partRowStream(const TileState& tile, uint64_t firstRow, uint64_t bytes, uint64_t rowBytes) {
  const auto first = tile.widePartRows.find(firstRow);
  if (first == tile.widePartRows.end() || first->second == 0) return std::nullopt;
  const uint64_t part = first->second;
  std::vector<uint8_t> stream;
  stream.reserve(bytes);
  for (uint64_t row = firstRow; stream.size() < bytes; ++row) {
    const auto written = tile.widePartRows.find(row);
    const uint64_t take = std::min(part, bytes - stream.size());
    // Every row of the run a part of the same width (the last may be shorter: the pop's last part row).
    if (written == tile.widePartRows.end() || written->second < take || (written->second != part && take == part) ||
        !tile.wide.holds(row * rowBytes, take)) {
      return std::nullopt;
    }
    const uint8_t* at = tile.wide.at(row * rowBytes);
    stream.insert(stream.end(), at, at + take);
  }
  return stream;
}

}  // namespace coralsim::lle

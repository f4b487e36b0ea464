#include "driver/transport/record_framing.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace coralsim::driver {

void sendRecord(Transport& transport, uint8_t tag, std::span<const uint8_t> payload) {
  if (payload.size() > std::numeric_limits<uint32_t>::max()) {
    throw std::length_error("record of " + std::to_string(payload.size()) +
                            " bytes does not fit the 32-bit length of a bulk-OUT header");
  }
  const auto header = usb::encodeRecordHeader(static_cast<uint32_t>(payload.size()), tag);
  transport.bulkOut(usb::endpoint::kBulkOut, header);
  for (size_t pos = 0; pos < payload.size(); pos += kMaxOutTransferBytes) {
    const size_t n = std::min(kMaxOutTransferBytes, payload.size() - pos);
    transport.bulkOut(usb::endpoint::kBulkOut, payload.subspan(pos, n));
  }
}

}  // namespace coralsim::driver

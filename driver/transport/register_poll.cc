#include "driver/transport/register_poll.h"

#include <string>
#include <thread>

#include "driver/transport/beagle_csrs.h"
#include "driver/hex_text.h"

namespace coralsim::driver {

uint64_t pollRegister(Transport& transport, uint32_t address, CsrWidth width,
                      const std::function<bool(uint64_t)>& done, std::string_view condition,
                      std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  uint64_t reads = 0;
  for (;;) {
    const uint64_t value = width == CsrWidth::k32 ? transport.read32(address) : transport.read64(address);
    ++reads;
    if (done(value)) return value;
    if (std::chrono::steady_clock::now() >= deadline) {
      throw PollTimeoutError(transport.name() + ": polling " + describeCsr(address) + " until " +
                             std::string(condition) + ": still not true after " +
                             std::to_string(timeout.count()) + " ms (" + std::to_string(reads) +
                             " reads, last value " + hexText(value) + ")");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

}  // namespace coralsim::driver

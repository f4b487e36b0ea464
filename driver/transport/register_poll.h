// Register polls with a bound. libedgetpu polls with no timeout and no delay (a wrong read-back
// hangs it forever, docs/usb-protocol.md §2); we poll at once, then every millisecond, and give up
// after a wall-clock timeout with an error that names the register, the condition and the last
// value read. On real hardware and on the simulator every poll succeeds at its first read.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string_view>

#include "driver/transport/transport.h"

namespace coralsim::driver {

class PollTimeoutError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Reads `address` with `width` until `done(value)`; returns the value that satisfied it.
// `condition` describes `done` for the error ("cur_pwr_state == 0").
uint64_t pollRegister(Transport& transport, uint32_t address, CsrWidth width,
                      const std::function<bool(uint64_t)>& done, std::string_view condition,
                      std::chrono::milliseconds timeout);

}  // namespace coralsim::driver

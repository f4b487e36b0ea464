// RunError: an executable run could not be carried out or the device broke the protocol (an event
// whose address is in no host buffer, a tag-0 event, completion before every chunk was sent, ...).
// The message names the model, the executable and what went wrong.
#pragma once

#include <stdexcept>

namespace coralsim::driver {

class RunError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace coralsim::driver

// The library's log on stderr: edgetpu_verbosity() / the `verbosity` option / CORALSIM_VERBOSITY
// set the level; messages at or below it are printed with a "coralsim libedgetpu:" prefix.
// Level 0 is always printed (problems the application should hear about even without an error
// reporter).
#pragma once

#include <string>

namespace coralsim::libedgetpu {

void setVerbosity(int level);
[[nodiscard]] int verbosity();
void log(int level, const std::string& message);

}  // namespace coralsim::libedgetpu

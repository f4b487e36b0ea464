// Running an external program from a test (the shared Python reference tools) and capturing its
// standard output.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace coralsim::testing {

// Runs `argv` (no shell interpretation: every argument is quoted) and returns its standard output,
// or nullopt when it cannot be started or exits with a status other than 0 or `okStatus`.
std::optional<std::string> runCommand(const std::vector<std::string>& argv, int okStatus = 0);

// True when `program` is found on PATH.
bool haveProgram(const std::string& program);

}  // namespace coralsim::testing

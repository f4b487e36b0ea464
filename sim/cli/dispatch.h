// The one command dispatcher of the command-line tools (`coralsim`, `coralsim-usb`): a table of
// commands (name, one-line summary, handler) from which the usage text is generated, and the
// error handling every command shares — a UsageError is exit status 2 with a pointer to the
// command's --help, any other exception exit status 1, an unknown command exit status 2.
#pragma once

#include <cstdio>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace coralsim::cli {

using CommandArgs = std::vector<std::string>;

struct Command {
  std::string_view name;
  std::string_view summary;  // one line for the usage text; empty: not listed
  int (*run)(const CommandArgs&);
};

struct Program {
  std::string_view name;     // "coralsim"
  std::string_view usage;    // printed first by --help and on usage errors
  std::span<const Command> commands;
  std::string_view version;  // `NAME --version` prints "NAME VERSION"; empty: no --version
};

// The usage text: `usage`, then "commands:" and one line per command that has a summary.
void printUsage(const Program& program, std::FILE* to);

// Runs the command argv[1] names with the arguments after it and returns the exit status.
int dispatch(const Program& program, int argc, char** argv);

}  // namespace coralsim::cli

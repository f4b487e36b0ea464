// Minimal, strict command-line parsing shared by every `coralsim` command: options are declared
// up front, unknown options and missing values are errors that name the argument.
#pragma once

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace coralsim::cli {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct OptionSpec {
  std::string name;        // "--json"
  bool takesValue = false;  // "--output FILE"
  std::string valueName;   // "FILE", for help text
  std::string help;
};

class Args {
 public:
  // Parses `argv` (the arguments after the command name) against `specs`.
  // Throws UsageError on an unknown option or an option missing its value.
  Args(const std::vector<std::string>& argv, const std::vector<OptionSpec>& specs);

  [[nodiscard]] bool has(std::string_view option) const;
  [[nodiscard]] std::optional<std::string> value(std::string_view option) const;
  // Every value of an option given several times, in order (value() returns the last one).
  [[nodiscard]] std::vector<std::string> values(std::string_view option) const;
  [[nodiscard]] const std::vector<std::string>& positional() const { return positional_; }

  // Parses an option's value as an unsigned integer (decimal or 0x-hex); UsageError names it.
  [[nodiscard]] std::optional<uint64_t> number(std::string_view option) const;

  // The one positional argument a command takes ("MODEL", "MODEL or PROGRAM"); UsageError
  // "expects exactly one WHAT file" otherwise.
  [[nodiscard]] const std::string& onlyFile(std::string_view what) const;
  // `--pretty` without `--json` is a UsageError: the commands' text reports have no pretty form.
  void requireJsonForPretty() const;

 private:
  std::map<std::string, std::string, std::less<>> values_;
  std::map<std::string, std::vector<std::string>, std::less<>> allValues_;
  std::vector<std::string> positional_;
};

// Formats the option list of a command for its --help text.
std::string describeOptions(const std::vector<OptionSpec>& specs);

}  // namespace coralsim::cli

#include "sim/cli/args.h"

#include <charconv>
#include <sstream>

namespace coralsim::cli {

Args::Args(const std::vector<std::string>& argv, const std::vector<OptionSpec>& specs) {
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a.size() < 2 || a[0] != '-' || a == "--") {
      positional_.push_back(a);
      continue;
    }
    std::string name = a;
    std::optional<std::string> inlineValue;
    if (auto eq = a.find('='); eq != std::string::npos) {
      name = a.substr(0, eq);
      inlineValue = a.substr(eq + 1);
    }
    const OptionSpec* spec = nullptr;
    for (const auto& s : specs) {
      if (s.name == name) spec = &s;
    }
    if (!spec) throw UsageError("unknown option '" + name + "'");
    if (spec->takesValue) {
      if (inlineValue) {
        values_[name] = *inlineValue;
      } else {
        if (i + 1 >= argv.size()) throw UsageError("option '" + name + "' needs a value " + spec->valueName);
        values_[name] = argv[++i];
      }
      allValues_[name].push_back(values_[name]);
    } else {
      if (inlineValue) throw UsageError("option '" + name + "' takes no value");
      values_[name] = "";
    }
  }
}

bool Args::has(std::string_view option) const { return values_.find(option) != values_.end(); }

std::optional<std::string> Args::value(std::string_view option) const {
  auto it = values_.find(option);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::vector<std::string> Args::values(std::string_view option) const {
  auto it = allValues_.find(option);
  return it == allValues_.end() ? std::vector<std::string>{} : it->second;
}

std::optional<uint64_t> Args::number(std::string_view option) const {
  auto v = value(option);
  if (!v) return std::nullopt;
  std::string_view s = *v;
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    base = 16;
  }
  uint64_t out = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out, base);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) {
    throw UsageError("option '" + std::string(option) + "' expects a number, got '" + *v + "'");
  }
  return out;
}

std::string describeOptions(const std::vector<OptionSpec>& specs) {
  std::ostringstream os;
  for (const auto& s : specs) {
    std::string left = "  " + s.name + (s.takesValue ? " " + s.valueName : "");
    os << left;
    for (size_t i = left.size(); i < 26; ++i) os << ' ';
    os << ' ' << s.help << '\n';
  }
  return os.str();
}

const std::string& Args::onlyFile(std::string_view what) const {
  if (positional_.size() != 1) throw UsageError("expects exactly one " + std::string(what) + " file");
  return positional_.front();
}

void Args::requireJsonForPretty() const {
  if (has("--pretty") && !has("--json")) throw UsageError("--pretty only applies to --json");
}

}  // namespace coralsim::cli

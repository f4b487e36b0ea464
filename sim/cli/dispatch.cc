#include "sim/cli/dispatch.h"

#include <exception>

#include "sim/cli/args.h"

namespace coralsim::cli {

void printUsage(const Program& program, std::FILE* to) {
  std::fprintf(to, "%.*s", static_cast<int>(program.usage.size()), program.usage.data());
  bool listed = false;
  for (const Command& c : program.commands) {
    if (c.summary.empty()) continue;
    if (!listed) std::fprintf(to, "commands:\n");
    listed = true;
    std::fprintf(to, "  %-12.*s %.*s\n", static_cast<int>(c.name.size()), c.name.data(),
                 static_cast<int>(c.summary.size()), c.summary.data());
  }
}

int dispatch(const Program& program, int argc, char** argv) {
  const std::string prog(program.name);
  if (argc < 2) {
    printUsage(program, stderr);
    return 2;
  }
  const std::string_view name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    printUsage(program, stdout);
    return 0;
  }
  if (name == "--version" && !program.version.empty()) {
    std::printf("%s %.*s\n", prog.c_str(), static_cast<int>(program.version.size()), program.version.data());
    return 0;
  }
  for (const Command& c : program.commands) {
    if (c.name != name) continue;
    const CommandArgs args(argv + 2, argv + argc);
    try {
      return c.run(args);
    } catch (const UsageError& e) {
      std::fprintf(stderr, "%s %s: %s (see '%s %s --help')\n", prog.c_str(), argv[1], e.what(), prog.c_str(), argv[1]);
      return 2;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s %s: error: %s\n", prog.c_str(), argv[1], e.what());
      return 1;
    }
  }
  std::fprintf(stderr, "%s: unknown command '%s'\n\n", prog.c_str(), argv[1]);
  printUsage(program, stderr);
  return 2;
}

}  // namespace coralsim::cli

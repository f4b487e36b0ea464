// `coralsim`: the command-line front end. Dispatches to one subcommand per file (commands.h).
#include <cstdio>
#include <exception>
#include <iostream>
#include <string_view>

#include "sim/cli/args.h"
#include "sim/cli/commands.h"

namespace {

struct Command {
  std::string_view name;
  std::string_view summary;
  int (*run)(const coralsim::cli::CommandArgs&);
};

constexpr Command kCommands[] = {
    {"demo", "run the embedded demo program (and a corpus model when ../shared/corpus exists)",
     coralsim::cli::runDemo},
    {"inspect", "print what is inside a compiled model, executable or raw program",
     coralsim::cli::runInspect},
    {"disasm", "disassemble the instruction bitstreams of a model or raw program",
     coralsim::cli::runDisasm},
    {"asm", "assemble coralsim assembly text into a raw .coral program", coralsim::cli::runAsm},
    {"run", "run a compiled model or raw program on an in-process emulated Coral (cycles, descriptors, outputs)",
     coralsim::cli::runRun},
    {"serve", "export emulated Coral USB Accelerators over USB/IP (until SIGINT/SIGTERM)",
     coralsim::cli::runServe},
    {"trace-diff", "compare two USB sessions (coralsim USB logs or real captures); exit 1 on protocol differences",
     coralsim::cli::runTraceDiff},
    {"trace-import", "convert a capture of a real Coral (usbmon, libusb log, tshark text) into a coralsim USB log",
     coralsim::cli::runTraceImport},
    {"profile", "per-layer profile of one inference: compute packets mapped to the CPU twin's layers", coralsim::cli::runProfile},
};

void printUsage(std::FILE* to) {
  std::fprintf(to,
               "coralsim — a simulator and emulated device for the Google Coral Edge TPU\n\n"
               "usage: coralsim COMMAND [ARGS...]      (coralsim COMMAND --help for details)\n\n"
               "commands:\n");
  for (const auto& c : kCommands) {
    std::fprintf(to, "  %-12.*s %.*s\n", static_cast<int>(c.name.size()), c.name.data(),
                 static_cast<int>(c.summary.size()), c.summary.data());
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    printUsage(stderr);
    return 2;
  }
  const std::string_view name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    printUsage(stdout);
    return 0;
  }
  if (name == "--version") {
    std::printf("coralsim %s\n", CORALSIM_VERSION);  // PROJECT_VERSION of the build
    return 0;
  }
  for (const auto& c : kCommands) {
    if (c.name != name) continue;
    coralsim::cli::CommandArgs args(argv + 2, argv + argc);
    try {
      return c.run(args);
    } catch (const coralsim::cli::UsageError& e) {
      std::fprintf(stderr, "coralsim %s: %s (see 'coralsim %s --help')\n", argv[1], e.what(), argv[1]);
      return 2;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "coralsim %s: error: %s\n", argv[1], e.what());
      return 1;
    }
  }
  std::fprintf(stderr, "coralsim: unknown command '%s'\n\n", argv[1]);
  printUsage(stderr);
  return 2;
}

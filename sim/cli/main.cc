// `coralsim`: the command-line front end. One subcommand per file (commands.h), listed once in the
// table below; the dispatcher (dispatch.h) generates `coralsim --help` from it.
#include "sim/cli/commands.h"
#include "sim/cli/dispatch.h"

namespace {

using coralsim::cli::Command;

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
    {"profile", "per-layer profile of one inference: compute packets mapped to the CPU twin's layers",
     coralsim::cli::runProfile},
    {"check-layers", "run a compiled model on the lle rung and compare every layer's tile memory with the CPU twin",
     coralsim::cli::runCheckLayers},
};

constexpr coralsim::cli::Program kProgram{
    "coralsim",
    "coralsim — a simulator and emulated device for the Google Coral Edge TPU\n\n"
    "usage: coralsim COMMAND [ARGS...]      (coralsim COMMAND --help for details)\n\n",
    kCommands,
    CORALSIM_VERSION,  // PROJECT_VERSION of the build
};

}  // namespace

int main(int argc, char** argv) { return coralsim::cli::dispatch(kProgram, argc, argv); }

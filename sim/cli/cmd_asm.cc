// `coralsim asm IN.s -o OUT.coral`: assembles coralsim assembly (what `coralsim disasm` prints, plus
// labels and the `program { ... }` framing for hand-written code; models/isa/assembler.h) into a
// raw instruction stream, and checks its program frame unless told not to.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "models/isa/assembler.h"
#include "models/isa/segmenter.h"
#include "sim/cli/args.h"
#include "sim/cli/commands.h"

namespace coralsim::cli {
namespace {

const std::vector<OptionSpec> kOptions = {
    {"--output", true, "FILE", "where to write the raw program (default: IN with the extension .coral)"},
    {"-o", true, "FILE", "same as --output"},
    {"--no-check", false, "", "write the words even if they are not a well-framed program"},
    {"--help", false, "", "show this help"},
};

void printHelp() {
  std::cout << "usage: coralsim asm IN.s [-o OUT.coral] [--no-check]\n\n"
               "Assembles coralsim assembly into a raw instruction stream (16-byte little-endian words,\n"
               "the .coral format). The input is what 'coralsim disasm' prints — it reassembles\n"
               "bit-exactly — plus, for writing programs by hand:\n"
               "  // comments, labels ('again:'), '(p0) br again', '.word 0x...', '.tileseq N',\n"
               "  'start' without body_bits= (the length is computed), and\n"
               "  'program { ... }', which adds START, and HALT final + 4 NOPs + END at the '}'.\n"
               "Scalar bundles: '(p0) s1 = add s2, 0x10 ; s3 = ld [0xfff] ; desc[1] = s7' (see\n"
               "models/isa/bundle_syntax.h and models/isa/demo/sum_loop.s).\n\n"
               "Unless --no-check, the result must be a well-framed program (START with its length rule,\n"
               "HALT, drain NOPs, END).\n\n"
               "options:\n"
            << describeOptions(kOptions)
            << "\nexit status: 0 success, 1 an assembly error (file:line:column) or a frame problem, 2 usage "
               "error\n";
}

}  // namespace

int runAsm(const CommandArgs& argv) {
  const Args args(argv, kOptions);
  if (args.has("--help")) {
    printHelp();
    return 0;
  }
  if (args.positional().size() != 1) throw UsageError("expects exactly one input file IN.s");
  if (args.has("--output") && args.has("-o")) throw UsageError("give the output file once (--output or -o)");
  const std::string inputPath = args.positional()[0];
  std::string outputPath;
  if (const auto o = args.has("-o") ? args.value("-o") : args.value("--output")) {
    outputPath = *o;
  } else {
    outputPath = std::filesystem::path(inputPath).replace_extension(".coral").string();
    if (outputPath == inputPath) throw UsageError("the input already ends in .coral; name the output with -o");
  }

  std::ifstream in(inputPath, std::ios::binary);
  if (!in) throw std::runtime_error(inputPath + ": cannot open");
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};

  isa::AssembledProgram program;
  try {
    program = isa::assemble(text, inputPath);
  } catch (const isa::AsmError& e) {
    std::cerr << e.what() << '\n';
    return 1;
  }
  if (!args.has("--no-check")) {
    try {
      (void)isa::segmentProgram(program.words);
    } catch (const isa::SegmentError& e) {
      std::cerr << inputPath << ": error: the assembled words are not a well-framed program: " << e.what()
                << "\n(wrap the code in 'program { ... }', or pass --no-check)\n";
      return 1;
    }
  }

  const std::vector<uint8_t> bytes = isa::bytesFromWords(program.words);
  std::ofstream out(outputPath, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error(outputPath + ": cannot open for writing");
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) throw std::runtime_error(outputPath + ": write failed");
  std::cout << "wrote " << outputPath << ": " << program.words.size() << " words (" << bytes.size() << " bytes)\n";
  return 0;
}

}  // namespace coralsim::cli

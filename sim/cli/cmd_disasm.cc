// `coralsim disasm MODEL|PROGRAM [--exe N] [--chunk N]`: lists the instruction bitstreams of a
// compiled model (every executable, every chunk) or of a raw .coral program, one line per packet,
// in the assembly syntax `coralsim asm` reads back. After each executable it checks the program
// frame of every chunk and the tile sequence numbers across the chunks, and reports problems on
// stderr (exit status 1) — the listing is printed in any case.
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "driver/model/model_loader.h"
#include "models/isa/disassembler.h"
#include "models/isa/segmenter.h"
#include "models/lle/field_listing.h"
#include "sim/cli/args.h"
#include "sim/cli/commands.h"

namespace coralsim::cli {
namespace {

const std::vector<OptionSpec> kOptions = {
    {"--exe", true, "N", "only executable N (0-based, in file order as 'coralsim inspect' lists them)"},
    {"--chunk", true, "N", "only instruction chunk N of each listed executable"},
    {"--raw", false, "", "read the file as a raw instruction stream whatever its name"},
    {"--no-comments", false, "", "leave out headers, branch targets and reasons after .word lines"},
    {"--fields", false, "", "after each tile packet, its fields as the lle rung decodes them and the set bits no decoded field covers"},
    {"--output", true, "FILE", "write the listing to FILE instead of stdout"},
    {"-o", true, "FILE", "same as --output"},
    {"--help", false, "", "show this help"},
};

void printHelp() {
  std::cout << "usage: coralsim disasm MODEL|PROGRAM [--exe N] [--chunk N] [--raw] [--fields] [-o FILE]\n\n"
               "Disassembles the instruction bitstreams of MODEL (a compiled *_edgetpu.tflite, a bare\n"
               "DarwiNN package or executable) or of PROGRAM (a raw *.coral instruction stream), one line\n"
               "per packet: 'ADDR: text', ADDR being the word index in hex (16-byte words). Scalar bundles\n"
               "are decoded slot by slot, control and tile packets field by field (tile mask, sequence\n"
               "number, compute epilogue, NLU table); bits no field covers are kept as wK=0x... so the\n"
               "listing of one chunk reassembles bit-exactly with 'coralsim asm'. Bitstreams are shown as\n"
               "stored in the file, before linking.\n\n"
               "Each chunk's frame (START length, HALT, drain NOPs, END) and the tile sequence numbers\n"
               "across the chunks of an executable are checked; problems go to stderr.\n\n"
               "--fields adds two comment lines after each tile packet the lle rung has a field table\n"
               "for (models/lle/lle_fields.def, docs/decoding-log.md): 'fields: Name=value ...' (the\n"
               "elements of a repeated field joined by commas; fields of another packet form left out) and\n"
               "'not decoded: wK[hi:lo] ...', the bits set in this packet that no decoded field covers.\n"
               "The listing still reassembles with 'coralsim asm' (comments are ignored).\n\n"
               "options:\n"
            << describeOptions(kOptions)
            << "\nexit status: 0 success, 1 unreadable input or a frame/sequence problem, 2 usage error\n";
}

struct Chunk {
  std::vector<isa::Word128> words;
};

struct ExecutableChunks {
  std::string title;  // "executable 1 (EXECUTION_ONLY)"
  std::vector<Chunk> chunks;
};

std::vector<isa::Word128> toWords(const std::vector<uint8_t>& bytes, const std::string& where) {
  if (bytes.size() % isa::Word128::kBytes != 0) {
    throw std::runtime_error(where + ": " + std::to_string(bytes.size()) +
                             " bytes is not a whole number of 16-byte instruction words");
  }
  return isa::wordsFromBytes(bytes);
}

std::vector<ExecutableChunks> loadBitstreams(const std::string& path, bool raw) {
  std::vector<ExecutableChunks> out;
  if (raw) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(path + ": cannot open");
    const std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    out.push_back({"raw program", {Chunk{toWords(bytes, path)}}});
    return out;
  }
  const driver::ModelFile model = driver::loadModelFile(path);
  if (model.rawBitstream) {
    out.push_back({"raw program", {Chunk{toWords(model.rawBitstream->bytes, path)}}});
    return out;
  }
  const auto executables = driver::allExecutables(model);
  for (size_t e = 0; e < executables.size(); ++e) {
    const driver::Executable& exe = *executables[e];
    const auto typeName = driver::executableTypeName(exe.type);
    ExecutableChunks entry;
    entry.title = "executable " + std::to_string(e) + " (" +
                  (typeName ? std::string(*typeName) : "type " + std::to_string(static_cast<int>(exe.type))) + ")";
    for (size_t c = 0; c < exe.bitstreams.size(); ++c) {
      entry.chunks.push_back(Chunk{toWords(exe.bitstreams[c].bytes,
                                           path + ": " + entry.title + ": chunk " + std::to_string(c))});
    }
    out.push_back(std::move(entry));
  }
  if (out.empty()) throw std::runtime_error(path + ": no Edge TPU executables (a CPU-only model?)");
  return out;
}

}  // namespace

int runDisasm(const CommandArgs& argv) {
  const Args args(argv, kOptions);
  if (args.has("--help")) {
    printHelp();
    return 0;
  }
  const std::string path = args.onlyFile("MODEL or PROGRAM");
  if (args.has("--output") && args.has("-o")) throw UsageError("give the output file once (--output or -o)");
  const auto exeFilter = args.number("--exe");
  const auto chunkFilter = args.number("--chunk");
  const bool comments = !args.has("--no-comments");

  const std::vector<ExecutableChunks> executables = loadBitstreams(path, args.has("--raw"));
  if (exeFilter && *exeFilter >= executables.size()) {
    throw UsageError("--exe " + std::to_string(*exeFilter) + ": " + path + " has " +
                     std::to_string(executables.size()) + " executable(s)");
  }

  std::ofstream file;
  const auto outputPath = args.has("-o") ? args.value("-o") : args.value("--output");
  if (outputPath) {
    file.open(*outputPath);
    if (!file) throw std::runtime_error(*outputPath + ": cannot open for writing");
  }
  std::ostream& out = outputPath ? static_cast<std::ostream&>(file) : std::cout;

  isa::DisassemblyOptions options;
  options.comments = comments;
  if (args.has("--fields")) {
    options.packetNotes = [](std::span<const isa::Word128> packet) {
      const lle::PacketFieldListing listing = lle::listPacketFields(packet);
      std::vector<std::string> notes;
      if (listing.fields.empty()) return notes;
      std::string fields = "fields:";
      for (const std::string& f : listing.fields) fields += " " + f;
      notes.push_back(std::move(fields));
      std::string rest = "not decoded:";
      for (const std::string& r : listing.undecodedBits) rest += " " + r;
      if (listing.undecodedBits.empty()) rest += " (no bit set outside the decoded fields)";
      notes.push_back(std::move(rest));
      return notes;
    };
  }
  int status = 0;
  for (size_t e = 0; e < executables.size(); ++e) {
    if (exeFilter && e != *exeFilter) continue;
    const ExecutableChunks& exe = executables[e];
    if (chunkFilter && *chunkFilter >= exe.chunks.size()) {
      throw UsageError("--chunk " + std::to_string(*chunkFilter) + ": " + exe.title + " has " +
                       std::to_string(exe.chunks.size()) + " chunk(s)");
    }
    std::vector<isa::Program> programs;
    bool framesOk = true;
    for (size_t c = 0; c < exe.chunks.size(); ++c) {
      const std::vector<isa::Word128>& words = exe.chunks[c].words;
      const std::string where = path + ": " + exe.title + ": chunk " + std::to_string(c);
      if (!chunkFilter || c == *chunkFilter) {
        if (comments) out << "// " << exe.title << ", chunk " << c << ": " << words.size() << " words\n";
        for (const std::string& line : isa::disassembleLines(words, options)) out << line << '\n';
      }
      try {
        programs.push_back(isa::segmentProgram(words));
      } catch (const isa::SegmentError& err) {
        std::cerr << "coralsim disasm: " << where << ": " << err.what() << '\n';
        framesOk = false;
        status = 1;
      }
    }
    if (!framesOk) continue;
    try {
      isa::TileSequenceChecker checker;
      for (size_t c = 0; c < exe.chunks.size(); ++c) checker.check(exe.chunks[c].words, programs[c]);
    } catch (const isa::SegmentError& err) {
      std::cerr << "coralsim disasm: " << path << ": " << exe.title << ": " << err.what() << '\n';
      status = 1;
    }
  }
  out.flush();
  if (!out) throw std::runtime_error("writing the listing failed");
  return status;
}

}  // namespace coralsim::cli

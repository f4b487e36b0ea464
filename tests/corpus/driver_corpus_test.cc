// The model loader over every real artifact of the shared corpus: compiled models and CPU twins,
// raw .coral programs, bare serialized executables. Expectations come from the executables' own
// fields (hints name existing layers, paired programs share a caching token, linking touches only
// the named immediates) and from tools/darwinn_dump.py's classification of the .bin files.
#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "driver/model/linker.h"
#include "driver/model/model_loader.h"
#include "tests/support/corpus.h"
#include "tests/support/run_command.h"

namespace coralsim::driver::driver_corpus_test {
namespace {

using coralsim::testing::corpusDir;
using coralsim::testing::corpusFiles;

struct Totals {
  size_t models = 0, executables = 0, bitstreams = 0, bitstreamBytes = 0, fieldOffsets = 0, hints = 0,
         parameterBytes = 0;
  void add(const ModelFile& m) {
    ++models;
    for (const Executable* e : allExecutables(m)) {
      ++executables;
      parameterBytes += e->parameters.size();
      if (e->dmaHints) hints += e->dmaHints->hints.size();
      for (const auto& b : e->bitstreams) {
        ++bitstreams;
        bitstreamBytes += b.bytes.size();
        fieldOffsets += b.fieldOffsets.size();
      }
    }
    if (m.rawBitstream) {
      ++bitstreams;
      bitstreamBytes += m.rawBitstream->bytes.size();
    }
  }
  void report(const char* what) const {
    std::cout << what << ": " << models << " files, " << executables << " executables, " << bitstreams
              << " bitstreams, " << bitstreamBytes << " bytes (" << bitstreamBytes / 16 << " words), " << fieldOffsets
              << " field offsets, " << hints << " DMA hints, " << parameterBytes << " parameter bytes\n";
    ::testing::Test::RecordProperty(std::string(what) + "_files", std::to_string(models));
    ::testing::Test::RecordProperty(std::string(what) + "_executables", std::to_string(executables));
    ::testing::Test::RecordProperty(std::string(what) + "_bitstreams", std::to_string(bitstreams));
    ::testing::Test::RecordProperty(std::string(what) + "_bitstream_bytes", std::to_string(bitstreamBytes));
  }
};

// Invariants an executable states about itself; the runner depends on them.
void checkSelfConsistency(const Executable& e, const std::string& where) {
  std::set<std::string> inputs, outputs;
  for (const auto& l : e.inputLayers) inputs.insert(l.name);
  for (const auto& l : e.outputLayers) outputs.insert(l.name);
  auto names = [&](const BufferRef& ref) -> const std::set<std::string>* {
    if (ref.kind == BufferKind::Input) return &inputs;
    if (ref.kind == BufferKind::Output) return &outputs;
    return nullptr;
  };
  for (const auto& b : e.bitstreams) {
    for (const auto& fo : b.fieldOffsets) {
      ASSERT_TRUE(fo.target) << where;
      if (const auto* set = names(*fo.target)) {
        EXPECT_TRUE(set->count(fo.target->name)) << where << ": " << fo.target->name;
      }
    }
  }
  if (!e.dmaHints) return;
  for (const auto& h : e.dmaHints->hints) {
    if (h.kind != HintKind::Dma || !h.buffer) continue;
    const auto* set = names(*h.buffer);
    if (!set) continue;
    EXPECT_TRUE(set->count(h.buffer->name)) << where << ": DMA hint for unknown layer " << h.buffer->name;
    const auto& layers = h.buffer->kind == BufferKind::Input ? e.inputLayers : e.outputLayers;
    for (const auto& l : layers) {
      if (l.name == h.buffer->name) {
        EXPECT_LE(h.offset + h.size, l.sizeBytes) << where << ": " << l.name;
      }
    }
  }
}

TEST(DriverCorpus, EveryTfliteModelLoads) {
  CORALSIM_REQUIRE_CORPUS(corpusDir());
  Totals totals;
  size_t compiled = 0, cpuOnly = 0, edgeTpuOps = 0;
  for (const auto& path : corpusFiles(".tflite")) {
    SCOPED_TRACE(path.string());
    ModelFile m;
    try {
      m = loadModelFile(path);
    } catch (const LoadError& e) {
      ADD_FAILURE() << e.what();
      continue;
    }
    ASSERT_EQ(m.kind, ModelKind::Tflite);
    totals.add(m);
    edgeTpuOps += m.edgeTpuOps.size();
    (m.edgeTpuOps.empty() ? cpuOnly : compiled)++;
    for (const auto& op : m.edgeTpuOps) {
      for (const auto& pkg : op.packages) {
        std::map<uint64_t, std::set<ExecutableType>> typesByToken;
        for (const auto& e : pkg.executables) {
          checkSelfConsistency(e, path.string());
          typesByToken[e.parameterCachingToken].insert(e.type);
        }
        // A PARAMETER_CACHING program only makes sense with an EXECUTION_ONLY partner.
        for (const auto& e : pkg.executables) {
          if (e.type == ExecutableType::ParameterCaching) {
            EXPECT_TRUE(typesByToken[e.parameterCachingToken].count(ExecutableType::ExecutionOnly)) << path;
          }
        }
      }
    }
  }
  totals.report("tflite");
  std::cout << "  " << compiled << " compiled models (" << edgeTpuOps << " edgetpu ops), " << cpuOnly
            << " CPU-only models\n";
  EXPECT_GT(compiled, 0u);
  EXPECT_GT(cpuOnly, 0u);
}

TEST(DriverCorpus, EveryRawProgramLoads) {
  CORALSIM_REQUIRE_CORPUS(corpusDir());
  Totals totals;
  for (const auto& path : corpusFiles(".coral")) {
    try {
      const ModelFile m = loadModelFile(path);
      EXPECT_EQ(m.kind, ModelKind::RawBitstream) << path;
      totals.add(m);
    } catch (const LoadError& e) {
      ADD_FAILURE() << e.what();
    }
  }
  totals.report("coral");
  EXPECT_GT(totals.models, 0u);
}

// Which .bin files tools/darwinn_dump.py recognises as serialized executables; nullopt without
// python3 or the tool.
std::optional<std::set<std::string>> executablesPerReferenceTool(const std::vector<std::filesystem::path>& bins) {
  const auto tools = coralsim::testing::toolsDir();
  if (!tools || !coralsim::testing::haveProgram("python3") || bins.empty()) return std::nullopt;
  std::vector<std::string> argv = {"python3", (*tools / "darwinn_dump.py").string(), "--summary"};
  for (const auto& b : bins) argv.push_back(b.string());
  const auto out = coralsim::testing::runCommand(argv, 1);
  if (!out) return std::nullopt;
  std::set<std::string> recognised;
  std::istringstream lines(*out);
  for (std::string line; std::getline(lines, line);) {
    const auto tab = line.find('\t');
    if (tab == std::string::npos) continue;
    const auto kind = line.substr(tab + 1, line.find('\t', tab + 1) - tab - 1);
    if (kind == "darwinn_executable") recognised.insert(line.substr(0, tab));
  }
  return recognised;
}

TEST(DriverCorpus, BinFilesLoadAsExecutablesOrFailCleanly) {
  CORALSIM_REQUIRE_CORPUS(corpusDir());
  const auto bins = corpusFiles(".bin");
  const auto recognised = executablesPerReferenceTool(bins);
  if (!recognised) std::cout << "*** python3 or tools/darwinn_dump.py missing: only checking for clean failures ***\n";
  Totals totals;
  size_t rejected = 0;
  for (const auto& path : bins) {
    const bool expectExecutable = recognised && recognised->count(path.string());
    try {
      const ModelFile m = loadModelFile(path);
      totals.add(m);
      if (recognised) {
        EXPECT_TRUE(expectExecutable) << path << " loads as " << modelKindName(m.kind) << " but the reference tool does not recognise it";
      }
      if (expectExecutable) {
        EXPECT_EQ(m.kind, ModelKind::DarwinnExecutable) << path;
        checkSelfConsistency(m.executables.at(0), path.string());
      }
    } catch (const LoadError& e) {
      ++rejected;
      EXPECT_FALSE(expectExecutable) << e.what();
      EXPECT_EQ(std::string(e.what()).rfind(path.string() + ": ", 0), 0u) << e.what();
    }
  }
  totals.report("bin");
  std::cout << "  " << rejected << " other .bin files rejected with a LoadError\n";
  if (recognised) {
    EXPECT_EQ(totals.models, recognised->size());
    EXPECT_GT(totals.models, 0u);
  }
}

// Linking every chunk of every corpus executable: each immediate receives its address half, no
// other bit changes.
TEST(DriverCorpus, LinkingPatchesOnlyTheNamedImmediates) {
  CORALSIM_REQUIRE_CORPUS(corpusDir());
  size_t linked = 0;
  for (const auto& path : corpusFiles(".tflite")) {
    ModelFile m;
    try {
      m = loadModelFile(path);
    } catch (const LoadError&) {
      continue;  // reported by EveryTfliteModelLoads
    }
    for (const Executable* e : allExecutables(m)) {
      // Distinct addresses per buffer, with different high and low halves.
      BaseAddresses addresses;
      std::map<std::pair<int, std::string>, uint64_t> assigned;
      uint64_t next = 0x0000000100001000ULL;
      bool allNamed = true;
      for (const auto& b : e->bitstreams) {
        for (const auto& fo : b.fieldOffsets) {
          if (!fo.target) {
            ADD_FAILURE() << path << ": field offset without meta";
            allNamed = false;
            continue;
          }
          const auto key = std::make_pair(static_cast<int>(fo.target->kind), fo.target->name);
          if (assigned.count(key)) continue;
          assigned[key] = next;
          addresses.set(fo.target->kind, fo.target->name, next, fo.target->batch);
          next += 0x0000000100010000ULL;
        }
      }
      if (!allNamed) continue;
      for (const auto& b : e->bitstreams) {
        const auto out = linkedCopy(b, addresses);
        std::vector<uint8_t> touched(b.bytes.size() * 8, 0);
        for (const auto& fo : b.fieldOffsets) {
          const uint64_t address = assigned.at({static_cast<int>(fo.target->kind), fo.target->name});
          const uint32_t want = fo.target->half == AddressHalf::Upper32 ? static_cast<uint32_t>(address >> 32)
                                                                        : static_cast<uint32_t>(address);
          EXPECT_EQ(readBitField32(out, fo.offsetBit), want) << path;
          for (int i = 0; i < 32; ++i) touched[static_cast<size_t>(fo.offsetBit + i)] = 1;
          ++linked;
        }
        for (size_t bit = 0; bit < touched.size(); ++bit) {
          if (touched[bit]) continue;
          const auto mask = static_cast<uint8_t>(1u << (bit % 8));
          if ((out[bit / 8] & mask) != (b.bytes[bit / 8] & mask)) {
            ADD_FAILURE() << path << ": linking changed bit " << bit;
            break;
          }
        }
      }
    }
  }
  std::cout << "linked " << linked << " field offsets\n";
  EXPECT_GT(linked, 0u);
}

}  // namespace
}  // namespace coralsim::driver::driver_corpus_test

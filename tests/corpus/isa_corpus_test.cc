// The ISA layer over every instruction bitstream of the corpus: the .coral programs and every
// chunk of every executable inside every *_edgetpu.tflite (read with the driver's loader).
//   (a) strict segmentation: START (length rule), body, HALT, drain NOPs, END;
//   (b) tile sequence numbers contiguous across the chunks of one executable, starting at 0;
//   (c) disassemble -> assemble reproduces every word bit-exactly.
// A third test checks the compute packets' two loop nests (models/isa/compute_loop_nest.def)
// against each other. A second test compares packet boundaries and every scalar-bundle field with the shared Python
// tools (tools/isa/seg.py + isa.py + tfl.py), an oracle we did not write.
#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "driver/model/model_loader.h"
#include "models/isa/assembler.h"
#include "models/isa/compute_loop_nest.h"
#include "models/isa/disassembler.h"
#include "models/isa/packet_fields.h"
#include "models/isa/scalar_bundle.h"
#include "models/isa/segmenter.h"
#include "tests/support/corpus.h"
#include "tests/support/run_command.h"

namespace coralsim::isa::isa_corpus_test {
namespace {

struct Bitstream {
  std::string file;
  size_t executable = 0;
  size_t chunk = 0;
  std::vector<Word128> words;
};

// One executable's chunks, in order.
using ExecutableChunks = std::vector<Bitstream>;

std::vector<std::filesystem::path> corpusPrograms() {
  std::vector<std::filesystem::path> files = testing::corpusFiles(".coral");
  const auto models = testing::corpusFiles("_edgetpu.tflite");
  files.insert(files.end(), models.begin(), models.end());
  return files;
}

// Every executable of a file (a raw program is one executable with one chunk).
std::vector<ExecutableChunks> loadExecutables(const std::filesystem::path& path) {
  const driver::ModelFile model = driver::loadModelFile(path);
  std::vector<ExecutableChunks> out;
  auto words = [&](const std::vector<uint8_t>& bytes) {
    EXPECT_EQ(bytes.size() % Word128::kBytes, 0u) << path;
    return wordsFromBytes(bytes);
  };
  if (model.rawBitstream) {
    out.push_back({Bitstream{path.string(), 0, 0, words(model.rawBitstream->bytes)}});
    return out;
  }
  const auto executables = driver::allExecutables(model);
  for (size_t e = 0; e < executables.size(); ++e) {
    ExecutableChunks chunks;
    for (size_t c = 0; c < executables[e]->bitstreams.size(); ++c) {
      chunks.push_back(Bitstream{path.string(), e, c, words(executables[e]->bitstreams[c].bytes)});
    }
    out.push_back(std::move(chunks));
  }
  return out;
}

std::string where(const Bitstream& b) {
  return b.file + " executable " + std::to_string(b.executable) + " chunk " + std::to_string(b.chunk);
}

uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * 1099511628211ULL; }
constexpr uint64_t kFnvBasis = 1469598103934665603ULL;

TEST(IsaCorpus, EveryBitstreamSegmentsKeepsTileSequenceAndRoundTrips) {
  CORALSIM_REQUIRE_CORPUS(testing::corpusDir());
  const auto files = corpusPrograms();
  ASSERT_FALSE(files.empty()) << "no .coral or *_edgetpu.tflite files under the corpus";

  size_t models = 0, executables = 0, bitstreams = 0, words = 0, packets = 0, roundTripped = 0, failures = 0;
  size_t tilePackets = 0, shortDrain = 0;
  std::set<uint64_t> unique;
  std::map<unsigned, size_t> opcodeCounts;
  std::map<uint64_t, size_t> haltKinds;
  const FieldDef* haltKind = findPacketField(Opcode::Halt, "kind");
  const FieldDef* branchOffset = findPacketField(Opcode::Branch, "offset");
  const FieldDef* loopBody = findPacketField(Opcode::Loop, "body");
  size_t branches = 0, loops = 0;

  for (const auto& file : files) {
    std::vector<ExecutableChunks> exes;
    try {
      exes = loadExecutables(file);
    } catch (const std::exception& e) {
      ADD_FAILURE() << "cannot load " << file << ": " << e.what();
      ++failures;
      continue;
    }
    ++models;
    for (const ExecutableChunks& exe : exes) {
      ++executables;
      TileSequenceChecker sequence;
      bool sequenceOk = true;
      for (const Bitstream& b : exe) {
        ++bitstreams;
        words += b.words.size();
        uint64_t h = kFnvBasis;
        for (const Word128& w : b.words) h = mix(mix(h, w.lo), w.hi);
        unique.insert(h);

        // (a) strict frame, with the default rules; note the one documented deviation.
        Program program;
        try {
          program = segmentProgram(b.words);
        } catch (const SegmentError& e) {
          ADD_FAILURE() << where(b) << ": " << e.what();
          ++failures;
          continue;
        }
        try {
          (void)segmentProgram(b.words, FrameRules::documented());
        } catch (const SegmentError& e) {
          EXPECT_EQ(e.kind(), SegmentErrorKind::DrainNops) << where(b) << ": " << e.what();
          ++shortDrain;
          std::cout << "  note: " << where(b) << ": " << e.detail() << " (" << b.words.size() << " words)\n";
        }
        packets += program.packets.size();
        // Control flow lands on packet starts: branch targets (docs/isa.md §3.6 [XCHK]) and the B
        // packets of a hardware loop body, which are scalar bundles.
        std::set<uint32_t> starts;
        for (const Packet& p : program.packets) starts.insert(p.wordIndex);
        for (size_t k = 0; k < program.packets.size(); ++k) {
          const Packet& p = program.packets[k];
          const Word128& w = b.words[p.wordIndex];
          if (p.op == Opcode::Branch) {
            ++branches;
            const int64_t target = int64_t{p.wordIndex} + signExtend(w.bits(branchOffset->lsb, branchOffset->width),
                                                                     branchOffset->width);
            EXPECT_TRUE(target >= 0 && starts.count(static_cast<uint32_t>(target)))
                << where(b) << ": branch at " << p.wordIndex << " to " << target << " is not a packet start";
          }
          if (p.op == Opcode::Loop) {
            ++loops;
            const uint64_t body = w.bits(loopBody->lsb, loopBody->width);
            EXPECT_GT(body, 0u) << where(b);
            for (uint64_t j = 1; j <= body; ++j) {
              ASSERT_LT(k + j, program.packets.size()) << where(b) << ": loop body runs past the chunk";
              EXPECT_EQ(program.packets[k + j].op, Opcode::ScalarBundle)
                  << where(b) << ": packet " << j << " of the loop body at " << p.wordIndex << " is not a bundle";
            }
          }
        }
        for (const Packet& p : program.packets) {
          ++opcodeCounts[static_cast<unsigned>(p.op)];
          if (p.op == Opcode::Halt) ++haltKinds[b.words[p.wordIndex].bits(haltKind->lsb, haltKind->width)];
          if (isTilePacket(p.op)) ++tilePackets;
        }

        // (b) tile sequence across the chunks of this executable.
        if (sequenceOk) {
          try {
            sequence.check(b.words, program);
          } catch (const SegmentError& e) {
            ADD_FAILURE() << where(b) << ": " << e.what();
            ++failures;
            sequenceOk = false;
          }
        }

        // (c) disassemble -> assemble.
        const std::string listing = disassemble(b.words);
        try {
          const AssembledProgram again = assemble(listing, where(b));
          size_t same = 0;
          for (size_t i = 0; i < b.words.size() && i < again.words.size(); ++i) same += again.words[i] == b.words[i];
          roundTripped += same;
          if (same != b.words.size() || again.words.size() != b.words.size()) {
            ADD_FAILURE() << where(b) << ": " << same << " of " << b.words.size() << " words round-trip ("
                          << again.words.size() << " reassembled)";
            ++failures;
          }
        } catch (const AsmError& e) {
          ADD_FAILURE() << where(b) << ": the listing does not reassemble: " << e.what();
          ++failures;
        }
      }
    }
  }

  std::cout << "ISA corpus: " << models << " files, " << executables << " executables, " << bitstreams
            << " bitstreams (" << unique.size() << " distinct), " << words << " words, " << packets << " packets ("
            << tilePackets << " tile packets), " << roundTripped << " words round-tripped, " << failures
            << " failures\n";
  std::cout << "  docs/isa.md §0.2 analysed 183 bitstreams / 471,092 words; the public corpus differs (some of"
               " the doc's models are missing, others are new)\n";
  std::cout << "  branches: " << branches << ", hardware loops: " << loops
            << " (all targets/bodies on packet starts)\n";
  std::cout << "  chunks with 3 drain NOPs instead of 4: " << shortDrain << "\n  HALT kinds:";
  for (const auto& [kind, n] : haltKinds) std::cout << " 0x" << std::hex << kind << std::dec << "=" << n;
  std::cout << "\n  packets per opcode:";
  for (const auto& [op, n] : opcodeCounts) std::cout << " " << opcodeInfo(static_cast<Opcode>(op)).mnemonic << "=" << n;
  std::cout << "\n";

  EXPECT_EQ(failures, 0u);
  EXPECT_EQ(roundTripped, words);
  EXPECT_GT(bitstreams, 0u);
  EXPECT_FALSE(haltKinds.empty());
}

// The Python side: for every bitstream, word count, packet boundaries (hash of (index, op) per
// packet) and every scalar-bundle field through isa.py's own decoder (geohot's field names).
constexpr const char* kReferenceScript = R"PY(
import sys
sys.path.insert(0, sys.argv[1])
import seg, isa, tfl
M = (1 << 64) - 1
def mix(h, v): return ((h ^ (v & M)) * 1099511628211) & M
for path in sys.argv[2:]:
    try:
        if path.endswith('.coral'):
            streams = [(0, 0, open(path, 'rb').read())]
        else:
            _, pkgs = tfl.load(path)
            streams = []
            e = 0
            for p in pkgs:
                for ex in p['executables']:
                    for c, b in enumerate(ex['bitstreams']):
                        streams.append((e, c, b['bitstream']))
                    e += 1
    except Exception as err:
        print('ERROR\t%s\t%s' % (path, err))
        continue
    for e, c, data in streams:
        ws = seg.words(data)
        out, bad = seg.segment(ws)
        hp = 1469598103934665603
        hb = hp
        for i, o, l in out:
            hp = mix(mix(hp, i), o)
            if o == 0x20:
                d = isa.decode(ws[i])
                for v in (d['gate'], d['pred_reg'], d['yes_pred'], d['unk_0'], d['en_v'], d['vs_reg_v1'],
                          d['imm_size'], d['v_op'], d['v_offset'] | (d['v_cmd'] << 8), d['vs_reg'], d['s_op'],
                          d['s_x'], d['s_y'], d['imm'], d['v_op_2'] | (d['vs_reg_w'] << 3) | (d['unk_3'] << 8)):
                    hb = mix(hb, v)
        print('BS\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d' % (path, e, c, len(ws), len(out), -1 if bad is None else bad, hp, hb))
)PY";

// The two loop nests of a compute packet factor the same work differently (taps and positions in
// x and y, or flat), so their products of (limit + 1) agree: a wrong slot position, width or pitch
// in compute_loop_nest.def breaks the agreement (docs/decoding-log.md "taps": 11,384 of the 11,393
// 0x01 packets of the distinct corpus files; 0x02 / 0x03 carry only Nest29).
TEST(IsaCorpus, TheComputePacketsTwoLoopNestsGiveTheSameWork) {
  CORALSIM_REQUIRE_CORPUS(testing::corpusDir());
  auto work = [](ComputeNest nest, std::span<const Word128> words) {
    uint64_t product = 1;
    for (const uint64_t limit : readComputeNestLimits(nest, words)) product *= limit + 1;
    return product;
  };
  std::set<uint64_t> seen;  // bitstreams by content: copies of a model count once
  size_t computes = 0, agree = 0, withTaps = 0;
  for (const auto& file : corpusPrograms()) {
    std::vector<ExecutableChunks> exes;
    try {
      exes = loadExecutables(file);
    } catch (const std::exception&) {
      continue;  // reported by the first test
    }
    for (const ExecutableChunks& exe : exes) {
      for (const Bitstream& b : exe) {
        uint64_t h = kFnvBasis;
        for (const Word128& w : b.words) h = mix(mix(h, w.lo), w.hi);
        if (!seen.insert(h).second) continue;
        const LenientSegmentation segmentation = segmentLenient(b.words);
        for (const Packet& p : segmentation.program.packets) {
          if (p.op != Opcode::TileCompute || p.wordIndex + 17 > b.words.size()) continue;
          const std::span<const Word128> words(b.words.data() + p.wordIndex, 17);
          ++computes;
          const uint64_t flat = work(ComputeNest::Nest29, words);
          if (work(ComputeNest::Nest37, words) == flat) ++agree;
          // A tap level: Nest29 has more work than its K level and one position level.
          const auto limits = readComputeNestLimits(ComputeNest::Nest29, words);
          if (limits[1] > 0 && limits[2] > 0) ++withTaps;
        }
      }
    }
  }
  std::cout << "  compute packets 0x01: " << computes << ", both nests agree in " << agree << ", "
            << withTaps << " with two levels above K\n";
  ASSERT_GT(computes, 1000u) << "the corpus lost its compute packets";
  EXPECT_GT(withTaps, 100u);
  EXPECT_GE(static_cast<double>(agree), 0.995 * static_cast<double>(computes));
}

TEST(IsaCorpus, PacketsAndBundleFieldsMatchTheReferenceTools) {
  CORALSIM_REQUIRE_CORPUS(testing::corpusDir());
  const auto tools = testing::toolsDir();
  if (!tools || !std::filesystem::exists(*tools / "isa" / "seg.py") || !testing::haveProgram("python3")) {
    GTEST_SKIP() << "\n*** SKIPPED: python3 or tools/isa/seg.py not found (set CORALSIM_TOOLS) ***\n";
  }
  const auto files = corpusPrograms();
  std::vector<std::string> argv = {"python3", "-c", kReferenceScript, (*tools / "isa").string()};
  for (const auto& f : files) argv.push_back(f.string());
  const auto output = testing::runCommand(argv);
  ASSERT_TRUE(output.has_value()) << "the reference script failed";

  struct Reference {
    size_t words, packets;
    long long bad;
    uint64_t packetHash, bundleHash;
  };
  std::map<std::tuple<std::string, size_t, size_t>, Reference> reference;
  std::istringstream lines(*output);
  std::string line;
  while (std::getline(lines, line)) {
    std::vector<std::string> cols;
    std::istringstream fields(line);
    for (std::string col; std::getline(fields, col, '\t');) cols.push_back(col);
    if (cols.empty()) continue;
    ASSERT_NE(cols[0], "ERROR") << line;
    ASSERT_EQ(cols.size(), 9u) << line;
    reference[{cols[1], std::stoul(cols[2]), std::stoul(cols[3])}] =
        Reference{std::stoul(cols[4]), std::stoul(cols[5]), std::stoll(cols[6]), std::stoull(cols[7]), std::stoull(cols[8])};
  }

  size_t compared = 0, bundles = 0;
  for (const auto& file : files) {
    for (const ExecutableChunks& exe : loadExecutables(file)) {
      for (const Bitstream& b : exe) {
        const auto it = reference.find({b.file, b.executable, b.chunk});
        if (it == reference.end()) {
          ADD_FAILURE() << where(b) << ": the reference tools list no such bitstream";
          continue;
        }
        const Reference& r = it->second;
        const LenientSegmentation seg = segmentLenient(b.words);
        uint64_t hp = kFnvBasis, hb = kFnvBasis;
        for (const Packet& p : seg.program.packets) {
          if (p.raw) break;
          hp = mix(mix(hp, p.wordIndex), static_cast<uint64_t>(p.op));
          if (p.op != Opcode::ScalarBundle) continue;
          ++bundles;
          const ScalarBundle s = decodeBundle(b.words[p.wordIndex]);
          for (uint64_t v : {uint64_t{s.gate}, uint64_t{s.pred}, uint64_t{s.polarity}, uint64_t{s.reserved5},
                             uint64_t{s.loadOp}, uint64_t{s.loadDest}, uint64_t{s.loadAddr},
                             uint64_t{static_cast<unsigned>(s.storeOp << 1) | s.reserved31}, uint64_t{s.storeOperand},
                             uint64_t{s.storeSrc}, uint64_t{s.aluOp}, uint64_t{s.aluDest}, uint64_t{s.aluSrcA},
                             uint64_t{s.aluImm}, uint64_t{s.high}}) {
            hb = mix(hb, v);
          }
        }
        EXPECT_EQ(b.words.size(), r.words) << where(b);
        EXPECT_EQ(seg.program.packets.size(), r.packets) << where(b);
        EXPECT_EQ(r.bad, -1) << where(b) << ": the reference segmenter stopped early";
        EXPECT_EQ(hp, r.packetHash) << where(b) << ": packet boundaries or opcodes differ";
        EXPECT_EQ(hb, r.bundleHash) << where(b) << ": scalar-bundle fields differ";
        ++compared;
      }
    }
  }
  std::cout << "ISA corpus vs tools/isa: " << compared << " bitstreams compared (" << reference.size()
            << " listed by the tools), " << bundles << " scalar bundles field by field\n";
  EXPECT_EQ(compared, reference.size());
}

}  // namespace
}  // namespace coralsim::isa::isa_corpus_test

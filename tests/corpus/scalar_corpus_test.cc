// The scalar core against an oracle we did not write: the DmaHints the Edge TPU compiler stored
// in every executable (docs/isa.md §3.8, the method of tools/isa/emucheck2.py).
//
// For every executable of every *_edgetpu.tflite and every executable .bin of the corpus:
//   1. give every buffer (OUTPUT / INPUT by layer name, PARAMETER, SCRATCH) its own 4 KiB-aligned
//      64-bit base address and link each chunk with it (driver/model/linker.h);
//   2. run the chunks in order through ONE ScalarEngine (state kept across chunks), recording the
//      descriptors it pushes and the words it streams;
//   3. map each pushed descriptor back to (buffer, offset) by address range and compare with the
//      hints through driver::checkAgainstHints (driver/run/hint_check.h, the same oracle `coralsim run`
//      reports): contiguous transfers to the same buffer in the same direction are merged;
//      dma hints -> (buffer kind, name, offset, size, direction), interrupt hints -> interrupt;
//      executables whose hints are not fully deterministic are compared on the hinted prefix;
//   4. stream-out: every stream word must fall into the window of the output (tag 3) descriptor
//      pushed last, and each window that receives stream words receives exactly its length.
// Two address layouts are run: "plain" bases and "carry" bases whose low halves sit just below
// 2^32, so the compiler's 64-bit add-with-carry idiom (docs/isa.md §3.7) must carry correctly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "driver/run/hint_check.h"
#include "driver/model/linker.h"
#include "driver/model/model_loader.h"
#include "models/chip_config.h"
#include "models/scalar/decoded_program.h"
#include "models/scalar/scalar_engine.h"
#include "tests/support/corpus.h"

namespace coralsim::scalar_corpus_test {
namespace {

using driver::BufferKind;
using models::Descriptor;
using models::ScalarEngine;
using models::StopReason;

// ---- buffers and addresses ------------------------------------------------------------------------

using BufferKey = std::tuple<BufferKind, std::string, int32_t>;  // kind, name, batch

BufferKey keyOf(const driver::BufferRef& ref) { return {ref.kind, ref.name, ref.batch}; }

enum class Layout { kPlain, kCarry };

// Buffer k lives in the 4 GiB region starting at kRegionBase + k * 2^32; "carry" places the base
// 1 MiB below the top of the region's low half, so transfers past that point carry into the high
// word. Both are 4 KiB aligned.
class AddressPlan {
 public:
  static constexpr uint64_t kRegionBase = 0x0000'7f10'0000'0000ull;
  static constexpr uint64_t kRegionSize = 0x1'0000'0000ull;
  static constexpr uint64_t kCarryOffset = 0xfff0'0000ull;

  AddressPlan(const driver::Executable& exe, Layout layout) {
    const uint64_t low = layout == Layout::kCarry ? kCarryOffset : 0;
    auto add = [&](const driver::BufferRef& ref) {
      const BufferKey key = keyOf(ref);
      if (index_.count(key)) return;
      const uint64_t base = kRegionBase + index_.size() * kRegionSize + low;
      index_[key] = base;
      buffers_.push_back(key);
      addresses_.set(ref.kind, ref.name, base, ref.batch);
    };
    for (const auto& chunk : exe.bitstreams) {
      for (const auto& fo : chunk.fieldOffsets) {
        if (fo.target) add(*fo.target);
      }
    }
    if (exe.dmaHints) {
      for (const auto& h : exe.dmaHints->hints) {
        if (h.buffer) add(*h.buffer);
      }
    }
    low_ = low;
  }

  [[nodiscard]] const driver::BaseAddresses& addresses() const { return addresses_; }

  // The buffer and offset of `address`, or nullopt when it lies in no buffer's region.
  [[nodiscard]] std::optional<std::pair<BufferKey, uint64_t>> lookup(uint64_t address) const {
    if (address < kRegionBase + low_) return std::nullopt;
    const uint64_t k = (address - kRegionBase - low_) / kRegionSize;
    if (k >= buffers_.size()) return std::nullopt;
    const BufferKey& key = buffers_[k];
    return std::make_pair(key, address - index_.at(key));
  }

 private:
  std::map<BufferKey, uint64_t> index_;
  std::vector<BufferKey> buffers_;
  driver::BaseAddresses addresses_;
  uint64_t low_ = 0;
};

// ---- the recording host ---------------------------------------------------------------------------

class TraceHost : public models::ScalarCoreHost {
 public:
  explicit TraceHost(const AddressPlan& plan) : plan_(plan) {}

  void pushDescriptor(const Descriptor& d, uint64_t) override {
    ++descriptors;
    closeWindow();
    driver::ObservedDescriptor observed;
    observed.descriptor = driver::DeviceDescriptor{d.tag, d.address, d.length};
    if (d.tag >= 1 && d.tag <= 3) {
      if (const auto where = plan_.lookup(d.address)) {
        const auto& [kind, name, batch] = where->first;
        observed.target = driver::DescriptorTarget{kind, name, batch, where->second};
      }
    }
    record.descriptors.push_back(std::move(observed));
    if (d.tag == 3) window_ = OpenWindow{d.length, 0};
  }

  void streamWord(uint32_t, uint64_t) override {
    ++streamWords;
    if (!window_) {
      ++strayStreamWords;
      return;
    }
    window_->filled += 4;
  }

  void issuePacket(const models::DecodedPacket&, uint64_t) override { ++issuedPackets; }

  // Call once the run is over.
  void finish() { closeWindow(); }

  driver::ExecutableRunRecord record;  // the descriptors, for driver::checkAgainstHints
  uint64_t descriptors = 0;
  uint64_t streamWords = 0;
  uint64_t strayStreamWords = 0;   // stream words with no output window open
  uint64_t streamedWindows = 0;    // output windows that received stream words
  uint64_t streamedWindowBytes = 0;  // sum of those windows' lengths
  uint64_t badWindows = 0;         // windows whose stream bytes differ from their length
  uint64_t issuedPackets = 0;

 private:
  struct OpenWindow {
    uint64_t length = 0;
    uint64_t filled = 0;
  };

  void closeWindow() {
    if (window_ && window_->filled > 0) {
      ++streamedWindows;
      streamedWindowBytes += window_->length;
      if (window_->filled != window_->length) ++badWindows;
    }
    window_.reset();
  }

  const AddressPlan& plan_;
  std::optional<OpenWindow> window_;
};

// ---- running one executable -----------------------------------------------------------------------

struct RunResult {
  std::string error;  // decode/link/fault/wrong stop, empty when the run completed
  driver::ExecutableRunRecord record;
  uint64_t descriptors = 0;
  uint64_t streamWords = 0;
  uint64_t strayStreamWords = 0;
  uint64_t streamedWindows = 0;
  uint64_t streamedWindowBytes = 0;
  uint64_t badWindows = 0;
  uint64_t cycles = 0;
  uint64_t bundles = 0;
  uint64_t issuedPackets = 0;
};

RunResult runExecutable(const driver::Executable& exe, Layout layout) {
  RunResult r;
  const models::ChipConfig config;
  const AddressPlan plan(exe, layout);
  ScalarEngine engine(config.scalarMemoryWords);
  TraceHost host(plan);
  for (size_t c = 0; c < exe.bitstreams.size() && r.error.empty(); ++c) {
    const std::string where = "chunk " + std::to_string(c) + ": ";
    try {
      const std::vector<uint8_t> linked = driver::linkedCopy(exe.bitstreams[c], plan.addresses());
      engine.load(models::DecodedProgram::fromBytes(linked));
      const StopReason reason = engine.run(config.cycleLimit, host);
      const bool last = c + 1 == exe.bitstreams.size();
      const StopReason expected = last ? StopReason::kFinalHalt : StopReason::kChunkEnd;
      if (reason != expected) {
        r.error = where + (reason == StopReason::kBudget ? std::string("cycle limit reached (runaway?)")
                           : reason == StopReason::kFinalHalt ? std::string("final HALT before the last chunk")
                           : reason == StopReason::kChunkEnd ? std::string("chunk-end HALT in the last chunk")
                                                             : std::string("unexpected stop"));
      }
    } catch (const std::exception& e) {
      r.error = where + e.what();
    }
  }
  host.finish();
  r.record = std::move(host.record);
  r.descriptors = host.descriptors;
  r.streamWords = host.streamWords;
  r.strayStreamWords = host.strayStreamWords;
  r.streamedWindows = host.streamedWindows;
  r.streamedWindowBytes = host.streamedWindowBytes;
  r.badWindows = host.badWindows;
  r.cycles = engine.cycles();
  r.bundles = engine.bundlesExecuted();
  r.issuedPackets = host.issuedPackets;
  return r;
}

// ---- the corpus -----------------------------------------------------------------------------------

// Calls fn(label, executable) for every executable of the corpus, one file at a time (the files
// hold megabytes of parameters: never all at once). Label: "<file in the corpus> #<i> <TYPE>".
template <typename Fn>
void forEachCorpusExecutable(size_t& filesLoaded, size_t& binsRejected, Fn&& fn) {
  const auto root = testing::corpusDir();
  auto visit = [&](const std::filesystem::path& path, bool mayBeOther) {
    driver::ModelFile model;
    try {
      model = driver::loadModelFile(path);
    } catch (const driver::LoadError& e) {
      if (mayBeOther) {
        ++binsRejected;  // not an executable (test inputs, firmware, ...)
        return;
      }
      ADD_FAILURE() << e.what();
      return;
    }
    ++filesLoaded;
    const auto exes = driver::allExecutables(model);
    const std::string rel = std::filesystem::relative(path, *root).string();
    for (size_t i = 0; i < exes.size(); ++i) {
      const auto type = driver::executableTypeName(exes[i]->type);
      fn(rel + " #" + std::to_string(i) + " " + (type ? std::string(*type) : "?"), *exes[i]);
    }
  };
  for (const auto& path : testing::corpusFiles("_edgetpu.tflite")) visit(path, false);
  for (const auto& path : testing::corpusFiles(".bin")) visit(path, true);
}

TEST(ScalarCorpus, DescriptorsMatchTheDmaHintsOfEveryExecutable) {
  CORALSIM_REQUIRE_CORPUS(testing::corpusDir());
  size_t files = 0, binsRejected = 0, executables = 0;
  size_t matched = 0, prefixOnly = 0, noHints = 0, streamExecutables = 0, streamMismatches = 0;
  uint64_t totalBundles = 0, totalCycles = 0, totalStreamWords = 0, totalDescriptors = 0;
  std::vector<std::string> mismatches;

  forEachCorpusExecutable(files, binsRejected, [&](const std::string& label, const driver::Executable& exe) {
    ++executables;
    const RunResult plain = runExecutable(exe, Layout::kPlain);
    const RunResult carry = runExecutable(exe, Layout::kCarry);
    const driver::HintCheck check = driver::checkAgainstHints(plain.record, exe);
    const bool deterministic = exe.dmaHints && exe.dmaHints->fullyDeterministic;
    totalBundles += plain.bundles;
    totalCycles += plain.cycles;
    totalStreamWords += plain.streamWords;
    totalDescriptors += plain.descriptors;

    std::string status;
    std::string why;
    if (!plain.error.empty()) {
      why = plain.error;
    } else if (!carry.error.empty()) {
      why = "carry layout: " + carry.error;
    } else if (!exe.dmaHints) {
      ++noHints;
      status = "NOHINTS";
    } else if (!check.ok()) {
      why = check.detail;
    } else if (const driver::HintCheck carried = driver::checkAgainstHints(carry.record, exe); !carried.ok()) {
      why = "carry layout: " + carried.detail;
    }

    // Stream-out: every word inside an output window, each streamed window filled exactly.
    std::string streamNote;
    if (plain.streamWords > 0 && plain.error.empty()) {
      ++streamExecutables;
      const bool ok = plain.strayStreamWords == 0 && plain.badWindows == 0 &&
                      plain.streamWords * 4 == plain.streamedWindowBytes;
      streamNote = " stream=" + std::to_string(plain.streamWords * 4) + "B/" + std::to_string(plain.streamedWindows) +
                   " windows (" + std::to_string(plain.streamedWindowBytes) + "B) " + (ok ? "ok" : "MISMATCH");
      if (!ok) {
        ++streamMismatches;
        ADD_FAILURE() << label << ": stream-out: " << plain.streamWords * 4 << " bytes streamed, "
                      << plain.streamedWindowBytes << " bytes of output windows that received them, "
                      << plain.strayStreamWords << " words outside any window, " << plain.badWindows
                      << " windows not filled exactly";
      }
    }

    if (status.empty()) {
      if (why.empty()) {
        ++matched;
        status = deterministic ? "OK" : "PREFIX";
        if (!deterministic) ++prefixOnly;
      } else {
        status = "DIFF";
        mismatches.push_back(label + ": " + why);
      }
    }
    std::printf("%-7s %s chunks=%zu descs=%llu merged=%zu hints=%zu%s cycles=%llu bundles=%llu%s\n", status.c_str(),
                label.c_str(), exe.bitstreams.size(), static_cast<unsigned long long>(plain.descriptors),
                check.pushed, check.hinted, deterministic ? "" : " (not fully deterministic)",
                static_cast<unsigned long long>(plain.cycles), static_cast<unsigned long long>(plain.bundles),
                streamNote.c_str());
    if (status == "DIFF") std::printf("        %s\n", why.c_str());
  });
  ASSERT_GT(executables, 0u);

  const size_t withHints = executables - noHints;
  std::printf("\nScalar core vs DmaHints: %zu of %zu executables match their DMA hints (%zu on the hinted prefix "
              "only, not fully deterministic); %zu executables without hints; %zu files, %zu other .bin files "
              "skipped\n",
              matched, withHints, prefixOnly, noHints, files, binsRejected);
  std::printf("  %llu descriptors pushed, %llu bundles, %llu cycles, %llu stream words; %zu executables stream "
              "output (%zu mismatches)\n",
              static_cast<unsigned long long>(totalDescriptors), static_cast<unsigned long long>(totalBundles),
              static_cast<unsigned long long>(totalCycles), static_cast<unsigned long long>(totalStreamWords),
              streamExecutables, streamMismatches);
  for (const std::string& m : mismatches) std::printf("  MISMATCH %s\n", m.c_str());
  std::fflush(stdout);

  EXPECT_EQ(matched, withHints) << mismatches.size() << " executables do not match their DMA hints";
  EXPECT_GT(matched, 0u);
}

// The hand-made .coral programs (edgetpuxray) carry no hints; each must end cleanly: a HALT, a
// ScalarFault or a decode error with a message, never a crash or a hang (bounded budget).
TEST(ScalarCorpus, RawProgramsHaltOrFaultCleanly) {
  CORALSIM_REQUIRE_CORPUS(testing::corpusDir());
  const auto root = testing::corpusDir();
  const auto files = testing::corpusFiles(".coral");
  size_t halted = 0, faulted = 0, undecodable = 0;
  for (const auto& path : files) {
    const std::string rel = std::filesystem::relative(path, *root).string();
    const models::ChipConfig config;
    ScalarEngine engine(config.scalarMemoryWords);
    const AddressPlan noBuffers(driver::Executable{}, Layout::kPlain);
    TraceHost host(noBuffers);
    std::string outcome;
    try {
      const driver::ModelFile model = driver::loadModelFile(path);
      ASSERT_TRUE(model.rawBitstream.has_value()) << rel;
      engine.load(models::DecodedProgram::fromBytes(model.rawBitstream->bytes));
      const StopReason reason = engine.run(10'000'000, host);
      EXPECT_NE(reason, StopReason::kBudget) << rel << ": still running after 10M cycles";
      ++halted;
      outcome = reason == StopReason::kFinalHalt ? "final HALT" : reason == StopReason::kChunkEnd ? "chunk HALT" : "budget";
    } catch (const models::ProgramDecodeError& e) {
      ++undecodable;
      outcome = std::string("decode error: ") + e.what();
    } catch (const models::ScalarFault& e) {
      ++faulted;
      outcome = std::string("fault: ") + e.what();
    }
    std::printf("  %s: %s; %llu descriptors, %llu stream words, %llu cycles\n", rel.c_str(), outcome.c_str(),
                static_cast<unsigned long long>(host.descriptors), static_cast<unsigned long long>(host.streamWords),
                static_cast<unsigned long long>(engine.cycles()));
  }
  std::printf("raw programs: %zu halted, %zu faulted, %zu not decodable, of %zu\n", halted, faulted, undecodable,
              files.size());
  std::fflush(stdout);
  EXPECT_EQ(halted + faulted + undecodable, files.size());
}

}  // namespace
}  // namespace coralsim::scalar_corpus_test

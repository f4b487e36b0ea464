#include "models/chip/datapath.h"

#include <stdexcept>
#include <utility>

namespace coralsim::models {

namespace {
// Rank for "lowest rung used": protocol < hle < lle.
int rank(ExecutionMode mode) {
  switch (mode) {
    case ExecutionMode::kLle: return 3;
    case ExecutionMode::kHle: return 2;
    default: return 1;
  }
}
}  // namespace

Datapath::Datapath(const sc_core::sc_module_name& name, RungFactories rungs)
    : sc_core::sc_module(name), infeed("infeed"), factories_(std::move(rungs)) {}

void Datapath::configure(const ChipConfig& config) {
  mode_ = config.mode;
  candidates_.clear();
  if (mode_ == ExecutionMode::kProtocol) return;
  if (mode_ == ExecutionMode::kLle || mode_ == ExecutionMode::kAuto) {
    if (auto lle = factories_.lle ? factories_.lle(config) : nullptr) {
      candidates_.push_back({std::move(lle), true});
    } else if (mode_ == ExecutionMode::kLle) {
      throw std::invalid_argument("execution mode 'lle': the low-level datapath is not available in this build");
    }
  }
  if (mode_ == ExecutionMode::kHle || mode_ == ExecutionMode::kAuto) {
    if (auto hle = factories_.hle ? factories_.hle(config) : nullptr) {
      candidates_.push_back({std::move(hle), true});
    } else if (mode_ == ExecutionMode::kHle) {
      throw std::invalid_argument(
          "execution mode 'hle' needs at least one registered program (a compiled model paired with its CPU "
          "twin, e.g. --hle MODEL_edgetpu.tflite=MODEL.tflite)");
    }
  }
}

void Datapath::reset() {
  for (Candidate& c : candidates_) {
    c.rung->reset();
    c.standing = true;
  }
  window_ = 0;
  anyWindow_ = false;
  notes_.clear();
  undefined_.clear();
}

void Datapath::beginRun() {
  for (Candidate& c : candidates_) {
    c.standing = true;
    c.rung->beginRun();
  }
  window_ = 0;
  anyWindow_ = false;
  lowestUsed_ = ExecutionMode::kLle;
  notes_.clear();
  undefined_.clear();
}

void Datapath::drop(Candidate& candidate, const std::string& why) {
  candidate.standing = false;
  if (!notes_.empty()) notes_ += "; ";
  notes_ += std::string(executionModeName(candidate.rung->rung())) + ": " + why;
}

void Datapath::instructionChunk(std::span<const uint8_t> chunk, const DecodedProgram& program, uint64_t /*cycle*/) {
  for (Candidate& c : candidates_) {
    if (!c.standing) continue;
    const std::string refusal = c.rung->acceptChunk(chunk, &program);
    if (refusal.empty()) continue;
    if (strict()) throw ChipFault(FaultKind::kUnsupported, refusal);
    drop(c, refusal);
  }
}

void Datapath::packet(const DecodedPacket& packet, uint64_t cycle) {
  for (Candidate& c : candidates_) {
    if (!c.standing) continue;
    if (strict()) {
      c.rung->packet(packet, *this, cycle);  // its ChipFault stops the core
      continue;
    }
    try {
      c.rung->packet(packet, *this, cycle);
    } catch (const ChipFault& fault) {
      drop(c, fault.what());
    }
  }
  // Only the highest rung still standing computes the run's numbers, so only its writes reach the
  // scalar core; the others' are taken and dropped so that none is replayed later.
  bool computing = true;
  for (Candidate& c : candidates_) {
    if (!c.standing) continue;
    std::vector<ScalarMemoryWrite> writes = c.rung->takeScalarMemoryWrites();
    if (!computing) continue;
    computing = false;
    for (const ScalarMemoryWrite& w : writes) scalarMemory->writeDataWords(w.firstWord, w.words, cycle);
  }
}

std::vector<uint8_t> Datapath::windowTail(uint32_t windowLength, std::span<uint8_t> streamedHead, uint64_t /*cycle*/) {
  const auto streamedBytes = static_cast<uint32_t>(streamedHead.size());
  const unsigned window = window_++;
  anyWindow_ = true;
  for (Candidate& c : candidates_) {
    if (!c.standing) continue;
    std::vector<uint8_t> tail;
    if (strict()) {
      tail = c.rung->windowTail(window, windowLength, streamedBytes, *this);  // its ChipFault stops the core
    } else {
      // auto: a rung that cannot compute this window (hle: the twin needs an op the kernels lack)
      // is dropped like one that declines a packet, and the next rung answers.
      try {
        tail = c.rung->windowTail(window, windowLength, streamedBytes, *this);
      } catch (const ChipFault& fault) {
        drop(c, fault.what());
        continue;
      }
    }
    if (tail.size() > windowLength - streamedBytes) {
      throw ChipFault(FaultKind::kInternal, std::string(executionModeName(c.rung->rung())) +
                                                " rung produced more bytes than output window " +
                                                std::to_string(window) + " holds");
    }
    c.rung->overwriteStreamedHead(window, streamedHead);
    for (const uint32_t offset : c.rung->undefinedTailBytes(window)) undefined_.emplace_back(window, streamedBytes + offset);
    // A tail shorter than the window's rest leaves fillers: that window is partly protocol.
    const ExecutionMode used =
        tail.size() < windowLength - streamedBytes ? ExecutionMode::kProtocol : c.rung->rung();
    if (rank(used) < rank(lowestUsed_)) lowestUsed_ = used;
    return tail;
  }
  // No rung standing: protocol fillers. (A window filled entirely by stream words needs none.)
  if (streamedBytes < windowLength) lowestUsed_ = ExecutionMode::kProtocol;
  return {};
}

RungReport Datapath::endRun() {
  for (Candidate& c : candidates_) c.rung->endRun();
  RungReport report;
  if (anyWindow_) {
    report.rung = lowestUsed_;
    // Windows filled entirely by scalar stream words need no rung, so they do not lower
    // lowestUsed_; but a rung dropped during the run cannot be the one reported: cap the report
    // at the highest rung still standing (protocol when none is).
    ExecutionMode standing = ExecutionMode::kProtocol;
    for (const Candidate& c : candidates_) {
      if (c.standing) {
        standing = c.rung->rung();
        break;
      }
    }
    if (rank(standing) < rank(report.rung)) report.rung = standing;
  } else {
    // A run with no output windows (parameter caching): the highest rung that followed it all.
    report.rung = ExecutionMode::kProtocol;
    for (const Candidate& c : candidates_) {
      if (c.standing) {
        report.rung = c.rung->rung();
        break;
      }
    }
  }
  report.note = notes_;
  report.undefinedOutputBytes = std::move(undefined_);
  undefined_.clear();
  return report;
}

std::span<const uint8_t> Datapath::inputBytes() const { return infeed->runBytes(InfeedClass::kInput); }
std::span<const uint8_t> Datapath::parameterBytes() const { return infeed->runBytes(InfeedClass::kParameter); }

}  // namespace coralsim::models

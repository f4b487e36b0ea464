#include "models/chip/scalar_core.h"

#include <algorithm>
#include <exception>
#include <utility>

#include "models/isa/disassembler.h"
#include "models/isa/number_text.h"
#include "models/isa/packet_fields.h"
#include "models/sanitizer_stack.h"
#include "models/scalar/decoded_program.h"

namespace coralsim::models {
namespace {

// The engine, its callbacks and exception unwinding run on this thread's own stack.
constexpr size_t kStackBytes = 1u << 20;

sc_core::sc_time clockPeriod(units::Frequency clock) {
  return sc_core::sc_time(1.0 / static_cast<double>(clock.value() == 0 ? 1 : clock.value()), sc_core::SC_SEC);
}

// START's body_bits must be (words - 2) x 128 for a record of `words` words (docs/isa.md §2.2).
// Returns an error text, or "" when the chunk starts with a START that agrees with its size (a
// chunk that does not start with START is left to the strict decoder to describe).
std::string checkStartLength(const InstructionChunk& chunk) {
  const size_t words = chunk.bytes.size() / isa::Word128::kBytes;
  if (words == 0) return "";
  const isa::Word128 first = isa::Word128::fromBytes(chunk.bytes.data());
  if (isa::opcodeOf(first) != isa::Opcode::FrameStart) return "";
  const isa::FieldDef* field = isa::findPacketField(isa::Opcode::FrameStart, "body_bits");
  if (field == nullptr) return "";
  const uint64_t bodyBits = first.bits(field->lsb, field->width);
  const uint64_t expected = words >= 2 ? (words - 2) * 128 : 0;
  if (words >= 2 && bodyBits == expected) return "";
  return "START at word 0 says body_bits = " + std::to_string(bodyBits) + " (a frame of " +
         std::to_string(bodyBits / 128 + 2) + " words) but the tag-0 record holds " + std::to_string(words) +
         " words (body_bits must be (words - 2) x 128 = " + std::to_string(expected) + ")";
}

}  // namespace

ScalarCore::ScalarCore(const sc_core::sc_module_name& name, CsrBlock& csrs)
    : sc_core::sc_module(name),
      instructions("instructions"),
      descriptors("descriptors"),
      outfeed("outfeed"),
      infeed("infeed"),
      tiles("tiles"),
      faults("faults"),
      datapath("datapath"),
      csrs_(csrs),
      period_(clockPeriod(config_.clockHz)),
      engine_(std::make_unique<ScalarEngine>(config_.scalarMemoryWords)) {
  SC_THREAD(thread);
  set_stack_size(kStackBytes);
  registerCsrHooks();
}

// ---- requests from outside -------------------------------------------------------------------

void ScalarCore::requestPowerOnReset(const ChipConfig& config) {
  resetRequest_ = ResetRequest::kPowerOn;
  pendingConfig_ = config;
  sleeping_ = true;
  wake_.notify(sc_core::SC_ZERO_TIME);
  reset_.notify(sc_core::SC_ZERO_TIME);
}

void ScalarCore::requestGcbReset() {
  if (resetRequest_ != ResetRequest::kPowerOn) resetRequest_ = ResetRequest::kGcb;
  wake_.notify(sc_core::SC_ZERO_TIME);
  reset_.notify(sc_core::SC_ZERO_TIME);
}

void ScalarCore::setSleeping(bool sleeping) {
  sleeping_ = sleeping;
  wake_.notify(sc_core::SC_ZERO_TIME);
}

// ---- observation -------------------------------------------------------------------------------

uint64_t ScalarCore::cycles() const { return engine_->cycles() + extraCycles_; }

uint64_t ScalarCore::runStatus() const {
  if (resetRequest_ != ResetRequest::kNone) return run_status::kIdle;
  if (stepping_) return run_status::kSingleStep;
  if (faulted_) return run_status::kHalted;
  if (!parked_) return runControl_ == run_control::kRun ? run_status::kRun : run_status::kHalting;
  if (runControl_ == run_control::kIdle || sleeping_) return run_status::kIdle;
  if (runControl_ == run_control::kRun && !breakHalted_) return run_status::kRun;
  return run_status::kHalted;
}

uint32_t ScalarCore::pc() const { return resetRequest_ != ResetRequest::kNone ? 0 : engine_->pc(); }

// ---- the thread --------------------------------------------------------------------------------

void ScalarCore::thread() {
  for (;;) {
    try {
      applyPendingReset();
      runLoop();
    } catch (const ResetUnwind&) {
      // The reset is applied at the top of the loop.
      forgetUnwoundFrames();
    }
  }
}

void ScalarCore::applyPendingReset() {
  if (resetRequest_ == ResetRequest::kNone) return;
  // A GCB reset ends the current run unfinished (power-on forgets every run anyway).
  if (runActive_ && resetRequest_ == ResetRequest::kGcb) closeRunRecord();
  if (resetRequest_ == ResetRequest::kPowerOn) {
    config_ = *pendingConfig_;
    pendingConfig_.reset();
    period_ = clockPeriod(config_.clockHz);
    engine_ = std::make_unique<ScalarEngine>(config_.scalarMemoryWords);
    engine_->setTraceHook(config_.tracer && config_.tracer->instructions() ? this : nullptr);
    extraCycles_ = 0;
    syncedCycle_ = 0;
    runs_.clear();
  } else {
    engine_->reset();
  }
  // scalarCoreBreakPoint is a GCB register: it is back to 0 (disarmed).
  breakpoint_.reset();
  engine_->setBreakpoint(breakpoint_);
  runControl_ = run_control::kIdle;
  stepPending_ = false;
  stepping_ = false;
  breakHalted_ = false;
  parked_ = true;
  faulted_ = false;
  runActive_ = false;
  chunksInRun_ = 0;
  resetRequest_ = ResetRequest::kNone;
}

bool ScalarCore::mayExecute() const {
  if (faulted_ || sleeping_) return false;
  return stepPending_ || (runControl_ == run_control::kRun && !breakHalted_);
}

bool ScalarCore::needsChunk() const { return !engine_->loaded() || engine_->haltReason().has_value(); }

void ScalarCore::runLoop() {
  for (;;) {
    parked_ = true;
    throwIfReset();
    if (!mayExecute()) {
      wait(wake_);
      continue;
    }
    if (needsChunk()) {
      std::optional<InstructionChunk> chunk = instructions->tryTakeChunk();
      if (!chunk) {
        waitHost(instructions->chunkEvent());
        continue;
      }
      loadChunk(std::move(*chunk));
      continue;
    }
    executeSome();
  }
}

void ScalarCore::loadChunk(InstructionChunk chunk) {
  if (chunk.bytes.empty()) {
    // Nothing to fetch: ignored rather than refused (docs/refusal-rules.md), no run starts.
    noteOddity("instruction chunk " + std::to_string(chunk.sequence) + " is an empty tag-0 record: ignored");
    return;
  }
  if (!runActive_) beginRun();
  const std::string name = "instruction chunk " + std::to_string(chunk.sequence) + " (" +
                           std::to_string(chunk.bytes.size()) + " bytes)";
  if (chunk.bytes.size() % isa::Word128::kBytes != 0) {
    stopOnFault(FaultKind::kInstructionFrame, name + " is not a whole number of 16-byte words");
    return;
  }
  if (const std::string error = checkStartLength(chunk); !error.empty()) {
    stopOnFault(FaultKind::kInstructionFrame, name + ": " + error);
    return;
  }
  try {
    std::shared_ptr<const DecodedProgram> program = DecodedProgram::fromBytes(chunk.bytes);
    for (const std::string& note : program->frameNotes()) noteOddity(name + ": " + note);
    engine_->load(program);
    ++chunksInRun_;
    if (tracingEvents()) [[unlikely]] {
      traceInstant({traces::TraceUnitKind::kScalarCore, 0}, "chunk " + std::to_string(chunksInRun_ - 1), now(),
                   {{"bytes", chunk.bytes.size()}, {"sequence", chunk.sequence}});
    }
    datapath->instructionChunk(chunk.bytes, *program, now());  // decoded once, here
  } catch (const ChipFault& f) {
    forgetUnwoundFrames();
    stopOnFault(f.kind(), name + ": " + f.what());
  } catch (const std::exception& e) {
    forgetUnwoundFrames();
    stopOnFault(FaultKind::kInstructionFrame, name + ": " + e.what());
  }
}

void ScalarCore::executeSome() {
  parked_ = false;
  StopReason reason = StopReason::kBudget;
  try {
    if (stepPending_) {
      stepping_ = true;
      reason = engine_->step(*this);
    } else {
      reason = engine_->run(budget(), *this);
    }
  } catch (const ResetUnwind&) {
    throw;
  } catch (const ScalarFault& f) {
    forgetUnwoundFrames();
    stopOnFault(FaultKind::kScalarCore, f.what());
  } catch (const ChipFault& f) {
    forgetUnwoundFrames();
    stopOnFault(f.kind(), f.what());
  } catch (const std::exception& e) {
    forgetUnwoundFrames();
    stopOnFault(FaultKind::kInternal, std::string("at PC ") + isa::formatHex(engine_->pc()) + ": " + e.what());
  }
  stepping_ = false;
  stepPending_ = false;
  if (faulted_) return;
  // The engine stopped between packets: what is left is time accounting (and, after a final
  // HALT, waiting for the run to drain), so run status already reports the stop.
  parked_ = true;
  syncTo(now(), /*interruptible=*/true);

  switch (reason) {
    case StopReason::kFinalHalt:
      try {
        finishRun();
      } catch (const ChipFault& f) {  // the datapath, producing the last window
        forgetUnwoundFrames();
        stopOnFault(f.kind(), f.what());
      }
      break;
    case StopReason::kChunkEnd:
      // The next chunk continues with the state kept. The host may wait for this chunk's outputs
      // before it sends the next one (libedgetpu's single-EP order), so the tile outfeed has
      // produced the open window by now.
      try {
        outfeed->closeWindow(now());
      } catch (const ChipFault& f) {
        forgetUnwoundFrames();
        stopOnFault(f.kind(), f.what());
      }
      break;
    case StopReason::kBreakpoint:
      breakHalted_ = true;
      break;
    case StopReason::kBudget:
      if (runActive_ && now() - runs_.back().startCycle >= config_.cycleLimit) {
        stopOnFault(FaultKind::kCycleLimit,
                    "the run exceeded the cycle limit of " + std::to_string(config_.cycleLimit.value()) +
                        " cycles (runaway program?) at PC " + isa::formatHex(engine_->pc()));
      }
      break;
  }
}

void ScalarCore::beginRun() {
  runActive_ = true;
  chunksInRun_ = 0;
  infeed->beginRun();
  datapath->beginRun();
  RunRecord record;
  record.startCycle = now();
  record.firstDescriptor = descriptors->log().size();
  record.outputBytes = outfeed->outputBytes();           // baseline, made a difference at the end
  record.notComputedBytes = outfeed->notComputedBytes();
  runs_.push_back(record);
}

void ScalarCore::closeRunRecord() {
  RunRecord& record = runs_.back();
  record.endCycle = now();
  record.descriptorCount = descriptors->log().size() - record.firstDescriptor;
  record.outputBytes = outfeed->outputBytes() - record.outputBytes;
  record.notComputedBytes = outfeed->notComputedBytes() - record.notComputedBytes;
  record.chunks = chunksInRun_;
  if (tracingEvents()) [[unlikely]] {
    traces::TraceEvent e;
    e.kind = traces::TraceEventKind::kSpan;
    e.unit = {traces::TraceUnitKind::kScalarCore, 0};
    e.cycle = record.startCycle;
    e.duration = record.endCycle - record.startCycle;
    e.name = "run " + std::to_string(runs_.size() - 1) + (record.finished ? "" : " (unfinished)");
    e.args = {{"chunks", record.chunks}, {"descriptors", record.descriptorCount}, {"output_bytes", record.outputBytes}};
    config_.tracer->record(e);
  }
  RungReport rung = datapath->endRun();
  record.rung = rung.rung;
  record.rungNote = std::move(rung.note);
  record.undefinedOutputBytes = std::move(rung.undefinedOutputBytes);
  runActive_ = false;
}

void ScalarCore::finishRun() {
  // The run is over when the host has delivered every byte the program asked for ...
  waitInfeedSatisfied();
  // ... and every tile has finished every packet.
  while (tiles->packetsInFlight()) {
    wait(sc_core::SC_ZERO_TIME);
    throwIfReset();
  }
  stallUntil(tiles->idleCycle());
  outfeed->closeWindow(now());
  // ... and the last output byte has left the chip.
  stallUntil(outfeed->readyCycle());
  tiles->restartSequence();
  syncTo(now());
  runs_.back().finished = true;
  closeRunRecord();
}

void ScalarCore::noteOddity(std::string text) {
  if (tracingEvents()) [[unlikely]] traceInstant({traces::TraceUnitKind::kScalarCore, 0}, "note: " + text, now(), {});
  if (!runActive_) return;
  RunRecord& record = runs_.back();
  if (record.notes.size() < RunRecord::kMaxNotes) record.notes.push_back(std::move(text));
  else ++record.notesDropped;
}

void ScalarCore::stopOnFault(FaultKind kind, const std::string& text) {
  faulted_ = true;
  if (runActive_) {
    runs_.back().faulted = true;
    closeRunRecord();
  }
  faults->raise(kind, text, now());
}

// ---- time --------------------------------------------------------------------------------------

uint64_t ScalarCore::budget() const {
  if (!runActive_) return kQuantumCycles;
  const uint64_t used = now() - runs_.back().startCycle;
  const uint64_t limit = config_.cycleLimit.value();
  const uint64_t left = used >= limit ? 1 : limit - used;
  return std::min(kQuantumCycles, left);
}

void ScalarCore::syncTo(uint64_t cycle, bool interruptible) {
  if (cycle > syncedCycle_) {
    const sc_core::sc_time delay = period_ * static_cast<double>(cycle - syncedCycle_);
    syncedCycle_ = cycle;
    // Between packets a run-control change (a debugger's step or halt) ends the wait early:
    // SystemC time then lags the chip clock, which only the chip clock's readers would notice,
    // and they read the chip clock.
    if (interruptible) {
      wait(delay, wake_ | reset_);
    } else {
      wait(delay, reset_);
    }
  }
  throwIfReset();
}

void ScalarCore::stallUntil(uint64_t cycle) {
  const uint64_t current = now();
  if (cycle > current) extraCycles_ += cycle - current;
}

// Waiting for the host: simulated time passes, chip time does not.
void ScalarCore::waitHost(const sc_core::sc_event& event) {
  wait(event | wake_);
  throwIfReset();
}

void ScalarCore::throwIfReset() const {
  if (resetRequest_ != ResetRequest::kNone) throw ResetUnwind{};
}

void ScalarCore::waitInfeedSatisfied() {
  while (infeed->outstandingBytes() > 0) waitHost(infeed->satisfiedEvent());
  stallUntil(infeed->readyCycle());
}

// ---- ScalarCoreHost ----------------------------------------------------------------------------

void ScalarCore::pushDescriptor(const Descriptor& descriptor, uint64_t cycle) {
  const uint64_t at = cycle + extraCycles_;
  syncTo(at);
  descriptors->push(descriptor, at);
  if (tracingEvents()) [[unlikely]] {
    traceInstant({traces::TraceUnitKind::kDmaEngine, static_cast<uint16_t>(descriptor.tag & 7)}, "descriptor", at,
                 {{"address", descriptor.address}, {"length", descriptor.length}, {"tag", descriptor.tag}});
  }
}

void ScalarCore::streamWord(uint32_t word, uint64_t cycle) {
  const uint64_t at = cycle + extraCycles_;
  syncTo(at);
  outfeed->streamWord(word, at);
}

void ScalarCore::issuePacket(const DecodedPacket& packet, uint64_t cycle) {
  const uint64_t at = cycle + extraCycles_;
  syncTo(at);
  if (packet.tilePacket) {
    if (std::string note = tiles->dispatch(packet, at); !note.empty()) [[unlikely]] noteOddity(std::move(note));
    datapath->packet(packet, at);
    return;
  }
  // The scalar fence waits until every outstanding infeed request has been satisfied. The other
  // scalar-side units (0x25 infeed, 0x26 pop, 0x27 outfeed) cost their issue cycles only [Stage A].
  if (packet.opcode == isa::Opcode::ScalarSync) waitInfeedSatisfied();
  datapath->packet(packet, at);
}

// ---- ScalarMemoryIf ----------------------------------------------------------------------------

// Functional, like the datapath that produces the words: they are in memory when the packet that
// moved them issues, before the program's next load (the fence between them orders the two).
void ScalarCore::writeDataWords(uint32_t firstWord, std::span<const uint32_t> words, uint64_t /*cycle*/) {
  auto& memory = engine_->state().memory;
  if (uint64_t{firstWord} + words.size() > memory.size()) {
    throw ChipFault(FaultKind::kInternal, "a datapath write of " + std::to_string(words.size()) + " words at scalar data-memory word " +
                                              std::to_string(firstWord) + " runs past its " + std::to_string(memory.size()) + " words");
  }
  std::copy(words.begin(), words.end(), memory.begin() + firstWord);
}

// ---- CSRs --------------------------------------------------------------------------------------

void ScalarCore::registerCsrHooks() {
  csrs_.setHooks(CsrEffect::ScalarRunControl,
                 {nullptr, [this](const CsrRegister&, unsigned, uint64_t value, uint64_t) {
                    runControl_ = value;
                    if (value == run_control::kRun) breakHalted_ = false;
                    if (value == run_control::kSingleStep) {
                      stepPending_ = true;
                      breakHalted_ = false;
                    }
                    wake_.notify(sc_core::SC_ZERO_TIME);
                  }});
  csrs_.setHooks(CsrEffect::ScalarRunStatus, {[this](const CsrRegister&, unsigned, uint64_t) { return runStatus(); },
                                              nullptr});
  csrs_.setHooks(CsrEffect::ScalarPc, {[this](const CsrRegister&, unsigned, uint64_t) { return uint64_t{pc()}; },
                                       nullptr});
  csrs_.setHooks(CsrEffect::ScalarBreakpoint, {nullptr, [this](const CsrRegister&, unsigned, uint64_t value, uint64_t) {
                                                 if ((value & 1u) != 0) {
                                                   breakpoint_ = static_cast<uint32_t>(value >> 1);
                                                 } else {
                                                   breakpoint_.reset();
                                                 }
                                                 engine_->setBreakpoint(breakpoint_);
                                               }});
  csrs_.setHooks(CsrEffect::ScalarRegister,
                 {[this](const CsrRegister&, unsigned i, uint64_t) -> uint64_t {
                    return resetRequest_ != ResetRequest::kNone ? 0 : engine_->state().scalar[i];
                  },
                  [this](const CsrRegister&, unsigned i, uint64_t value, uint64_t) {
                    engine_->state().scalar[i] = static_cast<uint32_t>(value);
                  }});
  csrs_.setHooks(CsrEffect::PredicateRegister,
                 {[this](const CsrRegister&, unsigned i, uint64_t) -> uint64_t {
                    return resetRequest_ != ResetRequest::kNone ? 0 : uint64_t{engine_->state().predicate[i]};
                  },
                  [this](const CsrRegister&, unsigned i, uint64_t value, uint64_t) {
                    engine_->state().predicate[i] = (value & 1u) != 0;
                  }});
  csrs_.setHooks(CsrEffect::ScalarMemoryData,
                 {[this](const CsrRegister&, unsigned, uint64_t) -> uint64_t {
                    const uint64_t address = csrs_.stored(csr::scMemoryAccess);
                    const auto& memory = engine_->state().memory;
                    return address < memory.size() ? memory[address] : 0;
                  },
                  [this](const CsrRegister&, unsigned, uint64_t value, uint64_t) {
                    const uint64_t address = csrs_.stored(csr::scMemoryAccess);
                    auto& memory = engine_->state().memory;
                    if (address < memory.size()) memory[address] = static_cast<uint32_t>(value);
                  }});
  csrs_.setHooks(CsrEffect::ChipGeometry, {[this](const CsrRegister& reg, unsigned, uint64_t) -> uint64_t {
                                             switch (reg.address) {
                                               case csr::topology:
                                                 return uint64_t{config_.tilesX} | (uint64_t{config_.tilesY} << 8);
                                               case csr::scMemoryCapacity:
                                                 return uint64_t{config_.scalarMemoryWords} * 4;
                                               case csr::tileMemoryCapacity:
                                                 return config_.narrowMemoryBytesPerTile.value();
                                               default:
                                                 return 0;
                                             }
                                           },
                                           nullptr});
}

// ---- Tracing -----------------------------------------------------------------------------------

bool ScalarCore::tracingEvents() const { return config_.tracer != nullptr && config_.tracer->events(); }

void ScalarCore::traceInstant(traces::TraceUnit unit, std::string name, uint64_t cycle,
                              std::vector<traces::TraceArg> args) const {
  traces::TraceEvent e;
  e.kind = traces::TraceEventKind::kInstant;
  e.unit = unit;
  e.cycle = cycle;
  e.name = std::move(name);
  e.args = std::move(args);
  config_.tracer->record(e);
}

void ScalarCore::packetExecuted(const DecodedPacket& packet, uint64_t cycle, const std::array<uint32_t, 32>& scalarBefore,
                                const std::array<bool, 8>& predicateBefore) {
  traces::InstructionRecord r;
  r.cycle = cycle + extraCycles_;  // the engine's clock plus the stalls this module added: chip time
  r.pc = packet.pc;
  r.chunk = chunksInRun_ == 0 ? 0 : chunksInRun_ - 1;
  r.packet = isa::formatPacketText(packet.words);
  const ScalarState& after = engine_->state();
  for (size_t i = 0; i < after.scalar.size(); ++i) {
    if (after.scalar[i] != scalarBefore[i]) r.scalarWrites.emplace_back(static_cast<uint8_t>(i), after.scalar[i]);
  }
  for (size_t i = 0; i < after.predicate.size(); ++i) {
    if (after.predicate[i] != predicateBefore[i]) r.predicateWrites.emplace_back(static_cast<uint8_t>(i), after.predicate[i]);
  }
  config_.tracer->instructions()->record(r);
}

void ScalarCore::traceSignals(sc_core::sc_trace_file* file, const std::string& prefix) const {
  sc_core::sc_trace(file, syncedCycle_, prefix + ".cycle");
  sc_core::sc_trace(file, runActive_, prefix + ".run_active");
  sc_core::sc_trace(file, runControl_, prefix + ".run_control");
  sc_core::sc_trace(file, sleeping_, prefix + ".sleeping");
  sc_core::sc_trace(file, faulted_, prefix + ".faulted");
  sc_core::sc_trace(file, chunksInRun_, prefix + ".chunks_in_run");
}

}  // namespace coralsim::models

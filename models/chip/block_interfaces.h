// The interfaces between the blocks inside the Beagle chip (models/beagle.h wires them).
//
// Time: the chip keeps its own clock in cycles ("chip-local time"), advanced only by modelled
// costs; waiting for the host never advances it. Calls carry the chip cycle at which they happen
// and blocks annotate their own costs in that clock (loosely timed, temporal decoupling). This is
// what makes cycle counts a pure function of program, data and transfer order even though several
// devices share one SystemC kernel and host data arrives at wall-clock-dependent moments.
//
// All calls are non-blocking; the scalar core is the only process that waits, and it does so in
// its own module (models/chip/scalar_core.h) so a GCB reset can unwind it safely.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <systemc>

#include "models/scalar/decoded_program.h"
#include "models/scalar/scalar_engine.h"
#include "models/chip_config.h"

namespace coralsim::models {

// Why the chip stopped. The bit values are what hib_error_status reports [choice: the hardware's
// encoding is unknown; drivers only test for non-zero].
enum class FaultKind : uint32_t {
  kScalarCore = 1u << 0,        // ScalarFault: bad address, unknown op, branch into payload, ...
  kInstructionFrame = 1u << 1,  // a chunk that cannot run: START length vs record size, framing
  kTileSequence = 1u << 2,      // tile packet with mask 0 or a broken sequence number
  kOutfeed = 1u << 3,           // stream word with no open output window
  kCycleLimit = 1u << 4,        // runaway program: ChipConfig::cycleLimit exceeded
  kInternal = 1u << 5,          // a model error (a bug in coralsim, reported rather than crashing)
  kUnsupported = 1u << 6,       // strict lle/hle: a packet, field pattern or program the rung does not model
};

[[nodiscard]] const char* faultKindName(FaultKind kind);

// Thrown by a block into the scalar core's callback; the core stops and reports it.
class ChipFault : public std::runtime_error {
 public:
  ChipFault(FaultKind kind, const std::string& what) : std::runtime_error(what), kind_(kind) {}
  [[nodiscard]] FaultKind kind() const { return kind_; }

 private:
  FaultKind kind_;
};

// One tag-0 record: one instruction chunk, complete.
struct InstructionChunk {
  uint64_t sequence = 0;  // 0, 1, 2, ... since the last reset
  std::vector<uint8_t> bytes;
};

class InstructionFetchIf : public virtual sc_core::sc_interface {
 public:
  // The oldest complete chunk, removed from the queue; nullopt while none is complete.
  virtual std::optional<InstructionChunk> tryTakeChunk() = 0;
  [[nodiscard]] virtual const sc_core::sc_event& chunkEvent() const = 0;
};

enum class InfeedClass : uint8_t { kInput, kParameter };

class InfeedIf : public virtual sc_core::sc_interface {
 public:
  // A descriptor (tag 1 or 2) asks for the next `length` bytes of that class's host stream.
  virtual void request(InfeedClass cls, uint32_t length, uint64_t cycle) = 0;
  // Bytes requested but not yet delivered by the host (both classes).
  [[nodiscard]] virtual uint64_t outstandingBytes() const = 0;
  // Notified when outstandingBytes() drops to 0.
  [[nodiscard]] virtual const sc_core::sc_event& satisfiedEvent() const = 0;
  // The chip cycle at which every requested byte has landed on chip (transfer cost included).
  [[nodiscard]] virtual uint64_t readyCycle() const = 0;
  // Drained bytes are kept per executable run; a new run starts empty.
  virtual void beginRun() = 0;
  // This run's bytes of one class delivered so far, in stream order (the datapath reads them).
  [[nodiscard]] virtual std::span<const uint8_t> runBytes(InfeedClass cls) const = 0;
};

class OutfeedIf : public virtual sc_core::sc_interface {
 public:
  // A tag-3 descriptor: closes the open window (if any) and opens one of `length` bytes.
  virtual void openWindow(uint32_t length, uint64_t cycle) = 0;
  // Store-slot op 4: 4 bytes into the open window. Throws ChipFault without one.
  virtual void streamWord(uint32_t word, uint64_t cycle) = 0;
  // Produces the unfilled remainder of the open window (next descriptor, final HALT).
  virtual void closeWindow(uint64_t cycle) = 0;
  // The chip cycle at which every byte produced so far has left towards the USB bridge.
  [[nodiscard]] virtual uint64_t readyCycle() const = 0;
  [[nodiscard]] virtual uint64_t outputBytes() const = 0;       // since reset
  [[nodiscard]] virtual uint64_t notComputedBytes() const = 0;  // since reset
};

class DescriptorSinkIf : public virtual sc_core::sc_interface {
 public:
  virtual void push(const Descriptor& descriptor, uint64_t cycle) = 0;
  [[nodiscard]] virtual const std::vector<Descriptor>& log() const = 0;  // since reset
};

class TileDispatchIf : public virtual sc_core::sc_interface {
 public:
  // A tile packet (0x01-0x1a) issued by the core at `cycle`. Never refuses it (docs/refusal-rules.md):
  // a mask of 0, mask bits for tiles the chip does not have or a sequence number that breaks the
  // count are tolerated and described in the returned note ("" when nothing was odd).
  [[nodiscard]] virtual std::string dispatch(const DecodedPacket& packet, uint64_t cycle) = 0;
  // True while a packet sits in a tile FIFO (tiles take them within delta cycles).
  [[nodiscard]] virtual bool packetsInFlight() const = 0;
  // The chip cycle at which every tile has finished every packet it accepted.
  [[nodiscard]] virtual uint64_t idleCycle() const = 0;
  // After a final HALT the next tile packet carries sequence number 0.
  virtual void restartSequence() = 0;
  [[nodiscard]] virtual uint64_t packetsDispatched() const = 0;  // since reset
};

// Which rung computed a run's numbers, and why no higher rung did (empty when nothing was dropped).
struct RungReport {
  ExecutionMode rung = ExecutionMode::kProtocol;
  std::string note;
  std::vector<std::pair<uint32_t, uint32_t>> undefinedOutputBytes;  // RunRecord::undefinedOutputBytes
};

// The data plane behind the control plane (models/chip/datapath.h): the scalar core reports the
// run's chunks and packets, the outfeed asks for the bytes of each window's tile-produced tail.
class DatapathIf : public virtual sc_core::sc_interface {
 public:
  virtual void beginRun() = 0;
  // Throws ChipFault(kUnsupported) when the requested rung is strict and cannot compute the chunk.
  // `program`: the chunk as the scalar core decoded it (the rungs do not decode it again).
  virtual void instructionChunk(std::span<const uint8_t> chunk, const DecodedProgram& program, uint64_t cycle) = 0;
  virtual void packet(const DecodedPacket& packet, uint64_t cycle) = 0;
  // `streamedHead`: the bytes scalar stream words already put in the window. A rung that knows
  // every byte of the output stream (hle) may overwrite them in place.
  [[nodiscard]] virtual std::vector<uint8_t> windowTail(uint32_t windowLength, std::span<uint8_t> streamedHead,
                                                        uint64_t cycle) = 0;
  [[nodiscard]] virtual RungReport endRun() = 0;
};

// The scalar core's data memory as the datapath sees it: a nested outfeed to scalar memory
// (docs/decoding-log.md "splitpad" §B, "scalar27") moves tile bytes into it, which the scalar program
// then loads and streams to the host.
class ScalarMemoryIf : public virtual sc_core::sc_interface {
 public:
  // 4-byte words from data-memory word `firstWord` on; throws ChipFault(kInternal) past the memory's end.
  virtual void writeDataWords(uint32_t firstWord, std::span<const uint32_t> words, uint64_t cycle) = 0;
};

class FaultSinkIf : public virtual sc_core::sc_interface {
 public:
  virtual void raise(FaultKind kind, const std::string& text, uint64_t cycle) = 0;
};

}  // namespace coralsim::models

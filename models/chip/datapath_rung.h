// DatapathRung: one rung of the datapath ladder (docs/ARCHITECTURE.md §3) — the part of the chip
// that turns the data a program moves into numbers. The control plane (scalar core, descriptors,
// infeed, outfeed, tile dispatch) always runs exactly from the bitstream; it tells the active rung
// what the program does, and the rung supplies the bytes the tile outfeed sends to the host.
//
// Rungs are plain C++ (no SystemC): the Datapath module (models/chip/datapath.h) owns them and
// calls them on the simulator thread, so a rung can be unit-tested without a kernel.
//
//   lle       models/lle/   tile packets executed from their decoded fields
//   hle       models/hle/   a registered CPU twin, recognised by the hash of the instruction chunks
//   protocol  (none)        no numbers: the outfeed sends fillers flagged "not computed"
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "models/chip_config.h"
#include "models/scalar/decoded_program.h"

namespace coralsim::models {

// What a rung may read besides the packets: the host streams of the current run, as delivered so
// far, in stream order (every byte the run's tag-1 / tag-2 descriptors requested and the host sent).
class RunStreams {
 public:
  virtual ~RunStreams() = default;
  [[nodiscard]] virtual std::span<const uint8_t> inputBytes() const = 0;
  [[nodiscard]] virtual std::span<const uint8_t> parameterBytes() const = 0;
};

// Words a rung puts into the scalar core's data memory (a nested outfeed to scalar memory): the
// Datapath hands them to the core, whose program loads them after its next fence.
struct ScalarMemoryWrite {
  uint32_t firstWord = 0;
  std::vector<uint32_t> words;  // little-endian groups of the tile bytes, in order
};

class DatapathRung {
 public:
  virtual ~DatapathRung() = default;

  [[nodiscard]] virtual ExecutionMode rung() const = 0;

  // Power-on or GCB reset: forget everything, cached parameters included.
  virtual void reset() = 0;

  // A new executable run (the first chunk after a reset or a final HALT). State that outlives a
  // run on real hardware (the parameters a PARAMETER_CACHING run left in wide memory) stays.
  virtual void beginRun() = 0;

  // Every instruction chunk of the run, before it executes: its bytes as received (hle hashes
  // them) and the chunk as the scalar core decoded it (lle checks its packets). The device
  // decodes each chunk once, in the core, and passes `decoded` on; without it (a rung used alone:
  // tests, bench) a rung that needs the packets decodes the bytes itself. Returns "" when the rung
  // can compute it; otherwise a sentence saying why not (naming opcode, PC and word where there is
  // one). In `auto` mode the ladder then drops this rung for the rest of the run; in strict mode
  // the text becomes a chip fault.
  [[nodiscard]] std::string acceptChunk(std::span<const uint8_t> chunk, const DecodedProgram* decoded = nullptr) {
    return checkChunk(chunk, decoded);
  }

  // Every non-bundle packet the core issues, in issue order: tile packets (0x01-0x1a) after the
  // dispatcher accepted them, scalar-side units (0x21-0x27) as they issue. A rung that meets a
  // packet or field pattern outside what it models throws ChipFault(kUnsupported, text naming the
  // opcode, PC and word) — never a silent guess.
  virtual void packet(const DecodedPacket& packet, const RunStreams& streams, uint64_t cycle) = 0;

  // The bytes the tile outfeed sends for output window `window` (0, 1, ... in the run) of
  // `windowLength` bytes, after the first `streamedBytes` came from scalar stream words. Returns at
  // most windowLength - streamedBytes bytes, the computed head of the rest; what it does not
  // return goes out as fillers flagged "not computed".
  [[nodiscard]] virtual std::vector<uint8_t> windowTail(unsigned window, uint32_t windowLength, uint32_t streamedBytes,
                                                        const RunStreams& streams) = 0;

  // After windowTail for window `window`: the bytes scalar stream words put at its head. A rung
  // that knows every byte of the run's output stream (hle: the registered twin computes the whole
  // custom op, while the control plane's stream words carry no computed numbers) overwrites them
  // with its own; the default keeps what the program streamed.
  virtual void overwriteStreamedHead(unsigned window, std::span<uint8_t> head) {
    (void)window;
    (void)head;
  }

  // After windowTail for window `window`: which bytes of the tail it returned are undefined, as offsets into the tail --
  // computed from memory no packet wrote (docs/decoding-log.md "raw25"), so their values mean nothing. None by default.
  [[nodiscard]] virtual std::vector<uint32_t> undefinedTailBytes(unsigned window) const {
    (void)window;
    return {};
  }

  // The scalar-memory writes the packets so far produced, oldest first; each is returned once.
  [[nodiscard]] virtual std::vector<ScalarMemoryWrite> takeScalarMemoryWrites() { return {}; }

  // The run ended (final HALT or fault).
  virtual void endRun() = 0;

 private:
  // acceptChunk's work (`decoded` may be null, see there).
  [[nodiscard]] virtual std::string checkChunk(std::span<const uint8_t> chunk, const DecodedProgram* decoded) = 0;
};

// Builds one rung for a configuration; nullptr when the rung cannot run with it (hle: no
// registered programs).
using RungFactory = std::function<std::unique_ptr<DatapathRung>(const ChipConfig&)>;

// The rung implementations the Datapath may build, injected by whoever links them (the Beagle top,
// models/beagle.cc: models/lle and models/hle). The chip blocks know only this interface, so
// models/chip builds and links without the rungs. An empty factory: that rung is not available.
struct RungFactories {
  RungFactory lle;
  RungFactory hle;
};

}  // namespace coralsim::models

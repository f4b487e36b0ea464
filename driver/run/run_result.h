// What a run did, as plain values: per executable run the descriptors the device pushed (each
// resolved to the host buffer its address names), the simulated cycles, the host's traffic; per
// output tensor its bytes and SHA-256. `coralsim run` prints it (driver/run_json.h, run_text.h);
// tests compare it with the executables' own DmaHints.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "driver/transport/device_introspection.h"
#include "driver/transport/run_timing.h"
#include "driver/model/executable.h"
#include "driver/run/service_mode.h"

namespace coralsim::driver {

// The host buffer a descriptor's address falls in (driver/run/host_address_space.h).
struct DescriptorTarget {
  BufferKind kind = BufferKind::Input;
  std::string name;  // layer name; empty for parameters / scratch
  int32_t batch = 0;
  uint64_t offset = 0;
};

struct ObservedDescriptor {
  DeviceDescriptor descriptor;
  std::optional<DescriptorTarget> target;  // nullopt for interrupts and unresolvable addresses
};

// Where the descriptor list of a run comes from.
enum class DescriptorSource {
  kEvents,     // EP 0x82 events (event-driven service: every descriptor but tag 0)
  kDeviceLog,  // the simulator's own log (DeviceIntrospection), hint-driven service in process
  kInterruptEventsOnly,  // hint-driven service without introspection: only tags 4..7 were seen
};
std::string_view descriptorSourceName(DescriptorSource source);  // "events", "device_log", "interrupt_events"

// Bytes exchanged with one host buffer during a run.
struct BufferTraffic {
  BufferKind kind = BufferKind::Input;
  std::string name;
  int32_t batch = 0;
  uint64_t sentBytes = 0;      // host to device (tag 1 / tag 2 records)
  uint64_t receivedBytes = 0;  // device to host (EP 0x81)
};

// The verdict of driver/run/hint_check.h: the descriptors of a run against its executable's DmaHints.
struct HintCheck {
  enum class Verdict {
    kMatch,        // merged descriptors == hints
    kPrefixMatch,  // hints not fully deterministic: the hinted prefix matches
    kMismatch,     // they differ (see `detail`)
    kNoHints,      // the executable carries no DmaHints (raw programs): nothing to compare
  };
  Verdict verdict = Verdict::kNoHints;
  size_t pushed = 0;   // merged descriptor count
  size_t hinted = 0;   // hinted DMA + interrupt count
  std::string detail;  // the first difference, for kMismatch

  [[nodiscard]] bool ok() const { return verdict == Verdict::kMatch || verdict == Verdict::kPrefixMatch; }
};

struct ExecutableRunRecord {
  std::string executable;  // PlannedExecutable::label
  ExecutableType type = ExecutableType::StandAlone;
  uint64_t parameterCachingToken = 0;
  int iteration = 0;
  ServiceMode service = ServiceMode::kHints;
  std::string serviceNote;  // why the service differs from the one asked for, if it does
  bool completed = false;   // the completion event (tag 4) arrived
  DescriptorSource descriptorSource = DescriptorSource::kEvents;
  std::vector<ObservedDescriptor> descriptors;
  std::optional<uint64_t> cycles;  // simulated, in-process only
  // The datapath rung the device used for this run ("lle", "hle", "protocol") and why no higher
  // rung did; from DeviceIntrospection, so in-process only.
  std::optional<std::string> rung;
  std::optional<std::string> rungNote;
  // Oddities the device tolerated in this run, as hardware does (docs/refusal-rules.md);
  // in-process only.
  std::vector<std::string> deviceNotes;
  uint64_t instructionBytes = 0;   // tag-0 payload bytes sent
  uint64_t instructionRecords = 0;  // tag-0 records sent (one per chunk)
  uint64_t dataRecords = 0;         // tag-1/2 records sent
  std::vector<BufferTraffic> traffic;
  // Descriptors against the executable's DmaHints (absent when the run did not complete or only
  // interrupt events were observable).
  std::optional<HintCheck> hintCheck;
  // The device's time for this run (RunnerOptions::deviceTime; a simulated device only).
  std::optional<RunTiming> timing;
};

struct SkippedRun {
  std::string executable;
  ExecutableType type = ExecutableType::ParameterCaching;
  int iteration = 0;
  std::string reason;
};

struct OutputTensor {
  std::string name;
  std::string typeName;
  // Exactly the TFLite tensor's bytes (tensorBytes), as libedgetpu hands them to the application:
  // TFLite order when re-laid out (below), the layer's padding dropped, int8 tensors already
  // sign-flipped back. Raw programs (no TFLite tensor): the bytes the device wrote.
  std::vector<uint8_t> bytes;
  std::string sha256;          // of `bytes`
  bool signFlipped = false;
  // The device's word on whether the numbers were computed; false on the protocol rung.
  std::optional<bool> computed;
  // True when the device sent the tensor tile-major and the driver re-ordered it into TFLite's
  // (y, x, z) order (driver/run/output_layout.h), as libedgetpu does: `bytes` are then exactly the
  // tensor's y * x * z bytes.
  bool relaidOut = false;
  // True when the executable's OutputLayout is not the TFLite order and the re-layout could not be
  // applied (several batches, maps that do not cover the layer): `bytes` are as the device sent them.
  bool deviceLayout = false;
  uint64_t tensorBytes = 0;  // the TFLite tensor's size (== bytes.size() unless deviceLayout)
  // Informational: the bytes the device wrote for this output, the layer's padding included (the
  // executable layer's size_bytes per batch; 1008 for a 1001-class MobileNet).
  uint64_t deviceBytes = 0;
  // The bytes the device computed from memory no packet wrote (DeviceIntrospection::undefinedOutputBytes, in-process only;
  // docs/decoding-log.md "raw25"): their values mean nothing. `undefined` marks them one a byte of `bytes` (1 = undefined),
  // empty when none is; undefinedBytes counts them.
  std::vector<uint8_t> undefined;
  uint64_t undefinedBytes = 0;
};

struct RunResult {
  std::string model;
  ServiceMode service = ServiceMode::kHints;
  std::optional<std::string> executionMode;  // the rung the device reports it used
  std::optional<uint64_t> cycles;            // sum over `runs`, in-process only
  int iterations = 0;
  std::vector<ExecutableRunRecord> runs;
  std::vector<SkippedRun> skipped;
  std::vector<OutputTensor> outputs;  // of the last iteration
  std::optional<std::string> error;
  // With RunnerOptions::deviceTime: one inference, i.e. the runs of the last iteration summed.
  std::optional<RunTiming> timing;

  [[nodiscard]] bool ok() const { return !error.has_value(); }
};

// One inference's device time: the runs of the last iteration that carry a timing, summed (the
// steady state published latencies measure: parameters already cached). nullopt when none does.
[[nodiscard]] std::optional<RunTiming> inferenceTiming(const std::vector<ExecutableRunRecord>& runs);

}  // namespace coralsim::driver

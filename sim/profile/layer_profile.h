// The per-layer profile of one steady-state inference (`coralsim profile`, issue #13 item 3): the
// model runs twice on an in-process emulated Coral (the first iteration caches the parameters, as
// an application's first inference does), the compute packets of the second are collected from
// the trace events (compute_packet_log.h) and assigned to the CPU twin's layers
// (layer_mapping.h). Every figure is simulated or read from the files: deterministic.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "driver/run/run_result.h"
#include "traces/trace_event.h"
#include "sim/profile/layer_mapping.h"
#include "usb/usb_types.h"

namespace coralsim::sim {

struct LayerProfileRow {
  TwinLayer layer;
  LayerAssignment assignment;
  uint64_t cycles = 0;        // cost-model cycles of its packets (each packet once: tiles run in parallel)
  uint64_t packetMacs = 0;    // MACs its packets' loop limits stand for (iterations x 256)
  uint64_t start = 0;         // first packet's start (chip cycle; 0 without packets)
  uint64_t span = 0;          // first packet's start .. last packet's end, chip cycles (0 without packets)
  double share = 0;           // cycles / all packets' cycles: its part of the inference's compute work
  std::string parameters;     // "on chip", "streamed", "on chip or streamed", "-" (no parameters, or CPU)
};

struct LayerProfile {
  std::string model;
  std::string twin;          // path of the CPU twin used
  std::string twinNote;      // how it was found
  uint64_t inferenceCycles = 0;   // chip cycles of the steady-state inference (its runs summed)
  uint64_t inferenceStart = 0;    // chip cycle its first run began
  uint64_t clockHz = 0;
  std::optional<driver::RunTiming> timing;  // predicted device time of the inference
  std::vector<ComputePacket> packets;       // of the inference, in issue order
  uint64_t packetCycles = 0;                // sum of the packets' cycles
  uint64_t packetMacs = 0;
  uint64_t twinMacs = 0;                    // of the layers on the Edge TPU
  uint64_t cachedParameterBytes = 0;        // PARAMETER_CACHING executables: loaded once, kept on chip
  uint64_t streamedParameterBytes = 0;      // parameters of the executables that run every inference
  std::vector<LayerProfileRow> rows;
};

struct ProfileOptions {
  std::optional<std::filesystem::path> twin;  // default: X.tflite beside X_edgetpu.tflite
  usb::UsbSpeed speed = usb::UsbSpeed::kSuper;
  // Also receives every chip event of the run and, after it, one span per layer with packets on
  // the `layers` track (first packet's start .. last packet's end), e.g. a traces::TimelineWriter.
  traces::TraceSink* timeline = nullptr;
};

// Throws std::runtime_error naming the file for a model without Edge TPU executables, a missing
// twin, or a run that fails.
[[nodiscard]] LayerProfile profileModel(const std::filesystem::path& model, const ProfileOptions& options);

void writeProfileText(std::ostream& out, const LayerProfile& profile);
void writeProfileJson(std::ostream& out, const LayerProfile& profile, int indent = 0);

}  // namespace coralsim::sim

#include "sim/profile/layer_profile.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include "driver/model/model_loader.h"
#include "driver/run/random_inputs.h"
#include "driver/run/run_plan.h"
#include "driver/run/runner.h"
#include "hosting/in_process_transport.h"
#include "sim/device.h"
#include "sim/hle_host/twin_discovery.h"
#include "traces/json_writer.h"

namespace coralsim::sim {
namespace {

// One iteration of a 4-byte group on a tile's 64 MAC cells (models/timing_model.h).
constexpr uint64_t kMacsPerIteration = 4 * 64;

std::string shapeText(const std::vector<int32_t>& shape) {
  if (shape.empty()) return "-";
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "x" : "") + std::to_string(shape[i]);
  return s;
}

std::string parametersOf(const TwinLayer& layer, const LayerProfile& p) {
  // Only the weights of MAC layers: a RESHAPE's constant shape tensor is no parameter.
  if (layer.onCpu || layer.macs == 0 || layer.parameterBytes == 0) return "-";
  if (p.streamedParameterBytes == 0) return "on chip";
  if (p.cachedParameterBytes == 0) return "streamed";
  // Both kinds exist; which layer's weights the compiler cached is not decoded.
  return "on chip or streamed";
}

}  // namespace

LayerProfile profileModel(const std::filesystem::path& modelPath, const ProfileOptions& options) {
  LayerProfile p;
  p.model = modelPath.filename().string();
  const driver::ModelFile model = driver::loadModelFile(modelPath);
  if (!model.tflite || model.edgeTpuOps.empty()) {
    throw std::runtime_error(modelPath.string() + ": not a compiled Edge TPU TFLite model (no edgetpu custom op)");
  }
  const LoadedTwin loaded = loadTwin(modelPath, options.twin);
  p.twinNote = loaded.note;
  p.twin = loaded.path.string();
  const driver::ModelFile& twin = loaded.model;

  const driver::RunPlan plan = driver::planRun(model);
  for (const driver::PlanUnit& u : plan.units) {
    if (u.parameterCaching) p.cachedParameterBytes += u.parameterCaching->executable->parameters.size();
    for (const auto& e : u.programs) p.streamedParameterBytes += e.executable->parameters.size();
  }
  DeviceOptions deviceOptions;
  deviceOptions.speed = options.speed;
  auto log = std::make_shared<ComputePacketLog>(deviceOptions.chip.timing.computePacketCycles,
                                                deviceOptions.chip.timing.macCyclesPerIteration);
  auto tracer = std::make_shared<traces::Tracer>();
  tracer->addEventSink(log.get());
  if (options.timeline != nullptr) tracer->addEventSink(options.timeline);
  deviceOptions.chip.tracer = tracer;
  p.clockHz = deviceOptions.chip.clockHz.value();
  Device device(deviceOptions);
  driver::InProcessTransport transport(device);
  driver::Runner runner(transport, driver::RunnerOptions{.deviceTime = true});
  runner.open();
  constexpr int kIterations = 2;  // the second is the steady state (parameters cached)
  driver::RunResult result = runner.run(plan, driver::randomInputs(plan, 1), kIterations);
  runner.close();
  if (!result.ok()) throw std::runtime_error(modelPath.string() + ": the run failed: " + *result.error);
  p.timing = result.timing;
  if (log->runs().size() != result.runs.size()) {
    throw std::runtime_error(modelPath.string() + ": " + std::to_string(result.runs.size()) + " executable runs but " +
                             std::to_string(log->runs().size()) + " run spans in the trace");
  }
  for (size_t i = 0; i < result.runs.size(); ++i) {
    if (result.runs[i].iteration != kIterations - 1) continue;
    if (p.inferenceCycles == 0) p.inferenceStart = log->runs()[i].start;
    p.inferenceCycles += result.runs[i].cycles.value_or(0);
    for (ComputePacket& c : log->packetsIn(log->runs()[i])) p.packets.push_back(std::move(c));
  }
  for (const ComputePacket& c : p.packets) {
    p.packetCycles += c.cycles;
    p.packetMacs += c.iterations * kMacsPerIteration;
  }
  const std::vector<TwinLayer> layers = twinLayers(*twin.tflite, model);
  const std::vector<LayerAssignment> assignments = assignPackets(p.packets, layers);
  for (size_t i = 0; i < layers.size(); ++i) {
    LayerProfileRow row;
    row.layer = layers[i];
    row.assignment = assignments[i];
    for (size_t k : row.assignment.packets) {
      row.cycles += p.packets[k].cycles;
      row.packetMacs += p.packets[k].iterations * kMacsPerIteration;
    }
    row.share = p.packetCycles == 0 ? 0 : static_cast<double>(row.cycles) / static_cast<double>(p.packetCycles);
    if (!row.assignment.packets.empty()) {
      uint64_t first = UINT64_MAX, last = 0;
      for (size_t k : row.assignment.packets) {
        first = std::min(first, p.packets[k].start);
        last = std::max(last, p.packets[k].end);
      }
      row.start = first;
      row.span = last - first;
    }
    row.parameters = parametersOf(row.layer, p);
    if (!row.layer.onCpu) p.twinMacs += row.layer.macs;
    if (options.timeline != nullptr && !row.assignment.packets.empty()) {
      traces::TraceEvent e;
      e.kind = traces::TraceEventKind::kSpan;
      e.unit = {traces::TraceUnitKind::kLayers, 0};
      e.cycle = row.start;
      e.duration = row.span;
      e.name = std::to_string(row.layer.index) + " " + row.layer.op;
      e.args = {{"macs", row.layer.macs}, {"packets", row.assignment.packets.size()}, {"packet_cycles", row.cycles}};
      options.timeline->record(e);
    }
    p.rows.push_back(std::move(row));
  }
  return p;
}

void writeProfileText(std::ostream& out, const LayerProfile& p) {
  char line[512];
  const double ms = 1e3 / static_cast<double>(p.clockHz == 0 ? 1 : p.clockHz);
  out << "profile of " << p.model << ": one steady-state inference (the second of two; parameters cached)\n";
  out << "CPU twin: " << p.twin << " (" << p.twinNote << ")\n";
  std::snprintf(line, sizeof line, "chip cycles %llu (%.3f ms at %.0f MHz)",
                static_cast<unsigned long long>(p.inferenceCycles), static_cast<double>(p.inferenceCycles) * ms,
                static_cast<double>(p.clockHz) / 1e6);
  out << line;
  if (p.timing) {
    std::snprintf(line, sizeof line, "; predicted device time %.3f ms at USB %s (compute %.3f + usb %.3f + idle %.3f)",
                  p.timing->totalTime.value() * 1e3, p.timing->usbSpeed == "high" ? "2" : "3",
                  p.timing->computeTime.value() * 1e3, p.timing->usbTime.value() * 1e3, p.timing->idleTime.value() * 1e3);
    out << line;
  }
  out << "\n";
  std::snprintf(line, sizeof line,
                "compute packets %zu, their cycles %llu (%.1f %% of the chip cycles); MACs from their loop limits "
                "%.1f M, the twin's Edge TPU layers %.1f M (ratio %.3f)\n",
                p.packets.size(), static_cast<unsigned long long>(p.packetCycles),
                p.inferenceCycles ? 100.0 * static_cast<double>(p.packetCycles) / static_cast<double>(p.inferenceCycles) : 0.0,
                static_cast<double>(p.packetMacs) / 1e6, static_cast<double>(p.twinMacs) / 1e6,
                p.twinMacs ? static_cast<double>(p.packetMacs) / static_cast<double>(p.twinMacs) : 0.0);
  out << line;
  if (p.twinMacs == 0 || p.packetMacs * 2 < p.twinMacs || p.packetMacs > 2 * p.twinMacs) {
    out << "warning: the packets' MACs and the twin's differ by more than 2x: layers that fill part of the MAC "
           "array (fewer than 64 output channels, depthwise layers with one MAC per iteration), or a twin that is "
           "not this model's; the mapping below is doubtful\n";
  }
  std::snprintf(line, sizeof line, "parameters: %llu bytes cached on chip, %llu bytes streamed every inference\n",
                static_cast<unsigned long long>(p.cachedParameterBytes),
                static_cast<unsigned long long>(p.streamedParameterBytes));
  out << line;
  out << "cycles = its packets' cycles (one tile's; packets on disjoint tiles overlap, so they can sum to more\n"
         "than the chip cycles); share = of all packets' cycles; span = first packet start .. last packet end\n"
         "mapping: packets in issue order laid along the twin's cumulative MAC-array work (operator order, output\n"
         "channels padded to the 64-wide tile); 'mac-aligned' = the layer's packet share is within 0.8-1.25x of\n"
         "its array-MAC share, else 'uncertain' (agreement in brackets)\n\n";
  std::snprintf(line, sizeof line, "%4s %-18s %-14s %-14s %-14s %10s %7s %8s %6s %8s %-10s %s\n", "#", "op", "input",
                "filter", "output", "MACs", "packets", "cycles", "share", "span", "parameters", "mapping");
  out << line;
  for (const LayerProfileRow& r : p.rows) {
    std::string mapping = r.assignment.mapping;
    if (r.assignment.agreement > 0) {
      char a[32];
      std::snprintf(a, sizeof a, " (%.2f)", r.assignment.agreement);
      mapping += a;
    }
    std::snprintf(line, sizeof line, "%4zu %-18s %-14s %-14s %-14s %10llu %7zu %8llu %5.1f%% %8llu %-10s %s\n",
                  r.layer.index,
                  r.layer.op.c_str(), shapeText(r.layer.inputShape).c_str(), shapeText(r.layer.filterShape).c_str(),
                  shapeText(r.layer.outputShape).c_str(), static_cast<unsigned long long>(r.layer.macs),
                  r.assignment.packets.size(), static_cast<unsigned long long>(r.cycles), 100 * r.share,
                  static_cast<unsigned long long>(r.span), r.parameters.c_str(), mapping.c_str());
    out << line;
  }
  uint64_t first = UINT64_MAX, last = 0;
  for (const ComputePacket& c : p.packets) {
    first = std::min(first, c.start);
    last = std::max(last, c.end);
  }
  std::snprintf(line, sizeof line,
                "\ncompute packets run from cycle %llu to %llu of the inference's %llu chip cycles (%.1f %%); scalar-core "
                "issue, infeed, outfeed and waits overlap them and are not split per layer\n",
                static_cast<unsigned long long>(p.packets.empty() ? 0 : first - p.inferenceStart),
                static_cast<unsigned long long>(p.packets.empty() ? 0 : last - p.inferenceStart),
                static_cast<unsigned long long>(p.inferenceCycles),
                p.inferenceCycles && !p.packets.empty()
                    ? 100.0 * static_cast<double>(last - first) / static_cast<double>(p.inferenceCycles)
                    : 0.0);
  out << line;
}

void writeProfileJson(std::ostream& out, const LayerProfile& p, int indent) {
  traces::JsonWriter w(out, indent);
  w.beginObject();
  w.field("model", p.model).field("twin", p.twin).field("twin_note", p.twinNote);
  w.field("chip_cycles", p.inferenceCycles).field("clock_hz", p.clockHz);
  if (p.timing) {
    w.key("timing").beginObject();
    w.field("usb_speed", p.timing->usbSpeed).field("total_seconds", p.timing->totalTime.value());
    w.field("compute_seconds", p.timing->computeTime.value()).field("usb_seconds", p.timing->usbTime.value());
    w.field("idle_seconds", p.timing->idleTime.value());
    w.endObject();
  }
  w.field("compute_packets", static_cast<uint64_t>(p.packets.size())).field("packet_cycles", p.packetCycles);
  w.field("packet_macs", p.packetMacs).field("twin_macs", p.twinMacs);
  w.field("cached_parameter_bytes", p.cachedParameterBytes).field("streamed_parameter_bytes", p.streamedParameterBytes);
  w.key("layers").beginArray();
  for (const LayerProfileRow& r : p.rows) {
    w.beginObject();
    w.field("index", static_cast<uint64_t>(r.layer.index)).field("op", r.layer.op).field("output", r.layer.output);
    const auto shape = [&](const char* name, const std::vector<int32_t>& s) {
      w.key(name).beginArray();
      for (int32_t d : s) w.value(d);
      w.endArray();
    };
    shape("input_shape", r.layer.inputShape);
    shape("filter_shape", r.layer.filterShape);
    shape("output_shape", r.layer.outputShape);
    w.field("macs", r.layer.macs).field("parameter_bytes", r.layer.parameterBytes);
    w.field("on_cpu", r.layer.onCpu).field("packets", static_cast<uint64_t>(r.assignment.packets.size()));
    w.field("array_macs", r.layer.arrayMacs);
    w.field("cycles", r.cycles).field("packet_macs", r.packetMacs).field("share", r.share).field("span", r.span);
    w.field("parameters", r.parameters).field("mapping", r.assignment.mapping);
    w.field("agreement", r.assignment.agreement);
    w.endObject();
  }
  w.endArray();
  // Every compute packet of the inference, with the layer it was assigned to (-1: none).
  std::vector<int64_t> layerOf(p.packets.size(), -1);
  for (const LayerProfileRow& r : p.rows) {
    for (size_t k : r.assignment.packets) layerOf[k] = static_cast<int64_t>(r.layer.index);
  }
  w.key("packets").beginArray();
  for (size_t k = 0; k < p.packets.size(); ++k) {
    const ComputePacket& c = p.packets[k];
    w.beginObject();
    w.field("issue_cycle", c.issueCycle).field("pc", c.pc).field("op", c.mnemonic).field("tiles", c.tiles);
    w.field("start", c.start).field("end", c.end).field("cycles", c.cycles).field("iterations", c.iterations);
    if (c.passThrough) w.field("pass_through", true);
    w.field("layer", layerOf[k]);
    w.endObject();
  }
  w.endArray();
  w.endObject();
  out << "\n";
}

}  // namespace coralsim::sim

#include "sim/layer_check/layer_check.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include "driver/model/model_loader.h"
#include "driver/run/random_inputs.h"
#include "driver/run/run_plan.h"
#include "driver/run/runner.h"
#include "hosting/in_process_transport.h"
#include "models/hle/graph_executor.h"
#include "models/hle/kernel_context.h"
#include "sim/device.h"
#include "sim/hle_host/hle_graph.h"
#include "sim/hle_host/twin_discovery.h"
#include "sim/layer_check/compute_capture.h"
#include "sim/profile/compute_packet_log.h"
#include "sim/profile/layer_mapping.h"
#include "traces/trace_event.h"

namespace coralsim::sim {
namespace {

std::string hexPc(uint32_t pc) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%04x", pc);
  return text;
}

// Step 1: the inference's compute packets from the trace events of a run on the protocol rung.
std::vector<ComputePacket> computePacketsOf(const driver::RunPlan& plan, const std::vector<std::vector<uint8_t>>& inputs,
                                            const std::string& model) {
  DeviceOptions options;
  options.chip.mode = models::ExecutionMode::kProtocol;
  auto log = std::make_shared<ComputePacketLog>(options.chip.timing.computePacketCycles,
                                                options.chip.timing.macCyclesPerIteration);
  auto tracer = std::make_shared<traces::Tracer>();
  tracer->addEventSink(log.get());
  options.chip.tracer = tracer;
  Device device(options);
  driver::InProcessTransport transport(device);
  driver::Runner runner(transport, driver::RunnerOptions{});
  runner.open();
  const driver::RunResult result = runner.run(plan, inputs);
  runner.close();
  if (!result.ok()) throw std::runtime_error(model + ": the mapping run (protocol rung) failed: " + *result.error);
  std::vector<ComputePacket> packets;
  for (const RunSpan& run : log->runs()) {
    for (ComputePacket& p : log->packetsIn(run)) packets.push_back(std::move(p));
  }
  return packets;
}

struct LleRun {
  std::vector<CapturedCompute> packets;
  std::optional<std::string> error;
};

// Step 2: the same inputs on the lle rung, strict, every compute packet captured.
LleRun runOnLle(const driver::RunPlan& plan, const std::vector<std::vector<uint8_t>>& inputs,
                models::RequantRounding rounding) {
  DeviceOptions options;
  options.chip.mode = models::ExecutionMode::kLle;
  options.chip.requantRounding = rounding;
  auto capture = std::make_shared<ComputeCapture>();
  options.chip.lleComputeObserver = capture;
  LleRun run;
  {
    Device device(options);
    driver::InProcessTransport transport(device);
    driver::Runner runner(transport, driver::RunnerOptions{});
    runner.open();
    run.error = runner.run(plan, inputs).error;
    runner.close();
  }
  run.packets = capture->packets();
  return run;
}

// Step 3: the twin's graph on the same inputs, keeping the first output of every layer asked for.
std::vector<std::vector<uint8_t>> runTwin(const hle::Graph& graph, const std::vector<std::vector<uint8_t>>& inputs,
                                          const std::vector<int32_t>& wanted, const std::string& twinPath) {
  if (graph.inputs.size() != inputs.size()) {
    throw std::runtime_error(twinPath + ": the twin has " + std::to_string(graph.inputs.size()) +
                             " inputs, the compiled model " + std::to_string(inputs.size()));
  }
  std::vector<hle::TensorBytes> fed;
  for (size_t i = 0; i < inputs.size(); ++i) fed.emplace_back(graph.inputs[i], inputs[i]);
  hle::GraphExecutor executor(graph);
  try {
    return executor.runKeepingTensors(fed, wanted);
  } catch (const hle::HleError& e) {
    throw std::runtime_error(twinPath + ": the twin's graph does not run on the hle kernels: " + e.what());
  }
}

// lane_layout.h rule 2's map for a twin tensor whose positions an executable sends out: the output
// layer of the same name (the compiler names output layers after their TFLite tensor), or else the one
// output layer of the tensor's geometry (its last three dimensions as y, x, z) — the tensor of a layer
// whose MAC-less successor the compiler folded into its packets (gabor's QUANTIZE to uint8 after the
// convolution: the convolution's packets write the bytes the output layer sends). None when no such
// layer, or several, have an OutputLayout.
std::optional<OutputLayoutPlacement> outputLayoutOf(const driver::ModelFile& compiled, const TwinTensor& tensor) {
  if (tensor.shape.size() < 3) return std::nullopt;
  const auto dim = [&](size_t fromEnd) { return int64_t{tensor.shape[tensor.shape.size() - fromEnd]}; };
  size_t elements = 1;
  for (int32_t d : tensor.shape) elements *= d > 0 ? static_cast<size_t>(d) : 0;
  if (elements != static_cast<size_t>(dim(3) * dim(2) * dim(1))) return std::nullopt;
  const driver::Layer* sameName = nullptr;
  std::vector<const driver::Layer*> sameGeometry;
  for (const driver::Executable* e : driver::allExecutables(compiled)) {
    for (const driver::Layer& layer : e->outputLayers) {
      if (!layer.outputLayout || layer.yDim != dim(3) || layer.xDim != dim(2) || layer.zDim != dim(1)) continue;
      if (layer.name == tensor.name) sameName = &layer;
      sameGeometry.push_back(&layer);
    }
  }
  const driver::Layer* chosen = sameName ? sameName : sameGeometry.size() == 1 ? sameGeometry.front() : nullptr;
  if (!chosen) return std::nullopt;
  return OutputLayoutPlacement(*chosen->outputLayout, chosen->yDim, chosen->xDim, chosen->zDim);
}

LayerVerdict verdictOf(const LayerCheckRow& row) {
  if (row.layer.onCpu) return LayerVerdict::kOnCpu;
  if (row.packets.empty()) return row.layer.macs == 0 ? LayerVerdict::kNoComputePacket : LayerVerdict::kNoPacketMapped;
  if (row.packetsRun == 0) return LayerVerdict::kNotReached;
  if (row.comparison.slicesBeyond > 0) return LayerVerdict::kDoesNotFit;
  if (row.comparison.beyondTolerance > 0) return LayerVerdict::kDiffers;
  if (row.comparison.unplaced > 0) return LayerVerdict::kNotPlaced;
  if (row.packetsRun < row.packets.size() || row.comparison.compared < row.comparison.elements) {
    return LayerVerdict::kPartlyComputed;
  }
  return row.comparison.differing > 0 ? LayerVerdict::kWithinTolerance : LayerVerdict::kMatched;
}

// The driver reports a device fault as "... [device: TEXT] [hib_error_status ...] ...": TEXT is the
// rung's refusal. The whole error when it has no such part.
std::string deviceRefusalIn(const std::string& error) {
  const std::string marker = "[device: ";
  const size_t begin = error.find(marker);
  if (begin == std::string::npos) return error;
  int depth = 1;
  for (size_t i = begin + marker.size(); i < error.size(); ++i) {
    depth += error[i] == '[' ? 1 : error[i] == ']' ? -1 : 0;
    if (depth == 0) return error.substr(begin + marker.size(), i - begin - marker.size());
  }
  return error;
}

}  // namespace

const char* layerVerdictName(LayerVerdict verdict) {
  switch (verdict) {
    case LayerVerdict::kMatched: return "matched";
    case LayerVerdict::kDiffers: return "differs";
    case LayerVerdict::kWithinTolerance: return "within tolerance";
    case LayerVerdict::kPartlyComputed: return "partly computed";
    case LayerVerdict::kNotReached: return "not reached";
    case LayerVerdict::kDoesNotFit: return "does not fit";
    case LayerVerdict::kNotPlaced: return "positions not placed";
    case LayerVerdict::kNoComputePacket: return "no compute packet";
    case LayerVerdict::kNoPacketMapped: return "no packet mapped";
    case LayerVerdict::kOnCpu: return "cpu";
  }
  return "?";
}

LayerCheckReport checkLayers(const driver::ModelFile& compiled, const std::filesystem::path& modelPath,
                             const LayerCheckOptions& options) {
  LayerCheckReport report;
  report.model = modelPath.filename().string();
  report.rounding = std::string(models::requantRoundingName(options.rounding));
  report.tolerance = options.tolerance;
  if (!compiled.tflite || compiled.edgeTpuOps.empty()) {
    throw std::runtime_error(modelPath.string() + ": not a compiled Edge TPU TFLite model (no edgetpu custom op)");
  }
  const LoadedTwin loaded = loadTwin(modelPath, options.twin);
  report.twinNote = loaded.note;
  report.twin = loaded.path.string();
  const driver::ModelFile& twin = loaded.model;

  const driver::RunPlan plan = driver::planRun(compiled);
  const std::vector<std::vector<uint8_t>> inputs = options.inputs ? *options.inputs : driver::randomInputs(plan, options.seed);
  if (inputs.size() != plan.inputs.size()) {
    throw std::runtime_error(modelPath.string() + ": " + std::to_string(inputs.size()) + " inputs given, the model has " +
                             std::to_string(plan.inputs.size()));
  }

  const std::vector<ComputePacket> programPackets = computePacketsOf(plan, inputs, modelPath.string());
  const std::vector<TwinLayer> layers = twinLayers(*twin.tflite, compiled);
  const std::vector<LayerAssignment> assignments = assignPackets(programPackets, layers);
  const LleRun lle = runOnLle(plan, inputs, options.rounding);
  report.computePackets = programPackets.size();
  report.lleComputePackets = lle.packets.size();
  report.lleCompleted = !lle.error.has_value();
  if (lle.error) {
    report.stop = *lle.error;
    report.refusal = deviceRefusalIn(report.stop);
  }
  if (lle.packets.size() > programPackets.size()) {
    throw std::runtime_error(modelPath.string() + ": the lle run executed " + std::to_string(lle.packets.size()) +
                             " compute packets, the mapping run " + std::to_string(programPackets.size()));
  }
  for (size_t k = 0; k < lle.packets.size(); ++k) {
    if (lle.packets[k].pc != programPackets[k].pc || lle.packets[k].tiles.size() != programPackets[k].tiles) {
      throw std::runtime_error(modelPath.string() + ": compute packet " + std::to_string(k) + " of the lle run (PC " +
                               hexPc(lle.packets[k].pc) + ") is not the mapping run's (PC " +
                               hexPc(programPackets[k].pc) + "): the control plane differs between rungs");
    }
  }

  const hle::Graph graph = hleGraphFromTflite(*twin.tflite, 0);
  std::vector<int32_t> wanted;  // first outputs of the layers some executed packet computed
  for (size_t i = 0; i < layers.size(); ++i) {
    const auto& packets = assignments[i].packets;
    if (!layers[i].onCpu && !packets.empty() && packets.front() < lle.packets.size()) {
      wanted.push_back(graph.ops.at(layers[i].index).outputs.at(0));
    }
  }
  const std::vector<std::vector<uint8_t>> values =
      wanted.empty() ? std::vector<std::vector<uint8_t>>{} : runTwin(graph, inputs, wanted, loaded.path.string());

  for (size_t i = 0; i < layers.size(); ++i) {
    LayerCheckRow row;
    row.layer = layers[i];
    row.mapping = assignments[i].mapping;
    row.agreement = assignments[i].agreement;
    row.packets = assignments[i].packets;
    for (size_t k : row.packets) row.packetsRun += k < lle.packets.size() ? 1 : 0;
    const int32_t output = graph.ops.at(layers[i].index).outputs.at(0);
    const hle::Tensor& t = graph.tensors.at(static_cast<size_t>(output));
    row.tensor.index = output;
    row.tensor.name = t.name;
    row.tensor.shape = t.shape;
    row.tensor.int8 = t.type == hle::ElementType::Int8;
    row.comparison.elements = hle::elementCount(t.shape);
    if (!row.layer.onCpu && row.packetsRun > 0) {
      row.tensor.bytes = values.at(static_cast<size_t>(output));
      // A pass-through (the mapping's staging packets: no clamp, multiplier 1) wrote the layer's input, not its output.
      std::vector<size_t> ran;
      for (size_t j = 0; j < row.packetsRun; ++j) {
        if (!programPackets[row.packets[j]].passThrough) ran.push_back(row.packets[j]);
      }
      const std::optional<OutputLayoutPlacement> placement = outputLayoutOf(compiled, row.tensor);
      row.comparison = compareWithTwin(row.tensor, lle.packets, ran, options.tolerance, placement ? &*placement : nullptr);
    }
    row.verdict = verdictOf(row);
    if (row.verdict == LayerVerdict::kDiffers && !report.firstDiffering) report.firstDiffering = report.rows.size();
    const bool ownsNextPacket = std::ranges::find(row.packets, lle.packets.size()) != row.packets.end();
    if (!report.lleCompleted && ownsNextPacket) report.stoppedAt = report.rows.size();
    report.rows.push_back(std::move(row));
  }
  return report;
}

}  // namespace coralsim::sim

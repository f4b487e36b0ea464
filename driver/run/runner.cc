#include "driver/run/runner.h"

#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "driver/transport/beagle_csrs.h"
#include "driver/run/dma_service.h"
#include "driver/run/executable_run.h"
#include "driver/run/hint_check.h"
#include "driver/hex_text.h"
#include "driver/run/output_layout.h"
#include "driver/run/tensor_encoding.h"
#include "traces/sha256.h"

namespace coralsim::driver {
namespace {

// descr_ep values (docs/usb-protocol.md §3.1): interrupt events only / every descriptor.
constexpr uint64_t kDescrEpInterruptsOnly = 0xF0;
constexpr uint64_t kDescrEpAll = 0xFF;

uint64_t descrEpFor(ServiceMode mode) { return mode == ServiceMode::kHints ? kDescrEpInterruptsOnly : kDescrEpAll; }

std::vector<ObservedDescriptor> resolveAll(ExecutableRun& run, const std::vector<DeviceDescriptor>& list) {
  std::vector<ObservedDescriptor> out;
  out.reserve(list.size());
  for (const DeviceDescriptor& d : list) {
    ObservedDescriptor o{d, std::nullopt};
    if (d.tag >= 1 && d.tag <= 3) {
      if (run.rawProgram()) {
        o.target = DescriptorTarget{d.tag == 2 ? BufferKind::Parameter : (d.tag == 3 ? BufferKind::Output : BufferKind::Input),
                                    d.tag == 1 ? kRawInputStream : "", 0, d.address};
      } else if (auto loc = run.addressSpace().resolve(d.address)) {
        o.target = DescriptorTarget{loc->buffer->kind, loc->buffer->name, loc->buffer->batch, loc->offset};
      }
    }
    out.push_back(std::move(o));
  }
  return out;
}

// The first `tensorBytes / batches` bytes of each of the `batches` equal slices of `device` (the
// layer's padded buffers, concatenated); nullopt when the sizes do not divide or a slice is short.
std::optional<std::vector<uint8_t>> tensorBytesOf(const std::vector<uint8_t>& device, uint64_t tensorBytes, size_t batches) {
  if (tensorBytes == 0 || batches == 0 || device.size() == tensorBytes) return std::nullopt;
  if (tensorBytes % batches != 0 || device.size() % batches != 0) return std::nullopt;
  const uint64_t keep = tensorBytes / batches;
  const uint64_t slice = device.size() / batches;
  if (slice < keep) return std::nullopt;
  std::vector<uint8_t> out;
  out.reserve(tensorBytes);
  for (size_t b = 0; b < batches; ++b) {
    const auto from = device.begin() + static_cast<ptrdiff_t>(b * slice);
    out.insert(out.end(), from, from + static_cast<ptrdiff_t>(keep));
  }
  return out;
}

// The device's undefined output bytes (window, offset in it) placed in the host buffers their windows filled: window k is the
// run's k-th tag-3 descriptor of non-zero length (the outfeed opens no window for an empty one). A raw program's k-th tag-3
// descriptor of any length fills its buffer "output k" from offset 0 (ExecutableRun::newRawOutput).
std::map<std::pair<std::string, int32_t>, std::vector<uint64_t>> undefinedOffsetsByBuffer(
    const ExecutableRunRecord& rec, bool rawProgram, const std::vector<DeviceIntrospection::UndefinedOutputByte>& undefined) {
  std::map<std::pair<std::string, int32_t>, std::vector<uint64_t>> out;
  if (undefined.empty()) return out;
  std::vector<std::optional<std::pair<std::pair<std::string, int32_t>, uint64_t>>> windows;  // buffer, offset of window k
  size_t rawIndex = 0;
  for (const ObservedDescriptor& d : rec.descriptors) {
    if (d.descriptor.tag != 3) continue;
    std::optional<std::pair<std::pair<std::string, int32_t>, uint64_t>> place;
    if (rawProgram) {
      place = {{"output " + std::to_string(rawIndex), 0}, 0};
    } else if (d.target && d.target->kind == BufferKind::Output) {
      place = {{d.target->name, d.target->batch}, d.target->offset};
    }
    ++rawIndex;
    if (d.descriptor.length != 0) windows.push_back(place);
  }
  for (const auto& u : undefined) {
    if (u.window >= windows.size() || !windows[u.window]) continue;  // a window no output buffer took (scratch)
    out[windows[u.window]->first].push_back(windows[u.window]->second + u.offset);
  }
  return out;
}

}  // namespace

Runner::Runner(Transport& transport, RunnerOptions options) : transport_(transport), options_(options) {}

void Runner::open() {
  OpenOptions o;
  o.performance = options_.performance;
  o.descriptorEventMask = descrEpFor(options_.service);
  o.highSpeedLink = transport_.linkSpeed() == usb::UsbSpeed::kHigh;
  o.pollTimeout = options_.pollTimeout;
  cachedToken_.reset();  // the GCB reset of the open sequence wipes cached parameters
  openChip(transport_, o);
  open_ = true;
}

void Runner::close() {
  open_ = false;
  cachedToken_.reset();
  closeChip(transport_, options_.pollTimeout);
}

std::string Runner::describeFailure(const std::string& what) {
  std::string s = what;
  if (const DeviceIntrospection* intro = transport_.introspection()) {
    if (auto fault = intro->faultText()) s += " [device: " + *fault + "]";
  }
  try {
    // A faulted chip says so in hib_error_status (docs/usb-protocol.md §4.3); where the scalar core
    // stands tells a hang from a slow run (§7). Both work on real hardware too.
    const uint64_t status = transport_.read64(csr::hib_error_status);
    if (status != 0) s += " [hib_error_status " + hexText(status) + "]";
    const uint64_t runStatus = transport_.read64(csr::scalarCoreRunStatus);
    const uint64_t pc = transport_.read64(csr::currentPc);
    s += " [scalar core: run status " + std::to_string(runStatus) + ", PC word " + hexText(pc) + "]";
  } catch (const std::exception&) {
    // The transport itself is gone; the original error says enough.
  }
  return s;
}

void Runner::runExecutable(const PlannedExecutable& planned, bool rawProgram, int iteration,
                           const std::map<std::string, std::vector<uint8_t>>& inputs, Produced& produced,
                           RunResult& result) {
  const Executable& exe = *planned.executable;
  ExecutableRun run(transport_, exe, planned.label, inputs, rawProgram);
  ExecutableRunRecord& rec = run.record();
  rec.iteration = iteration;
  rec.service = options_.service;
  if (rec.service == ServiceMode::kHints) {
    if (rawProgram) {
      rec.service = ServiceMode::kEvents;
      rec.serviceNote = "raw program without DMA hints: served by events";
    } else if (!exe.dmaHints) {
      rec.service = ServiceMode::kEvents;
      rec.serviceNote = "no DMA hints: served by events";
    } else if (!exe.dmaHints->fullyDeterministic) {
      rec.service = ServiceMode::kEvents;
      rec.serviceNote = "DMA hints not fully deterministic: served by events";
    }
  }

  const DeviceIntrospection* intro = transport_.introspection();
  const uint64_t cycles0 = intro ? intro->simulatedCycles() : 0;
  const size_t log0 = intro ? intro->descriptorLog().size() : 0;
  const bool switchEp = rec.service != options_.service;

  auto finish = [&] {
    if (intro) {
      rec.cycles = intro->simulatedCycles() - cycles0;
      rec.rung = intro->executionModeUsed();
      rec.rungNote = intro->executionModeNote();
      rec.deviceNotes = intro->deviceNotes();
      if (options_.deviceTime) rec.timing = intro->lastRunTiming();
    }
    if (rec.service == ServiceMode::kEvents) {
      rec.descriptorSource = DescriptorSource::kEvents;
      rec.descriptors = resolveAll(run, run.events());
    } else if (intro) {
      const std::vector<DeviceDescriptor> log = intro->descriptorLog();
      rec.descriptorSource = DescriptorSource::kDeviceLog;
      rec.descriptors = resolveAll(run, std::vector<DeviceDescriptor>(log.begin() + static_cast<ptrdiff_t>(std::min(log0, log.size())), log.end()));
    } else {
      rec.descriptorSource = DescriptorSource::kInterruptEventsOnly;
      rec.descriptors = resolveAll(run, run.events());
    }
    // The oracle: the device derived these descriptors by running the program; the compiler
    // wrote the hints. Only a complete list can be compared.
    if (rec.completed && rec.descriptorSource != DescriptorSource::kInterruptEventsOnly) {
      rec.hintCheck = checkAgainstHints(rec, exe);
    }
  };

  try {
    if (switchEp) transport_.write64(csr::descr_ep, descrEpFor(rec.service));
    if (rec.service == ServiceMode::kHints) serveByHints(run);
    else serveByEvents(run);
    if (switchEp) transport_.write64(csr::descr_ep, descrEpFor(options_.service));
  } catch (...) {
    finish();
    result.runs.push_back(rec);
    throw;
  }
  finish();
  result.runs.push_back(rec);

  // Collect the outputs (all batches of a layer, concatenated). Tile-major outputs go back to
  // TFLite order batch by batch, as libedgetpu does before TFLite (or a later package) reads them;
  // the padding to the layer's size is dropped in run(), where the TFLite tensor's size is known.
  const std::optional<bool> computed = intro ? intro->outputsComputed() : std::nullopt;
  const std::map<std::pair<std::string, int32_t>, std::vector<uint64_t>> undefinedAt =
      intro ? undefinedOffsetsByBuffer(rec, rawProgram, intro->undefinedOutputBytes()) : std::map<std::pair<std::string, int32_t>, std::vector<uint64_t>>{};
  std::vector<std::string> order;
  std::map<std::string, std::vector<uint8_t>> collected;
  for (const HostBuffer& b : run.addressSpace().buffers()) {
    if (b.kind != BufferKind::Output) continue;
    if (!collected.count(b.name)) {
      order.push_back(b.name);
      produced.deviceBytes[b.name] = 0;
      produced.batches[b.name] = 0;
      produced.deviceLayout[b.name] = false;
      produced.relaidOut[b.name] = false;
    }
    const std::span<const uint8_t> device = b.view();
    produced.deviceBytes[b.name] += device.size();
    produced.batches[b.name] += 1;
    // Which of the buffer's bytes are undefined, one a byte, moved by the same re-layout as the bytes.
    std::vector<uint8_t> mask(device.size(), 0);
    if (const auto u = undefinedAt.find({b.name, b.batch}); u != undefinedAt.end()) {
      for (const uint64_t at : u->second) {
        if (at < mask.size()) mask[at] = 1;
      }
    }
    std::optional<std::vector<uint8_t>> tflite, tfliteMask;
    bool tileMajor = false;
    for (const Layer& l : exe.outputLayers) {
      if (l.name != b.name || outputLayoutIsTfliteOrder(l)) continue;
      tileMajor = true;
      tflite = deviceToTfliteOrder(l, device);
      tfliteMask = deviceToTfliteOrder(l, mask);
    }
    auto& bytes = collected[b.name];
    auto& undefined = produced.undefined[b.name];
    if (tflite && tfliteMask) {
      bytes.insert(bytes.end(), tflite->begin(), tflite->end());
      undefined.insert(undefined.end(), tfliteMask->begin(), tfliteMask->end());
      produced.relaidOut[b.name] = true;
    } else {
      bytes.insert(bytes.end(), device.begin(), device.end());
      undefined.insert(undefined.end(), mask.begin(), mask.end());
      if (tileMajor) produced.deviceLayout[b.name] = true;  // maps that do not cover the layer: as the device sent it
    }
  }
  for (const std::string& name : order) {
    if (!produced.bytes.count(name)) produced.order.push_back(name);
    produced.computed[name] = computed;
    produced.bytes[name] = std::move(collected[name]);
  }
}

RunResult Runner::run(const RunPlan& plan, const std::vector<std::vector<uint8_t>>& inputs, int iterations) {
  if (!open_) throw std::logic_error("Runner::run called before open()");
  if (iterations < 1) throw std::invalid_argument("iterations must be at least 1");
  if (inputs.size() > plan.inputs.size()) {
    throw std::invalid_argument(plan.model + ": " + std::to_string(inputs.size()) + " inputs given, the model takes " +
                                std::to_string(plan.inputs.size()));
  }
  std::map<std::string, std::vector<uint8_t>> wire;
  for (size_t i = 0; i < plan.inputs.size(); ++i) {
    const TensorSpec& spec = plan.inputs[i];
    if (i >= inputs.size()) {
      if (spec.optional) continue;
      throw std::invalid_argument(plan.model + ": input " + std::to_string(i) + " '" + spec.name + "' (" +
                                  std::to_string(spec.sizeBytes) + " bytes " + spec.typeName + ") is missing");
    }
    const uint64_t size = inputs[i].size();
    if (spec.sizeBytes != 0 && size != spec.sizeBytes && size != spec.deviceBytes) {
      throw std::invalid_argument(plan.model + ": input " + std::to_string(i) + " '" + spec.name + "' has " +
                                  std::to_string(size) + " bytes, the model expects " + std::to_string(spec.sizeBytes) +
                                  " (" + spec.typeName + ")");
    }
    std::vector<uint8_t> bytes = inputs[i];
    if (spec.flipsSign) flipSignBits(bytes);
    wire[spec.name] = std::move(bytes);
  }

  RunResult result;
  result.model = plan.model;
  result.service = options_.service;
  result.iterations = iterations;
  Produced produced;
  try {
    for (int it = 0; it < iterations; ++it) {
      produced = Produced{};
      std::map<std::string, std::vector<uint8_t>> tensors = wire;
      for (const PlanUnit& unit : plan.units) {
        if (unit.parameterCaching) {
          const uint64_t token = unit.parameterCaching->executable->parameterCachingToken;
          if (token != 0 && cachedToken_ == token) {
            result.skipped.push_back({unit.parameterCaching->label, ExecutableType::ParameterCaching, it,
                                      "parameters of caching token " + hexText(token) + " are already on the device"});
          } else {
            cachedToken_.reset();
            runExecutable(*unit.parameterCaching, false, it, tensors, produced, result);
            if (token != 0) cachedToken_ = token;
          }
        }
        for (const PlannedExecutable& p : unit.programs) {
          runExecutable(p, plan.rawProgram, it, tensors, produced, result);
          // A later package may read what this one produced.
          for (const auto& [name, bytes] : produced.bytes) tensors[name] = bytes;
        }
      }
    }
  } catch (const std::exception& e) {
    cachedToken_.reset();  // the device state is unknown after a failure
    result.error = describeFailure(e.what());
  }

  for (const auto& r : result.runs) {
    if (r.cycles) result.cycles = result.cycles.value_or(0) + *r.cycles;
  }
  if (const DeviceIntrospection* intro = transport_.introspection()) result.executionMode = intro->executionModeUsed();
  if (options_.deviceTime) result.timing = inferenceTiming(result.runs);

  for (const std::string& name : produced.order) {
    OutputTensor out;
    out.name = name;
    out.bytes = produced.bytes[name];
    out.deviceBytes = produced.deviceBytes[name];
    if (const TensorSpec* spec = plan.findOutput(name)) {
      out.typeName = spec->typeName;
      out.tensorBytes = spec->sizeBytes;
      // libedgetpu hands the application exactly the tensor's bytes, not the layer's padding.
      if (!produced.deviceLayout[name]) {
        if (auto exact = tensorBytesOf(out.bytes, spec->sizeBytes, produced.batches[name])) out.bytes = std::move(*exact);
        if (auto exact = tensorBytesOf(produced.undefined[name], spec->sizeBytes, produced.batches[name])) {
          produced.undefined[name] = std::move(*exact);
        }
      }
      if (spec->flipsSign) {
        flipSignBits(out.bytes);
        out.signFlipped = true;
      }
    } else {
      out.typeName = "bytes";
      out.tensorBytes = out.bytes.size();
    }
    out.sha256 = traces::Sha256::hex(out.bytes);
    out.computed = produced.computed[name];
    const std::vector<uint8_t>& undefined = produced.undefined[name];
    out.undefinedBytes = static_cast<uint64_t>(std::count(undefined.begin(), undefined.end(), uint8_t{1}));
    if (out.undefinedBytes != 0 && undefined.size() == out.bytes.size()) out.undefined = undefined;
    out.deviceLayout = produced.deviceLayout[name];
    out.relaidOut = produced.relaidOut[name];
    result.outputs.push_back(std::move(out));
  }
  return result;
}

}  // namespace coralsim::driver

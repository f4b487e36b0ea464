#include "models/hle/hle_rung.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "models/chip/block_interfaces.h"
#include "models/hle/graph_executor.h"
#include "usb/output_layout.h"

namespace coralsim::models {
namespace {

std::string hex64(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(v));
  return buf;
}

[[noreturn]] void refuse(const std::string& what) { throw ChipFault(FaultKind::kUnsupported, "hle: " + what); }

}  // namespace

HleRung::HleRung(std::shared_ptr<const hle::ProgramRegistry> registry) : registry_(std::move(registry)) {}

void HleRung::reset() { beginRun(); }

void HleRung::beginRun() {
  chunks_ = 0;
  candidates_ = registry_->allExecutables();
  stream_.clear();
  computed_ = false;
  inputComplete_ = false;
  computedWith_ = 0;
  cursor_ = 0;
  windowStart_ = 0;
}

std::string HleRung::checkChunk(std::span<const uint8_t> chunk, const DecodedProgram* /*decoded*/) {
  std::vector<hle::ExecutableRef> matches = registry_->matchChunk(chunk, chunks_, candidates_);
  if (matches.empty()) {
    return "instruction chunk " + std::to_string(chunks_) + " of the run (" + std::to_string(chunk.size()) +
           " bytes, FNV-1a-64 " + hex64(hle::rawChunkHash(chunk)) + " as received) matches none of the " +
           std::to_string(registry_->executableCount()) + " registered executables" +
           (chunks_ > 0 ? " that matched the run's earlier chunks" : "") +
           " (hashes mask each candidate's linked address fields)";
  }
  candidates_ = std::move(matches);
  ++chunks_;
  return "";
}

void HleRung::packet(const DecodedPacket& /*packet*/, const RunStreams& /*streams*/, uint64_t /*cycle*/) {}

std::vector<uint8_t> HleRung::windowTail(unsigned /*window*/, uint32_t windowLength, uint32_t streamedBytes,
                                         const RunStreams& streams) {
  // Large programs stream: they open output windows before the host has sent all input (band by
  // band). Compute with what has arrived (the rest read as zeros) and recompute while more
  // arrives: the program only emits a band once the input it depends on is in, as on hardware.
  const size_t arrived = streams.inputBytes().size();
  if (!computed_ || (!inputComplete_ && arrived > computedWith_)) {
    compute(streams);
    computed_ = true;
  }
  windowStart_ = cursor_;
  cursor_ += windowLength;
  if (!inputComplete_ && cursor_ >= stream_.size()) {
    refuse(where_ + ": the last output window opened after " + std::to_string(arrived) + " of the " +
           std::to_string(inputNeeded_) + " input stream bytes the program's input layers need");
  }
  // Each window carries the next stretch of the output stream; its head came from scalar
  // stream words and is overwritten by overwriteStreamedHead.
  const size_t begin = std::min(stream_.size(), windowStart_ + streamedBytes);
  const size_t end = std::min(stream_.size(), windowStart_ + windowLength);
  if (begin >= end) return {};
  return {stream_.begin() + static_cast<ptrdiff_t>(begin), stream_.begin() + static_cast<ptrdiff_t>(end)};
}

void HleRung::overwriteStreamedHead(unsigned /*window*/, std::span<uint8_t> head) {
  // The control plane's stream words carry no computed numbers; the twin knows these bytes too.
  const size_t available = windowStart_ < stream_.size() ? stream_.size() - windowStart_ : 0;
  std::copy_n(stream_.begin() + static_cast<ptrdiff_t>(std::min(windowStart_, stream_.size())),
              std::min(head.size(), available), head.begin());
}

hle::ExecutableRef HleRung::chosen() const {
  for (const hle::ExecutableRef& ref : candidates_) {
    if (registry_->executable(ref).chunks.size() == chunks_) return ref;
  }
  return candidates_.front();
}

void HleRung::compute(const RunStreams& streams) {
  if (chunks_ == 0 || candidates_.empty()) refuse("an output window before any recognised instruction chunk");
  const hle::ExecutableRef ref = chosen();
  const hle::Program& program = registry_->program(ref);
  const hle::ProgramExecutable& exe = registry_->executable(ref);
  where_ = program.name + " " + exe.label;
  const std::string& where = where_;
  if (exe.outputs.empty()) refuse(where + " has no output layers, yet the program opened an output window");

  // The input layers, reassembled from the run's input stream in hint order.
  const std::span<const uint8_t> in = streams.inputBytes();
  std::vector<std::vector<uint8_t>> layers;
  for (const hle::LayerBinding& b : exe.inputs) layers.emplace_back(b.layerBytes, 0);
  size_t pos = 0;
  size_t needed = 0;  // input stream bytes up to the end of the last layer segment
  for (const hle::StreamSegment& s : exe.inputStream) {
    if (s.layer == hle::StreamSegment::kScratch) {  // a read-back of a spill: the twin needs none
      pos += s.size;
      continue;
    }
    std::vector<uint8_t>& layer = layers.at(s.layer);
    if (static_cast<size_t>(s.offset) + s.size > layer.size()) {
      refuse(where + ": input segment outside layer '" + exe.inputs.at(s.layer).name + "'");
    }
    const size_t have = pos < in.size() ? std::min<size_t>(s.size, in.size() - pos) : 0;
    std::copy_n(in.begin() + static_cast<ptrdiff_t>(pos), have, layer.begin() + s.offset);
    pos += s.size;
    needed = pos;
  }
  inputNeeded_ = needed;
  computedWith_ = in.size();
  inputComplete_ = in.size() >= needed;

  std::vector<hle::TensorBytes> feeds;
  for (size_t i = 0; i < exe.inputs.size(); ++i) {
    const hle::LayerBinding& b = exe.inputs[i];
    std::vector<uint8_t> bytes(layers[i].begin(), layers[i].begin() + std::min<size_t>(b.tensorBytes, layers[i].size()));
    if (b.int8) {
      for (uint8_t& v : bytes) v ^= 0x80;  // device uint8 -> TFLite int8
    }
    feeds.emplace_back(b.twinTensor, std::move(bytes));
  }
  std::vector<int32_t> wanted;
  for (const hle::LayerBinding& b : exe.outputs) wanted.push_back(b.twinTensor);

  std::vector<std::vector<uint8_t>> results;
  try {
    hle::GraphExecutor executor(*program.graph);
    results = executor.run(feeds, wanted);
  } catch (const hle::HleError& e) {
    refuse(where + ": " + e.what());
  }

  std::vector<std::vector<uint8_t>> deviceLayers;
  for (size_t i = 0; i < exe.outputs.size(); ++i) {
    const hle::LayerBinding& b = exe.outputs[i];
    std::vector<uint8_t>& r = results.at(i);
    if (b.int8) {
      for (uint8_t& v : r) v ^= 0x80;  // TFLite int8 -> device uint8
    }
    std::vector<uint8_t> device(b.layerBytes, 0);
    const bool dimsCover = static_cast<int64_t>(b.yDim) * b.xDim * b.zDim == static_cast<int64_t>(r.size());
    if (b.layout && dimsCover) {
      // TFLite-order bytes (y, x, z) to their device positions (usb/output_layout.h).
      const std::string why = usb::tfliteToDeviceOrder({b.yDim, b.xDim, b.zDim, &*b.layout}, r, device);
      if (!why.empty()) refuse(where + ": output layer '" + b.name + "': " + why);
    } else {
      std::copy_n(r.begin(), std::min(r.size(), device.size()), device.begin());
    }
    deviceLayers.push_back(std::move(device));
  }
  stream_.clear();
  for (const hle::StreamSegment& s : exe.outputStream) {
    if (s.layer == hle::StreamSegment::kScratch) {  // a spill: the twin has no intermediates to send
      stream_.insert(stream_.end(), s.size, 0);
      continue;
    }
    const std::vector<uint8_t>& layer = deviceLayers.at(s.layer);
    if (static_cast<size_t>(s.offset) + s.size > layer.size()) {
      refuse(where + ": output segment outside layer '" + exe.outputs.at(s.layer).name + "'");
    }
    stream_.insert(stream_.end(), layer.begin() + s.offset, layer.begin() + s.offset + s.size);
  }
}

std::unique_ptr<DatapathRung> makeHleRung(const ChipConfig& config) {
  if (!config.hlePrograms || config.hlePrograms->empty()) return nullptr;
  return std::make_unique<HleRung>(config.hlePrograms);
}

}  // namespace coralsim::models

// Building the high-level datapath's program registry (models/hle/program_registry.h) from model
// files: a compiled Edge TPU model paired with its uncompiled CPU twin.
//
// For every executable of every edgetpu custom op of COMPILED: its instruction chunks' hashes with
// the link points masked, its input and output layers bound to twin tensors, the layers' device
// encoding (int8 = XOR 0x80) and output layouts, and the stream order from the DMA hints. A layer
// is bound to the twin tensor whose name is the layer's (= the custom op tensor's) name, unless
// `overrides` names another (the golden manifests document a few such pairs).
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "models/hle/program_registry.h"

namespace coralsim::sim {

// Any problem pairing the files: the message names both files and what does not match.
class HleProgramError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A twin tensor's quantisation replaced before the graph runs (golden manifests document such
// patches where an older compile quantised a custom-op output differently from the published twin).
struct QuantPatch {
  float scale = 0;
  int64_t zeroPoint = 0;
};

struct HleProgramSpec {
  std::filesystem::path compiled;
  std::filesystem::path cpu;
  std::map<std::string, std::string> overrides;    // custom op tensor name -> twin tensor name
  std::map<std::string, QuantPatch> quantPatches;  // twin tensor name -> its quantisation
};

// "COMPILED=CPU" (the `--hle` option's value). Throws HleProgramError for any other shape.
HleProgramSpec parseHleProgramSpec(std::string_view text);

// Loads both files and builds the registry entry. Throws driver::LoadError for unreadable files and
// HleProgramError when they do not pair up (no edgetpu custom op, a tensor without a twin, sizes
// that differ).
hle::Program registerHleProgram(const std::filesystem::path& compiled, const std::filesystem::path& cpu,
                                const std::map<std::string, std::string>& overrides = {},
                                const std::map<std::string, QuantPatch>& quantPatches = {});

// One registry for every spec, in order (an earlier program wins when two have identical chunks).
std::shared_ptr<const hle::ProgramRegistry> buildHleRegistry(const std::vector<HleProgramSpec>& specs);

}  // namespace coralsim::sim

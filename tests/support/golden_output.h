// Reading a golden output (../shared/golden, golden/README.md) the way its manifest describes it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tests/support/json_reader.h"

namespace coralsim::testing {

// The preferred reference of one golden output in TFLite's encoding. `output` is the case's
// `tpu_outputs` entry in the manifest. golden/README.md "which variant": the fp32-requantisation
// variant matched the device wherever there is hardware evidence, so it is preferred where the golden
// set has one — `alt_xnnpack_file` (TFLite form), else `alt_xnnpack_dev_file` (device form: an int8
// output is TFLite's bytes XOR 0x80, a uint8 one is the same bytes) — else the primary `file`.
std::vector<uint8_t> readPreferredGoldenOutput(const std::filesystem::path& caseDir, const JsonValue& output);

// The preferred reference (readPreferredGoldenOutput) of output `index` of the case `caseId` (the manifest's `cases[].case`,
// whose input is `<caseId>.in0.bin`) of the golden model in `goldenModelDir`; nullopt when the manifest has no such case.
std::optional<std::vector<uint8_t>> readPreferredGoldenCaseOutput(const std::filesystem::path& goldenModelDir, const std::string& caseId,
                                                                  size_t index = 0);

// The same reference in the device's encoding (what the chip's output stream carries):
// `alt_xnnpack_dev_file`, else the primary's `dev_file`.
std::vector<uint8_t> readPreferredGoldenDeviceOutput(const std::filesystem::path& caseDir, const JsonValue& output);

// True when the golden's TPU subgraph holds an AVERAGE_POOL_2D (`tolerance.tpu_subgraph_ops`). TFLite's integer
// kernel rounds the pool's ties in a way no single rounding of the device's requantiser states (docs/decoding-log.md
// "gabp4" §C, "pool4" §C), and the corpus has no hardware pool output to say the chip's rule: a test reports how exact
// such an lle output is and asserts the golden's tolerance, not exactness.
bool goldenRoundsPoolTies(const JsonValue& manifest);

// How far a golden's own CPU references stand apart (`tolerance.float_requant_spread_lsb`: the float-requantising
// references' distance from the primary, in LSB; `tolerance.requantising_layers`). Each CPU reference requantises with
// scales it computes itself, the device with the f32 scales the compiler stored in the program, and near-tie products
// diverge and grow layer by layer: where the references disagree by 2 LSB or more over several requantising layers, no
// CPU reference is the device's bytes (docs/decoding-log.md "hold17": PoseNet / BodyPix 16-channel decoders, whose lle
// output equals an offline twin run with the program's own scales, scripts/hold17_device_scale_twin.py, in every byte).
// A test reports exactness for such a golden and asserts its tolerance (`tolerance.max_abs_lsb`) instead.
struct GoldenReferenceSpread {
  int floatRequantSpreadLsb = 0;
  int requantisingLayers = 0;
  int maxAbsLsb = 1;  // tolerance.max_abs_lsb (1 when absent)
  [[nodiscard]] bool referencesDisagree() const { return floatRequantSpreadLsb >= 2 && requantisingLayers >= 2; }
};
GoldenReferenceSpread goldenReferenceSpread(const JsonValue& manifest);

// The compiled models (paths under `corpus`, as each manifest's `compiled.path` names them) of every golden model of
// `golden` whose references disagree (above). A test that judges a program against a CPU twin uses it to know which
// programs no CPU arithmetic judges byte for byte.
std::set<std::filesystem::path> compiledModelsWhoseGoldenReferencesDisagree(const std::filesystem::path& golden,
                                                                            const std::filesystem::path& corpus);

}  // namespace coralsim::testing

// Reading a golden output (../shared/golden, golden/README.md) the way its manifest describes it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include "tests/support/json_reader.h"

namespace coralsim::testing {

// The preferred reference of one golden output in TFLite's encoding. `output` is the case's
// `tpu_outputs` entry in the manifest. golden/README.md "which variant": the fp32-requantisation
// variant matched the device wherever there is hardware evidence, so it is preferred where the golden
// set has one — `alt_xnnpack_file` (TFLite form), else `alt_xnnpack_dev_file` (device form: an int8
// output is TFLite's bytes XOR 0x80, a uint8 one is the same bytes) — else the primary `file`.
std::vector<uint8_t> readPreferredGoldenOutput(const std::filesystem::path& caseDir, const JsonValue& output);

// The same reference in the device's encoding (what the chip's output stream carries):
// `alt_xnnpack_dev_file`, else the primary's `dev_file`.
std::vector<uint8_t> readPreferredGoldenDeviceOutput(const std::filesystem::path& caseDir, const JsonValue& output);

// True when the golden's TPU subgraph holds an AVERAGE_POOL_2D (`tolerance.tpu_subgraph_ops`). TFLite's integer
// kernel rounds the pool's ties in a way no single rounding of the device's requantiser states (docs/decoding-log.md
// "gabp4" §C, "pool4" §C), and the corpus has no hardware pool output to say the chip's rule: a test reports how exact
// such an lle output is and asserts the golden's tolerance, not exactness.
bool goldenRoundsPoolTies(const JsonValue& manifest);

}  // namespace coralsim::testing

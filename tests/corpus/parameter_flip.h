// A wrong parameter byte for the layer checker's tests (corpus_layer_check): the lle rung's output of a
// compiled model, and the first byte of its parameter stream whose flip changes that output — chosen
// by running the program, with no knowledge of any compute form's parameter layout.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "driver/model/model_file.h"

namespace coralsim::testing {

// The first output (TFLite encoding) of `model` on the lle rung, rounding as the layer checker's
// default (TFLite's fixed point); nullopt when the run fails.
[[nodiscard]] std::optional<std::vector<uint8_t>> lleOutput(const driver::ModelFile& model,
                                                            const std::vector<std::vector<uint8_t>>& inputs);

struct ParameterFlip {
  size_t offset = 0;                 // in the first executable with parameters
  std::vector<uint8_t> cleanOutput;  // lleOutput before and after
  std::vector<uint8_t> changedOutput;
};

// Flips (XOR 0x80) the first byte of the first parameter stream, from `from` on, that changes the lle
// output on `inputs`, and leaves it flipped in `model`; nullopt (model unchanged) when none does among the
// first `maxTries` bytes tried (each try is a whole lle run).
[[nodiscard]] std::optional<ParameterFlip> flipFirstOutputChangingParameter(driver::ModelFile& model,
                                                                            const std::vector<std::vector<uint8_t>>& inputs,
                                                                            size_t from = 0, size_t maxTries = SIZE_MAX);

}  // namespace coralsim::testing

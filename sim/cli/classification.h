// Reading a classifier's output: the top classes with their dequantised scores, and the labels file
// beside the model (`coralsim demo`).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "driver/model/model_file.h"

namespace coralsim::cli {

struct ClassScore {
  size_t index = 0;
  double score = 0;  // scale * (q - zero point)
};

// The number of classes: the elements of the output tensor's shape (never the device's padded
// layer size, which may be larger).
[[nodiscard]] size_t classCount(const driver::TfliteTensor& output);

// The `k` best classes of `bytes` (the output in TFLite encoding: uint8, or int8 for INT8 tensors),
// best first, ties in class order. Only the first classCount(output) bytes are classes; throws
// std::invalid_argument when `bytes` is shorter or the tensor is not 8-bit quantised.
[[nodiscard]] std::vector<ClassScore> topClasses(std::span<const uint8_t> bytes, const driver::TfliteTensor& output,
                                                 size_t k);

// The labels file beside `model`: the one `*labels*.txt` in its folder with exactly `classes` lines
// (one label per class index). nullopt when none or several have that many.
[[nodiscard]] std::optional<std::filesystem::path> findLabelsBeside(const std::filesystem::path& model, size_t classes);

// The lines of a labels file (without line ends). Throws driver::LoadError when unreadable.
[[nodiscard]] std::vector<std::string> readLabels(const std::filesystem::path& path);

}  // namespace coralsim::cli

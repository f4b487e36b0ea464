// The hardware ground truth of classification models (../shared/corpus/ground_truth/
// GROUND_TRUTH_public.json): expectations transcribed from upstream tests that ran on real Edge
// TPUs, e.g. "cat.bmp -> label 283 (tiger cat) in top-3, score > 0.25". `coralsim demo` checks its
// classification against them; the ground-truth corpus test parses the same text the same way.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace coralsim::cli {

// The expected label must be among the top `topK` classes with a score above `minScore`.
struct ClassExpectation {
  int label = -1;
  double minScore = 0;
  int topK = 3;
};

// The expectation for the compiled model file `compiledFileName` in an "expect" text: "label 283
// ... score > 0.25", or one segment per model, "0.25_128: label 283 score>0.25; mnv2 cocompiled:
// 286 score>0.78" (a segment "KEY: ..." applies to the file whose name contains KEY; "mnv2" means
// mobilenet_v2). The first threshold of a segment is taken (later ones are older, stricter runs).
[[nodiscard]] std::optional<ClassExpectation> parseClassExpectation(std::string_view expect,
                                                                    std::string_view compiledFileName);

struct ClassGroundTruth {
  std::string id;          // the record's "id"
  std::string expectText;  // its "expect", as written
  std::string source;      // its "source"
  ClassExpectation expectation;
};

// The classification record that lists `modelRel` (path relative to the corpus) among
// "models_present" and `imageRel` among "inputs", with its expectation for that model; nullopt
// when there is none. Throws driver::LoadError when the file cannot be read or parsed.
[[nodiscard]] std::optional<ClassGroundTruth> findClassGroundTruth(const std::filesystem::path& corpus,
                                                                   const std::string& modelRel,
                                                                   const std::string& imageRel);

}  // namespace coralsim::cli

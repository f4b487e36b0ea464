#include "sim/hle_host/twin_discovery.h"

#include <system_error>

namespace coralsim::sim {

TwinSearch findTwinBeside(const std::filesystem::path& compiled) {
  constexpr std::string_view kSuffix = "_edgetpu.tflite";
  TwinSearch search;
  const std::string file = compiled.filename().string();
  if (file.size() <= kSuffix.size() || !file.ends_with(kSuffix)) {
    search.description = "none: " + compiled.string() + " is not named X_edgetpu.tflite, so there is no X.tflite to look for";
    return search;
  }
  search.candidate = compiled.parent_path() / (file.substr(0, file.size() - kSuffix.size()) + ".tflite");
  std::error_code ec;
  search.found = std::filesystem::is_regular_file(search.candidate, ec);
  search.description = search.found ? "found " + search.candidate.string() + " beside the compiled model"
                                    : "none: " + search.candidate.string() + " does not exist";
  return search;
}

}  // namespace coralsim::sim

#include "sim/hle_host/twin_discovery.h"

#include <stdexcept>
#include <system_error>

#include "driver/model/model_loader.h"

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

LoadedTwin loadTwin(const std::filesystem::path& compiled, const std::optional<std::filesystem::path>& given) {
  LoadedTwin twin;
  if (given) {
    twin.path = *given;
    twin.note = "given with --hle";
  } else {
    const TwinSearch search = findTwinBeside(compiled);
    if (!search.found) throw std::runtime_error(compiled.string() + ": no CPU twin: " + search.description);
    twin.path = search.candidate;
    twin.note = search.description;
  }
  twin.model = driver::loadModelFile(twin.path);
  if (!twin.model.tflite) throw std::runtime_error(twin.path.string() + ": the CPU twin is not a TFLite model");
  return twin;
}

}  // namespace coralsim::sim

#pragma once
// The LibrEdgeTPU brightness templates (bright_64x64, bright_128x128) that several corpus tests drive packet by packet.

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

namespace coralsim::testing {

struct BrightTemplate {
  unsigned side;          // the image is side x side bytes
  std::string name;       // bright_<side>x<side>, the golden directory's suffix
  std::filesystem::path path;
};

// The templates the corpus holds, smaller first; a loud line for each one it lacks.
inline std::vector<BrightTemplate> brightTemplates(const std::filesystem::path& corpus) {
  std::vector<BrightTemplate> found;
  for (const unsigned side : {64u, 128u}) {
    const std::string name = "bright_" + std::to_string(side) + "x" + std::to_string(side);
    const std::filesystem::path path =
        corpus / "ricardodeazambuja+LibrEdgeTPU" / "libredgetpu" / "tracker" / "templates" / (name + "_edgetpu.tflite");
    if (std::filesystem::exists(path)) {
      found.push_back({side, name, path});
    } else {
      std::printf("*** %s not in the corpus: skipped ***\n", name.c_str());
    }
  }
  return found;
}

}  // namespace coralsim::testing

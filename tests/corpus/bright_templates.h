#pragma once
// The LibrEdgeTPU tracker templates (the brightness pair bright_64x64 / bright_128x128 several corpus tests drive
// packet by packet, and the whole folder: bright and the twelve colour templates).

#include <algorithm>
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

// The folder that holds the tracker templates, below the corpus.
inline std::filesystem::path trackerTemplatesDir(const std::filesystem::path& corpus) {
  return corpus / "ricardodeazambuja+LibrEdgeTPU" / "libredgetpu" / "tracker" / "templates";
}

// Every compiled template in that folder (*_edgetpu.tflite), sorted by name; empty where the folder is absent.
inline std::vector<std::filesystem::path> trackerTemplatePrograms(const std::filesystem::path& corpus) {
  std::vector<std::filesystem::path> programs;
  const std::filesystem::path dir = trackerTemplatesDir(corpus);
  if (!std::filesystem::is_directory(dir)) return programs;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.size() > 15 && name.ends_with("_edgetpu.tflite")) programs.push_back(entry.path());
  }
  std::sort(programs.begin(), programs.end());
  return programs;
}

}  // namespace coralsim::testing

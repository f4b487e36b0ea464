#include "driver/model/model_file.h"

namespace coralsim::driver {

std::string_view modelKindName(ModelKind kind) {
  switch (kind) {
    case ModelKind::Tflite:
      return "tflite";
    case ModelKind::DarwinnPackage:
      return "darwinn_package";
    case ModelKind::DarwinnExecutable:
      return "darwinn_executable";
    case ModelKind::RawBitstream:
      return "raw_bitstream";
  }
  return "unknown";
}

std::vector<const Executable*> allExecutables(const ModelFile& model) {
  std::vector<const Executable*> out;
  for (const auto& op : model.edgeTpuOps) {
    for (const auto& pkg : op.packages) {
      for (const auto& exe : pkg.executables) out.push_back(&exe);
    }
  }
  for (const auto& pkg : model.packages) {
    for (const auto& exe : pkg.executables) out.push_back(&exe);
  }
  for (const auto& exe : model.executables) out.push_back(&exe);
  return out;
}

}  // namespace coralsim::driver

#include "driver/model/edgetpu_custom_op.h"

#include <string>
#include <utility>
#include <vector>

#include "driver/model/executable_reader.h"
#include "driver/model/package_reader.h"

namespace coralsim::driver {
namespace {

// A payload inside custom_options, by the key that holds it.
struct ProgramBlob {
  std::string key;  // "4", "7[1]", ...
  uint64_t offset = 0;
  uint64_t size = 0;
};

bool isPayload(const FlexValue& v) { return v.type == FlexValue::Type::Blob || v.type == FlexValue::Type::String; }

std::vector<ProgramBlob> programBlobs(const FlexValue& options) {
  std::vector<ProgramBlob> blobs;
  for (const char* key : {"3", "4"}) {
    if (const auto* v = options.find(key); v && isPayload(*v)) blobs.push_back({key, v->offset, v->byteSize});
  }
  if (const auto* v7 = options.find("7"); v7 && v7->type == FlexValue::Type::Vector) {
    for (size_t i = 0; i < v7->elements.size(); ++i) {
      const auto& e = v7->elements[i];
      if (isPayload(e)) blobs.push_back({"7[" + std::to_string(i) + "]", e.offset, e.byteSize});
    }
  }
  return blobs;
}

}  // namespace

void readEdgeTpuCustomOptions(std::span<const uint8_t> customOptions, EdgeTpuCustomOp& op, const Where& where) {
  op.customOptionsBytes = customOptions.size();
  op.options = decodeFlexBuffer(customOptions, where / "custom_options");
  if (op.options.type != FlexValue::Type::Map) {
    where.fail("custom_options FlexBuffer root is not a map (FlexBuffer type " + std::to_string(op.options.rawType) + ")");
  }
  for (const auto& blob : programBlobs(op.options)) {
    // The decoder verified that every blob lies inside the buffer.
    const auto bytes = customOptions.subspan(blob.offset, blob.size);
    const std::string at = " at custom_options+" + std::to_string(blob.offset) + " (key " + blob.key + ")";
    if (hasPackageIdentifier(bytes)) {
      Package pkg = readPackage(bytes, where / ("Package" + at));
      pkg.flexKey = blob.key;
      op.packages.push_back(std::move(pkg));
      continue;
    }
    // Files from before the Package container store the serialized Executable directly.
    if (!isBareExecutable(bytes)) {
      where.fail("blob" + at + " of " + std::to_string(blob.size) +
                 " bytes is neither a DarwiNN Package (no \"DWN1\" at byte 4) nor an Executable");
    }
    Package legacy;
    legacy.flexKey = blob.key;
    legacy.fileIdentifier = "(bare executable, legacy)";
    legacy.legacyBareExecutable = true;
    legacy.executables.push_back(readExecutable(bytes, where / ("Executable" + at)));
    op.packages.push_back(std::move(legacy));
  }
  if (op.packages.empty()) {
    where.fail("custom_options hold no DarwiNN Package or Executable (looked at keys 3, 4 and 7)");
  }
}

}  // namespace coralsim::driver

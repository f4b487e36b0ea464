#include "driver/model/model_loader.h"

#include <cerrno>
#include <cstring>
#include <fstream>

#include "driver/model/executable_reader.h"
#include "driver/model/package_reader.h"
#include "driver/model/tflite_reader.h"

namespace coralsim::driver {
namespace {

// Real models are a few MiB; refusing absurd sizes keeps a wrong path from exhausting memory.
constexpr uint64_t kMaxModelBytes = uint64_t{1} << 30;
constexpr size_t kWordBytes = 16;

bool hasRawProgramName(const std::string& name) { return std::filesystem::path(name).extension() == ".coral"; }

}  // namespace

ModelFile loadModelFromMemory(std::span<const uint8_t> bytes, const std::string& displayName) {
  const Where where(displayName);
  ModelFile model;
  model.path = displayName;
  model.sizeBytes = bytes.size();
  if (bytes.size() > kMaxModelBytes) where.fail("file of " + std::to_string(bytes.size()) + " bytes is too large for a model");
  if (bytes.size() < 8) where.fail("file of " + std::to_string(bytes.size()) + " bytes is too small to be a model");

  if (hasTfliteIdentifier(bytes)) {
    model.kind = ModelKind::Tflite;
    readTflite(bytes, model, where);
  } else if (hasPackageIdentifier(bytes)) {
    model.kind = ModelKind::DarwinnPackage;
    model.packages.push_back(readPackage(bytes, where));
  } else if (isBareExecutable(bytes)) {
    model.kind = ModelKind::DarwinnExecutable;
    model.executables.push_back(readExecutable(bytes, where / "Executable"));
  } else if (hasRawProgramName(displayName)) {
    if (bytes.size() % kWordBytes != 0) {
      where.fail("raw program of " + std::to_string(bytes.size()) + " bytes is not a whole number of 16-byte instruction words");
    }
    model.kind = ModelKind::RawBitstream;
    model.rawBitstream = InstructionBitstream{{bytes.begin(), bytes.end()}, {}};
  } else {
    where.fail("not a TFLite model (\"TFL3\" at byte 4), a DarwiNN Package (\"DWN1\" at byte 4) or a serialized "
               "Executable; raw instruction streams must be named *.coral");
  }
  return model;
}

ModelFile loadModelFile(const std::filesystem::path& path) {
  const Where where(path.string());
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) where.fail("is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) where.fail(std::string("cannot open: ") + std::strerror(errno));
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size < 0) where.fail("cannot determine the file size");
  if (static_cast<uint64_t>(size) > kMaxModelBytes) where.fail("file of " + std::to_string(size) + " bytes is too large for a model");
  in.seekg(0, std::ios::beg);
  std::vector<uint8_t> bytes(static_cast<size_t>(size));
  if (size > 0 && !in.read(reinterpret_cast<char*>(bytes.data()), size)) where.fail("read error");
  return loadModelFromMemory(bytes, path.string());
}

}  // namespace coralsim::driver

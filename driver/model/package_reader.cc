#include "driver/model/package_reader.h"

#include <cstring>

#include "driver/model/executable_reader.h"
#include "driver/model/flatbuffer_access.h"
#include "driver/model/schema/executable_generated.h"

namespace coralsim::driver {
namespace fb = coralsim::fbs::darwinn;
using detail::copyBytes;
using detail::copyString;

bool hasPackageIdentifier(std::span<const uint8_t> bytes) {
  return bytes.size() >= 8 && std::memcmp(bytes.data() + 4, fb::PackageIdentifier(), 4) == 0;
}

Package readPackage(std::span<const uint8_t> bytes, const Where& where) {
  const detail::OwnedBuffer buffer(bytes);
  const auto* in = detail::verifiedRoot<fb::Package>(buffer, fb::PackageIdentifier(), where, "Package");
  Package pkg;
  pkg.fileIdentifier = fb::PackageIdentifier();
  pkg.minRuntimeVersion = in->min_runtime_version();
  pkg.signature = copyBytes(in->signature());
  pkg.keypairVersion = in->keypair_version();
  pkg.compilerVersion = copyString(in->compiler_version());
  pkg.virtualChipId = in->virtual_chip_id();
  pkg.multiChipPackage = copyBytes(in->multi_chip_package());
  pkg.modelIdentifier = copyString(in->model_identifier());

  // A package without a MultiExecutable holds no programs; that is legal but useless, and the
  // caller decides whether it is an error.
  const auto* multi = in->serialized_multi_executable();
  if (!multi) return pkg;
  const Where multiWhere = where / "MultiExecutable";
  const detail::OwnedBuffer multiBuffer(detail::byteSpan(multi));
  const auto* me = detail::verifiedRoot<fb::MultiExecutable>(multiBuffer, nullptr, multiWhere, "MultiExecutable");
  if (const auto* exes = me->serialized_executables()) {
    for (flatbuffers::uoffset_t i = 0; i < exes->size(); ++i) {
      const auto* s = exes->Get(i);
      const std::span<const uint8_t> exeBytes(reinterpret_cast<const uint8_t*>(s->data()), s->size());
      pkg.executables.push_back(readExecutable(exeBytes, multiWhere / ("executable " + std::to_string(i))));
    }
  }
  return pkg;
}

}  // namespace coralsim::driver

// Fuzz target: any bytes through the model loader, and whatever loads through the JSON/text
// renderers and the linker. The only acceptable failures are driver::LoadError / LinkError.
#include <cstddef>
#include <cstdint>
#include <sstream>

#include "driver/model/linker.h"
#include "driver/model/model_json.h"
#include "driver/model/model_loader.h"
#include "driver/model/model_text.h"

namespace {

void exercise(const uint8_t* data, size_t size, const char* name) {
  using namespace coralsim::driver;
  try {
    const ModelFile model = loadModelFromMemory({data, size}, name);
    std::ostringstream sink;
    writeModelJson(model, sink);
    writeModelText(model, sink);
    BaseAddresses addresses;
    for (auto kind : {BufferKind::Output, BufferKind::Input, BufferKind::Parameter, BufferKind::Scratch}) {
      addresses.set(kind, 0x0000001234567000ULL);
    }
    for (const Executable* exe : allExecutables(model)) {
      for (const auto& chunk : exe->bitstreams) {
        try {
          (void)linkedCopy(chunk, addresses);
        } catch (const LinkError&) {
        }
      }
    }
  } catch (const LoadError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The name's extension decides whether unrecognised bytes may be a raw program: try both.
  exercise(data, size, "input");
  exercise(data, size, "input.coral");
  return 0;
}

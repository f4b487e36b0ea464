#include "tests/support/timing_references.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "tests/support/json_reader.h"

namespace coralsim::testing {

std::vector<TimingReference> loadTimingReferences() {
  const std::filesystem::path path = std::filesystem::path(CORALSIM_SOURCE_DIR) / "scripts" / "timing-references.json";
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::stringstream text;
  text << in.rdbuf();
  const JsonValue root = parseJson(text.str());
  const JsonValue* refs = root.find("references");
  if (refs == nullptr) throw std::runtime_error(path.string() + ": no 'references'");
  std::vector<TimingReference> out;
  for (const JsonValue& r : refs->items) {
    const JsonValue* model = r.find("model");
    const JsonValue* usb = r.find("usb");
    const JsonValue* ms = r.find("ms");
    if (model == nullptr || usb == nullptr || ms == nullptr) throw std::runtime_error(path.string() + ": incomplete reference");
    out.push_back({model->text, usb->text, ms->asDouble()});
  }
  return out;
}

}  // namespace coralsim::testing

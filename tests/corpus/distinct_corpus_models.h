// The corpus walk the lle corpus tests share: every model or raw program under the corpus whose
// name ends with one of the suffixes, once per content (SHA-256; the corpus holds byte-identical
// copies under several names), loaded. Files the loader refuses are left out: the loader tests
// cover them.
#pragma once

#include <filesystem>
#include <functional>
#include <initializer_list>
#include <string>

#include "driver/model/model_loader.h"

namespace coralsim::testing {

void forEachDistinctCorpusModel(std::initializer_list<std::string> suffixes,
                                const std::function<void(const std::filesystem::path&, const driver::ModelFile&)>& visit);

}  // namespace coralsim::testing

#include "tests/corpus/distinct_corpus_models.h"

#include <exception>
#include <optional>
#include <set>
#include <vector>

#include "tests/support/corpus.h"
#include "traces/sha256.h"

namespace coralsim::testing {

void forEachDistinctCorpusModel(std::initializer_list<std::string> suffixes,
                                const std::function<void(const std::filesystem::path&, const driver::ModelFile&)>& visit) {
  std::set<std::string> seen;
  for (const std::string& suffix : suffixes) {
    for (const auto& path : corpusFiles(suffix)) {
      const std::vector<uint8_t> bytes = readFile(path);
      if (!seen.insert(traces::Sha256::hex(bytes)).second) continue;
      std::optional<driver::ModelFile> model;
      try {
        model.emplace(driver::loadModelFromMemory(bytes, path.string()));
      } catch (const std::exception&) {
        continue;  // loader problems are the loader tests' business
      }
      visit(path, *model);
    }
  }
}

}  // namespace coralsim::testing

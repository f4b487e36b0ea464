#include "models/hle/program_registry.h"

#include <algorithm>
#include <map>

namespace coralsim::hle {
namespace {

constexpr uint64_t kFnvOffset = 0xcbf29ce484222325ULL;
constexpr uint64_t kFnvPrime = 0x100000001b3ULL;

}  // namespace

uint64_t rawChunkHash(std::span<const uint8_t> bytes) {
  uint64_t h = kFnvOffset;
  for (uint8_t b : bytes) {
    h ^= b;
    h *= kFnvPrime;
  }
  return h;
}

uint64_t maskedChunkHash(std::span<const uint8_t> bytes, std::span<const int64_t> maskedBits) {
  std::vector<uint8_t> copy(bytes.begin(), bytes.end());
  const int64_t totalBits = static_cast<int64_t>(copy.size()) * 8;
  for (int64_t first : maskedBits) {
    for (int64_t bit = std::max<int64_t>(first, 0); bit < first + 32 && bit < totalBits; ++bit) {
      copy[static_cast<size_t>(bit / 8)] &= static_cast<uint8_t>(~(1U << (bit % 8)));
    }
  }
  return rawChunkHash(copy);
}

std::string_view executableRoleName(ExecutableRole role) {
  switch (role) {
    case ExecutableRole::kParameterCaching: return "PARAMETER_CACHING";
    case ExecutableRole::kExecutionOnly: return "EXECUTION_ONLY";
    case ExecutableRole::kStandAlone: break;
  }
  return "STAND_ALONE";
}

ProgramRegistry::ProgramRegistry(std::vector<Program> programs) : programs_(std::move(programs)) {}

size_t ProgramRegistry::executableCount() const {
  size_t n = 0;
  for (const Program& p : programs_) n += p.executables.size();
  return n;
}

std::vector<ExecutableRef> ProgramRegistry::allExecutables() const {
  std::vector<ExecutableRef> all;
  for (size_t p = 0; p < programs_.size(); ++p) {
    for (size_t e = 0; e < programs_[p].executables.size(); ++e) all.push_back({p, e});
  }
  return all;
}

std::vector<ExecutableRef> ProgramRegistry::matchChunk(std::span<const uint8_t> chunk, size_t position,
                                                       const std::vector<ExecutableRef>& candidates) const {
  // Executables compiled together often share mask sets; hash once per distinct set.
  std::map<std::vector<int64_t>, uint64_t> hashes;
  std::vector<ExecutableRef> matches;
  for (const ExecutableRef& ref : candidates) {
    const ProgramExecutable& exe = executable(ref);
    if (position >= exe.chunks.size()) continue;
    const ChunkSignature& sig = exe.chunks[position];
    if (sig.sizeBytes != chunk.size()) continue;
    auto it = hashes.find(sig.linkedBits);
    if (it == hashes.end()) it = hashes.emplace(sig.linkedBits, maskedChunkHash(chunk, sig.linkedBits)).first;
    if (it->second == sig.hash) matches.push_back(ref);
  }
  return matches;
}

}  // namespace coralsim::hle

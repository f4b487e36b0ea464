#include "driver/model/hint_pattern.h"

#include <map>
#include <tuple>
#include <vector>

namespace coralsim::driver {
namespace {

std::string token(const DmaHint& h) {
  switch (h.kind) {
    case HintKind::Instruction:
      return "I" + std::to_string(h.chunk);
    case HintKind::Dma:
      if (!h.buffer) return "?";
      switch (h.buffer->kind) {
        case BufferKind::Parameter:
          return "P";
        case BufferKind::Input:
          return "A";
        case BufferKind::Output:
          return "O";
        case BufferKind::Scratch:
          return "S";
      }
      return "?";
    case HintKind::Interrupt: {
      // The last character of the interrupt's name (its number), or of the raw value.
      const auto name = interruptTypeName(h.interrupt);
      const std::string text = name ? std::string(*name) : std::to_string(static_cast<int>(h.interrupt));
      return "X" + text.substr(text.size() - 1);
    }
    case HintKind::Fence:
      return "F";
    case HintKind::Unknown:
      break;
  }
  return "?";
}

}  // namespace

HintPattern describeHintPattern(const std::optional<DmaHints>& hints) {
  if (!hints) return {"-", "none"};
  std::vector<std::pair<std::string, int>> runs;
  // How many pieces each DMA'd buffer (kind, name) arrives in; an absent meta counts as its own buffer.
  std::map<std::tuple<int, int, std::string>, int> pieces;
  int chunks = 0;
  for (const auto& h : hints->hints) {
    const std::string t = token(h);
    if (!runs.empty() && runs.back().first == t) {
      ++runs.back().second;
    } else {
      runs.emplace_back(t, 1);
    }
    if (h.kind == HintKind::Instruction) ++chunks;
    if (h.kind == HintKind::Dma) {
      const auto key = h.buffer ? std::make_tuple(1, static_cast<int>(h.buffer->kind), h.buffer->name)
                                : std::make_tuple(0, 0, std::string());
      ++pieces[key];
    }
  }
  HintPattern out;
  for (const auto& [t, n] : runs) {
    if (!out.pattern.empty()) out.pattern += ' ';
    out.pattern += n == 1 ? t : t + "x" + std::to_string(n);
  }
  bool onePieceEach = true;
  for (const auto& [key, n] : pieces) onePieceEach = onePieceEach && n == 1;
  out.kind = chunks <= 1 && onePieceEach ? "simple" : "split";
  return out;
}

}  // namespace coralsim::driver

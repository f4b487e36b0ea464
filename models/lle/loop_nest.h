#pragma once
// The odometer the TTU's address nests share (docs/decoding-log.md "fill17b", "form13", "write14",
// "gridcopy"): which 4-byte units a packet's nest covers, in order. Level 0 is innermost; each level
// counts 0 .. limit. When level 0 counts the address changes by the level-0 step (one unit except in
// 0x17); when level i > 0 counts, the levels below it returning to 0, it changes by carry[i - 1].
// So the unit at counters c is firstUnit + sum_i c_i x stride_i with stride_0 = step and
// stride_i = carry[i - 1] + sum_{j < i} limit_j x stride_j (the carry is the change after the walk
// below has been undone, which is why it is not itself the level's stride). The carry of a level
// that runs once is never applied; the packets that have this nest (fill_nest.h, read_nest.h,
// write_nest.h, output_nest.h) say only where their limits, step and carries are.

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace coralsim::lle {

template <unsigned Levels>
struct LoopNest {
  static constexpr unsigned kLevels = Levels;
  int64_t firstUnit = 0;                   // 4-byte units; 0 where the caller adds the packet's address
  std::array<uint64_t, kLevels> limits{};  // count - 1 per level
  std::array<int64_t, kLevels> strides{};  // 4-byte units per count of the level
  // Units a short pass of level 0 drops (docs/decoding-log.md "oldrecv", "short18": a nest's shorter last
  // repetition, last_repetition.h): every level-0 run whose counters at levels shortFromLevel and above are all at
  // their limits ends lastPassDrops units early -- with shortFromLevel 1 the walk's last run alone, with 2 or 3 every
  // run of that level's last iteration ("w7codes" §C: the partial pass of a position's units). The reach (lowestUnit
  // / highestUnit) stays the whole walk's, a bound the shorter walk keeps inside.
  uint64_t lastPassDrops = 0;
  unsigned shortFromLevel = 1;

  // The strides from the carries. Modulo 2^64 (defined for unsigned): a nest whose strides would
  // overflow has more units than any memory, which units() shows before a stride is used.
  [[nodiscard]] static LoopNest fromCarries(int64_t firstUnit, const std::array<uint64_t, kLevels>& limits,
                                            int64_t step, const std::array<int64_t, kLevels - 1>& carries) {
    LoopNest nest;
    nest.firstUnit = firstUnit;
    nest.limits = limits;
    nest.strides[0] = step;
    for (unsigned i = 1; i < kLevels; ++i) {
      auto stride = static_cast<uint64_t>(carries[i - 1]);
      for (unsigned j = 0; j < i; ++j) stride += limits[j] * static_cast<uint64_t>(nest.strides[j]);
      nest.strides[i] = static_cast<int64_t>(stride);
    }
    return nest;
  }

  // How many units the nest visits, revisits counted (saturating: five 16-bit limits reach 2^80).
  [[nodiscard]] uint64_t units() const {
    uint64_t n = 1;
    for (uint64_t limit : limits) n = n > UINT64_MAX / (limit + 1) ? UINT64_MAX : n * (limit + 1);
    return n == UINT64_MAX ? n : n - lastPassDrops * shortRuns();
  }

  // How many level-0 runs are short: those of the last iteration of level shortFromLevel (every counter from it up
  // at its limit), the levels between 1 and it each counting.
  [[nodiscard]] uint64_t shortRuns() const {
    uint64_t runs = 1;
    for (unsigned i = 1; i < shortFromLevel && i < kLevels; ++i) runs *= limits[i] + 1;
    return runs;
  }

  // The levels whose limit is not 0, as a bit set (bit i: level i counts).
  [[nodiscard]] unsigned countingLevels() const {
    unsigned set = 0;
    for (unsigned i = 0; i < kLevels; ++i) set |= (limits[i] != 0 ? 1u : 0u) << i;
    return set;
  }

  // The one counting level (level 0 when none counts: a single unit); none when several count.
  [[nodiscard]] std::optional<unsigned> countingLevel() const {
    const unsigned set = countingLevels();
    if (set == 0) return 0u;
    if ((set & (set - 1)) != 0) return std::nullopt;
    for (unsigned i = 0; i < kLevels; ++i) {
      if (set == 1u << i) return i;
    }
    return std::nullopt;
  }

  // The nest as one run of `units` units `stride` apart, when its counting levels chain: each counting
  // level's stride is the whole walk of the counting levels below it (a level that starts where the
  // walk below would take its next step), so the units follow each other at the innermost counting
  // level's stride. None when they do not chain, or when the run would outgrow any memory.
  struct Run {
    uint64_t units = 1;
    int64_t stride = 1;
  };
  [[nodiscard]] std::optional<Run> asOneRun() const {
    constexpr uint64_t kMoreThanAnyMemory = uint64_t{1} << 40;
    Run run;
    bool inner = true;
    for (unsigned i = 0; i < kLevels; ++i) {
      if (limits[i] == 0) continue;
      if (inner) {
        run.stride = strides[i];
      } else if (strides[i] != static_cast<int64_t>(run.units) * run.stride) {
        return std::nullopt;
      }
      inner = false;
      run.units *= limits[i] + 1;
      if (run.units > kMoreThanAnyMemory) return std::nullopt;
    }
    // The chained walk's last units, wherever the last pass of level 0 ends; short runs with full ones after them
    // (a counting level between 1 and shortFromLevel) leave gaps: no longer one run.
    if (lastPassDrops != 0 && shortRuns() > 1) return std::nullopt;
    run.units -= lastPassDrops;
    return run;
  }

  // True when no outer level counts and level 0 steps one unit: the units run on one by one.
  [[nodiscard]] bool contiguous() const { return (countingLevels() & ~1u) == 0 && (limits[0] == 0 || strides[0] == 1); }

  // The unit the walk ends on: every level at its limit (the whole walk's last unit; a shorter last
  // pass of level 0 ends lastPassDrops units before it, which no caller of this reads).
  [[nodiscard]] int64_t lastUnit() const {
    auto sum = static_cast<uint64_t>(firstUnit);
    for (unsigned i = 0; i < kLevels; ++i) sum += limits[i] * static_cast<uint64_t>(strides[i]);
    return static_cast<int64_t>(sum);
  }

  // The lowest and highest unit the nest reaches (each level's walk is monotone).
  [[nodiscard]] int64_t lowestUnit() const { return firstUnit + walk(false); }
  [[nodiscard]] int64_t highestUnit() const { return firstUnit + walk(true); }

  // True when every unit, moved by `offsetUnits`, lies in [0, capacityUnits). More units than that
  // is refused first: it also bounds the strides before lowestUnit()/highestUnit() use them.
  [[nodiscard]] bool staysInside(uint64_t capacityUnits, int64_t offsetUnits = 0) const {
    return units() <= capacityUnits && offsetUnits + lowestUnit() >= 0 &&
           offsetUnits + highestUnit() < static_cast<int64_t>(capacityUnits);
  }

  // The same bound for a nest that visits units more than once by design (a convolution's taps overlap
  // from one position to the next): only where it reaches is bounded, not how often. Its limits and
  // strides are packet fields of at most 18 and 19 bits, so the walk cannot overflow.
  [[nodiscard]] bool reachStaysInside(uint64_t capacityUnits) const {
    return lowestUnit() >= 0 && highestUnit() < static_cast<int64_t>(capacityUnits);
  }

  // True when some unit is visited twice (a level whose stride brings it back over units already
  // covered). Walks every unit: call it on nests staysInside() a memory has bounded.
  [[nodiscard]] bool revisitsAUnit() const {
    std::vector<int64_t> visited;
    visited.reserve(units());
    forEachUnit([&](int64_t unit) { visited.push_back(unit); });
    std::sort(visited.begin(), visited.end());
    return std::adjacent_find(visited.begin(), visited.end()) != visited.end();
  }

  // Every unit, level 0 fastest (the order the packets use: a write's k-th unit takes its k-th 4 bytes),
  // the short passes of level 0 ending lastPassDrops units early.
  template <typename Visit>
  void forEachUnit(Visit&& visit) const {
    std::array<uint64_t, kLevels> count{};
    uint64_t left = units();
    while (left > 0) {
      const bool shortRun = lastPassDrops != 0 && [&] {
        for (unsigned i = std::max(shortFromLevel, 1u); i < kLevels; ++i) {
          if (count[i] != limits[i]) return false;
        }
        return true;
      }();
      if (!shortRun || count[0] + lastPassDrops <= limits[0]) {
        int64_t unit = firstUnit;
        for (unsigned i = 0; i < kLevels; ++i) unit += static_cast<int64_t>(count[i]) * strides[i];
        visit(unit);
        --left;
      }
      unsigned level = 0;
      while (level < kLevels && count[level] == limits[level]) count[level++] = 0;
      if (level == kLevels) return;
      ++count[level];
    }
  }

 private:
  [[nodiscard]] int64_t walk(bool highest) const {
    int64_t sum = 0;
    for (unsigned i = 0; i < kLevels; ++i) {
      const int64_t span = static_cast<int64_t>(limits[i]) * strides[i];
      sum += (span > 0) == highest ? span : 0;
    }
    return sum;
  }
};

}  // namespace coralsim::lle

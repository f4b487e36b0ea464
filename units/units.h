// Typed units, as gem5 types its Cycles and Tick: chip cycles, byte counts, durations, the chip
// clock and the two rates the timing models use are each a type of their own, so the arithmetic
// that means something compiles and the rest does not:
//
//   Cycles + Cycles, Cycles x n          -> Cycles      (likewise Bytes, Duration, ...)
//   Cycles / Frequency                   -> Duration    (cycles at a clock)
//   Bytes / ByteRate                     -> Duration    (bytes on a link)
//   Bytes / Duration                     -> ByteRate
//   transferCycles(Bytes, BytesPerCycle) -> Cycles      (rounded up: a started cycle is spent)
//   Cycles + Bytes, Cycles x Cycles, Bytes / Cycles     do not compile (tests/unit/units_arithmetic_test.cc)
//
// A bare number converts implicitly into any of them (a table's default, a test's
// `config.inputBufferBytes = 256`): what the types forbid is mixing units, not writing numbers.
// Nothing converts back implicitly; `value()` is the number in the unit the type names (cycles,
// bytes, seconds, hertz, bytes per second, bytes per cycle). An integral unit refuses a
// floating-point number (1.5 cycles is a mistake, not a rounding).
//
// Header-only, plain C++ with no project includes: the bottom layer every folder may use
// (units/README.md).
#pragma once

#include <compare>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <iosfwd>

namespace coralsim::units {

// The name of a unit ("cycles"), as a template argument: each name makes a type of its own.
template <size_t N>
struct UnitSymbol {
  char text[N];
  constexpr UnitSymbol(const char (&symbol)[N]) {  // implicit: Quantity<"cycles", ...>
    for (size_t i = 0; i < N; ++i) text[i] = symbol[i];
  }
};

template <UnitSymbol Symbol, class Rep>
class Quantity {
 public:
  using Representation = Rep;

  constexpr Quantity() = default;
  constexpr Quantity(Rep value) : value_(value) {}  // implicit on purpose: see the header comment
  template <std::floating_point Floating>
    requires std::integral<Rep>
  Quantity(Floating) = delete;

  [[nodiscard]] constexpr Rep value() const { return value_; }

  constexpr Quantity& operator+=(Quantity other) {
    value_ += other.value_;
    return *this;
  }
  constexpr Quantity& operator-=(Quantity other) {
    value_ -= other.value_;
    return *this;
  }
  friend constexpr Quantity operator+(Quantity a, Quantity b) { return a += b; }
  friend constexpr Quantity operator-(Quantity a, Quantity b) { return a -= b; }
  // Scaling by a plain number: n transfers of one duration, a size split into n parts.
  friend constexpr Quantity operator*(Quantity a, Rep n) { return Quantity(a.value_ * n); }
  friend constexpr Quantity operator*(Rep n, Quantity a) { return Quantity(n * a.value_); }
  friend constexpr Quantity operator/(Quantity a, Rep n) { return Quantity(a.value_ / n); }
  // An integral unit scaled by a fraction would truncate silently.
  template <std::floating_point Floating>
    requires std::integral<Rep>
  friend Quantity operator*(Quantity, Floating) = delete;
  template <std::floating_point Floating>
    requires std::integral<Rep>
  friend Quantity operator*(Floating, Quantity) = delete;
  template <std::floating_point Floating>
    requires std::integral<Rep>
  friend Quantity operator/(Quantity, Floating) = delete;

  friend constexpr bool operator==(Quantity, Quantity) = default;
  friend constexpr auto operator<=>(Quantity, Quantity) = default;

  // "16484 cycles": for test failure messages and logs (a template, so <iosfwd> is enough here).
  template <class Char, class Traits>
  friend std::basic_ostream<Char, Traits>& operator<<(std::basic_ostream<Char, Traits>& out, Quantity q) {
    return out << q.value_ << ' ' << Symbol.text;
  }

 private:
  Rep value_{};
};

// The units; the symbol names the unit of value().
using Cycles = Quantity<"cycles", uint64_t>;          // chip clock cycles
using Bytes = Quantity<"bytes", uint64_t>;            // a byte count
using Duration = Quantity<"s", double>;               // seconds, as the timing reports print them
using Frequency = Quantity<"Hz", uint64_t>;           // a clock, in whole hertz
using ByteRate = Quantity<"B/s", double>;             // a link's bandwidth
using BytesPerCycle = Quantity<"B/cycle", uint64_t>;  // an on-chip bus's width

// Cycles at a clock: the time they take. A clock of 0 Hz gives 0 s, not a division by zero
// (a front end that knows no clock predicts no compute time).
[[nodiscard]] constexpr Duration operator/(Cycles cycles, Frequency clock) {
  if (clock.value() == 0) return Duration{};
  return Duration(static_cast<double>(cycles.value()) / static_cast<double>(clock.value()));
}

// Cycles at a clock in whole nanoseconds (rounded down), by integer arithmetic: exact and the same
// on every machine, for trace timestamps that must be byte-identical across runs. A clock of 0 Hz
// is taken as 1 Hz.
[[nodiscard]] constexpr uint64_t wholeNanoseconds(Cycles cycles, Frequency clock) {
  constexpr uint64_t kNanosPerSecond = 1'000'000'000u;
  const uint64_t hz = clock.value() == 0 ? 1 : clock.value();
  const uint64_t n = cycles.value();
  return n / hz * kNanosPerSecond + (n % hz) * kNanosPerSecond / hz;
}

// Bytes moved at a rate: the time they take; a rate of 0 B/s is a link that costs no time.
[[nodiscard]] constexpr Duration operator/(Bytes bytes, ByteRate rate) {
  if (rate.value() <= 0) return Duration{};
  return Duration(static_cast<double>(bytes.value()) / rate.value());
}

// Bytes moved in a time: the rate.
[[nodiscard]] constexpr ByteRate operator/(Bytes bytes, Duration time) {
  return ByteRate(static_cast<double>(bytes.value()) / time.value());
}

// The cycles a transfer of `bytes` takes at `rate`, rounded up (0 bytes cost 0 cycles; a rate of
// 0 is taken as 1 byte per cycle).
[[nodiscard]] constexpr Cycles transferCycles(Bytes bytes, BytesPerCycle rate) {
  const uint64_t perCycle = rate.value() == 0 ? 1 : rate.value();
  return Cycles((bytes.value() + perCycle - 1) / perCycle);
}

}  // namespace coralsim::units

// units/units.h: the arithmetic that means something gives the right unit and value; the rest
// (cycles plus bytes, a cycle count times a cycle count, ...) does not compile, checked at compile
// time by requires-expressions on the types.
#include <gtest/gtest.h>

#include <concepts>
#include <sstream>
#include <type_traits>

#include "units/units.h"

namespace coralsim::units::units_arithmetic_test {
namespace {

template <class A, class B>
concept Addable = requires(A a, B b) { a + b; };
template <class A, class B>
concept Multipliable = requires(A a, B b) { a * b; };
template <class A, class B>
concept Divisible = requires(A a, B b) { a / b; };
template <class A, class B>
concept Comparable = requires(A a, B b) { a < b; };

// Sums stay in their unit; units never mix.
static_assert(std::same_as<decltype(Cycles{} + Cycles{}), Cycles>);
static_assert(std::same_as<decltype(Bytes{} + Bytes{}), Bytes>);
static_assert(std::same_as<decltype(Duration{} + Duration{}), Duration>);
static_assert(!Addable<Cycles, Bytes>);
static_assert(!Addable<Bytes, Cycles>);
static_assert(!Addable<Duration, Cycles>);
static_assert(!Addable<Bytes, Duration>);
static_assert(!Addable<Cycles, Frequency>);
static_assert(!Comparable<Cycles, Bytes>);

// Scaling by a plain number; no product of two amounts, no fractional count.
static_assert(std::same_as<decltype(Cycles{} * uint64_t{3}), Cycles>);
static_assert(std::same_as<decltype(uint64_t{3} * Duration{}), Duration>);
static_assert(!Multipliable<Cycles, Cycles>);
static_assert(!Multipliable<Cycles, Bytes>);
static_assert(!Multipliable<Cycles, double>);
static_assert(!Divisible<Bytes, double>);

// Quotients across units: only the ones with a physical meaning.
static_assert(std::same_as<decltype(Cycles{} / Frequency{}), Duration>);
static_assert(std::same_as<decltype(Bytes{} / ByteRate{}), Duration>);
static_assert(std::same_as<decltype(Bytes{} / Duration{}), ByteRate>);
static_assert(!Divisible<Bytes, Cycles>);
static_assert(!Divisible<Cycles, Bytes>);
static_assert(!Divisible<Duration, Bytes>);

// A bare number becomes an amount; an amount never becomes a bare number or another unit.
static_assert(std::is_convertible_v<uint64_t, Cycles>);
static_assert(std::is_convertible_v<double, Duration>);
static_assert(!std::is_convertible_v<Cycles, uint64_t>);
static_assert(!std::is_convertible_v<Duration, double>);
static_assert(!std::is_convertible_v<Bytes, Cycles>);
static_assert(!std::is_constructible_v<Cycles, Bytes>);
static_assert(!std::is_constructible_v<Cycles, double>);  // 1.5 cycles is a mistake

TEST(Units, SumsAndScalesKeepTheirUnit) {
  EXPECT_EQ((Cycles{300} + Cycles{8} * 1024).value(), 8492u);
  Bytes total;
  total += 1000;
  total += Bytes{24};
  EXPECT_EQ(total, Bytes{1024});
  EXPECT_EQ(total / 4, Bytes{256});
  EXPECT_EQ((Bytes{1024} - Bytes{1000}).value(), 24u);
  EXPECT_DOUBLE_EQ((3 * Duration{0.25}).value(), 0.75);
  EXPECT_LT(Cycles{1}, Cycles{2});
  EXPECT_GT(Duration{2e-3}, Duration{1e-3});
}

TEST(Units, CyclesAtAClockAreADuration) {
  EXPECT_DOUBLE_EQ((Cycles{500'000} / Frequency{500'000'000}).value(), 1e-3);
  EXPECT_DOUBLE_EQ((Cycles{500'000} / Frequency{250'000'000}).value(), 2e-3);
  EXPECT_EQ((Cycles{123} / Frequency{0}).value(), 0.0);  // no clock, no compute time
}

TEST(Units, WholeNanosecondsAreExactIntegers) {
  EXPECT_EQ(wholeNanoseconds(Cycles{1}, Frequency{500'000'000}), 2u);
  EXPECT_EQ(wholeNanoseconds(Cycles{3}, Frequency{1'000'000'000}), 3u);
  // Whole seconds first: 10^11 cycles x 10^9 would not fit in 64 bits.
  EXPECT_EQ(wholeNanoseconds(Cycles{100'000'000'000}, Frequency{500'000'000}), 200'000'000'000u);
  EXPECT_EQ(wholeNanoseconds(Cycles{5'000'000'001}, Frequency{500'000'000}), 10'000'000'002u);
  EXPECT_EQ(wholeNanoseconds(Cycles{7}, Frequency{0}), 7'000'000'000u);  // 0 Hz is taken as 1 Hz
}

TEST(Units, BytesAtARateAreADuration) {
  EXPECT_DOUBLE_EQ((Bytes{3016} / ByteRate{1e6}).value(), 3.016e-3);
  EXPECT_EQ((Bytes{3016} / ByteRate{0}).value(), 0.0);  // a link without a figure costs nothing
  EXPECT_DOUBLE_EQ((Bytes{196'608} / Duration{0.63e-3}).value(), 196'608 / 0.63e-3);
}

TEST(Units, TransferCyclesRoundUp) {
  EXPECT_EQ(transferCycles(Bytes{0}, BytesPerCycle{16}), Cycles{0});
  EXPECT_EQ(transferCycles(Bytes{17}, BytesPerCycle{16}), Cycles{2});
  EXPECT_EQ(transferCycles(Bytes{5}, BytesPerCycle{0}), Cycles{5});
}

TEST(Units, PrintWithTheirUnit) {
  std::ostringstream out;
  out << Cycles{16484} << ", " << Bytes{8} << ", " << Duration{0.5} << ", " << Frequency{500} << ", "
      << ByteRate{36} << ", " << BytesPerCycle{16};
  EXPECT_EQ(out.str(), "16484 cycles, 8 bytes, 0.5 s, 500 Hz, 36 B/s, 16 B/cycle");
}

}  // namespace
}  // namespace coralsim::units::units_arithmetic_test

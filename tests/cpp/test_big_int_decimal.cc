// SPDX-License-Identifier: Apache-2.0
// test_big_int_decimal.cc: BigInt to and from decimal text (src/ffi/big_int_decimal.cc): the
// text matches the digit-by-digit conversion of big_int.h, the cost grows subquadratically and
// the per-thread digit limit is enforced before the work is done.
#include <gtest/gtest.h>
#include <tvm/ffi/big_int.h>
#include <tvm/ffi/error.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "../../src/ffi/big_int_decimal.cc"  // NOLINT(bugprone-suspicious-include)
#include "test_utils.h"

namespace tvm_ffi_big_int_decimal_test {

using namespace tvm::ffi;  // NOLINT(*)
using tvm::ffi::details::BigIntDecimalLimbOps;
using tvm::ffi::details::BigIntFromDecimal;
using tvm::ffi::details::BigIntToDecimal;
using tvm::ffi::details::SetBigIntDigitLimit;
using tvm_ffi_test::ErrorText;

/// n scrambled digits (a linear congruential sequence from seed), the first nonzero.
std::string ScrambledDigits(size_t n, uint64_t seed) {
  auto next = [&seed]() {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return seed >> 33;
  };
  std::string digits(1, static_cast<char>('1' + next() % 9));
  while (digits.size() < n) digits += static_cast<char>('0' + next() % 10);
  return digits;
}

/// Sets this thread's digit limit for the scope, then puts the previous one back.
class DigitLimitScope {
 public:
  explicit DigitLimitScope(size_t limit) : previous_(SetBigIntDigitLimit(limit)) {}
  ~DigitLimitScope() { SetBigIntDigitLimit(previous_); }
  DigitLimitScope(const DigitLimitScope&) = delete;
  DigitLimitScope& operator=(const DigitLimitScope&) = delete;

 private:
  size_t previous_;
};

/// The limb multiplications that f does.
template <typename F>
uint64_t LimbOpsOf(F f) {
  uint64_t before = BigIntDecimalLimbOps();
  f();
  return BigIntDecimalLimbOps() - before;
}

TEST(BigIntDecimal, RoundTripsAndMatchesDigitByDigitConversion) {
  // Sizes around the leaf (576 digits, 64 limbs) and split points, and past the Karatsuba one.
  std::vector<size_t> sizes = {1, 9, 18, 19, 20, 575, 576, 577, 620, 1152, 1153, 2400, 5000};
  for (size_t n : sizes) {
    std::string digits = ScrambledDigits(n, n);
    for (const std::string& text : {digits, "-" + digits}) {
      BigInt value = BigIntFromDecimal(text);
      EXPECT_EQ(value.ToString(), text) << n;
      EXPECT_EQ(BigIntToDecimal(value), text) << n;
    }
  }
  for (int bits : {63, 64, 65, 2047, 2048, 2049, 20000}) {
    BigInt power = BigInt(1) << bits;
    for (const BigInt& value : {power, power - 1, -power, 1 - power}) {
      EXPECT_EQ(BigIntToDecimal(value), value.ToString()) << bits;
      EXPECT_EQ(BigIntFromDecimal(value.ToString()), value) << bits;
    }
  }
}

TEST(BigIntDecimal, RunsOfZerosAndNines) {
  // Many zero limbs on both sides of each split, and carries through whole halves.
  std::string power_of_ten = "1" + std::string(3000, '0');
  std::string nines(3000, '9');
  EXPECT_EQ(BigIntToDecimal(BigIntFromDecimal(power_of_ten)), power_of_ten);
  EXPECT_EQ(BigIntToDecimal(BigIntFromDecimal(nines)), nines);
  EXPECT_EQ(BigIntFromDecimal(nines) + 1, BigIntFromDecimal(power_of_ten));
}

TEST(BigIntDecimal, AcceptsTheSameTextAsTheReference) {
  EXPECT_EQ(BigIntFromDecimal("+5"), BigInt(5));
  EXPECT_EQ(BigIntFromDecimal("-0"), BigInt(0));
  EXPECT_EQ(BigIntFromDecimal("007"), BigInt(7));
  EXPECT_EQ(BigIntToDecimal(BigIntFromDecimal("-" + std::string(700, '0') + "12")), "-12");
  for (const char* text : {"", "-", "+", " 5", "5 ", "1_000", "5.0", "0x10", "+-5", "1e5"}) {
    EXPECT_EQ(ErrorText([&] { BigIntFromDecimal(text); }),
              "ValueError: Invalid decimal string for ffi.BigInt")
        << text;
  }
}

TEST(BigIntDecimal, CostGrowsSubquadratically) {
  // Four times the digits: digit-by-digit conversion does 16 times the limb multiplications,
  // this one about 4^1.585 = 9.
  std::string digits = ScrambledDigits(20000, 3);
  std::string four_times = digits + digits + digits + digits;
  BigInt small;
  BigInt large;
  uint64_t parse_small = LimbOpsOf([&] { small = BigIntFromDecimal(digits); });
  uint64_t parse_large = LimbOpsOf([&] { large = BigIntFromDecimal(four_times); });
  uint64_t format_small = LimbOpsOf([&] { EXPECT_EQ(BigIntToDecimal(small), digits); });
  uint64_t format_large = LimbOpsOf([&] { EXPECT_EQ(BigIntToDecimal(large), four_times); });
  ASSERT_GT(parse_small, 0u);
  ASSERT_GT(format_small, 0u);
  EXPECT_LT(parse_large, 11 * parse_small);
  EXPECT_LT(format_large, 11 * format_small);
  // And well under the digit-by-digit count, about (n / 9)^2 / 2 limb steps each way.
  uint64_t limbs = four_times.size() / 9;
  EXPECT_LT(parse_large, limbs * limbs / 4);
  EXPECT_LT(format_large, limbs * limbs / 4);
}

TEST(BigIntDecimal, DigitLimitReadsLikePythons) {
  DigitLimitScope scope(640);
  std::string at_limit(640, '7');
  EXPECT_EQ(BigIntToDecimal(BigIntFromDecimal(at_limit)), at_limit);
  EXPECT_EQ(BigIntToDecimal(BigIntFromDecimal("-" + at_limit)), "-" + at_limit);
  EXPECT_EQ(ErrorText([&] { BigIntFromDecimal("-" + at_limit + "7"); }),
            "ValueError: Exceeds the limit (640 digits) for integer string conversion: value has "
            "641 digits; use sys.set_int_max_str_digits() to increase the limit");
  // Leading zeros count, as in Python.
  EXPECT_NE(ErrorText([&] { BigIntFromDecimal("0" + at_limit); }), "no error");
  BigInt above = BigInt(10) * BigIntFromDecimal(at_limit);
  EXPECT_EQ(ErrorText([&] { BigIntToDecimal(above); }),
            "ValueError: Exceeds the limit (640 digits) for integer string conversion; use "
            "sys.set_int_max_str_digits() to increase the limit");
  EXPECT_EQ(ErrorText([&] { BigIntToDecimal(-above); }),
            ErrorText([&] { BigIntToDecimal(above); }));
}

TEST(BigIntDecimal, DigitLimitFailsBeforeConverting) {
  BigInt huge = BigInt(1) << (1 << 22);  // 1262612 digits
  std::string many_digits(1000000, '3');
  DigitLimitScope scope(4300);
  EXPECT_EQ(LimbOpsOf([&] { EXPECT_NE(ErrorText([&] { BigIntToDecimal(huge); }), "no error"); }),
            0u);
  EXPECT_EQ(
      LimbOpsOf([&] { EXPECT_NE(ErrorText([&] { BigIntFromDecimal(many_digits); }), "no error"); }),
      0u);
}

TEST(BigIntDecimal, DigitLimitIsPerThreadAndOffByDefault) {
  EXPECT_EQ(details::BigIntDigitLimit(), 0u);
  std::string digits(5000, '1');
  EXPECT_EQ(BigIntToDecimal(BigIntFromDecimal(digits)), digits);
  {
    DigitLimitScope scope(4300);
    EXPECT_EQ(details::BigIntDigitLimit(), 4300u);
    size_t other_thread_limit = 1;
    std::thread([&] { other_thread_limit = details::BigIntDigitLimit(); }).join();
    EXPECT_EQ(other_thread_limit, 0u);
  }
  EXPECT_EQ(details::BigIntDigitLimit(), 0u);
}

}  // namespace tvm_ffi_big_int_decimal_test

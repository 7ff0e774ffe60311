// SPDX-License-Identifier: Apache-2.0
// test_big_int.cc: BigInt values, arithmetic, conversions and the two BigInt C entry points.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/big_int.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/function.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <unordered_set>
#include <vector>

#include "test_utils.h"

namespace {

using tvm::ffi::Any;
using tvm::ffi::AnyView;
using tvm::ffi::BigInt;
using tvm::ffi::TypeTraits;
using tvm_ffi_test::ErrorText;

/// Parses decimal text with operator>>, failing the test on bad text.
BigInt Parse(const std::string& text) {
  std::istringstream is(text);
  BigInt value;
  is >> value;
  EXPECT_FALSE(is.fail()) << text;
  EXPECT_TRUE(is.eof()) << text;
  return value;
}

TVMFFIAny CellOf(const BigInt& value) {
  TVMFFIAny cell;
  TypeTraits<BigInt>::CopyToAnyView(value, &cell);
  return cell;
}

/// The words of a value through TVMFFIBigIntGetContentByteArray.
std::vector<int64_t> WordsOf(const BigInt& value) {
  TVMFFIAny cell = CellOf(value);
  TVMFFIByteArray content = TVMFFIBigIntGetContentByteArray(&cell);
  std::vector<int64_t> words(content.size / 8);
  std::memcpy(words.data(), content.data, content.size);
  return words;
}

/// TVMFFIBigIntFromByteArray over the given words, taking ownership of the result.
BigInt FromWords(const std::vector<int64_t>& words) {
  TVMFFIByteArray input{reinterpret_cast<const char*>(words.data()), words.size() * 8};
  TVMFFIAny out;
  EXPECT_EQ(TVMFFIBigIntFromByteArray(&input, &out), 0);
  return TypeTraits<BigInt>::MoveFromAnyAfterCheck(&out);
}

TEST(BigIntCAPI, FromByteArrayNormalises) {
  TVMFFIByteArray empty{nullptr, 0};
  TVMFFIAny out;
  ASSERT_EQ(TVMFFIBigIntFromByteArray(&empty, &out), 0);
  EXPECT_EQ(out.type_index, kTVMFFIInt);
  EXPECT_EQ(out.v_int64, 0);

  // Redundant sign words are dropped and int64 values become Int cells.
  BigInt minus_five = FromWords({-5, -1, -1});
  EXPECT_EQ(CellOf(minus_five).type_index, kTVMFFIInt);
  EXPECT_EQ(minus_five, -5);
  EXPECT_EQ(CellOf(FromWords({5, 0, 0})).type_index, kTVMFFIInt);

  // 2^64 - 1 needs a zero sign-guard word.
  BigInt max_u64 = FromWords({-1, 0, 0});
  TVMFFIAny cell = CellOf(max_u64);
  ASSERT_EQ(cell.type_index, kTVMFFIBigInt);
  EXPECT_EQ(
      reinterpret_cast<const TVMFFIBigIntCell*>(reinterpret_cast<char*>(cell.v_obj) + 24)->size,
      2u);
  EXPECT_EQ(max_u64.ToString(), "18446744073709551615");
  EXPECT_EQ(WordsOf(max_u64), (std::vector<int64_t>{-1, 0}));
  EXPECT_EQ(FromWords({1, -2, -1}).ToString(), "-36893488147419103231");
}

TEST(BigIntCAPI, ContentByteArrayPointsIntoTheCell) {
  TVMFFIAny cell = CellOf(BigInt(int64_t{42}));
  TVMFFIByteArray content = TVMFFIBigIntGetContentByteArray(&cell);
  EXPECT_EQ(content.data, reinterpret_cast<const char*>(&cell.v_int64));
  EXPECT_EQ(content.size, 8u);

  BigInt big = Parse("340282366920938463463374607431768211456");  // 2^128
  TVMFFIAny big_cell = CellOf(big);
  content = TVMFFIBigIntGetContentByteArray(&big_cell);
  EXPECT_EQ(content.data, reinterpret_cast<const char*>(big_cell.v_obj) + 32);
  EXPECT_EQ(WordsOf(big), (std::vector<int64_t>{0, 0, 1}));

  // Other cells have no integer content.
  TVMFFIAny flag = AnyView(true).CopyToTVMFFIAny();
  content = TVMFFIBigIntGetContentByteArray(&flag);
  EXPECT_EQ(content.data, nullptr);
  EXPECT_EQ(content.size, 0u);
  EXPECT_EQ(TVMFFIBigIntGetContentByteArray(nullptr).size, 0u);
}

TEST(BigIntCAPI, BadInputRaisesValueError) {
  int64_t words[2] = {1, 2};
  for (size_t size : {size_t{1}, size_t{7}, size_t{9}, size_t{15}}) {
    TVMFFIByteArray input{reinterpret_cast<const char*>(words), size};
    TVMFFIAny out;
    EXPECT_EQ(TVMFFIBigIntFromByteArray(&input, &out), -1);
    tvm_ffi_test::ExpectRaised("ValueError", "whole 64-bit words, got " + std::to_string(size));
  }
  TVMFFIAny out;
  EXPECT_EQ(TVMFFIBigIntFromByteArray(nullptr, &out), -1);
  tvm_ffi_test::ExpectRaised("ValueError", "the content is NULL");
  TVMFFIByteArray dangling{nullptr, 16};
  EXPECT_EQ(TVMFFIBigIntFromByteArray(&dangling, &out), -1);
  tvm_ffi_test::ExpectRaised("ValueError", "no data");
  TVMFFIByteArray ok{reinterpret_cast<const char*>(words), 8};
  EXPECT_EQ(TVMFFIBigIntFromByteArray(&ok, nullptr), -1);
  tvm_ffi_test::ExpectRaised("ValueError", "output cell");
}

TEST(BigIntCAPI, UnalignedInput) {
  alignas(8) char buffer[25];
  int64_t words[3] = {7, INT64_MIN, 3};
  std::memcpy(buffer + 1, words, sizeof(words));
  TVMFFIByteArray input{buffer + 1, 24};
  TVMFFIAny out;
  ASSERT_EQ(TVMFFIBigIntFromByteArray(&input, &out), 0);
  BigInt value = TypeTraits<BigInt>::MoveFromAnyAfterCheck(&out);
  EXPECT_EQ(WordsOf(value), (std::vector<int64_t>{7, INT64_MIN, 3}));
}

TEST(BigIntType, RegisteredStatically) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(kTVMFFIBigInt);
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(std::string(info->type_key.data, info->type_key.size), "ffi.BigInt");
  EXPECT_EQ(info->type_depth, 1);
  EXPECT_EQ(tvm::ffi::details::BigIntObj::RuntimeTypeIndex(), kTVMFFIBigInt);
  Any big = Parse("-99999999999999999999");
  EXPECT_EQ(big.GetTypeKey(), "ffi.BigInt");
}

TEST(BigInt, ConstructAndConvert) {
  EXPECT_EQ(BigInt().ToString(), "0");
  EXPECT_FALSE(static_cast<bool>(BigInt()));
  EXPECT_TRUE(static_cast<bool>(BigInt(-3)));
  BigInt max64 = std::numeric_limits<int64_t>::max();
  BigInt min64 = std::numeric_limits<int64_t>::min();
  EXPECT_EQ(CellOf(max64).type_index, kTVMFFIInt);
  EXPECT_EQ(min64.ToString(), "-9223372036854775808");
  EXPECT_EQ(static_cast<int64_t>(min64), std::numeric_limits<int64_t>::min());

  BigInt max_u64 = std::numeric_limits<uint64_t>::max();
  EXPECT_EQ(CellOf(max_u64).type_index, kTVMFFIBigInt);
  EXPECT_EQ(max_u64.ToString(), "18446744073709551615");
  EXPECT_EQ(max_u64.as<uint64_t>(), std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(max_u64.as<int64_t>(), std::nullopt);
  EXPECT_EQ(ErrorText([&] { (void)static_cast<int64_t>(max_u64); }),
            "OverflowError: BigInt does not fit int64_t: 18446744073709551615");

  EXPECT_EQ(BigInt(300).as<uint8_t>(), std::nullopt);
  EXPECT_EQ(BigInt(-1).as<uint32_t>(), std::nullopt);
  EXPECT_EQ(BigInt(-128).as<int8_t>(), int8_t{-128});
  EXPECT_EQ(BigInt(uint16_t{65535}).as<uint16_t>(), uint16_t{65535});
}

TEST(BigInt, CopyMoveShareStorage) {
  BigInt a = Parse("1267650600228229401496703205376");  // 2^100
  TVMFFIAny cell = CellOf(a);
  auto strong = [&] { return cell.v_obj->combined_ref_count & 0xFFFFFFFFu; };
  EXPECT_EQ(strong(), 1u);
  {
    BigInt b = a;
    EXPECT_EQ(strong(), 2u);
    BigInt c = std::move(b);
    EXPECT_EQ(strong(), 2u);
    EXPECT_EQ(b, 0);  // NOLINT(bugprone-use-after-move): a moved-from BigInt is zero
    EXPECT_EQ(c, a);
  }
  EXPECT_EQ(strong(), 1u);
  BigInt d = 5;
  swap(a, d);
  EXPECT_EQ(a, 5);
  EXPECT_EQ(d.ToString(), "1267650600228229401496703205376");
}

struct BinaryCase {
  const char* a;
  const char* b;
  // a+b, a-b, a*b, truncdiv, truncmod, floordiv, floormod, a&b, a|b, a^b (from Python)
  const char* expected[10];
};

const BinaryCase kBinaryCases[] = {
    {"9223372036854775807",
     "1",
     {"9223372036854775808", "9223372036854775806", "9223372036854775807", "9223372036854775807",
      "0", "9223372036854775807", "0", "1", "9223372036854775807", "9223372036854775806"}},
    {"-9223372036854775808",
     "-1",
     {"-9223372036854775809", "-9223372036854775807", "9223372036854775808", "9223372036854775808",
      "0", "9223372036854775808", "0", "-9223372036854775808", "-1", "9223372036854775807"}},
    {"-9223372036854775808",
     "1",
     {"-9223372036854775807", "-9223372036854775809", "-9223372036854775808",
      "-9223372036854775808", "0", "-9223372036854775808", "0", "0", "-9223372036854775807",
      "-9223372036854775807"}},
    {"18446744073709551616",
     "-18446744073709551616",
     {"0", "36893488147419103232", "-340282366920938463463374607431768211456", "-1", "0", "-1", "0",
      "18446744073709551616", "-18446744073709551616", "-36893488147419103232"}},
    {"-170141183460469231731687303715884105728",
     "3",
     {"-170141183460469231731687303715884105725", "-170141183460469231731687303715884105731",
      "-510423550381407695195061911147652317184", "-56713727820156410577229101238628035242", "-2",
      "-56713727820156410577229101238628035243", "1", "0",
      "-170141183460469231731687303715884105725", "-170141183460469231731687303715884105725"}},
    {"10000000000000000000000000000000000000007",
     "100000000000000000003",
     {"10000000000000000000100000000000000000010", "9999999999999999999900000000000000000004",
      "1000000000000000000030000000000000000000700000000000000000021", "99999999999999999997", "16",
      "99999999999999999997", "16", "21456626368420773891",
      "10000000000000000000078543373631579226119", "10000000000000000000057086747263158452228"}},
    {"-10000000000000000000000000000000000000000",
     "7",
     {"-9999999999999999999999999999999999999993", "-10000000000000000000000000000000000000007",
      "-70000000000000000000000000000000000000000", "-1428571428571428571428571428571428571428",
      "-4", "-1428571428571428571428571428571428571429", "3", "0",
      "-9999999999999999999999999999999999999993", "-9999999999999999999999999999999999999993"}},
    {"9223372036854775808",
     "9223372036854775808",
     {"18446744073709551616", "0", "85070591730234615865843651857942052864", "1", "0", "1", "0",
      "9223372036854775808", "9223372036854775808", "0"}},
    {"12345678901234567890123",
     "-98765432109876543210",
     {"12246913469124691346913", "12444444333344444433333",
      "-1219326311370217952249611949260778341714830", "-124", "98765319609876532083", "-125",
      "-112500000011127", "12248643133992666660866", "-1729664867975313953",
      "-12250372798860641974819"}},
    {"7", "-2", {"5", "9", "-14", "-3", "1", "-4", "-1", "6", "-1", "-7"}},
    {"-7", "2", {"-5", "-9", "-14", "-3", "-1", "-4", "1", "0", "-5", "-5"}},
    {"-1606938044258990275541962092341162602522202993782792835301375",
     "1180591620717411303423",
     {"-1606938044258990275541962092341162602521022402162075423997952",
      "-1606938044258990275541962092341162602523383585403510246604798",
      "-1897137590064188545818180080338083691992433466669513838619949672800245205774106625",
      "-1361129467683753853854651351231679692800", "-1152921504606846975",
      "-1361129467683753853854651351231679692801", "1179438699212804456448", "1",
      "-1606938044258990275541962092341162602521022402162075423997953",
      "-1606938044258990275541962092341162602521022402162075423997954"}},
    {"8727963568087712425891397479476727340041449",
     "-116415321826934814453125",
     {"8727963568087712425774982157649792525588324", "8727963568087712426007812801303662154494574",
      "-1016068687672693331946083051091610377193597261793911457061767578125",
      "-74972636171232388257", "36409083308972213088324", "-74972636171232388258",
      "-80006238517962601364801", "8727963568087712425850542336228978105188457",
      "-75560178579185579600133", "-8727963568087712425926102514808163684788590"}},
};

TEST(BigInt, ArithmeticMatchesPython) {
  for (const BinaryCase& c : kBinaryCases) {
    BigInt a = Parse(c.a);
    BigInt b = Parse(c.b);
    SCOPED_TRACE(std::string(c.a) + " op " + c.b);
    EXPECT_EQ((a + b).ToString(), c.expected[0]);
    EXPECT_EQ((a - b).ToString(), c.expected[1]);
    EXPECT_EQ((a * b).ToString(), c.expected[2]);
    EXPECT_EQ((a / b).ToString(), c.expected[3]);
    EXPECT_EQ((a % b).ToString(), c.expected[4]);
    EXPECT_EQ(truncdiv(a, b).ToString(), c.expected[3]);
    EXPECT_EQ(truncmod(a, b).ToString(), c.expected[4]);
    EXPECT_EQ(floordiv(a, b).ToString(), c.expected[5]);
    EXPECT_EQ(floormod(a, b).ToString(), c.expected[6]);
    EXPECT_EQ((a & b).ToString(), c.expected[7]);
    EXPECT_EQ((a | b).ToString(), c.expected[8]);
    EXPECT_EQ((a ^ b).ToString(), c.expected[9]);
    // Results are canonical: equal values have equal words whichever path built them.
    EXPECT_EQ(WordsOf(a + b), WordsOf(Parse(c.expected[0])));
    EXPECT_EQ(WordsOf(a * b), WordsOf(Parse(c.expected[2])));
  }
}

TEST(BigInt, MixedOperandsAndCompoundOps) {
  BigInt x = std::numeric_limits<int64_t>::max();
  EXPECT_EQ((x + 1).ToString(), "9223372036854775808");
  EXPECT_EQ((1 + x).ToString(), "9223372036854775808");
  EXPECT_EQ((x + uint64_t{9223372036854775809u}).ToString(), "18446744073709551616");
  x += 1;
  x *= x;
  EXPECT_EQ(x.ToString(), "85070591730234615865843651857942052864");
  const BigInt& same = x;  // subtracting itself, spelled so that Clang does not flag it
  x -= same;
  EXPECT_EQ(CellOf(x).type_index, kTVMFFIInt);
  BigInt y = std::numeric_limits<int64_t>::min();
  EXPECT_EQ((-y).ToString(), "9223372036854775808");
  EXPECT_EQ(-(-y), y);
  EXPECT_EQ((~Parse("18446744073709551616")).ToString(), "-18446744073709551617");
  BigInt z = std::numeric_limits<int64_t>::max();
  EXPECT_EQ((z++).ToString(), "9223372036854775807");
  EXPECT_EQ(z.ToString(), "9223372036854775808");
  EXPECT_EQ((--z).ToString(), "9223372036854775807");
  EXPECT_EQ(CellOf(z).type_index, kTVMFFIInt);
}

TEST(BigInt, Comparisons) {
  BigInt big = Parse("100000000000000000000");
  BigInt neg = Parse("-100000000000000000000");
  EXPECT_TRUE(neg < -1);
  EXPECT_TRUE(neg < big);
  EXPECT_TRUE(big > std::numeric_limits<int64_t>::max());
  EXPECT_TRUE(std::numeric_limits<int64_t>::min() > neg);
  EXPECT_TRUE(big >= Parse("100000000000000000000"));
  EXPECT_TRUE(big <= big);
  EXPECT_TRUE(big != neg);
  EXPECT_TRUE(big == -neg);
  EXPECT_TRUE(Parse("-100000000000000000001") < neg);
  EXPECT_TRUE(Parse("100000000000000000001") > big);
  EXPECT_EQ(min(big, neg), neg);
  EXPECT_EQ(max(big, 3), big);
  EXPECT_EQ(min(BigInt(4), -9), -9);
}

TEST(BigInt, Shifts) {
  BigInt one = 1;
  EXPECT_EQ((one << 200).ToString(),
            "1606938044258990275541962092341162602522202993782792835301376");
  EXPECT_EQ(((one << 200) >> 199), 2);
  EXPECT_EQ((Parse("-1267650600228229401496703205377") >> 37).ToString(), "-9223372036854775809");
  EXPECT_EQ((Parse("18446744073709551619") << 77).ToString(),
            "2787593149816327893145311966436531128762368");
  EXPECT_EQ((Parse("-12157665459056928801") << 65).ToString(),
            "-448538686514003433405381944279492984832");
  BigInt p130 = one << 130;
  EXPECT_EQ(p130 >> 129, 2);
  EXPECT_EQ((-p130) >> 130, -1);
  EXPECT_EQ((-p130) >> 131, -1);
  EXPECT_EQ(BigInt(-1) >> 1000, -1);
  EXPECT_EQ(BigInt(5) >> Parse("100000000000000000000"), 0);
  EXPECT_EQ((BigInt(-3) << 62).ToString(), "-13835058055282163712");
  EXPECT_EQ(BigInt(-1) << 63, std::numeric_limits<int64_t>::min());
  EXPECT_EQ(CellOf(BigInt(-1) << 63).type_index, kTVMFFIInt);
  EXPECT_EQ((BigInt(-3) << 63).ToString(), "-27670116110564327424");
  EXPECT_EQ(BigInt(0) << Parse("100000000000000000000"), 0);
  EXPECT_EQ(ErrorText([] { (void)(BigInt(1) << -1); }), "ValueError: negative shift count");
  EXPECT_EQ(ErrorText([] { (void)(BigInt(1) >> -1); }), "ValueError: negative shift count");
  EXPECT_EQ(ErrorText([&] { (void)(one << Parse("100000000000000000000")); }),
            "OverflowError: BigInt shift count is too large");
}

TEST(BigInt, DivisionByZero) {
  EXPECT_EQ(ErrorText([] { (void)(BigInt(1) / 0); }),
            "ZeroDivisionError: BigInt: division by zero");
  EXPECT_EQ(ErrorText([] { (void)floormod(Parse("100000000000000000000"), BigInt()); }),
            "ZeroDivisionError: BigInt: division by zero");
}

TEST(BigInt, StringRoundTrip) {
  const char* texts[] = {"0",
                         "-1",
                         "999999999",
                         "1000000000",
                         "-1000000000000000000000000000",
                         "123456789012345678901234567890123456789012345678901234567890"};
  for (const char* text : texts) EXPECT_EQ(Parse(text).ToString(), text);
  EXPECT_EQ(Parse("+42"), 42);
  std::ostringstream os;
  os << Parse("-123456789012345678901234567890");
  EXPECT_EQ(os.str(), "-123456789012345678901234567890");

  std::istringstream bad("x12");
  BigInt untouched = 7;
  bad >> untouched;
  EXPECT_TRUE(bad.fail());
  EXPECT_EQ(untouched, 7);
  std::istringstream two("12 -34");
  BigInt first, second;
  two >> first >> second;
  EXPECT_EQ(first, 12);
  EXPECT_EQ(second, -34);
}

TEST(BigInt, DoubleConversions) {
  EXPECT_EQ(BigInt(1e30).ToString(), "1000000000000000019884624838656");
  EXPECT_EQ(BigInt(-1e19).ToString(), "-10000000000000000000");
  EXPECT_EQ(BigInt(-2.9), -2);
  EXPECT_EQ(BigInt(-9223372036854775808.0), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(BigInt(9223372036854775808.0).ToString(), "9223372036854775808");
  EXPECT_EQ(static_cast<double>(Parse("18446744073709551616")), 18446744073709551616.0);
  // Exactly halfway between 2^64 and 2^64 + 2^12 rounds to even; a bit more rounds up.
  EXPECT_EQ(static_cast<double>(Parse("18446744073709553664")), 18446744073709551616.0);
  EXPECT_EQ(static_cast<double>(Parse("18446744073709553665")), 18446744073709555712.0);
  EXPECT_EQ(static_cast<double>(Parse("-22539340290692258087863249")), -2.2539340290692256e+25);
  EXPECT_EQ(ErrorText([] { (void)BigInt(std::nan("")); }),
            "ValueError: Cannot convert NaN to BigInt");
  EXPECT_EQ(ErrorText([] { (void)BigInt(-HUGE_VAL); }),
            "OverflowError: Cannot convert infinity to BigInt");
  EXPECT_EQ(ErrorText([] { (void)static_cast<double>(BigInt(1) << 1024); }),
            "OverflowError: BigInt: too large to convert to double");
  EXPECT_EQ(static_cast<double>((BigInt(1) << 1023)), std::ldexp(1.0, 1023));
}

TEST(BigInt, Hash) {
  BigInt a = Parse("340282366920938463463374607431768211457");
  BigInt b = (BigInt(1) << 128) + 1;
  EXPECT_EQ(a.hash(), b.hash());
  EXPECT_EQ(BigInt(-5).hash(), static_cast<uint64_t>(int64_t{-5}));
  EXPECT_EQ((BigInt(1) << 1023).hash(), 1894u);  // the value Apache TVM FFI computes
  std::unordered_set<BigInt> set{a, b, BigInt(3), BigInt(3)};
  EXPECT_EQ(set.size(), 2u);
}

TEST(BigInt, AnyHashAndEqualByValue) {
  BigInt a = BigInt(1) << 200;
  BigInt b = BigInt(4) << 198;
  ASSERT_FALSE(Any(a).same_as(Any(b)));
  EXPECT_TRUE(tvm::ffi::AnyEqual()(a, b));
  EXPECT_EQ(tvm::ffi::AnyHash()(a), tvm::ffi::AnyHash()(b));
  EXPECT_FALSE(tvm::ffi::AnyEqual()(a, a - 1));
  EXPECT_EQ(tvm::ffi::AnyHash()(a), tvm::ffi::details::StableHashCombine(kTVMFFIBigInt, a.hash()));
}

TEST(BigInt, AnyAndFunctionIntegration) {
  BigInt big = Parse("-340282366920938463463374607431768211456");
  Any held = big;
  EXPECT_EQ(held.type_index(), kTVMFFIBigInt);
  EXPECT_EQ(held.cast<BigInt>(), big);
  EXPECT_EQ(held.try_cast<int64_t>(), std::nullopt);
  EXPECT_EQ(Any(BigInt(5)).type_index(), kTVMFFIInt);
  EXPECT_EQ(Any(5).cast<BigInt>(), 5);
  EXPECT_EQ(Any(true).cast<BigInt>(), 1);
  EXPECT_EQ(Any(1.5).try_cast<BigInt>(), std::nullopt);
  EXPECT_EQ(AnyView(big).as<BigInt>(), big);
  EXPECT_EQ(TypeTraits<BigInt>::TypeStr(), "BigInt");

  auto square = tvm::ffi::Function::FromTyped([](BigInt x) { return x * x; });
  EXPECT_EQ(square(big).cast<BigInt>().ToString(),
            "115792089237316195423570985008687907853269984665640564039457584007913129639936");
  EXPECT_EQ(square(int64_t{1} << 40).cast<BigInt>().ToString(), "1208925819614629174706176");
  EXPECT_NE(ErrorText([&] { (void)square("text"); }).find("TypeError"), std::string::npos);
}

}  // namespace

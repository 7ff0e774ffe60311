// SPDX-License-Identifier: Apache-2.0
// test_source_parity_misc.cc: the spellings of Apache TVM FFI 0.1.13.post2 / 0.1.15.post2 headers
// outside containers, traits and reflection (functions, errors, BigInt internals, devices, dtypes,
// enums, public macros): each compiles here and behaves like the reference.
#include <dlpack/dlpack.h>
#include <gtest/gtest.h>
#include <tvm/ffi/big_int.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/device.h>
#include <tvm/ffi/enum.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/expected.h>
#include <tvm/ffi/extra/dtype.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/function_detail.h>
#include <tvm/ffi/function_details.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/string.h>

#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "test_utils.h"

namespace {

using tvm::ffi::Any;
using tvm::ffi::AnyView;
using tvm::ffi::BigInt;
using tvm::ffi::Error;
using tvm::ffi::Function;
using tvm::ffi::ObjectPtr;
using tvm::ffi::ObjectRef;
using tvm::ffi::String;
using tvm_ffi_test::CatchError;
using tvm_ffi_test::ErrorText;
namespace detail = tvm::ffi::detail;
namespace ops = tvm::ffi::detail::int_ops;
using detail::BigIntUnsafe;

/// A BigInt from decimal text.
BigInt Parse(const std::string& text) {
  std::istringstream is(text);
  BigInt value;
  is >> value;
  EXPECT_FALSE(is.fail()) << text;
  return value;
}

/// Values on both sides of the one-word boundary, for the Fallback checks.
std::vector<BigInt> SampleValues() {
  std::vector<BigInt> values;
  for (const char* text :
       {"0", "1", "-1", "7", "-7", "9223372036854775807", "-9223372036854775808",
        "9223372036854775808", "-9223372036854775809", "18446744073709551616",
        "-340282366920938463463374607431768211456", "123456789012345678901234567890123456789"}) {
    values.push_back(Parse(text));
  }
  return values;
}

// ---------------------------------------------------------------------------------------------
// BigInt: BigIntUnsafe construction helpers and the int_ops Fallback names.

TEST(SourceParityBigInt, UnsafeBuildsNormalizedValues) {
  // Three words 5, 0, 0 normalize to the inline value 5.
  auto small = tvm::ffi::make_inplace_array_object<detail::BigIntObj, int64_t>(3, size_t{3});
  int64_t* words = BigIntUnsafe::GetMutableData(small);
  words[0] = 5;
  words[1] = 0;
  words[2] = 0;
  EXPECT_EQ(BigIntUnsafe::GetArrayView(small).size(), 3u);
  BigInt five = BigIntUnsafe::Normalize(std::move(small));
  EXPECT_TRUE(BigIntUnsafe::CheckInt64(five));
  EXPECT_EQ(five, 5);

  // Words {-1 (all ones), 0, 0} are 2^64 - 1: the zero sign guard stays, the extra word goes.
  auto big = tvm::ffi::make_inplace_array_object<detail::BigIntObj, int64_t>(3, size_t{3});
  words = BigIntUnsafe::GetMutableData(big);
  words[0] = -1;
  words[1] = 0;
  words[2] = 0;
  BigInt value = BigIntUnsafe::Normalize(std::move(big));
  EXPECT_FALSE(BigIntUnsafe::CheckInt64(value));
  EXPECT_EQ(BigIntUnsafe::GetArrayView(value).size(), 2u);
  EXPECT_EQ(value.ToString(), "18446744073709551615");

  // ShrinkSize drops words before normalizing; zero words are zero.
  auto shrunk = tvm::ffi::make_inplace_array_object<detail::BigIntObj, int64_t>(2, size_t{2});
  BigIntUnsafe::GetMutableData(shrunk)[0] = -4;
  BigIntUnsafe::ShrinkSize(shrunk, 1);
  EXPECT_EQ(BigIntUnsafe::Normalize(std::move(shrunk)), -4);
  auto empty = tvm::ffi::make_inplace_array_object<detail::BigIntObj, int64_t>(1, size_t{1});
  BigIntUnsafe::ShrinkSize(empty, 0);
  EXPECT_EQ(BigIntUnsafe::Normalize(std::move(empty)), 0);
}

TEST(SourceParityBigInt, UnsafeTreatsInt64AsInlineValue) {
  const int64_t x = -12;
  EXPECT_TRUE(BigIntUnsafe::CheckInt64(x));
  EXPECT_EQ(BigIntUnsafe::GetInt64(x), -12);
  BigInt::ArrayView view = BigIntUnsafe::GetArrayView(x);
  ASSERT_EQ(view.size(), 1u);
  EXPECT_EQ(&view[0], &x);
}

TEST(SourceParityBigInt, FallbacksAgreeWithOperators) {
  std::vector<BigInt> values = SampleValues();
  for (const BigInt& a : values) {
    BigInt::ArrayView va = BigIntUnsafe::GetArrayView(a);
    EXPECT_EQ(ops::NegateFallback(va), -a);
    EXPECT_EQ(ops::ComplementFallback(va), ~a);
    EXPECT_EQ(ops::ToStringFallback(a), a.ToString());
    for (const BigInt& b : values) {
      BigInt::ArrayView vb = BigIntUnsafe::GetArrayView(b);
      SCOPED_TRACE(a.ToString() + " op " + b.ToString());
      EXPECT_EQ(ops::AddFallback(va, vb), a + b);
      EXPECT_EQ(ops::SubFallback(va, vb), a - b);
      EXPECT_EQ(ops::MulFallback(va, vb), a * b);
      EXPECT_EQ(ops::AndFallback(va, vb), a & b);
      EXPECT_EQ(ops::OrFallback(va, vb), a | b);
      EXPECT_EQ(ops::XorFallback(va, vb), a ^ b);
      EXPECT_EQ(ops::MinFallback(va, vb), a < b ? a : b);
      EXPECT_EQ(ops::MaxFallback(va, vb), a < b ? b : a);
      EXPECT_EQ(ops::EqualFallback(va, vb), a == b);
      EXPECT_EQ(ops::CompareFallback(va, vb), a < b ? -1 : (a == b ? 0 : 1));
      if (b == 0) {
        EXPECT_EQ(ErrorText([&] { ops::DivRemFallback(va, vb); }).rfind("ZeroDivisionError", 0),
                  0u);
        continue;
      }
      std::pair<BigInt, BigInt> qr = ops::DivRemFallback(va, vb);
      EXPECT_EQ(qr.first, tvm::ffi::truncdiv(a, b));
      EXPECT_EQ(qr.second, tvm::ffi::truncmod(a, b));
      EXPECT_EQ(qr.first * b + qr.second, a);
      EXPECT_EQ(ops::TruncDivFallback(va, vb), a / b);
      EXPECT_EQ(ops::TruncModFallback(va, vb), a % b);
      EXPECT_EQ(ops::FloorDivFallback(va, vb), tvm::ffi::floordiv(a, b));
      EXPECT_EQ(ops::FloorModFallback(va, vb), tvm::ffi::floormod(a, b));
    }
  }
}

TEST(SourceParityBigInt, DivisionByOneWord) {
  BigInt a = Parse("-123456789012345678901234567890");
  std::pair<BigInt, BigInt> qr = ops::DivRemFallback(BigIntUnsafe::GetArrayView(a), int64_t{7});
  EXPECT_EQ(qr.first, Parse("-17636684144620811271604938270"));
  EXPECT_EQ(qr.second, 0);
  qr = ops::DivRemFallback(BigIntUnsafe::GetArrayView(a), int64_t{-1000});
  EXPECT_EQ(qr.first, Parse("123456789012345678901234567"));
  EXPECT_EQ(qr.second, -890);
  EXPECT_EQ(ErrorText([&] {
              ops::DivRemFallback(BigIntUnsafe::GetArrayView(a), int64_t{0});
            }).rfind("ZeroDivisionError", 0),
            0u);
}

TEST(SourceParityBigInt, ShiftFallbacksAndScalarRightShift) {
  BigInt x = Parse("-340282366920938463463374607431768211457");
  for (int64_t count : {0, 1, 63, 64, 65, 130, 500}) {
    BigInt c(count);
    BigInt::ArrayView vx = BigIntUnsafe::GetArrayView(x);
    BigInt::ArrayView vc = BigIntUnsafe::GetArrayView(c);
    EXPECT_EQ(ops::LeftShiftFallback(vx, vc), x << c);
    EXPECT_EQ(ops::RightShiftFallback(vx, vc), x >> c);
  }
  EXPECT_EQ(ops::RightShift(-9, 1), -5);
  EXPECT_EQ(ops::RightShift(1000, 3), 125);
  EXPECT_EQ(ops::RightShift(-1, 64), -1);
  EXPECT_EQ(ops::RightShift(5, 200), 0);
  EXPECT_EQ(ErrorText([] { ops::RightShift(1, -1); }).rfind("ValueError", 0), 0u);
  int64_t out = 0;
  EXPECT_EQ(ErrorText([&] { ops::LeftShiftOverflow(1, -1, &out); }).rfind("ValueError", 0), 0u);
}

TEST(SourceParityBigInt, WordHelpers) {
  EXPECT_EQ(ops::BitcastToInt64(~uint64_t{0}), -1);
  EXPECT_EQ(ops::BitcastToInt64(uint64_t{1} << 63), std::numeric_limits<int64_t>::min());

  // -2^128 is the words {0, 0, -1}: the lowest nonzero word is word 2 and |x| = 2^128.
  BigInt x = Parse("-340282366920938463463374607431768211456");
  BigInt::ArrayView vx = BigIntUnsafe::GetArrayView(x);
  ASSERT_EQ(vx.size(), 3u);
  size_t first = ops::FirstNonzero(vx);
  EXPECT_EQ(first, 2u);
  EXPECT_EQ(ops::AbsWord(vx, first, 0), 0);
  EXPECT_EQ(ops::AbsWord(vx, first, 1), 0);
  EXPECT_EQ(ops::AbsWord(vx, first, 2), 1);
  EXPECT_EQ(ops::AbsWord(vx, first, 7), 0);
  int64_t zeros[2] = {0, 0};
  EXPECT_EQ(ops::FirstNonzero(BigInt::ArrayView(zeros, 2)), 2u);

  // -(2^64 + 3) is the words {-3, -2}; its magnitude words are 3 and 1.
  BigInt y = Parse("-18446744073709551619");
  BigInt::ArrayView vy = BigIntUnsafe::GetArrayView(y);
  size_t first_y = ops::FirstNonzero(vy);
  EXPECT_EQ(ops::AbsWord(vy, first_y, 0), 3);
  EXPECT_EQ(ops::AbsWord(vy, first_y, 1), 1);
  // A nonnegative value reads its own words.
  BigInt z = Parse("18446744073709551619");
  EXPECT_EQ(ops::AbsWord(BigIntUnsafe::GetArrayView(z), 0, 0), 3);

  int64_t words[3] = {0, 1, 0};  // 2^64
  ops::NegateInplace(words, 3);
  EXPECT_EQ(words[0], 0);
  EXPECT_EQ(words[1], -1);
  EXPECT_EQ(words[2], -1);
}

TEST(SourceParityBigInt, DoubleAndStringFallbacks) {
  EXPECT_EQ(ops::FromDoubleFallback(1e20), Parse("100000000000000000000"));
  EXPECT_EQ(ops::FromDoubleFallback(-1.5), -1);
  EXPECT_EQ(ErrorText([] { ops::FromDoubleFallback(std::nan("")); }).rfind("ValueError", 0), 0u);
  EXPECT_EQ(ErrorText([] {
              ops::FromDoubleFallback(std::numeric_limits<double>::infinity());
            }).rfind("OverflowError", 0),
            0u);
  EXPECT_EQ(ops::ToDoubleFallback(Parse("100000000000000000000")), 1e20);
  EXPECT_EQ(ops::ToDoubleFallback(BigInt(-3)), -3.0);
  EXPECT_EQ(ErrorText([] { ops::ToDoubleFallback(BigInt(1) << 1100); }).rfind("OverflowError", 0),
            0u);
  EXPECT_EQ(ops::ToStringFallback(Parse("-98765432109876543210")), "-98765432109876543210");
}

// ---------------------------------------------------------------------------------------------
// Function internals.

/// A packed callable that adds a fixed offset to its one int argument.
struct AddOffset {
  explicit AddOffset(int64_t offset) : offset(offset) {}
  AddOffset(const AddOffset&) = delete;
  void operator()(const AnyView* args, int32_t, Any* rv) const {
    *rv = args[0].cast<int64_t>() + offset;
  }
  int64_t offset;
};

TEST(SourceParityFunction, FromPackedInplaceBuildsInPlace) {
  // The callable is not copyable: it is constructed inside the function object.
  auto [func, callable] = Function::FromPackedInplace<AddOffset>(int64_t{10});
  EXPECT_EQ(func(5).cast<int64_t>(), 15);
  callable->offset = 100;
  EXPECT_EQ(func(5).cast<int64_t>(), 105);

  using Impl = detail::FunctionObjImpl<AddOffset>;
  static_assert(std::is_same_v<Impl::TSelf, Impl>);
  auto* impl = static_cast<Impl*>(const_cast<tvm::ffi::FunctionObj*>(func.get()));
  EXPECT_EQ(impl->GetCallable(), callable);
}

/// A C safe-call that returns the int stored in self plus its first argument.
int AddSelf(void* self, const TVMFFIAny* args, int32_t, TVMFFIAny* result) {
  result->type_index = tvm::ffi::TypeIndex::kTVMFFIInt;
  result->zero_padding = 0;
  result->v_int64 = *static_cast<int64_t*>(self) + args[0].v_int64;
  return 0;
}

int ReturnArgCount(void*, const TVMFFIAny*, int32_t num_args, TVMFFIAny* result) {
  result->type_index = tvm::ffi::TypeIndex::kTVMFFIInt;
  result->zero_padding = 0;
  result->v_int64 = num_args;
  return 0;
}

TEST(SourceParityFunction, ExternCFunctionObjects) {
  static int deleted = 0;
  deleted = 0;
  auto* state = new int64_t(40);
  {
    auto obj =
        tvm::ffi::make_object<detail::ExternCFunctionObjImpl>(state, AddSelf, [](void* self) {
          delete static_cast<int64_t*>(self);
          ++deleted;
        });
    Function func(ObjectPtr<tvm::ffi::FunctionObj>(std::move(obj)));
    EXPECT_EQ(func(2).cast<int64_t>(), 42);
    EXPECT_EQ(deleted, 0);
  }
  EXPECT_EQ(deleted, 1);

  Function counter(ObjectPtr<tvm::ffi::FunctionObj>(
      tvm::ffi::make_object<detail::ExternCFunctionObjNullHandleImpl>(ReturnArgCount)));
  EXPECT_EQ(counter(1, "a", 3.0).cast<int64_t>(), 3);
  // FromExternC builds the same kinds of objects.
  EXPECT_EQ(Function::FromExternC(nullptr, ReturnArgCount, nullptr)().cast<int64_t>(), 0);
}

TEST(SourceParityFunction, PackedArgsSetterAndForEach) {
  AnyView views[3];
  detail::PackedArgsSetter setter(views);
  setter(0, 7);
  setter(2, "text");
  EXPECT_EQ(views[0].cast<int64_t>(), 7);
  EXPECT_EQ(views[1].type_index(), tvm::ffi::TypeIndex::kTVMFFINone);
  EXPECT_EQ(views[2].cast<String>(), "text");

  std::vector<std::pair<size_t, int>> seen;
  detail::for_each_dispatcher::run(
      std::index_sequence<0, 1, 2>{}, [&](size_t i, int v) { seen.emplace_back(i, v); }, 4, 5, 6);
  EXPECT_EQ(seen, (std::vector<std::pair<size_t, int>>{{0, 4}, {1, 5}, {2, 6}}));
}

TEST(SourceParityFunction, RegistryIsDeclared) {
  // 0.1.13 declares (and never defines) Function::Registry.
  Function::Registry* registry = nullptr;
  EXPECT_TRUE(registry == nullptr);  // gtest cannot print a pointer to an incomplete type
}

// ---------------------------------------------------------------------------------------------
// Typed-call helpers of function_detail(s).h.

class PointObj : public tvm::ffi::Object {
 public:
  int64_t Sum(int64_t k) const { return k; }
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.source_parity_misc.Point", PointObj, tvm::ffi::Object);
};

class Point : public ObjectRef {
 public:
  int64_t Twice(int64_t k) { return 2 * k; }
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(Point, ObjectRef, PointObj);
};

TEST(SourceParityFunctionDetail, SignatureFacts) {
  using Info = detail::FuncFunctorImpl<int64_t, const String&, double>;
  static_assert(std::is_same_v<Info::FType, int64_t(const String&, double)>);
  static_assert(Info::unpacked_supported);
  static_assert(!detail::FuncFunctorImpl<void, int&>::unpacked_supported);
  static_assert(!detail::FuncFunctorImpl<std::vector<int>*, int>::unpacked_supported);
  EXPECT_EQ(Info::Sig(), "(0: str, 1: float) -> int");

  using Helper = detail::FunctionInfoHelper<decltype(&PointObj::Sum)>;
  static_assert(std::is_same_v<Helper::ArgType, std::tuple<int64_t>>);

  // Member functions of object and reference classes take the object first.
  using ObjMethod = detail::FunctionInfo<decltype(&PointObj::Sum)>;
  static_assert(std::is_same_v<ObjMethod::ArgType, std::tuple<const PointObj*, int64_t>>);
  using RefMethod = detail::FunctionInfo<decltype(&Point::Twice)>;
  static_assert(std::is_same_v<RefMethod::ArgType, std::tuple<Point, int64_t>>);
  EXPECT_EQ(RefMethod::num_args, 2u);
}

TEST(SourceParityFunctionDetail, Arg2StrListsParameters) {
  std::ostringstream os;
  detail::Arg2Str<std::tuple<int, const String&, Any>>::Run(os, std::make_index_sequence<3>{});
  EXPECT_EQ(os.str(), "0: int, 1: str, 2: Any");
  std::ostringstream one;
  detail::Arg2Str<std::tuple<int, bool>>::Apply<1>(one);
  EXPECT_EQ(one.str(), ", 1: bool");
}

std::string ExampleSig() { return "(0: int) -> None"; }

TEST(SourceParityFunctionDetail, ArgValueWithContextConverts) {
  String five("five");
  AnyView args[2] = {AnyView(5), AnyView(five)};
  int64_t value = detail::ArgValueWithContext<const int64_t&>(args, 0, nullptr, nullptr);
  EXPECT_EQ(value, 5);
  static_assert(std::is_same_v<detail::ArgValueWithContext<const String&>::TypeWithoutCR, String>);
  String text = detail::ArgValueWithContext<String>(args, 1, nullptr, nullptr);
  EXPECT_EQ(text, "five");
  Any any = detail::ArgValueWithContext<Any>(args, 1, nullptr, nullptr);
  EXPECT_EQ(any.cast<String>(), "five");

  std::string name = "demo";
  Error err = CatchError([&] {
    int64_t bad = detail::ArgValueWithContext<int64_t>(args, 1, &name, ExampleSig);
    (void)bad;
  });
  EXPECT_EQ(err.kind(), "TypeError");
  EXPECT_EQ(err.message(),
            "Mismatched type on argument #1 when calling: `demo(0: int) -> None`. Expected `int` "
            "but got `ffi.SmallStr`");
}

// ---------------------------------------------------------------------------------------------
// Errors and check macros.

/// Exposes ErrorBuilder's protected fields (0.1.15 keeps them protected for subclasses).
class InspectingBuilder : public detail::ErrorBuilder {
 public:
  using ErrorBuilder::ErrorBuilder;
  const std::string& kind() const { return kind_; }
  const std::string& backtrace() const { return backtrace_; }
  bool log() const { return log_before_throw_; }
  bool has_cause() const { return cause_chain_.has_value(); }
  bool has_context() const { return extra_context_.has_value(); }
  std::string text() const { return stream_.str(); }
};

TEST(SourceParityError, ErrorBuilderConstructors) {
  Error plain = CatchError([] {
    detail::ErrorBuilder(std::string("ValueError"), std::string("frame\n"), false).stream()
        << "bad " << 3;
  });
  EXPECT_EQ(plain.kind(), "ValueError");
  EXPECT_EQ(plain.message(), "bad 3");
  EXPECT_EQ(plain.backtrace(), "frame\n");
  EXPECT_FALSE(plain.cause_chain().has_value());

  TVMFFIByteArray trace{"t1\n", 3};
  Error cause("KeyError", "inner", "");
  ObjectRef context(tvm::ffi::make_object<tvm::ffi::Object>());
  Error chained = CatchError([&] {
    detail::ErrorBuilder("RuntimeError", &trace, false, cause, context).stream() << "outer";
  });
  EXPECT_EQ(chained.kind(), "RuntimeError");
  EXPECT_EQ(chained.message(), "outer");
  EXPECT_EQ(chained.backtrace(), "t1\n");
  ASSERT_TRUE(chained.cause_chain().has_value());
  EXPECT_TRUE(chained.cause_chain()->same_as(cause));
  ASSERT_TRUE(chained.extra_context().has_value());
  EXPECT_TRUE(chained.extra_context()->same_as(context));

  Error inspected = CatchError([&] {
    InspectingBuilder builder("TypeError", &trace, false, std::nullopt, context);
    builder.stream() << "x";
    EXPECT_EQ(builder.kind(), "TypeError");
    EXPECT_EQ(builder.backtrace(), "t1\n");
    EXPECT_FALSE(builder.log());
    EXPECT_FALSE(builder.has_cause());
    EXPECT_TRUE(builder.has_context());
    EXPECT_EQ(builder.text(), "x");
  });
  EXPECT_EQ(inspected.kind(), "TypeError");
}

TEST(SourceParityError, ErrorObjFromStdThreeArguments) {
  auto obj = tvm::ffi::make_object<detail::ErrorObjFromStd>("IndexError", "out of range", "bt\n");
  EXPECT_EQ(obj->cause_chain, nullptr);
  EXPECT_EQ(obj->extra_context, nullptr);
  // The object owns what is moved into its cells, as 0.1.15's Error constructor does.
  Error cause("KeyError", "k", "");
  obj->cause_chain = detail::ObjectUnsafe::GetHeader(cause);
  detail::ObjectUnsafe::IncRefObjectHandle(obj->cause_chain);
  Error err = detail::ObjectUnsafe::ObjectRefFromObjectPtr<Error>(
      ObjectPtr<tvm::ffi::Object>(std::move(obj)));
  EXPECT_EQ(err.kind(), "IndexError");
  EXPECT_EQ(err.message(), "out of range");
  ASSERT_TRUE(err.cause_chain().has_value());
  EXPECT_TRUE(err.cause_chain()->same_as(cause));
}

TEST(SourceParityError, LogCheckHelpersAndMacros) {
  EXPECT_EQ(*detail::LogCheckFormat(1, "b"), " (1 vs. b) ");
  EXPECT_EQ(detail::LogCheck_LT(1, 2), nullptr);
  EXPECT_EQ(*detail::LogCheck_GE(1, 2), " (1 vs. 2) ");
  EXPECT_EQ(*detail::LogCheck_EQ(size_t{3}, 4), " (3 vs. 4) ");

  EXPECT_EQ(ErrorText([] { TVM_FFI_CHECK_BINARY_OP(_EQ, ==, 1 + 1, 3, ValueError) << "note"; }),
            "ValueError: Check failed: 1 + 1 == 3 (2 vs. 3) : note");
  EXPECT_EQ(ErrorText([] { TVM_FFI_CHECK_BINARY_OP(_LT, <, 1, 3, ValueError) << "note"; }),
            "no error");
}

// A check function defined the way 0.1.15 defines its own.
namespace custom_checks {
using detail::LogCheckFormat;
TVM_FFI_CHECK_FUNC(_SharesBits, &)
}  // namespace custom_checks

TEST(SourceParityError, CheckFuncDefinesNewChecks) {
  // The check holds while x & y is nonzero; otherwise it yields the " (x vs. y) " text.
  EXPECT_EQ(custom_checks::LogCheck_SharesBits(6, 4), nullptr);
  EXPECT_EQ(*custom_checks::LogCheck_SharesBits(6, 1), " (6 vs. 1) ");
  EXPECT_EQ(*custom_checks::LogCheck_SharesBits(uint8_t{2}, int64_t{4}), " (\x02 vs. 4) ");
}

tvm::ffi::Expected<int> CheckedHalf(int x) {
  TVM_FFI_RET_CHECK_BINARY_OP(_EQ, ==, x % 2, 0, ValueError) << "odd";
  return x / 2;
}

TEST(SourceParityError, RetCheckBinaryOp) {
  EXPECT_EQ(CheckedHalf(8).value(), 4);
  tvm::ffi::Expected<int> odd = CheckedHalf(3);
  ASSERT_TRUE(odd.is_err());
  EXPECT_EQ(odd.error().kind(), "ValueError");
  EXPECT_EQ(odd.error().message(), "Check failed: x % 2 == 0 (1 vs. 0) : odd");
}

// ---------------------------------------------------------------------------------------------
// Macros.

TVM_FFI_ATTRIBUTE_PURE int PureSquare(int x);
int PureSquare(int x) { return x * x; }

TEST(SourceParityMacros, ValuesAndMeaning) {
  char buffer[16];
  int n = TVM_FFI_SNPRINTF(buffer, sizeof(buffer), "\\u%04x", 0x1f);
  EXPECT_EQ(n, 6);
  EXPECT_STREQ(buffer, "\\u001f");
  EXPECT_EQ(PureSquare(7), 49);
  EXPECT_EQ(TVM_FFI_USE_LIBBACKTRACE, 1);
  EXPECT_EQ(TVM_FFI_BACKTRACE_ON_SEGFAULT, 1);
}

#if !defined(__SANITIZE_ADDRESS__)
/// Crashes on a real invalid access (volatile on both sides keeps the compiler from dropping the
/// store or folding it into a trap).
void WriteThroughNull() {
  volatile int* volatile pointer = nullptr;
  *pointer = 1;
}
#endif

TEST(SourceParityMacrosDeathTest, SegfaultPrintsBacktrace) {
#if !defined(__SANITIZE_ADDRESS__)
  // Under ASan and UBSan the sanitizers report the invalid store before any signal is raised.
  EXPECT_DEATH(WriteThroughNull(), "Segfault encountered");
#endif
  EXPECT_DEATH(std::raise(SIGSEGV), "Segfault encountered");
}

// ---------------------------------------------------------------------------------------------
// Devices, dtypes and enums.

TEST(SourceParityDevice, TryParseHelpers) {
  EXPECT_EQ(detail::TryParseDLDeviceType("cuda"), kDLCUDA);
  EXPECT_EQ(detail::TryParseDLDeviceType("mps"), kDLMetal);
  EXPECT_EQ(detail::TryParseDLDeviceType("tpu"), std::nullopt);
  EXPECT_EQ(detail::TryParseDLDeviceIndex("12"), 12);
  EXPECT_EQ(detail::TryParseDLDeviceIndex(""), std::nullopt);
  EXPECT_EQ(detail::TryParseDLDeviceIndex("2147483648"), std::nullopt);
  EXPECT_EQ(detail::TryParseDLDeviceIndex("-1"), std::nullopt);
  std::optional<DLDevice> dev = detail::TryStringViewToDLDevice("rocm:3 extra");
  ASSERT_TRUE(dev.has_value());
  EXPECT_EQ(dev->device_type, kDLROCM);
  EXPECT_EQ(dev->device_id, 3);
  EXPECT_EQ(detail::TryStringViewToDLDevice("cpu")->device_id, 0);
  EXPECT_FALSE(detail::TryStringViewToDLDevice("cuda:1:2").has_value());
  EXPECT_FALSE(detail::TryStringViewToDLDevice(":1").has_value());
}

TEST(SourceParityDtype, TopLevelNamespaceSpelling) {
  constexpr DLDataType f32 = tvm_ffi::dtype_trait<float>::value;
  EXPECT_EQ(f32.code, kDLFloat);
  EXPECT_EQ(f32.bits, 32);
  EXPECT_EQ(f32.lanes, 1);
  constexpr DLDataType u16 = tvm_ffi::details::dtypes::integer_trait<uint16_t>::value;
  EXPECT_EQ(u16.code, kDLUInt);
  EXPECT_EQ(u16.bits, 16);
  constexpr DLDataType f64 = tvm_ffi::details::dtypes::float_trait<double>::value;
  EXPECT_EQ(f64.bits, 64);
  static_assert(std::is_same_v<tvm_ffi::dtype_trait<int>, tvm::ffi::dtype_trait<int>>);
}

TEST(SourceParityEnum, ConstructFromObjectPtr) {
  auto obj = tvm::ffi::make_object<tvm::ffi::EnumObj>(4, String("four"));
  tvm::ffi::Enum value(obj);
  EXPECT_EQ(value->_int_index, 4);
  EXPECT_EQ(value->_str_index, "four");
  auto int_obj = tvm::ffi::make_object<tvm::ffi::IntEnumObj>();
  int_obj->_int_index = 2;
  tvm::ffi::IntEnum int_value(int_obj);
  EXPECT_EQ(int_value->_int_index, 2);
  tvm::ffi::StrEnum str_value(tvm::ffi::make_object<tvm::ffi::StrEnumObj>());
  EXPECT_EQ(str_value->_int_index, 0);
  tvm::ffi::EnumState state(tvm::ffi::make_object<tvm::ffi::EnumStateObj>());
  EXPECT_EQ(state->entries.size(), 0u);
  static_assert(!std::is_convertible_v<ObjectPtr<tvm::ffi::EnumObj>, tvm::ffi::Enum>);
}

}  // namespace

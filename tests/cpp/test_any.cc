// SPDX-License-Identifier: Apache-2.0
// test_any.cc: AnyView/Any cells, conversions, ownership, hashing and equality.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "test_utils.h"

namespace tvm_ffi_any_test {

using tvm_ffi_test::CatchError;

using tvm::ffi::Any;
using tvm::ffi::AnyView;
using tvm::ffi::Bytes;
using tvm::ffi::Error;
using tvm::ffi::Object;
using tvm::ffi::ObjectRef;
using tvm::ffi::String;
using tvm::ffi::details::AnyUnsafe;

class BaseObj : public Object {
 public:
  explicit BaseObj(int64_t v) : value(v) {}
  int64_t value;
  static constexpr uint32_t _type_child_slots = 1;
  TVM_FFI_DECLARE_OBJECT_INFO("test_any.Base", BaseObj, Object);
};

class DerivedObj : public BaseObj {
 public:
  explicit DerivedObj(int64_t v) : BaseObj(v) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test_any.Derived", DerivedObj, BaseObj);
};

class Base : public ObjectRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(Base, ObjectRef, BaseObj);
};

class Derived : public Base {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(Derived, Base, DerivedObj);
};

Base MakeBase(int64_t v) { return Base(tvm::ffi::make_object<BaseObj>(v)); }
Derived MakeDerived(int64_t v) {
  return tvm::ffi::details::ObjectUnsafe::ObjectRefFromObjectPtr<Derived>(
      tvm::ffi::make_object<DerivedObj>(v));
}

TVMFFIAny CellOf(const AnyView& view) { return view.CopyToTVMFFIAny(); }
TVMFFIAny CellOf(const Any& any) { return AnyView(any).CopyToTVMFFIAny(); }

static_assert(sizeof(Any) == 16 && sizeof(AnyView) == 16, "Any and AnyView are one cell");
static_assert(std::is_trivially_copyable_v<AnyView>, "AnyView is trivially copyable");

// ---------------------------------------------------------------- construction

TEST(AnyConstruct, DefaultIsNone) {
  TVMFFIAny view = CellOf(AnyView());
  TVMFFIAny owned = CellOf(Any());
  EXPECT_EQ(view.type_index, kTVMFFINone);
  EXPECT_EQ(view.v_int64, 0);
  EXPECT_EQ(owned.type_index, kTVMFFINone);
  EXPECT_EQ(owned.zero_padding, 0u);
  EXPECT_TRUE(Any() == nullptr);
  EXPECT_FALSE(Any(1) == nullptr);
}

TEST(AnyConstruct, Int) {
  TVMFFIAny cell = CellOf(Any(-42));
  EXPECT_EQ(cell.type_index, kTVMFFIInt);
  EXPECT_EQ(cell.zero_padding, 0u);
  EXPECT_EQ(cell.v_int64, -42);
  EXPECT_EQ(CellOf(AnyView(int64_t{1} << 40)).v_int64, int64_t{1} << 40);
}

TEST(AnyConstruct, UInt64AtInt64MaxFits) {
  uint64_t value = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  EXPECT_EQ(CellOf(Any(value)).v_int64, std::numeric_limits<int64_t>::max());
}

TEST(AnyConstruct, UInt64OverflowThrows) {
  uint64_t value = uint64_t{1} << 63;
  Error err = CatchError([&] { Any any(value); });
  EXPECT_EQ(err.kind(), "OverflowError");
  EXPECT_EQ(err.message(),
            "Integer value 9223372036854775808 is too large to fit in int64_t. Consider explicitly "
            "casting to int64_t first if this is intentional.");
  EXPECT_EQ(CatchError([&] { AnyView view(value); }).kind(), "OverflowError");
}

enum class Color : int32_t { kRed = 2, kBlue = 5 };

TEST(AnyConstruct, EnumIsInt) {
  TVMFFIAny cell = CellOf(Any(Color::kBlue));
  EXPECT_EQ(cell.type_index, kTVMFFIInt);
  EXPECT_EQ(cell.v_int64, 5);
  EXPECT_EQ(Any(2).cast<Color>(), Color::kRed);
}

TEST(AnyConstruct, NullCStrFailsCheck) {
  const char* null_str = nullptr;
  EXPECT_EQ(CatchError([&] { AnyView view(null_str); }).kind(), "InternalError");
  EXPECT_EQ(CatchError([&] { Any any(null_str); }).kind(), "InternalError");
}

TEST(AnyConstruct, Bool) {
  TVMFFIAny cell = CellOf(Any(true));
  EXPECT_EQ(cell.type_index, kTVMFFIBool);
  EXPECT_EQ(cell.v_int64, 1);
  EXPECT_EQ(CellOf(AnyView(false)).v_int64, 0);
}

TEST(AnyConstruct, Double) {
  TVMFFIAny cell = CellOf(Any(2.5));
  EXPECT_EQ(cell.type_index, kTVMFFIFloat);
  EXPECT_EQ(cell.zero_padding, 0u);
  EXPECT_EQ(cell.v_float64, 2.5);
  EXPECT_EQ(CellOf(AnyView(1.5f)).v_float64, 1.5);
}

TEST(AnyConstruct, OpaquePointer) {
  int target = 0;
  void* ptr = &target;
  TVMFFIAny cell = CellOf(Any(ptr));
  EXPECT_EQ(cell.type_index, kTVMFFIOpaquePtr);
  EXPECT_EQ(cell.v_ptr, ptr);
  EXPECT_EQ(CellOf(AnyView(static_cast<void*>(nullptr))).type_index, kTVMFFIOpaquePtr);
}

TEST(AnyConstruct, NullptrIsNoneWithZeroPayload) {
  TVMFFIAny cell = CellOf(Any(nullptr));
  EXPECT_EQ(cell.type_index, kTVMFFINone);
  EXPECT_EQ(cell.zero_padding, 0u);
  EXPECT_EQ(cell.v_uint64, 0u);
}

TEST(AnyConstruct, DataTypeHighBytesZero) {
  DLDataType dtype{kDLFloat, 16, 4};
  TVMFFIAny cell = CellOf(Any(dtype));
  EXPECT_EQ(cell.type_index, kTVMFFIDataType);
  uint64_t expected = uint64_t{kDLFloat} | (uint64_t{16} << 8) | (uint64_t{4} << 16);
  EXPECT_EQ(cell.v_uint64, expected);
  EXPECT_EQ(CellOf(AnyView(dtype)).v_uint64, expected);
}

TEST(AnyConstruct, Device) {
  DLDevice device{kDLCUDA, 3};
  TVMFFIAny cell = CellOf(Any(device));
  EXPECT_EQ(cell.type_index, kTVMFFIDevice);
  EXPECT_EQ(cell.v_device.device_type, kDLCUDA);
  EXPECT_EQ(cell.v_device.device_id, 3);
}

TEST(AnyConstruct, DLTensorPtrView) {
  DLTensor tensor{};
  TVMFFIAny cell = CellOf(AnyView(&tensor));
  EXPECT_EQ(cell.type_index, kTVMFFIDLTensorPtr);
  EXPECT_EQ(cell.v_ptr, &tensor);
}

TEST(AnyConstruct, DLTensorPtrCannotBeOwned) {
  DLTensor tensor{};
  DLTensor* ptr = &tensor;
  Error err = CatchError([&] { Any any(ptr); });
  EXPECT_EQ(err.kind(), "RuntimeError");
  EXPECT_EQ(err.message(),
            "DLTensor* cannot be held in Any as it does not retain ownership, use Tensor instead");
}

TEST(AnyConstruct, CStrViewIsRawStr) {
  const char* text = "a borrowed C string";
  TVMFFIAny cell = CellOf(AnyView(text));
  EXPECT_EQ(cell.type_index, kTVMFFIRawStr);
  EXPECT_EQ(cell.v_c_str, text);
  EXPECT_EQ(CellOf(AnyView("lit")).type_index, kTVMFFIRawStr);
}

TEST(AnyConstruct, CStrAnyIsStringBySize) {
  const char* long_text = "longer than seven";
  TVMFFIAny small = CellOf(Any("seven77"));
  TVMFFIAny big = CellOf(Any(long_text));
  EXPECT_EQ(small.type_index, kTVMFFISmallStr);
  EXPECT_EQ(small.small_str_len, 7u);
  EXPECT_EQ(big.type_index, kTVMFFIStr);
  EXPECT_EQ(Any(long_text).cast<String>(), long_text);
}

TEST(AnyConstruct, StdString) {
  std::string text = "std::string payload";
  TVMFFIAny view = CellOf(AnyView(text));
  EXPECT_EQ(view.type_index, kTVMFFIRawStr);
  EXPECT_EQ(view.v_c_str, text.c_str());
  EXPECT_EQ(CellOf(Any(text)).type_index, kTVMFFIStr);
  // A std::string handed over by value becomes a heap String whatever its size, as in Apache.
  EXPECT_EQ(CellOf(Any(std::string("abc"))).type_index, kTVMFFIStr);
  EXPECT_EQ(Any(std::string("abc")).cast<String>(), "abc");
}

TEST(AnyConstruct, StringAndBytesKeepTheirCells) {
  EXPECT_EQ(CellOf(Any(String("abc"))).type_index, kTVMFFISmallStr);
  EXPECT_EQ(CellOf(Any(String("abcdefgh"))).type_index, kTVMFFIStr);
  EXPECT_EQ(CellOf(Any(Bytes("ab", 2))).type_index, kTVMFFISmallBytes);
  EXPECT_EQ(CellOf(AnyView(Bytes(std::string(20, 'x')))).type_index, kTVMFFIBytes);
}

TEST(AnyConstruct, ObjectCell) {
  Base base = MakeBase(7);
  TVMFFIAny cell = CellOf(Any(base));
  EXPECT_EQ(cell.type_index, BaseObj::RuntimeTypeIndex());
  EXPECT_GE(cell.type_index, kTVMFFIDynObjectBegin);
  EXPECT_EQ(cell.zero_padding, 0u);
  EXPECT_EQ(cell.v_obj, tvm::ffi::details::ObjectUnsafe::GetHeader(base));
}

TEST(AnyConstruct, NullObjectRefIsNone) {
  Base null_ref;
  EXPECT_EQ(CellOf(Any(null_ref)).type_index, kTVMFFINone);
  EXPECT_EQ(CellOf(AnyView(null_ref)).type_index, kTVMFFINone);
}

TEST(AnyConstruct, TypeKeys) {
  EXPECT_EQ(Any(1).GetTypeKey(), "int");
  EXPECT_EQ(AnyView(1.0).GetTypeKey(), "float");
  EXPECT_EQ(Any().GetTypeKey(), "None");
  EXPECT_EQ(Any(MakeBase(1)).GetTypeKey(), "test_any.Base");
  EXPECT_EQ(AnyView("x").GetTypeKey(), "const char*");
}

// ---------------------------------------------------------------- ownership

TEST(AnyOwnership, ViewAddsNoReference) {
  Base base = MakeBase(1);
  AnyView view(base);
  EXPECT_EQ(base.use_count(), 1);
  EXPECT_EQ(view.as<BaseObj>()->value, 1);
}

TEST(AnyOwnership, AnyHoldsOneReference) {
  Base base = MakeBase(1);
  {
    Any any(base);
    EXPECT_EQ(base.use_count(), 2);
  }
  EXPECT_EQ(base.use_count(), 1);
}

TEST(AnyOwnership, CopyAddsReference) {
  Base base = MakeBase(1);
  Any a(base);
  Any b(a);
  Any c;
  c = b;
  EXPECT_EQ(base.use_count(), 4);
}

TEST(AnyOwnership, MoveTransfersReference) {
  Base base = MakeBase(1);
  Any a(base);
  Any b(std::move(a));
  EXPECT_EQ(base.use_count(), 2);
  EXPECT_EQ(CellOf(a).type_index, kTVMFFINone);  // NOLINT(bugprone-use-after-move)
  Any c;
  c = std::move(b);
  EXPECT_EQ(base.use_count(), 2);
  EXPECT_TRUE(c.same_as(base));
}

TEST(AnyOwnership, ResetReleases) {
  Base base = MakeBase(1);
  Any a(base);
  a.reset();
  EXPECT_EQ(base.use_count(), 1);
  EXPECT_TRUE(a == nullptr);
}

TEST(AnyOwnership, AssignOverObjectReleasesOld) {
  Base first = MakeBase(1);
  Any a(first);
  a = 5;
  EXPECT_EQ(first.use_count(), 1);
  EXPECT_EQ(a.cast<int>(), 5);
}

TEST(AnyOwnership, Swap) {
  Any a(1);
  Any b(String("swap"));
  a.swap(b);
  EXPECT_EQ(a.cast<String>(), "swap");
  EXPECT_EQ(b.cast<int>(), 1);
}

TEST(AnyOwnership, MovingObjectRefIntoAny) {
  Base base = MakeBase(1);
  Base copy = base;
  Any any(std::move(copy));
  EXPECT_EQ(base.use_count(), 2);
  EXPECT_FALSE(copy.defined());  // NOLINT(bugprone-use-after-move)
}

TEST(AnyOwnership, RvalueCastMovesOut) {
  Base base = MakeBase(1);
  Any any(base);
  Base out = std::move(any).cast<Base>();
  EXPECT_EQ(base.use_count(), 2);
  EXPECT_TRUE(any == nullptr);  // NOLINT(bugprone-use-after-move)
}

// ---------------------------------------------------------------- as / cast

TEST(AnyAs, StrictIntegers) {
  EXPECT_EQ(Any(3).as<int>(), 3);
  EXPECT_EQ(Any(true).as<int>(), std::nullopt);
  EXPECT_EQ(Any(3.0).as<int64_t>(), std::nullopt);
  EXPECT_EQ(Any(3).as<bool>(), std::nullopt);
}

TEST(AnyAs, StrictFloat) {
  EXPECT_EQ(Any(1.5).as<double>(), 1.5);
  EXPECT_EQ(Any(1).as<double>(), std::nullopt);
}

TEST(AnyAs, StrictString) {
  EXPECT_EQ(Any(String("s")).as<String>(), String("s"));
  EXPECT_FALSE(AnyView("raw").as<String>().has_value());
  EXPECT_FALSE(Any(Bytes("b", 1)).as<String>().has_value());
}

TEST(AnyAs, RvalueStdString) {
  EXPECT_EQ(Any(String("abc")).as<std::string>(), "abc");
  EXPECT_EQ(Any(String("a heap string")).as<std::string>(), "a heap string");
  EXPECT_EQ(Any(1).as<std::string>(), std::nullopt);
  Any any(String("moved"));
  EXPECT_EQ(std::move(any).cast<std::string>(), "moved");
}

TEST(AnyAs, ObjectPointer) {
  Any derived(MakeDerived(9));
  Any base(MakeBase(4));
  ASSERT_NE(derived.as<BaseObj>(), nullptr);
  EXPECT_EQ(derived.as<BaseObj>()->value, 9);
  EXPECT_NE(derived.as<DerivedObj>(), nullptr);
  EXPECT_EQ(base.as<DerivedObj>(), nullptr);
  EXPECT_EQ(Any(1).as<BaseObj>(), nullptr);
  EXPECT_NE(base.as<Object>(), nullptr);
}

TEST(AnyAs, AnyOfAny) {
  Any any(3);
  std::optional<Any> same = any.as<Any>();
  ASSERT_TRUE(same.has_value());
  EXPECT_EQ(same->cast<int>(), 3);
}

TEST(AnyCast, IntAcceptsIntAndBool) {
  EXPECT_EQ(Any(7).cast<int>(), 7);
  EXPECT_EQ(Any(true).cast<int>(), 1);
  EXPECT_EQ(AnyView(false).cast<int64_t>(), 0);
}

TEST(AnyCast, IntRejectsFloat) {
  Error err = CatchError([] { Any(1.5).cast<int>(); });
  EXPECT_EQ(err.kind(), "TypeError");
  EXPECT_EQ(err.message(), "Cannot convert from type `float` to `int`");
}

TEST(AnyCast, DoubleAcceptsFloatIntBool) {
  EXPECT_EQ(Any(0.25).cast<double>(), 0.25);
  EXPECT_EQ(Any(3).cast<double>(), 3.0);
  EXPECT_EQ(Any(true).cast<double>(), 1.0);
  EXPECT_EQ(CatchError([] { AnyView("x").cast<double>(); }).message(),
            "Cannot convert from type `const char*` to `float`");
}

TEST(AnyCast, BoolAcceptsBoolAndInt) {
  EXPECT_TRUE(Any(true).cast<bool>());
  EXPECT_TRUE(Any(5).cast<bool>());
  EXPECT_FALSE(Any(0).cast<bool>());
  EXPECT_EQ(CatchError([] { Any(1.0).cast<bool>(); }).message(),
            "Cannot convert from type `float` to `bool`");
}

TEST(AnyCast, VoidPtrAcceptsNone) {
  int target = 0;
  EXPECT_EQ(Any(static_cast<void*>(&target)).cast<void*>(), &target);
  EXPECT_EQ(Any().cast<void*>(), nullptr);
  EXPECT_EQ(CatchError([] { Any(1).cast<void*>(); }).message(),
            "Cannot convert from type `int` to `void*`");
}

TEST(AnyCast, StringAcceptsStringKinds) {
  EXPECT_EQ(Any(String("small")).cast<String>(), "small");
  EXPECT_EQ(Any(String("a heap string")).cast<String>(), "a heap string");
  EXPECT_EQ(AnyView("raw text").cast<String>(), "raw text");
}

TEST(AnyCast, StringRejectsBytes) {
  Error err = CatchError([] { Any(Bytes("b", 1)).cast<String>(); });
  EXPECT_EQ(err.kind(), "TypeError");
  EXPECT_EQ(err.message(), "Cannot convert from type `ffi.SmallBytes` to `str`");
}

TEST(AnyCast, BytesAcceptsBytesKinds) {
  TVMFFIByteArray arr{"byte array ptr", 14};
  EXPECT_EQ(std::string(Any(Bytes("ab", 2)).cast<Bytes>()), "ab");
  EXPECT_EQ(std::string(Any(Bytes(std::string(9, 'q'))).cast<Bytes>()), std::string(9, 'q'));
  EXPECT_EQ(std::string(AnyView(&arr).cast<Bytes>()), "byte array ptr");
}

TEST(AnyCast, BytesRejectsStrings) {
  EXPECT_EQ(CatchError([] { Any(String("s")).cast<Bytes>(); }).message(),
            "Cannot convert from type `ffi.SmallStr` to `bytes`");
  EXPECT_EQ(CatchError([] { AnyView("s").cast<Bytes>(); }).message(),
            "Cannot convert from type `const char*` to `bytes`");
}

TEST(AnyCast, StdStringAcceptsStringsAndBytes) {
  TVMFFIByteArray arr{"arr", 3};
  EXPECT_EQ(AnyView("raw").cast<std::string>(), "raw");
  EXPECT_EQ(AnyView(&arr).cast<std::string>(), "arr");
  EXPECT_EQ(Any(Bytes("sb", 2)).cast<std::string>(), "sb");
  EXPECT_EQ(Any(Bytes(std::string("heap bytes!"))).cast<std::string>(), "heap bytes!");
  EXPECT_EQ(Any(String("ss")).cast<std::string>(), "ss");
  EXPECT_EQ(Any(String("heap string")).cast<std::string>(), "heap string");
  EXPECT_FALSE(Any(1).try_cast<std::string>().has_value());
}

TEST(AnyCast, DataTypeParsesStrings) {
  DLDataType dtype = AnyView("float32").cast<DLDataType>();
  EXPECT_EQ(dtype.code, kDLFloat);
  EXPECT_EQ(dtype.bits, 32);
  EXPECT_EQ(dtype.lanes, 1);
  DLDataType from_string = Any(String("int8x4")).cast<DLDataType>();
  EXPECT_EQ(from_string.code, kDLInt);
  EXPECT_EQ(from_string.lanes, 4);
  EXPECT_EQ(Any(DLDataType{kDLUInt, 1, 1}).cast<DLDataType>().bits, 1);
}

TEST(AnyCast, DataTypeBadStringThrowsValueError) {
  EXPECT_EQ(CatchError([] { AnyView("not_a_dtype").cast<DLDataType>(); }).kind(), "ValueError");
  EXPECT_EQ(CatchError([] { Any(1).cast<DLDataType>(); }).kind(), "TypeError");
}

TEST(AnyCast, ObjectRefAcceptsSubclass) {
  Derived derived = MakeDerived(3);
  Base as_base = Any(derived).cast<Base>();
  EXPECT_TRUE(as_base.same_as(derived));
  EXPECT_EQ(as_base->value, 3);
  EXPECT_TRUE(Any(derived).cast<ObjectRef>().same_as(derived));
}

TEST(AnyCast, ObjectRefRejectsParent) {
  Error err = CatchError([] { Any(MakeBase(1)).cast<Derived>(); });
  EXPECT_EQ(err.kind(), "TypeError");
  EXPECT_EQ(err.message(), "Cannot convert from type `test_any.Base` to `test_any.Derived`");
}

TEST(AnyCast, NoneForNullableRefOnly) {
  EXPECT_FALSE(Any().cast<Base>().defined());
  EXPECT_FALSE(Any().cast<ObjectRef>().defined());
  EXPECT_EQ(CatchError([] { Any().cast<Derived>(); }).message(),
            "Cannot convert from type `None` to `test_any.Derived`");
}

TEST(AnyCast, TryCastReturnsNullopt) {
  EXPECT_EQ(Any(1.5).try_cast<int>(), std::nullopt);
  EXPECT_EQ(Any(true).try_cast<int>(), 1);
  EXPECT_FALSE(Any(MakeBase(1)).try_cast<Derived>().has_value());
  EXPECT_EQ(AnyView(2).try_cast<double>(), 2.0);
}

TEST(AnyCast, AsOrThrow) {
  EXPECT_EQ(Any(4).as_or_throw<int>(), 4);
  Error err = CatchError([] { Any(4).as_or_throw<double>(); });
  EXPECT_EQ(err.kind(), "TypeError");
  EXPECT_EQ(err.message(), "Cannot treat type `int` as type `float`");
  EXPECT_EQ(CatchError([] { Any(true).as_or_throw<int>(); }).message(),
            "Cannot treat type `bool` as type `int`");
}

// ---------------------------------------------------------------- Any(AnyView)

TEST(AnyFromView, ShortRawStrBecomesSmallStr) {
  Any owned = AnyView("short");
  TVMFFIAny cell = CellOf(owned);
  EXPECT_EQ(cell.type_index, kTVMFFISmallStr);
  EXPECT_EQ(cell.small_str_len, 5u);
  EXPECT_EQ(std::string(cell.v_bytes, 5), "short");
}

TEST(AnyFromView, LongRawStrBecomesStrCopy) {
  std::string text = "a raw string that is long";
  Any owned = AnyView(text.c_str());
  TVMFFIAny cell = CellOf(owned);
  EXPECT_EQ(cell.type_index, kTVMFFIStr);
  text[0] = 'X';
  EXPECT_EQ(owned.cast<String>(), "a raw string that is long");
}

TEST(AnyFromView, ByteArrayPtrBecomesBytes) {
  TVMFFIByteArray small{"\0ab", 3};
  TVMFFIByteArray big{"0123456789", 10};
  Any small_owned = AnyView(&small);
  Any big_owned = AnyView(&big);
  EXPECT_EQ(CellOf(small_owned).type_index, kTVMFFISmallBytes);
  EXPECT_EQ(CellOf(small_owned).small_str_len, 3u);
  EXPECT_EQ(CellOf(big_owned).type_index, kTVMFFIBytes);
  EXPECT_EQ(std::string(big_owned.cast<Bytes>()), "0123456789");
}

TEST(AnyFromView, ObjectGainsReference) {
  Base base = MakeBase(1);
  AnyView view(base);
  Any owned(view);
  EXPECT_EQ(base.use_count(), 2);
}

TEST(AnyFromView, PodCopiedBitForBit) {
  DLTensor tensor{};
  Any owned = AnyView(&tensor);
  EXPECT_EQ(CellOf(owned).type_index, kTVMFFIDLTensorPtr);
  EXPECT_EQ(CellOf(owned).v_ptr, &tensor);
  EXPECT_EQ(Any(AnyView(3.25)).cast<double>(), 3.25);
}

TEST(AnyFromView, RValueRefMovesAndNullsSlot) {
  Base base = MakeBase(1);
  TVMFFIObject* slot = static_cast<TVMFFIObject*>(
      tvm::ffi::details::ObjectUnsafe::MoveObjectRefToHandle(Base(base)));
  EXPECT_EQ(base.use_count(), 2);
  TVMFFIAny ref{};
  ref.type_index = kTVMFFIObjectRValueRef;
  ref.v_ptr = &slot;
  Any owned(AnyView::CopyFromTVMFFIAny(ref));
  EXPECT_EQ(slot, nullptr);
  EXPECT_EQ(base.use_count(), 2);
  EXPECT_TRUE(owned.same_as(base));
}

TEST(AnyFromView, RValueRefFromNullSlotFails) {
  TVMFFIObject* slot = nullptr;
  TVMFFIAny ref{};
  ref.type_index = kTVMFFIObjectRValueRef;
  ref.v_ptr = &slot;
  EXPECT_THROW(Any(AnyView::CopyFromTVMFFIAny(ref)), Error);
}

TEST(AnyFromView, CApiMatchesHeader) {
  TVMFFIAny view = CellOf(AnyView("12345678"));
  TVMFFIAny out;
  ASSERT_EQ(TVMFFIAnyViewToOwnedAny(&view, &out), 0);
  Any owned = AnyUnsafe::MoveTVMFFIAnyToAny(&out);
  EXPECT_EQ(CellOf(owned).type_index, kTVMFFIStr);
  EXPECT_EQ(owned.cast<String>(), "12345678");
}

// ---------------------------------------------------------------- AnyUnsafe

TEST(AnyUnsafe, MoveAnyToCellTransfersOwnership) {
  Base base = MakeBase(1);
  Any any(base);
  TVMFFIAny cell = AnyUnsafe::MoveAnyToTVMFFIAny(std::move(any));
  EXPECT_TRUE(any == nullptr);  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(base.use_count(), 2);
  Any back = AnyUnsafe::MoveTVMFFIAnyToAny(&cell);
  EXPECT_EQ(cell.type_index, kTVMFFINone);
  EXPECT_EQ(base.use_count(), 2);
  back.reset();
  EXPECT_EQ(base.use_count(), 1);
}

TEST(AnyUnsafe, MoveRawCellAdoptsItsReference) {
  Base base = MakeBase(2);
  TVMFFIAny cell = AnyUnsafe::MoveAnyToTVMFFIAny(Any(base));
  EXPECT_EQ(base.use_count(), 2);
  Any adopted = tvm::ffi::detail::AnyUnsafe::MoveTVMFFIAnyRawToAny(cell);
  EXPECT_EQ(base.use_count(), 2);
  EXPECT_TRUE(adopted.as<BaseObj>() == base.get());
  adopted.reset();
  EXPECT_EQ(base.use_count(), 1);
}

TEST(AnyUnsafe, AfterCheckAccessors) {
  Base base = MakeBase(5);
  Any any(base);
  Base copy = AnyUnsafe::CopyFromAnyViewAfterCheck<Base>(any);
  EXPECT_EQ(base.use_count(), 3);
  Base moved = AnyUnsafe::MoveFromAnyAfterCheck<Base>(std::move(any));
  EXPECT_EQ(base.use_count(), 3);
  EXPECT_EQ(moved->value, 5);
}

TEST(AnyUnsafe, CellPointer) {
  Any any(11);
  const TVMFFIAny* cell = AnyUnsafe::TVMFFIAnyPtrFromAny(any);
  EXPECT_EQ(cell->type_index, kTVMFFIInt);
  EXPECT_EQ(cell->v_int64, 11);
  EXPECT_EQ(static_cast<const void*>(cell), static_cast<const void*>(&any));
}

// ---------------------------------------------------------------- hash / equal

Any HeapString(const std::string& text) {
  auto obj = tvm::ffi::make_object<tvm::ffi::details::BytesObjFromStd<tvm::ffi::StringObj>>(text);
  TVMFFIAny cell;
  cell.type_index = kTVMFFIStr;
  cell.zero_padding = 0;
  cell.v_obj = static_cast<TVMFFIObject*>(
      tvm::ffi::details::ObjectUnsafe::MoveObjectPtrToHandle(std::move(obj)));
  return AnyUnsafe::MoveTVMFFIAnyToAny(&cell);
}

TEST(AnyHashEqual, SmallAndHeapStringsEqual) {
  Any small(String("key"));
  Any heap = HeapString("key");
  ASSERT_EQ(CellOf(heap).type_index, kTVMFFIStr);
  EXPECT_TRUE(tvm::ffi::AnyEqual()(small, heap));
  EXPECT_TRUE(tvm::ffi::AnyEqual()(heap, small));
  EXPECT_EQ(tvm::ffi::AnyHash()(small), tvm::ffi::AnyHash()(heap));
}

TEST(AnyHashEqual, DistinctHeapStringsByContent) {
  Any a(String("the same long text"));
  Any b(String("the same long text"));
  Any c(String("another long text!"));
  EXPECT_FALSE(CellOf(a).v_obj == CellOf(b).v_obj);
  EXPECT_TRUE(tvm::ffi::AnyEqual()(a, b));
  EXPECT_EQ(tvm::ffi::AnyHash()(a), tvm::ffi::AnyHash()(b));
  EXPECT_FALSE(tvm::ffi::AnyEqual()(a, c));
}

TEST(AnyHashEqual, StringAndBytesDiffer) {
  Any str(String("same"));
  Any bytes(Bytes("same", 4));
  EXPECT_FALSE(tvm::ffi::AnyEqual()(str, bytes));
  EXPECT_NE(tvm::ffi::AnyHash()(str), tvm::ffi::AnyHash()(bytes));
}

TEST(AnyHashEqual, SmallAndHeapBytesEqual) {
  std::string text = "long bytes value";
  Any heap = Bytes(text);
  TVMFFIByteArray arr{text.data(), 4};
  Any small = AnyView(&arr);
  ASSERT_EQ(CellOf(small).type_index, kTVMFFISmallBytes);
  EXPECT_TRUE(tvm::ffi::AnyEqual()(heap, Any(Bytes(text))));
  EXPECT_TRUE(tvm::ffi::AnyEqual()(small, Any(Bytes("long", 4))));
  EXPECT_FALSE(tvm::ffi::AnyEqual()(small, heap));
}

TEST(AnyHashEqual, PodValuesBitwise) {
  EXPECT_TRUE(tvm::ffi::AnyEqual()(Any(3), Any(3)));
  EXPECT_FALSE(tvm::ffi::AnyEqual()(Any(1), Any(true)));
  EXPECT_FALSE(tvm::ffi::AnyEqual()(Any(1), Any(1.0)));
  EXPECT_EQ(tvm::ffi::AnyHash()(Any(3)), tvm::ffi::details::StableHashCombine(kTVMFFIInt, 3));
  uint64_t pattern = CellOf(Any(1.0)).v_uint64;
  EXPECT_EQ(tvm::ffi::AnyHash()(Any(1.0)),
            tvm::ffi::details::StableHashCombine(kTVMFFIFloat, pattern));
}

TEST(AnyHashEqual, ObjectsByIdentity) {
  Base a = MakeBase(1);
  Base b = MakeBase(1);
  EXPECT_TRUE(tvm::ffi::AnyEqual()(Any(a), Any(a)));
  EXPECT_FALSE(tvm::ffi::AnyEqual()(Any(a), Any(b)));
  EXPECT_EQ(tvm::ffi::AnyHash()(Any(a)), tvm::ffi::AnyHash()(Any(a)));
}

TEST(AnyHashEqual, HeapFromStdStringEqualsSmall) {
  Any small = "a1";
  Any heap_str = String(std::string("a1"));
  ASSERT_EQ(CellOf(small).type_index, kTVMFFISmallStr);
  ASSERT_EQ(CellOf(heap_str).type_index, kTVMFFIStr);
  EXPECT_TRUE(tvm::ffi::AnyEqual()(small, heap_str));
  EXPECT_EQ(tvm::ffi::AnyHash()(small), tvm::ffi::AnyHash()(heap_str));
  Any small_bytes = Bytes("a1", 2);
  Any heap_bytes = Bytes(std::string("a1"));
  ASSERT_EQ(CellOf(small_bytes).type_index, kTVMFFISmallBytes);
  ASSERT_EQ(CellOf(heap_bytes).type_index, kTVMFFIBytes);
  EXPECT_TRUE(tvm::ffi::AnyEqual()(heap_bytes, small_bytes));
  EXPECT_EQ(tvm::ffi::AnyHash()(small_bytes), tvm::ffi::AnyHash()(heap_bytes));
}

/// Objects whose type registers `__any_hash__` / `__any_equal__` hooks: NativeKeyObj as native
/// (OpaquePtr) hooks, PackedKeyObj as Functions; both compare their `key` field modulo 100.
class NativeKeyObj : public Object {
 public:
  explicit NativeKeyObj(int64_t k) : key(k) {}
  int64_t key;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test_any.NativeKey", NativeKeyObj, Object);
};

class PackedKeyObj : public Object {
 public:
  explicit PackedKeyObj(int64_t k) : key(k) {}
  int64_t key;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test_any.PackedKey", PackedKeyObj, Object);
};

/// The key of a NativeKeyObj or PackedKeyObj held by value.
template <typename T>
int64_t KeyOf(const Any& value) {
  const T* obj = AnyUnsafe::RawObjectPtrFromAnyAfterCheck<T>(value);
  return obj->key;
}

int64_t NativeKeyHash(const Any& value) {
  if (KeyOf<NativeKeyObj>(value) < 0) TVM_FFI_THROW(ValueError) << "negative key";
  return KeyOf<NativeKeyObj>(value) % 100;
}
bool NativeKeyEqual(const Any& lhs, const Any& rhs) {
  return KeyOf<NativeKeyObj>(lhs) % 100 == KeyOf<NativeKeyObj>(rhs) % 100;
}

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = tvm::ffi::reflection;
  namespace type_attr = tvm::ffi::type_attr;
  refl::ObjectDef<NativeKeyObj>();
  refl::ObjectDef<PackedKeyObj>();
  refl::TypeAttrDef<NativeKeyObj>()
      .native_fn_attr<&NativeKeyHash>(type_attr::kAnyHash)
      .native_fn_attr<&NativeKeyEqual>(type_attr::kAnyEqual);
  refl::TypeAttrDef<PackedKeyObj>()
      .def(type_attr::kAnyHash.name,
           [](const Any& value) -> int64_t { return KeyOf<PackedKeyObj>(value) % 100 + 7; })
      .def(type_attr::kAnyEqual.name, [](const Any& lhs, const Any& rhs) {
        return KeyOf<PackedKeyObj>(lhs) % 100 == KeyOf<PackedKeyObj>(rhs) % 100;
      });
}

template <typename T>
Any MakeKey(int64_t key) {
  return ObjectRef(tvm::ffi::make_object<T>(key));
}

TEST(AnyHashEqual, NativeHooksDecide) {
  Any a = MakeKey<NativeKeyObj>(5);
  Any b = MakeKey<NativeKeyObj>(105);
  Any c = MakeKey<NativeKeyObj>(6);
  EXPECT_TRUE(tvm::ffi::AnyEqual()(a, b));
  EXPECT_FALSE(tvm::ffi::AnyEqual()(a, c));
  auto index = static_cast<uint64_t>(NativeKeyObj::RuntimeTypeIndex());
  EXPECT_EQ(tvm::ffi::AnyHash()(a), tvm::ffi::details::StableHashCombine(index, 5));
  EXPECT_EQ(tvm::ffi::AnyHash()(a), tvm::ffi::AnyHash()(b));
}

TEST(AnyHashEqual, FunctionHooksDecide) {
  Any a = MakeKey<PackedKeyObj>(5);
  Any b = MakeKey<PackedKeyObj>(205);
  Any c = MakeKey<PackedKeyObj>(6);
  EXPECT_TRUE(tvm::ffi::AnyEqual()(a, b));
  EXPECT_FALSE(tvm::ffi::AnyEqual()(a, c));
  auto index = static_cast<uint64_t>(PackedKeyObj::RuntimeTypeIndex());
  EXPECT_EQ(tvm::ffi::AnyHash()(c), tvm::ffi::details::StableHashCombine(index, 13));
}

TEST(AnyHashEqual, HooksNeedTheSameType) {
  EXPECT_FALSE(tvm::ffi::AnyEqual()(MakeKey<NativeKeyObj>(5), MakeKey<PackedKeyObj>(5)));
  EXPECT_FALSE(tvm::ffi::AnyEqual()(MakeKey<NativeKeyObj>(5), Any(5)));
}

TEST(AnyHashEqual, HookErrorIsThrown) {
  Error err = CatchError([] { (void)tvm::ffi::AnyHash()(MakeKey<NativeKeyObj>(-1)); });
  EXPECT_EQ(err.kind(), "ValueError");
  EXPECT_NE(err.message().find("negative key"), std::string::npos);
}

TEST(AnySameAs, Bitwise) {
  Base a = MakeBase(1);
  EXPECT_TRUE(Any(2).same_as(Any(2)));
  EXPECT_FALSE(Any(1).same_as(Any(true)));
  EXPECT_TRUE(Any(a).same_as(Any(a)));
  EXPECT_TRUE(Any(a).same_as(a));
  EXPECT_FALSE(Any(a).same_as(MakeBase(1)));
  EXPECT_FALSE(Any(1).same_as(a));
}

// Every object pointer converts into a cell, as in Apache's headers; only casting a non-const
// pointer out of one needs a mutable object type. gtest still prints such pointers as addresses.
static_assert(std::is_constructible_v<Any, const Object*>);
static_assert(std::is_constructible_v<Any, Object*>);
static_assert(std::is_convertible_v<Object*, AnyView>);

TEST(AnyFromObjectPointer, ConstPointerTravelsAsTheObject) {
  ObjectRef ref = MakeBase(3);
  const Object* raw = ref.get();
  EXPECT_TRUE(Any(raw).same_as(ref));
  EXPECT_EQ(raw, ref.get());  // compares, and on failure prints, the pointers themselves
}

}  // namespace tvm_ffi_any_test

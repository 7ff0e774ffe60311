// SPDX-License-Identifier: Apache-2.0
// test_source_parity_traits.cc: the type-trait, Any and object APIs that code written against
// Apache TVM FFI's headers uses (fallback traits, StrictBool, as_or_throw, the Unsafe helpers,
// type-index helpers), each compiled and exercised.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/stl.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "test_utils.h"

namespace tvm_ffi_parity_traits_test {
struct LaterObj;
}  // namespace tvm_ffi_parity_traits_test

// Opt-in for a class only forward-declared here (as generated headers do).
template <>
inline constexpr bool tvm::ffi::is_object_subclass_v<::tvm_ffi_parity_traits_test::LaterObj> = true;

namespace tvm_ffi_parity_traits_test {

namespace ffi = tvm::ffi;
using ffi::Any;
using ffi::AnyView;
using ffi::Arc;
using ffi::Array;
using ffi::Function;
using ffi::List;
using ffi::make_arc;
using ffi::make_object;
using ffi::Map;
using ffi::Object;
using ffi::ObjectPtr;
using ffi::ObjectRef;
using ffi::Optional;
using ffi::StrictBool;
using ffi::String;
using ffi::TypeIndex;
using ffi::TypeTraits;
using ffi::detail::AnyUnsafe;
using ffi::detail::ObjectUnsafe;
using tvm_ffi_test::ErrorText;

// ---------------------------------------------------------------------------------------------
// Test types: a number object with fallbacks, a mutable object, a non-nullable reference.

/// A number object that int, float, StrictBool and string values convert to.
struct NumberObj : public Object {
  explicit NumberObj(double v, std::string origin) : value(v), origin(std::move(origin)) {}
  double value;
  std::string origin;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test_parity_traits.Number", NumberObj, Object);
};

class Number : public ObjectRef {
 public:
  Number(double v, std::string origin) : ObjectRef(make_object<NumberObj>(v, std::move(origin))) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(Number, ObjectRef, NumberObj);
};

/// A mutable object (non-const pointers to it cast out of Any).
struct CounterObj : public Object {
  int64_t count = 0;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test_parity_traits.Counter", CounterObj, Object);
};

/// A non-nullable reference type.
class Counter : public ObjectRef {
 public:
  Counter() : ObjectRef(make_object<CounterObj>()) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(Counter, ObjectRef, CounterObj);
};

/// Declared while LaterObj is incomplete (is_object_subclass_v opts it in).
struct ShelfObj : public Object {
  List<ObjectPtr<LaterObj>> items;
  Optional<Arc<LaterObj>> first;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test_parity_traits.Shelf", ShelfObj, Object);
};

struct LaterObj : public Object {
  explicit LaterObj(int64_t v) : value(v) {}
  int64_t value;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test_parity_traits.Later", LaterObj, Object);
};

/// A plain value type that only converts from other values (degrees from int or float).
struct Degrees {
  double value;
};

/// A user value that travels as an Int cell.
struct UserId {
  explicit UserId(int64_t v) : id(v) {}
  int64_t id;
};

}  // namespace tvm_ffi_parity_traits_test

namespace tvm {
namespace ffi {

template <>
inline constexpr bool use_default_type_traits_v<::tvm_ffi_parity_traits_test::Number> = false;

/// Number: the object itself, else StrictBool, int64_t, double or String (in that order).
template <>
struct TypeTraits<::tvm_ffi_parity_traits_test::Number>
    : public ObjectRefWithFallbackTraitsBase<::tvm_ffi_parity_traits_test::Number, StrictBool,
                                             int64_t, double, String> {
  using Number = ::tvm_ffi_parity_traits_test::Number;
  static Number ConvertFallbackValue(StrictBool v) { return Number(v ? 1.0 : 0.0, "bool"); }
  static Number ConvertFallbackValue(int64_t v) { return Number(static_cast<double>(v), "int"); }
  static Number ConvertFallbackValue(double v) { return Number(v, "float"); }
  static Number ConvertFallbackValue(String v) { return Number(std::stod(std::string(v)), "str"); }
};

/// Degrees: made only from an int or a float; never stored.
template <>
struct TypeTraits<::tvm_ffi_parity_traits_test::Degrees>
    : public FallbackOnlyTraitsBase<::tvm_ffi_parity_traits_test::Degrees, int64_t, double> {
  using Degrees = ::tvm_ffi_parity_traits_test::Degrees;
  static void CopyToAnyView(const Degrees& src, TVMFFIAny* result) {
    TypeTraits<double>::CopyToAnyView(src.value, result);
  }
  static void MoveToAny(Degrees src, TVMFFIAny* result) { CopyToAnyView(src, result); }
  static Degrees ConvertFallbackValue(int64_t v) { return Degrees{static_cast<double>(v)}; }
  static Degrees ConvertFallbackValue(double v) { return Degrees{v}; }
  static std::string TypeStr() { return "Degrees"; }
};

/// UserId: an Int cell, through the shared integer base.
template <>
struct TypeTraits<::tvm_ffi_parity_traits_test::UserId>
    : public TypeTraitsIntBase<::tvm_ffi_parity_traits_test::UserId> {
  using UserId = ::tvm_ffi_parity_traits_test::UserId;
  static void CopyToAnyView(const UserId& src, TVMFFIAny* result) {
    CopyInt64ToAnyView(src.id, result);
  }
  static void MoveToAny(UserId src, TVMFFIAny* result) { CopyToAnyView(src, result); }
};

}  // namespace ffi
}  // namespace tvm

namespace tvm_ffi_parity_traits_test {

/// STLTypeTrait's protected helpers, reached from a derived traits class.
struct STLHelpers : public ffi::detail::STLTypeTrait {
  using STLTypeTrait::ConstructFromAny;
  using STLTypeTrait::CopyFromAnyImpl;
  using STLTypeTrait::MoveToAnyImpl;
};

// ---------------------------------------------------------------------------------------------
// Compile-time checks

static_assert(std::is_convertible_v<StrictBool, bool> && std::is_convertible_v<bool, StrictBool>);
static_assert(TypeTraits<StrictBool>::field_static_type_index == TypeIndex::kTVMFFIBool);
static_assert(!TypeTraits<Degrees>::storage_enabled && TypeTraits<Degrees>::convert_enabled);
static_assert(!STLHelpers::storage_enabled);
static_assert(ffi::object_ref_contains_v<ObjectRef, NumberObj>);
static_assert(ffi::object_ref_contains_v<Number, NumberObj>);
static_assert(!ffi::object_ref_contains_v<Number, Object>);
static_assert(!ffi::object_ref_contains_v<Array<int64_t>, ffi::ArrayObj>, "typed: not exact");
static_assert(ObjectRef::_type_container_is_exact && Number::_type_container_is_exact);
static_assert(ffi::type_subsumes_v<Array<Any>, Array<int>>);
static_assert(ffi::type_subsumes_v<Map<Any, Any>, Map<String, int>>);
static_assert(!ffi::type_subsumes_v<Array<int>, Array<Any>>);
static_assert(ffi::type_subsumes_v<ObjectPtr<Object>, ObjectPtr<NumberObj>>);
static_assert(ffi::type_subsumes_v<ObjectPtr<Object>, Arc<NumberObj>>);
static_assert(ffi::detail::storage_enabled_v<ObjectPtr<LaterObj>>);
static_assert(ffi::detail::storage_enabled_v<Arc<LaterObj>>);
static_assert(ffi::detail::is_qualified_object_v<const NumberObj>);
static_assert(!ffi::detail::is_qualified_object_v<NumberObj>);
static_assert(ffi::is_integeral_enum_v<TypeIndex> && !ffi::is_integeral_enum_v<int>);
static_assert(ffi::detail::kCombinedRefCountBothOne == ((uint64_t{1} << 32) | 1));
static_assert(ffi::detail::kCombinedRefCountMaskUInt32 == 0xFFFFFFFFULL);
static_assert(!Object::_type_s_eq_hash_subclass_kind_fixed);
// Field type indices as Apache's headers give them.
static_assert(ffi::TypeToFieldStaticTypeIndex<int>::value == TypeIndex::kTVMFFIInt);
static_assert(ffi::TypeToFieldStaticTypeIndex<UserId>::value == TypeIndex::kTVMFFIInt);
static_assert(ffi::TypeToFieldStaticTypeIndex<Any>::value == TypeIndex::kTVMFFIAny);
static_assert(ffi::TypeToFieldStaticTypeIndex<Number>::value == TypeIndex::kTVMFFIObject);
static_assert(ffi::TypeToFieldStaticTypeIndex<const Object*>::value == TypeIndex::kTVMFFIAny);
static_assert(ffi::TypeToFieldStaticTypeIndex<Arc<NumberObj>>::value == TypeIndex::kTVMFFIObject);
// Every object pointer converts into a cell; taking a non-const one out needs a mutable type.
static_assert(std::is_constructible_v<Any, NumberObj*> &&
              std::is_convertible_v<NumberObj*, AnyView>);

// ---------------------------------------------------------------------------------------------
// Fallback traits and StrictBool

TEST(ParityTraits, ObjectRefWithFallbackTraitsBaseTriesFallbacksInOrder) {
  Number n(2.5, "made");
  EXPECT_TRUE(Any(n).cast<Number>().same_as(n));        // the object itself, unconverted
  EXPECT_EQ(Any(true).cast<Number>()->origin, "bool");  // StrictBool before int64_t
  EXPECT_EQ(Any(int64_t{7}).cast<Number>()->origin, "int");
  EXPECT_EQ(Any(int64_t{7}).cast<Number>()->value, 7.0);
  EXPECT_EQ(Any(1.5).cast<Number>()->origin, "float");
  EXPECT_EQ(Any(String("4.25")).cast<Number>()->value, 4.25);
  EXPECT_FALSE(Any(ffi::Shape({1})).try_cast<Number>().has_value());
  EXPECT_EQ(ErrorText([] { Any(ffi::Shape({1})).cast<Number>(); }),
            "TypeError: Cannot convert from type `ffi.Shape` to `test_parity_traits.Number`");
  // Strictly, only the object is a Number.
  EXPECT_FALSE(Any(int64_t{1}).as<Number>().has_value());
  // Typed functions convert their arguments through the fallbacks.
  Function origin_of = Function::FromTyped([](Number x) { return x->origin; });
  EXPECT_EQ(origin_of(3).cast<std::string>(), "int");
  EXPECT_EQ(origin_of(false).cast<std::string>(), "bool");
  TVMFFIAny int_cell = AnyView(int64_t{2}).CopyToTVMFFIAny();
  EXPECT_EQ(TypeTraits<Number>::TryFallbackTypes<double>(&int_cell).value()->origin, "float");
}

TEST(ParityTraits, FallbackOnlyTraitsBaseConvertsButNeverStores) {
  EXPECT_EQ(Any(int64_t{90}).cast<Degrees>().value, 90.0);
  EXPECT_EQ(Any(0.5).cast<Degrees>().value, 0.5);
  EXPECT_FALSE(Any(String("x")).try_cast<Degrees>().has_value());
  EXPECT_EQ(ErrorText([] { Any(String("hot")).cast<Degrees>(); }),
            "TypeError: Cannot convert from type `ffi.SmallStr` to `Degrees`");
  EXPECT_EQ(AnyView(Degrees{1.25}).cast<double>(), 1.25);
}

TEST(ParityTraits, StrictBoolTakesOnlyBools) {
  StrictBool yes = true;
  EXPECT_TRUE(static_cast<bool>(yes));
  Any cell = StrictBool(false);
  EXPECT_EQ(cell.type_index(), TypeIndex::kTVMFFIBool);
  EXPECT_FALSE(cell.cast<bool>());
  EXPECT_TRUE(Any(true).cast<StrictBool>());
  EXPECT_FALSE(Any(int64_t{1}).try_cast<StrictBool>().has_value());  // bool would take it
  EXPECT_TRUE(Any(int64_t{1}).try_cast<bool>().has_value());
  EXPECT_EQ(ErrorText([] { Any(int64_t{1}).cast<StrictBool>(); }),
            "TypeError: Cannot convert from type `int` to `bool`");
  EXPECT_EQ(TypeTraits<StrictBool>::TypeSchema(), R"({"type":"bool"})");
}

TEST(ParityTraits, TypeTraitsIntBaseMakesIntCells) {
  Any cell = UserId(42);
  EXPECT_EQ(cell.type_index(), TypeIndex::kTVMFFIInt);
  EXPECT_EQ(cell.cast<int64_t>(), 42);
  EXPECT_EQ(cell.cast<UserId>().id, 42);
  EXPECT_EQ(Any(true).cast<UserId>().id, 1);
  EXPECT_FALSE(Any(true).as<UserId>().has_value());  // strictly an Int cell
  EXPECT_EQ(TypeTraits<UserId>::TypeStr(), "int");
  EXPECT_EQ(TypeTraits<UserId>::TypeSchema(), R"({"type":"int"})");
  EXPECT_EQ(ErrorText([] { Any(uint64_t{1} << 63); }),
            "OverflowError: Integer value 9223372036854775808 is too large to fit in int64_t. "
            "Consider explicitly casting to int64_t first if this is intentional.");
}

// ---------------------------------------------------------------------------------------------
// as_or_throw everywhere

TEST(ParityTraits, AnyViewAndAnyAsOrThrow) {
  Any number = int64_t{5};
  AnyView view = number;
  EXPECT_EQ(view.as_or_throw<int64_t>(), 5);
  EXPECT_EQ(number.as_or_throw<int64_t>(), 5);
  EXPECT_EQ(ErrorText([&] { view.as_or_throw<double>(); }),
            "TypeError: Cannot treat type `int` as type `float`");
  EXPECT_EQ(ErrorText([&] { number.as_or_throw<String>(); }),
            "TypeError: Cannot treat type `int` as type `str`");

  Number n(1.0, "x");
  Any holder = n;
  EXPECT_EQ(ErrorText([&] { std::move(holder).as_or_throw<Counter>(); }),
            "TypeError: Cannot treat type `test_parity_traits.Number` as type "
            "`test_parity_traits.Counter`");
  EXPECT_EQ(holder.type_index(), NumberObj::RuntimeTypeIndex());  // a mismatch consumes nothing
  Number taken = std::move(holder).as_or_throw<Number>();
  EXPECT_TRUE(taken.same_as(n));
  EXPECT_TRUE(holder == nullptr);  // NOLINT(bugprone-use-after-move): moved out on success
  EXPECT_EQ(n.use_count(), 2);
}

TEST(ParityTraits, ObjectRefAsOrThrow) {
  Number n(3.0, "x");
  ObjectRef base = n;
  EXPECT_TRUE(base.as_or_throw<Number>().same_as(n));
  EXPECT_EQ(ErrorText([&] { base.as_or_throw<Counter>(); }),
            "TypeError: Cannot treat type `test_parity_traits.Number` as type "
            "`test_parity_traits.Counter`");
  // A null reference is a null nullable reference, and no non-nullable one.
  ObjectRef null;
  EXPECT_FALSE(null.as_or_throw<Number>().defined());
  EXPECT_EQ(ErrorText([&] { null.as_or_throw<Counter>(); }),
            "TypeError: Cannot treat type `None` as type `test_parity_traits.Counter`");
  // Moving forms hand the reference over only on success.
  std::optional<Counter> none = std::move(base).as<Counter>();
  EXPECT_FALSE(none.has_value());
  EXPECT_TRUE(base.defined());  // NOLINT(bugprone-use-after-move)
  Number moved = std::move(base).as_or_throw<Number>();
  EXPECT_FALSE(base.defined());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(moved.use_count(), 2);
  // Typed containers are checked element by element.
  ObjectRef ints = Array<Any>{Any(int64_t{1}), Any(String("two"))};
  EXPECT_FALSE(ints.as<Array<int64_t>>().has_value());
  EXPECT_TRUE(ints.as<Array<Any>>().has_value());
  EXPECT_EQ(ErrorText([&] { ints.as_or_throw<Array<int64_t>>(); }),
            "TypeError: Cannot treat type `Array[index 1: ffi.SmallStr]` as type `Array<int>`");
}

TEST(ParityTraits, OptionalAsAndAsOrThrow) {
  Optional<int64_t> some = int64_t{9};
  EXPECT_EQ(some.as_or_throw<int64_t>(), 9);
  EXPECT_EQ(some.as<int64_t>().value(), 9);
  EXPECT_FALSE(some.as<double>().has_value());
  EXPECT_EQ(ErrorText([&] { some.as_or_throw<double>(); }),
            "TypeError: Cannot treat type `int` as type `float`");
  Optional<int64_t> empty;
  EXPECT_EQ(ErrorText([&] { empty.as_or_throw<int64_t>(); }),
            "TypeError: Cannot treat type `None` as type `int`");

  Number n(2.0, "x");
  Optional<Number> maybe = n;
  EXPECT_TRUE(maybe.as_or_throw<Number>().same_as(n));
  EXPECT_NE(maybe.as<NumberObj>(), nullptr);
  EXPECT_EQ(ErrorText([&] { maybe.as_or_throw<Counter>(); }),
            "TypeError: Cannot treat type `test_parity_traits.Number` as type "
            "`test_parity_traits.Counter`");
  Number out = std::move(maybe).as_or_throw<Number>();
  EXPECT_TRUE(out.same_as(n));
  EXPECT_FALSE(maybe.has_value());  // NOLINT(bugprone-use-after-move)

  Optional<Arc<NumberObj>> pointer = make_arc<NumberObj>(1.0, "p");
  EXPECT_EQ(pointer.as_or_throw<Arc<NumberObj>>()->origin, "p");
  EXPECT_EQ(ErrorText([&] { Optional<Arc<NumberObj>>().as_or_throw<Arc<NumberObj>>(); }),
            "TypeError: Cannot treat type `None` as type `test_parity_traits.Number`");
}

// ---------------------------------------------------------------------------------------------
// Type indices

TEST(ParityTraits, TypeToRuntimeTypeIndex) {
  EXPECT_EQ(ffi::TypeToRuntimeTypeIndex<int64_t>::v(), TypeIndex::kTVMFFIInt);
  EXPECT_EQ(ffi::TypeToRuntimeTypeIndex<Any>::v(), TypeIndex::kTVMFFIAny);
  EXPECT_EQ(ffi::TypeToRuntimeTypeIndex<ObjectRef>::v(), TypeIndex::kTVMFFIObject);
  EXPECT_EQ(ffi::TypeToRuntimeTypeIndex<Function>::v(), TypeIndex::kTVMFFIFunction);
  EXPECT_EQ(ffi::TypeToRuntimeTypeIndex<Number>::v(), NumberObj::RuntimeTypeIndex());
  EXPECT_EQ(ffi::TypeToRuntimeTypeIndex<ObjectPtr<CounterObj>>::v(),
            CounterObj::RuntimeTypeIndex());
  EXPECT_EQ(ffi::TypeToRuntimeTypeIndex<Arc<NumberObj>>::v(), NumberObj::RuntimeTypeIndex());
  EXPECT_GE(NumberObj::RuntimeTypeIndex(), TypeIndex::kTVMFFIDynObjectBegin);
  // An Optional is no object type of its own (Apache's Optional is no ObjectRef).
  EXPECT_EQ(ffi::TypeToRuntimeTypeIndex<Optional<Number>>::v(), TypeIndex::kTVMFFIAny);
}

// ---------------------------------------------------------------------------------------------
// Object pointers in cells

TEST(ParityTraits, ObjectPtrAndArcInCells) {
  ObjectPtr<NumberObj> ptr = make_object<NumberObj>(1.0, "ptr");
  Any cell = ptr;
  AnyView view = ptr;
  EXPECT_EQ(cell.type_index(), NumberObj::RuntimeTypeIndex());
  EXPECT_EQ(view.cast<ObjectPtr<NumberObj>>().get(), ptr.get());
  EXPECT_EQ(cell.cast<ObjectPtr<NumberObj>>().get(), ptr.get());
  EXPECT_EQ(ptr.use_count(), 2);
  Any raw = ptr.get();  // a non-const pointer to an immutable object still goes in
  EXPECT_TRUE(raw.same_as(cell));
  EXPECT_EQ(ptr.use_count(), 3);
  EXPECT_EQ(raw.cast<const NumberObj*>(), ptr.get());
  Counter counter;
  Any counter_cell = counter;
  counter_cell.cast<CounterObj*>()->count += 2;  // mutable: non-const out
  EXPECT_EQ(counter->count, 2);

  List<ObjectPtr<NumberObj>> list;
  list.push_back(ptr);
  list.push_back(ObjectPtr<NumberObj>());
  EXPECT_EQ(list[0].get(), ptr.get());
  EXPECT_EQ(list[1].get(), nullptr);
  Optional<Arc<NumberObj>> maybe = make_arc<NumberObj>(2.0, "arc");
  Any arc_cell = maybe;
  EXPECT_EQ(arc_cell.cast<Arc<NumberObj>>()->origin, "arc");
  EXPECT_FALSE(Any(nullptr).try_cast<Arc<NumberObj>>().has_value());
}

TEST(ParityTraits, ForwardDeclaredObjectsOptIn) {
  auto shelf = make_object<ShelfObj>();
  shelf->items.push_back(make_object<LaterObj>(4));
  shelf->first = make_arc<LaterObj>(5);
  Any cell = shelf->items;
  EXPECT_EQ(cell.cast<List<ObjectPtr<LaterObj>>>()[0]->value, 4);
  EXPECT_EQ(Any(shelf->first).cast<Arc<LaterObj>>()->value, 5);
}

// ---------------------------------------------------------------------------------------------
// The Unsafe helpers

TEST(ParityTraits, AnyUnsafeChecksAndMismatchInfo) {
  Any number = int64_t{1};
  EXPECT_TRUE(AnyUnsafe::CheckAnyStrict<int64_t>(number));
  EXPECT_FALSE(AnyUnsafe::CheckAnyStrict<double>(number));
  EXPECT_TRUE(AnyUnsafe::CheckAnyStrict<Any>(number));
  EXPECT_TRUE(AnyUnsafe::CheckAnyViewStrict<int64_t>(AnyView(number)));
  EXPECT_FALSE(AnyUnsafe::CheckAnyViewStrict<String>(AnyView(number)));
  EXPECT_EQ(AnyUnsafe::GetMismatchTypeInfo<String>(number), "int");
  Any mixed = Array<Any>{Any(int64_t{1}), Any(1.5)};
  EXPECT_EQ(AnyUnsafe::GetMismatchTypeInfo<Array<int64_t>>(mixed), "Array[index 1: float]");
}

TEST(ParityTraits, AnyUnsafeRawCellsAndObjects) {
  Number n(1.0, "raw");
  Any cell = n;
  EXPECT_EQ(AnyUnsafe::RawObjectPtrFromAnyAfterCheck<NumberObj>(cell), n.get());
  EXPECT_EQ(AnyUnsafe::RawObjectPtrFromAnyViewAfterCheck<NumberObj>(AnyView(cell)), n.get());
  EXPECT_EQ(AnyUnsafe::RawObjectPtrFromAnyViewAfterCheck(AnyView(cell)), n.get());
  EXPECT_EQ(AnyUnsafe::ObjectPtrFromAnyAfterCheck(cell), n.get());  // 0.1.13 spelling
  // AnyUnsafe is an ObjectUnsafe too.
  EXPECT_EQ(AnyUnsafe::RawObjectPtrFromObjectRef(n), n.get());
  // Handing a cell over and back keeps the one reference.
  TVMFFIAny handed = AnyUnsafe::MoveAnyToTVMFFIAny(std::move(cell));
  EXPECT_EQ(n.use_count(), 2);
  Any back = AnyUnsafe::MoveTVMFFIAnyRawToAny(handed);
  EXPECT_TRUE(back.same_as(n));
  EXPECT_EQ(n.use_count(), 2);
}

TEST(ParityTraits, ObjectUnsafeConversions) {
  Number n(1.0, "u");
  ObjectPtr<NumberObj> copy = ObjectUnsafe::ObjectPtrFromObjectRef<NumberObj>(n);
  EXPECT_EQ(copy.get(), n.get());
  EXPECT_EQ(n.use_count(), 2);
  Number other = n;
  ObjectPtr<NumberObj> moved = ObjectUnsafe::ObjectPtrFromObjectRef<NumberObj>(std::move(other));
  EXPECT_FALSE(other.defined());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(n.use_count(), 3);

  TVMFFIObject* header = ObjectUnsafe::TVMFFIObjectPtrFromObjectRef(n);
  EXPECT_EQ(header->type_index, NumberObj::RuntimeTypeIndex());
  EXPECT_EQ(ObjectUnsafe::TVMFFIObjectPtrFromObjectPtr(copy), header);
  EXPECT_EQ(ObjectUnsafe::TVMFFIObjectPtrFromObjectRef(ObjectRef()), nullptr);
  EXPECT_EQ(ObjectUnsafe::RawObjectPtrFromUnowned<NumberObj>(header), n.get());

  TVMFFIObject* released = ObjectUnsafe::MoveObjectPtrToTVMFFIObjectPtr(std::move(moved));
  EXPECT_EQ(moved.get(), nullptr);  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(released, header);
  EXPECT_EQ(n.use_count(), 3);  // the handed-over reference is still counted
  ObjectRef retaken(ObjectUnsafe::ObjectPtrFromOwned<Object>(released));
  Number spare = n;
  TVMFFIObject* from_ref = ObjectUnsafe::MoveObjectRefToTVMFFIObjectPtr(std::move(spare));
  EXPECT_FALSE(spare.defined());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(from_ref, header);
  ffi::detail::ObjectUnsafe::DecRefObjectHandle(from_ref);
  EXPECT_EQ(n.use_count(), 3);
  EXPECT_EQ(ObjectUnsafe::GetObjectOffsetToSubclass<NumberObj>(), 0);
  char block[32] = {};
  EXPECT_EQ(reinterpret_cast<char*>(ObjectUnsafe::GetObjectAllocHeaderFromPtr(block + 16)),
            block + 16 - sizeof(TVMFFIObjectAllocHeader));
}

TEST(ParityTraits, InplaceConvertAnyViewToAnyOwnsTheValue) {
  TVMFFIAny raw = AnyView("text").CopyToTVMFFIAny();
  EXPECT_EQ(raw.type_index, TypeIndex::kTVMFFIRawStr);
  ffi::detail::InplaceConvertAnyViewToAny(&raw);
  Any owned = AnyUnsafe::MoveTVMFFIAnyRawToAny(raw);
  EXPECT_EQ(owned.cast<String>(), "text");
  Number n(1.0, "v");
  TVMFFIAny object_view = AnyView(n).CopyToTVMFFIAny();
  ffi::detail::InplaceConvertAnyViewToAny(&object_view, 0);
  EXPECT_EQ(n.use_count(), 2);
  Any adopted = AnyUnsafe::MoveTVMFFIAnyRawToAny(object_view);
  EXPECT_TRUE(adopted.same_as(n));
}

// ---------------------------------------------------------------------------------------------
// Reference counts, weak pointers, STL helpers, packed functions

TEST(ParityTraits, WeakObjectPtrSwapsAndUpcasts) {
  ObjectPtr<NumberObj> a = make_object<NumberObj>(1.0, "a");
  EXPECT_EQ(tvm_ffi_test::RefCountWord(a.get()), ffi::detail::kCombinedRefCountBothOne);
  EXPECT_TRUE(a->unique());
  ffi::WeakObjectPtr<Object> weak_a = a;  // from a pointer to a derived class
  EXPECT_FALSE(a->unique());              // a weak reference exists
  EXPECT_EQ(a.use_count(), 1);
  ffi::WeakObjectPtr<Object> weak_b = nullptr;
  weak_a.swap(weak_b);
  EXPECT_TRUE(weak_a.expired());
  EXPECT_EQ(weak_b.lock().get(), a.get());
  ffi::WeakObjectPtr<NumberObj> derived = a;
  ffi::WeakObjectPtr<Object> upcast = derived;
  ffi::WeakObjectPtr<Object> moved_up = std::move(derived);
  EXPECT_TRUE(derived.expired());  // NOLINT(bugprone-use-after-move)
  a.reset();
  EXPECT_TRUE(upcast.expired() && moved_up.expired() && weak_b.expired());
  EXPECT_EQ(upcast.lock().get(), nullptr);
}

TEST(ParityTraits, STLTypeTraitHelpers) {
  EXPECT_EQ(STLHelpers::ConstructFromAny<int64_t>(Any(int64_t{3})), 3);
  EXPECT_TRUE(STLHelpers::ConstructFromAny<Any>(Any(1.5)).same_as(Any(1.5)));
  EXPECT_THROW(STLHelpers::ConstructFromAny<int64_t>(Any(String("no"))),
               ffi::detail::STLTypeMismatch);
  EXPECT_STREQ(ffi::detail::STLTypeMismatch().what(), "STL type mismatch");
  Number n(1.0, "stl");
  TVMFFIAny cell;
  STLHelpers::MoveToAnyImpl(ObjectUnsafe::ObjectPtrFromObjectRef<NumberObj>(n), &cell);
  EXPECT_EQ(cell.type_index, NumberObj::RuntimeTypeIndex());
  ObjectPtr<NumberObj> copy = STLHelpers::CopyFromAnyImpl<NumberObj>(&cell);
  EXPECT_EQ(n.use_count(), 3);
  Any adopt = AnyUnsafe::MoveTVMFFIAnyRawToAny(cell);
  EXPECT_TRUE(adopt.same_as(n));
}

TEST(ParityTraits, FromPackedTakesMutableLambdas) {
  int64_t calls = 0;
  Function count_args = Function::FromPacked([calls](ffi::PackedArgs args, Any* rv) mutable {
    calls += args.size();
    *rv = calls;
  });
  EXPECT_EQ(count_args(1, 2).cast<int64_t>(), 2);
  EXPECT_EQ(count_args(3).cast<int64_t>(), 3);  // the lambda's own copy keeps counting
  Function raw = Function::FromPacked([calls](const AnyView*, int32_t n, Any* rv) mutable {
    calls += n;
    *rv = calls;
  });
  EXPECT_EQ(raw(1, 2, 3).cast<int64_t>(), 3);
  EXPECT_EQ(calls, 0);
}

TEST(ParityTraits, TypeTraitsOfStdStringConvertFallbacks) {
  using StringTraits = TypeTraits<std::string>;
  EXPECT_EQ(StringTraits::ConvertFallbackValue("abc"), "abc");
  TVMFFIByteArray bytes{"xy", 2};
  EXPECT_EQ(StringTraits::ConvertFallbackValue(&bytes), "xy");
  EXPECT_EQ(StringTraits::ConvertFallbackValue(ffi::Bytes("b")), "b");
  EXPECT_EQ(StringTraits::ConvertFallbackValue(String("s")), "s");
}

}  // namespace tvm_ffi_parity_traits_test

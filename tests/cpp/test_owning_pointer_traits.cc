// SPDX-License-Identifier: Apache-2.0
// test_owning_pointer_traits.cc: ObjectPtr<T>, Arc<T> (and raw object pointers) in Any cells,
// Optional, containers and typed functions, including pointees only forward-declared where the
// container type is named (the shape of the headers tvm_ffi.dataclasses.gen_abi_cpp writes).
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/error.h>
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

namespace tvm_ffi_owning_ptr_test {
struct ItemObj;
}  // namespace tvm_ffi_owning_ptr_test

// As gen_abi_cpp does: mark a forward-declared class as an object class.
template <>
inline constexpr bool tvm::ffi::is_object_subclass_v<::tvm_ffi_owning_ptr_test::ItemObj> = true;

namespace tvm_ffi_owning_ptr_test {

using tvm::ffi::Any;
using tvm::ffi::Arc;
using tvm::ffi::Array;
using tvm::ffi::Function;
using tvm::ffi::make_arc;
using tvm::ffi::make_object;
using tvm::ffi::Map;
using tvm::ffi::Object;
using tvm::ffi::ObjectPtr;
using tvm::ffi::Optional;
using tvm::ffi::String;
using tvm::ffi::TypeTraits;
using tvm::ffi::UnsafeInit;
using tvm_ffi_test::CatchError;
using tvm_ffi_test::RefCountWord;

/// Declared while ItemObj is incomplete: element types only need TypeTraits to be selectable.
struct HolderObj : public Object {
  Array<Arc<ItemObj>> items;
  Map<String, ObjectPtr<ItemObj>> by_name;
  Optional<Arc<ItemObj>> maybe;
  ObjectPtr<ItemObj> nullable;
  Arc<ItemObj> first{UnsafeInit{}};
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test_owning_ptr.Holder", HolderObj, Object);
};

struct ItemObj : public Object {
  explicit ItemObj(int64_t v) : value(v) {}
  int64_t value;
  static constexpr uint32_t _type_child_slots = 1;
  TVM_FFI_DECLARE_OBJECT_INFO("test_owning_ptr.Item", ItemObj, Object);
};

struct SpecialItemObj : public ItemObj {
  using ItemObj::ItemObj;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test_owning_ptr.SpecialItem", SpecialItemObj, ItemObj);
};

struct OtherObj : public Object {
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test_owning_ptr.Other", OtherObj, Object);
};

static_assert(sizeof(Array<Arc<ItemObj>>) == sizeof(void*));
static_assert(sizeof(Optional<Arc<ItemObj>>) == sizeof(void*), "one pointer, as in Apache");
static_assert(sizeof(Optional<ObjectPtr<ItemObj>>) == sizeof(void*), "one pointer, as in Apache");
static_assert(sizeof(Optional<Optional<Arc<ItemObj>>>) == sizeof(Any), "an Any-backed Optional");
static_assert(sizeof(Arc<ItemObj>) == sizeof(void*) && sizeof(ObjectPtr<ItemObj>) == sizeof(void*));

constexpr uint64_t kStrongOne = (1ULL << 32) | 1ULL;
constexpr uint64_t kStrongTwo = (1ULL << 32) | 2ULL;

TEST(OwningPointerTraits, ObjectPtrTravelsAsTheObject) {
  ObjectPtr<ItemObj> item = make_object<ItemObj>(7);
  Any cell = item;
  EXPECT_EQ(cell.type_index(), ItemObj::RuntimeTypeIndex());
  EXPECT_EQ(RefCountWord(item.get()), kStrongTwo);
  std::optional<ObjectPtr<ItemObj>> back = cell.as<ObjectPtr<ItemObj>>();
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->get(), item.get());
  EXPECT_EQ(cell.cast<ObjectPtr<Object>>().get(), item.get());
}

TEST(OwningPointerTraits, NullObjectPtrIsNone) {
  Any cell = ObjectPtr<ItemObj>();
  EXPECT_TRUE(cell == nullptr);
  std::optional<ObjectPtr<ItemObj>> back = Any(nullptr).as<ObjectPtr<ItemObj>>();
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->get(), nullptr);
}

TEST(OwningPointerTraits, ArcRoundTripsAndRejectsNone) {
  Arc<ItemObj> item = make_arc<SpecialItemObj>(3);
  Any cell = item;
  EXPECT_EQ(cell.cast<Arc<ItemObj>>()->value, 3);
  EXPECT_EQ(cell.cast<Arc<SpecialItemObj>>().get(), item.get());
  EXPECT_FALSE(Any(nullptr).as<Arc<ItemObj>>().has_value());
  tvm::ffi::Error err = CatchError([] { Any(nullptr).cast<Arc<ItemObj>>(); });
  EXPECT_EQ(err.kind(), "TypeError");
  EXPECT_NE(err.message().find("test_owning_ptr.Item"), std::string::npos) << err.message();
}

TEST(OwningPointerTraits, OtherObjectTypesDoNotMatch) {
  Any cell = make_arc<OtherObj>();
  EXPECT_FALSE(cell.as<Arc<ItemObj>>().has_value());
  EXPECT_FALSE(cell.as<ObjectPtr<ItemObj>>().has_value());
  EXPECT_TRUE(cell.as<Arc<Object>>().has_value());
  EXPECT_FALSE(Any(int64_t{1}).as<ObjectPtr<ItemObj>>().has_value());
  EXPECT_FALSE(Any(String("text")).as<ObjectPtr<ItemObj>>().has_value());
}

TEST(OwningPointerTraits, MovesHandOverTheReference) {
  ObjectPtr<ItemObj> item = make_object<ItemObj>(1);
  const ItemObj* raw = item.get();
  ObjectPtr<ItemObj> keep = item;
  Any cell = std::move(item);
  EXPECT_EQ(item.get(), nullptr);  // NOLINT(bugprone-use-after-move): moving empties it
  EXPECT_EQ(RefCountWord(raw), kStrongTwo);
  ObjectPtr<ItemObj> out = std::move(cell).cast<ObjectPtr<ItemObj>>();
  EXPECT_TRUE(cell == nullptr);  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(RefCountWord(raw), kStrongTwo);
  out.reset();
  EXPECT_EQ(RefCountWord(raw), kStrongOne);
}

TEST(OwningPointerTraits, TypeStrAndSchema) {
  EXPECT_EQ(TypeTraits<Arc<ItemObj>>::TypeStr(), "test_owning_ptr.Item");
  EXPECT_EQ(TypeTraits<Arc<ItemObj>>::TypeSchema(), R"({"type":"test_owning_ptr.Item"})");
  EXPECT_EQ(TypeTraits<ObjectPtr<ItemObj>>::TypeStr(), "test_owning_ptr.Item");
  EXPECT_EQ(TypeTraits<ObjectPtr<ItemObj>>::TypeSchema(),
            R"({"type":"Optional","args":[{"type":"test_owning_ptr.Item"}]})");
  EXPECT_EQ(TypeTraits<Arc<Object>>::TypeStr(), "ffi.Object");
}

TEST(OwningPointerTraits, ContainersOfPointersCheckTheirElements) {
  auto holder = make_object<HolderObj>();
  holder->first = make_arc<ItemObj>(10);
  holder->items.push_back(holder->first);
  holder->items.push_back(make_arc<SpecialItemObj>(11));
  holder->by_name.Set("none", ObjectPtr<ItemObj>());
  holder->by_name.Set("one", make_object<ItemObj>(12));
  holder->maybe = make_arc<ItemObj>(13);
  EXPECT_EQ(holder->items[0]->value + holder->items[1]->value, 21);
  EXPECT_EQ(holder->by_name["none"].get(), nullptr);
  EXPECT_EQ(holder->by_name["one"]->value, 12);
  EXPECT_EQ(holder->maybe.value()->value, 13);

  Array<Any> mixed{Any(make_arc<ItemObj>(1)), Any(make_arc<OtherObj>())};
  Any as_any = mixed;
  EXPECT_FALSE(as_any.as<Array<Arc<ItemObj>>>().has_value());
  tvm::ffi::Error err = CatchError([&] { as_any.cast<Array<Arc<ItemObj>>>(); });
  EXPECT_EQ(err.kind(), "TypeError");
}

TEST(OwningPointerTraits, TypedFunctionsTakeAndReturnPointers) {
  Function value_of = Function::FromTyped([](Arc<ItemObj> item) { return item->value; });
  Function wrap = Function::FromTyped([](int64_t v) { return make_arc<ItemObj>(v); });
  Function maybe = Function::FromTyped([](ObjectPtr<ItemObj> item) { return item == nullptr; });
  EXPECT_EQ(value_of(wrap(int64_t{5})).cast<int64_t>(), 5);
  EXPECT_TRUE(maybe(nullptr).cast<bool>());
  EXPECT_FALSE(maybe(make_object<ItemObj>(2)).cast<bool>());
  tvm::ffi::Error err = CatchError([&] { value_of(nullptr); });
  EXPECT_EQ(err.kind(), "TypeError");
  EXPECT_NE(err.message().find("test_owning_ptr.Item"), std::string::npos) << err.message();
}

TEST(OwningPointerTraits, OptionalOfAPointerIsNullWhenEmpty) {
  Optional<Arc<ItemObj>> maybe;
  EXPECT_FALSE(maybe.has_value());
  EXPECT_EQ(maybe.get(), nullptr);
  EXPECT_EQ(CatchError([&] { maybe.value(); }).kind(), "RuntimeError");
  Arc<ItemObj> item = make_arc<ItemObj>(4);
  maybe = item;
  EXPECT_TRUE(maybe == item && maybe.same_as(item));
  EXPECT_EQ(maybe.use_count(), 2);
  EXPECT_EQ((*maybe)->value, 4);
  Any cell = maybe;
  EXPECT_EQ(cell.type_index(), ItemObj::RuntimeTypeIndex());
  EXPECT_EQ(cell.cast<Optional<Arc<ItemObj>>>().get(), item.get());
  EXPECT_TRUE(Any(nullptr).cast<Optional<Arc<ItemObj>>>() == std::nullopt);
  cell = nullptr;
  maybe = std::nullopt;
  EXPECT_EQ(item.use_count(), 1);
  EXPECT_EQ(maybe.value_or(item).get(), item.get());

  Optional<ObjectPtr<ItemObj>> nullable = ObjectPtr<ItemObj>();
  EXPECT_FALSE(nullable.has_value());  // a null pointer is "nothing"
  nullable = make_object<ItemObj>(5);
  ObjectPtr<ItemObj> out = *std::move(nullable);
  EXPECT_EQ(out->value, 5);
}

TEST(OwningPointerTraits, ContainersHoldRawObjectPointers) {
  // As in Apache's headers: the container owns its cells; an element read back borrows.
  static_assert(tvm::ffi::details::container_storage_enabled_v<const ItemObj*>);
  static_assert(sizeof(Optional<const ItemObj*>) == sizeof(Any));
  ObjectPtr<ItemObj> item = make_object<ItemObj>(8);
  Array<const ItemObj*> items{item.get()};
  EXPECT_EQ(RefCountWord(item.get()), kStrongTwo);
  EXPECT_EQ(items[0]->value, 8);
  Map<String, const ItemObj*> by_name{{"a", item.get()}};
  EXPECT_EQ(by_name["a"], item.get());
  Optional<const ItemObj*> maybe = static_cast<const ItemObj*>(item.get());
  EXPECT_EQ(maybe.value(), item.get());
  Any as_any = Array<Any>{Any(make_arc<OtherObj>())};
  EXPECT_FALSE(as_any.as<Array<const ItemObj*>>().has_value());
}

TEST(OwningPointerTraits, BuiltinObjectsUnderApacheNames) {
  // gen_abi_cpp names built-in classes as Apache's headers declare them.
  static_assert(std::is_same_v<tvm::ffi::detail::StringObj, tvm::ffi::StringObj>);
  static_assert(std::is_same_v<tvm::ffi::detail::BytesObj, tvm::ffi::BytesObj>);
  Any text = String(std::string(64, 'x'));  // long enough to live in a heap object
  std::optional<ObjectPtr<tvm::ffi::detail::StringObj>> obj =
      text.as<ObjectPtr<tvm::ffi::detail::StringObj>>();
  ASSERT_TRUE(obj.has_value());
  EXPECT_EQ((*obj)->size, 64u);
  EXPECT_FALSE(Any(String("x")).as<Arc<tvm::ffi::detail::StringObj>>().has_value());
}

}  // namespace tvm_ffi_owning_ptr_test

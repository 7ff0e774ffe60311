// SPDX-License-Identifier: Apache-2.0
// test_object_def_attrs.cc: the type attributes ObjectDef registers by itself (`__ffi_new__`,
// `__ffi_shallow_copy__`, `__ffi_init__`, `__ffi_type_final__`), the name/value form of
// ffi.MakeObjectFromPackedArgs, and the iterator/trait helpers of container_detail.h.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/container_detail.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <iterator>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "test_utils.h"

namespace tvm_ffi_object_def_attrs_test {

using namespace tvm::ffi;  // NOLINT(*)
namespace refl = tvm::ffi::reflection;
using tvm_ffi_test::ErrorText;

/// Copyable, default-constructible and not final.
class AttrPointObj : public Object {
 public:
  int64_t x = 3;
  String label = "p";
  static constexpr bool _type_mutable = true;
  static constexpr uint32_t _type_child_slots = 1;
  TVM_FFI_DECLARE_OBJECT_INFO("test.objdef.Point", AttrPointObj, Object);
};

/// Final, with an explicit constructor.
class AttrFinalObj : public Object {
 public:
  int64_t v = 0;
  AttrFinalObj() = default;
  explicit AttrFinalObj(int64_t value) : v(value) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.objdef.Final", AttrFinalObj, Object);
};

/// Neither copyable nor constructible by reflection: no creator, no copy.
class AttrNoCopyObj : public Object {
 public:
  explicit AttrNoCopyObj(int64_t value) : v(std::make_unique<int64_t>(value)) {}
  std::unique_ptr<int64_t> v;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.objdef.NoCopy", AttrNoCopyObj, Object);
};

/// Registers its own `__ffi_shallow_copy__`, which ObjectDef must keep.
class AttrCustomCopyObj : public Object {
 public:
  int64_t v = 0;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.objdef.CustomCopy", AttrCustomCopyObj, Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<AttrPointObj>()
      .def_rw("x", &AttrPointObj::x)
      .def_rw("label", &AttrPointObj::label, refl::DefaultValue(String("d")));
  refl::ObjectDef<AttrFinalObj>().def_ro("v", &AttrFinalObj::v).def(refl::init<int64_t>());
  refl::ObjectDef<AttrNoCopyObj>();
  refl::ObjectDef<AttrCustomCopyObj>()
      .def_ro("v", &AttrCustomCopyObj::v)
      .def_type_attr(refl::type_attr::kShallowCopy,
                     [](const AttrCustomCopyObj*) -> ObjectRef { return ObjectRef(nullptr); });
}

int32_t IndexOf(const char* type_key) { return TypeKeyToIndex(type_key); }

/// The value of type attribute `name` for a type (None when it has none).
AnyView TypeAttr(const char* type_key, const char* name) {
  return refl::TypeAttrColumn(name)[IndexOf(type_key)];
}

Function TypeAttrFunction(const char* type_key, const char* name) {
  AnyView value = TypeAttr(type_key, name);
  EXPECT_EQ(value.type_index(), TypeIndex::kTVMFFIFunction) << type_key << " " << name;
  return value.cast<Function>();
}

// ------------------------------------------------------------------------------------------
// Type attributes registered by ObjectDef
// ------------------------------------------------------------------------------------------

TEST(ObjectDefAttrs, NewMakesObjectWithCxxDefaults) {
  Function ffi_new = TypeAttrFunction("test.objdef.Point", refl::type_attr::kNew);
  Any made = ffi_new();
  const AttrPointObj* point = made.as<AttrPointObj>();
  ASSERT_NE(point, nullptr);
  EXPECT_EQ(point->x, 3);
  EXPECT_EQ(point->label, "p");
}

TEST(ObjectDefAttrs, NewTakesNoArguments) {
  Function ffi_new = TypeAttrFunction("test.objdef.Point", refl::type_attr::kNew);
  EXPECT_NE(ErrorText([&] { ffi_new(1); }).find("TypeError: "), std::string::npos);
}

TEST(ObjectDefAttrs, ShallowCopyMakesDistinctObjectWithSameFields) {
  ObjectPtr<AttrPointObj> source = make_object<AttrPointObj>();
  source->x = 41;
  source->label = "copied";
  Function copy = TypeAttrFunction("test.objdef.Point", refl::type_attr::kShallowCopy);
  Any copied = copy(ObjectRef(source));
  const AttrPointObj* result = copied.as<AttrPointObj>();
  ASSERT_NE(result, nullptr);
  EXPECT_NE(result, source.get());
  EXPECT_EQ(result->x, 41);
  EXPECT_EQ(result->label, "copied");
  EXPECT_EQ(source.use_count(), 1);
}

TEST(ObjectDefAttrs, ShallowCopyRejectsNoneAndOtherTypes) {
  Function copy = TypeAttrFunction("test.objdef.Point", refl::type_attr::kShallowCopy);
  EXPECT_EQ(ErrorText([&] { copy(nullptr); }),
            "TypeError: Mismatched type on argument #0 when calling: "
            "`test.objdef.Point.__ffi_shallow_copy__(0: test.objdef.Point) -> ffi.Object`. "
            "Expected `test.objdef.Point` but got `None`");
  EXPECT_NE(ErrorText([&] { copy(Array<Any>({1})); }).find("TypeError: "), std::string::npos);
  EXPECT_NE(ErrorText([&] { copy(); }).find("TypeError: "), std::string::npos);
}

TEST(ObjectDefAttrs, TypeFinalRecordsFinality) {
  AnyView final_attr = TypeAttr("test.objdef.Final", refl::type_attr::kTypeFinal);
  ASSERT_EQ(final_attr.type_index(), TypeIndex::kTVMFFIBool);
  EXPECT_TRUE(final_attr.cast<bool>());
  AnyView open_attr = TypeAttr("test.objdef.Point", refl::type_attr::kTypeFinal);
  ASSERT_EQ(open_attr.type_index(), TypeIndex::kTVMFFIBool);
  EXPECT_FALSE(open_attr.cast<bool>());
}

TEST(ObjectDefAttrs, ExplicitInitIsKeptAndNewStillRegistered) {
  Function init = TypeAttrFunction("test.objdef.Final", refl::type_attr::kInit);
  EXPECT_EQ(init(7).as<AttrFinalObj>()->v, 7);
  Function ffi_new = TypeAttrFunction("test.objdef.Final", refl::type_attr::kNew);
  EXPECT_EQ(ffi_new().as<AttrFinalObj>()->v, 0);
}

TEST(ObjectDefAttrs, GeneratedInitForTypesWithoutExplicitOne) {
  Function init = TypeAttrFunction("test.objdef.Point", refl::type_attr::kInit);
  Any made = init(5);
  EXPECT_EQ(made.as<AttrPointObj>()->x, 5);
  EXPECT_EQ(made.as<AttrPointObj>()->label, "d");
}

TEST(ObjectDefAttrs, NoCreatorNoCopyMeansOnlyFinality) {
  EXPECT_EQ(TypeAttr("test.objdef.NoCopy", refl::type_attr::kNew), nullptr);
  EXPECT_EQ(TypeAttr("test.objdef.NoCopy", refl::type_attr::kShallowCopy), nullptr);
  EXPECT_EQ(TypeAttr("test.objdef.NoCopy", refl::type_attr::kInit), nullptr);
  EXPECT_TRUE(TypeAttr("test.objdef.NoCopy", refl::type_attr::kTypeFinal).cast<bool>());
}

TEST(ObjectDefAttrs, AttributeRegisteredByTheTypeIsKept) {
  Function copy = TypeAttrFunction("test.objdef.CustomCopy", refl::type_attr::kShallowCopy);
  EXPECT_EQ(copy(ObjectRef(make_object<AttrCustomCopyObj>())), nullptr);
}

TEST(ObjectDefAttrs, TestingTypesCarryTheAttributes) {
  for (const char* type_key : {"testing.TestIntPair", "testing.TestObjectBase"}) {
    EXPECT_EQ(TypeAttr(type_key, refl::type_attr::kNew).type_index(), TypeIndex::kTVMFFIFunction)
        << type_key;
    EXPECT_EQ(TypeAttr(type_key, refl::type_attr::kShallowCopy).type_index(),
              TypeIndex::kTVMFFIFunction)
        << type_key;
  }
  EXPECT_TRUE(TypeAttr("testing.TestIntPair", refl::type_attr::kTypeFinal).cast<bool>());
  EXPECT_FALSE(TypeAttr("testing.TestObjectBase", refl::type_attr::kTypeFinal).cast<bool>());
  EXPECT_TRUE(TypeAttr("testing.TestObjectDerived", refl::type_attr::kTypeFinal).cast<bool>());
}

// ------------------------------------------------------------------------------------------
// ffi.MakeObjectFromPackedArgs(type_key, "field", value, ...)
// ------------------------------------------------------------------------------------------

Function MakeObject() { return Function::GetGlobalRequired("ffi.MakeObjectFromPackedArgs"); }

int64_t IntField(const Any& obj, const char* type_key, const char* field) {
  return refl::FieldGetter(type_key, field)(obj.cast<ObjectRef>()).cast<int64_t>();
}

TEST(MakeObjectNamed, SetsNamedFieldsInAnyOrder) {
  Any pair = MakeObject()("testing.TestIntPair", "b", 7, "a", 1);
  EXPECT_EQ(IntField(pair, "testing.TestIntPair", "a"), 1);
  EXPECT_EQ(IntField(pair, "testing.TestIntPair", "b"), 7);
}

TEST(MakeObjectNamed, FieldsNotNamedTakeTheirDefaults) {
  Any base = MakeObject()("testing.TestObjectBase");
  EXPECT_EQ(IntField(base, "testing.TestObjectBase", "v_i64"), 10);
  Any derived = MakeObject()("testing.TestObjectDerived", "v_map", Map<Any, Any>(), "v_array",
                             Array<Any>({1}), "v_i64", 3, "v_str", String("s"));
  EXPECT_EQ(IntField(derived, "testing.TestObjectBase", "v_i64"), 3);
  EXPECT_EQ(refl::FieldGetter("testing.TestObjectBase", "v_f64")(derived.cast<ObjectRef>())
                .cast<double>(),
            10.0);
}

TEST(MakeObjectNamed, BadCallsRaiseClearErrors) {
  Function make = MakeObject();
  EXPECT_EQ(ErrorText([&] { make("testing.TestIntPair", "a", 1); }),
            "TypeError: Required field `b` not set in type `testing.TestIntPair`");
  EXPECT_EQ(ErrorText([&] { make("testing.TestIntPair", "c", 1, "a", 1, "b", 2); }),
            "TypeError: Type `testing.TestIntPair` does not have field `c`");
  EXPECT_EQ(ErrorText([&] { make("testing.TestIntPair", "a", 1, "a", 2); }),
            "TypeError: ffi.MakeObjectFromPackedArgs(): field `a` of type `testing.TestIntPair` "
            "is given more than once");
  EXPECT_NE(ErrorText([&] { make("testing.TestIntPair", "a"); }).find("TypeError: "),
            std::string::npos);
  EXPECT_NE(ErrorText([&] { make("testing.TestIntPair", "a", "x", "b", 2); }).find("TypeError: "),
            std::string::npos);
  EXPECT_NE(ErrorText([&] { make("test.objdef.NoSuchType", "a", 1); }).find("ValueError: "),
            std::string::npos);
  EXPECT_NE(ErrorText([&] { make(); }).find("TypeError: "), std::string::npos);
  EXPECT_NE(ErrorText([&] { make(5); }).find("TypeError: "), std::string::npos);
  EXPECT_NE(ErrorText([&] { make("test.objdef.NoCopy"); }).find("RuntimeError: "),
            std::string::npos);
}

TEST(MakeObjectNamed, PositionalFormStillWorks) {
  Any pair = MakeObject()("testing.TestIntPair", 4, 5);
  EXPECT_EQ(IntField(pair, "testing.TestIntPair", "a"), 4);
  EXPECT_EQ(IntField(pair, "testing.TestIntPair", "b"), 5);
}

// ------------------------------------------------------------------------------------------
// container_detail.h helpers
// ------------------------------------------------------------------------------------------

struct TimesTen {
  using ResultType = int64_t;
  static int64_t convert(int value) { return static_cast<int64_t>(value) * 10; }
};

TEST(ContainerDetail, IterAdapterConvertsAndSteps) {
  std::vector<int> values{1, 2, 3};
  using Iter = detail::IterAdapter<TimesTen, std::vector<int>::const_iterator>;
  static_assert(std::is_same_v<Iter::value_type, int64_t>);
  static_assert(std::is_same_v<Iter::iterator_category, std::random_access_iterator_tag>);
  Iter begin(values.cbegin()), end(values.cend());
  EXPECT_EQ(end - begin, 3);
  EXPECT_EQ(std::vector<int64_t>(begin, end), (std::vector<int64_t>{10, 20, 30}));
  Iter it = begin;
  EXPECT_EQ(*(it++), 10);
  EXPECT_EQ(*it, 20);
  it += 1;
  EXPECT_EQ(*it, 30);
  it -= 2;
  EXPECT_EQ(it, begin);
  EXPECT_EQ(*(begin + 2), 30);
  EXPECT_EQ(*(end - 1), 30);
  EXPECT_NE(begin, end);
}

TEST(ContainerDetail, ReverseIterAdapterWalksBackwards) {
  // values[0] only marks the end of the reverse walk; it is never read.
  std::vector<int> values{0, 1, 2, 3};
  using Iter = detail::ReverseIterAdapter<TimesTen, std::vector<int>::const_iterator>;
  Iter rbegin(values.cend() - 1), rend(values.cbegin());
  EXPECT_EQ(rend - rbegin, 3);
  std::vector<int64_t> seen;
  for (Iter it = rbegin; it != rend; ++it) seen.push_back(*it);
  EXPECT_EQ(seen, (std::vector<int64_t>{30, 20, 10}));
  EXPECT_EQ(*(rbegin + 1), 20);
  Iter back = rend;
  --back;
  EXPECT_EQ(*back, 10);
}

TEST(ContainerDetail, StorageAndObjectRefTraits) {
  static_assert(detail::storage_enabled_v<int64_t>);
  static_assert(detail::storage_enabled_v<Any>);
  static_assert(detail::storage_enabled_v<String>);
  static_assert(detail::storage_enabled_v<const Object*>);  // stored owning, as in Apache
  static_assert(!detail::storage_enabled_v<DLTensor*>);
  static_assert(detail::all_storage_enabled_v<int64_t, String, Array<Any>>);
  static_assert(!detail::all_storage_enabled_v<int64_t, DLTensor*>);
  static_assert(detail::all_storage_enabled_v<>);
  static_assert(detail::all_object_ref_v<Array<Any>, Map<Any, Any>>);
  static_assert(!detail::all_object_ref_v<Array<Any>, int64_t>);
}

TEST(ContainerDetail, ContainerTypeStrJoinsElementTypes) {
  EXPECT_EQ(detail::ContainerTypeStr<>("Tuple"), "Tuple<>");
  EXPECT_EQ(detail::ContainerTypeStr<Any>("Array"), "Array<Any>");
  std::string variant = detail::ContainerTypeStr<int64_t, String>("Variant");
  EXPECT_EQ(variant, "Variant<" + detail::Type2Str<int64_t>::v() + ", " +
                         detail::Type2Str<String>::v() + ">");
}

}  // namespace tvm_ffi_object_def_attrs_test

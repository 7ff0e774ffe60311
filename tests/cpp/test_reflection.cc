// SPDX-License-Identifier: Apache-2.0
// test_reflection.cc: ObjectDef/TypeAttrDef registration seen through the C API, accessors,
// ffi.MakeObjectFromPackedArgs and the reflected testing.* types and schema functions.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/creator.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <string>
#include <vector>

#include "test_utils.h"

namespace tvm_ffi_reflection_test {

using tvm_ffi_test::CatchError;
using tvm_ffi_test::ToStdString;

using namespace tvm::ffi;  // NOLINT(*)
namespace refl = tvm::ffi::reflection;

/// A mutable test type covering every field trait.
class PointObj : public Object {
 public:
  int64_t x = 1;
  double y = 2.5;
  String name = "p";
  Any extra;
  PointObj() = default;
  PointObj(int64_t x, double y) : x(x), y(y) {}
  int64_t Norm1() const { return x + static_cast<int64_t>(y); }
  void Scale(int64_t k) { x *= k; }

  static constexpr bool _type_mutable = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.refl.Point", PointObj, Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<PointObj>("A 2D point")
      .def_rw("x", &PointObj::x, "x coord", refl::DefaultValue(1), refl::kw_only(true))
      .def_ro("y", &PointObj::y, refl::AttachFieldFlag::SEqHashIgnore(), refl::init(false))
      .def_rw("name", &PointObj::name, refl::repr(false), refl::hash(false), refl::compare(false),
              refl::Metadata{{"tag", 7}})
      .def_rw("extra", &PointObj::extra,
              refl::DefaultFactory(Function::FromTyped([]() { return String("made"); })))
      .def(refl::init<int64_t, double>(), "make a point")
      .def("norm1", &PointObj::Norm1, "x + y")
      .def("scale", &PointObj::Scale)
      .def_static("origin", []() { return ObjectRef(make_object<PointObj>(0, 0.0)); });
  refl::TypeAttrDef<PointObj>()
      .def("__test_twice__", [](int64_t v) { return v * 2; })
      .attr("__test_value__", 42);
}

const TVMFFITypeInfo* PointInfo() { return TVMFFIGetTypeInfo(PointObj::RuntimeTypeIndex()); }

/// No default constructor, so no native creator; objects come from its `__ffi_new__`.
class MadeByNewObj : public Object {
 public:
  int64_t v;
  explicit MadeByNewObj(int64_t v) : v(v) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.refl.MadeByNew", MadeByNewObj, Object);
};

/// Neither a creator nor `__ffi_new__`.
class UncreatableObj : public Object {
 public:
  explicit UncreatableObj(int64_t) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.refl.Uncreatable", UncreatableObj, Object);
};

class MadeByNew : public ObjectRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(MadeByNew, ObjectRef, MadeByNewObj);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<MadeByNewObj>().def_ro("v", &MadeByNewObj::v).def_convert<MadeByNew>();
  refl::TypeAttrDef<MadeByNewObj>().attr(
      "__ffi_new__", Function::FromTyped([]() { return ObjectRef(make_object<MadeByNewObj>(9)); }));
  refl::ObjectDef<UncreatableObj>();
}

TEST(ObjectCreator, SetsGivenFieldsAndDefaultsTheRest) {
  refl::ObjectCreator creator("test.refl.Point");
  Any made = creator(Map<String, Any>{{"x", 5}, {"y", 1.5}, {"name", String("p")}});
  const PointObj* point = made.as<PointObj>();
  ASSERT_NE(point, nullptr);
  EXPECT_EQ(point->x, 5);
  EXPECT_EQ(point->y, 1.5);
  EXPECT_EQ(point->name, "p");
  EXPECT_EQ(point->extra.cast<String>(), "made");
  // name has a C++ default but no reflected one, so it is required.
  Error missing = CatchError([&] { creator(Map<String, Any>{{"x", 5}, {"y", 1.0}}); });
  EXPECT_EQ(missing.kind(), "TypeError");
  EXPECT_EQ(missing.message(), "Required field `name` not set in type `test.refl.Point`");
  Error unknown =
      CatchError([&] { creator(Map<String, Any>{{"y", 1.0}, {"name", String("q")}, {"z", 3}}); });
  EXPECT_EQ(unknown.kind(), "TypeError");
  EXPECT_EQ(unknown.message(), "Type `test.refl.Point` does not have field `z`");
  Error wrong =
      CatchError([&] { creator(Map<String, Any>{{"y", String("no")}, {"name", String("q")}}); });
  EXPECT_EQ(wrong.kind(), "TypeError");
}

TEST(ObjectCreator, FallsBackToFfiNewAndRejectsUncreatableTypes) {
  const TVMFFITypeInfo* by_new = TVMFFIGetTypeInfo(MadeByNewObj::RuntimeTypeIndex());
  EXPECT_TRUE(HasCreator(by_new));
  ObjectPtr<Object> made = CreateEmptyObject(by_new);
  EXPECT_EQ(static_cast<const MadeByNewObj*>(made.get())->v, 9);
  EXPECT_EQ(refl::ObjectCreator(by_new)(Map<String, Any>{{"v", 4}}).as<MadeByNewObj>()->v, 4);

  const TVMFFITypeInfo* none = TVMFFIGetTypeInfo(UncreatableObj::RuntimeTypeIndex());
  EXPECT_FALSE(HasCreator(none));
  EXPECT_EQ(CatchError([&] { CreateEmptyObject(none); }).kind(), "RuntimeError");
  Error rejected = CatchError([&] { refl::ObjectCreator{none}; });
  EXPECT_EQ(rejected.kind(), "RuntimeError");
  EXPECT_NE(rejected.message().find("test.refl.Uncreatable"), std::string::npos);
  EXPECT_EQ(
      refl::details::FFIConvertFromAnyViewToObjectRef<ObjectRef>(AnyView(ObjectRef(made))).get(),
      made.get());
  EXPECT_EQ(
      CatchError([] { refl::details::FFIConvertFromAnyViewToObjectRef<ObjectRef>(1); }).kind(),
      "TypeError");
}

Function ConvertAttrOf(int32_t type_index) {
  return refl::TypeAttrColumn(refl::type_attr::kConvert)[type_index].cast<Function>();
}

TEST(ObjectDef, DefConvertRegistersConvertAttr) {
  Function convert = ConvertAttrOf(MadeByNewObj::RuntimeTypeIndex());
  ObjectRef made = refl::CreateEmptyObject(TVMFFIGetTypeInfo(MadeByNewObj::RuntimeTypeIndex()));
  EXPECT_EQ(convert(made).cast<ObjectRef>().get(), made.get());
  Error err = CatchError([&] { convert(1); });
  EXPECT_EQ(err.kind(), "TypeError");
  EXPECT_EQ(err.message(), "Cannot cast from `int` to `test.refl.MadeByNew`");
  EXPECT_EQ(CatchError([&] { convert(nullptr); }).message(),
            "Cannot cast from `None` to `test.refl.MadeByNew`");
}

TEST(TypeAttrDef, BuiltinTypesHaveConvertAttr) {
  Function to_array = ConvertAttrOf(TypeIndex::kTVMFFIArray);
  EXPECT_EQ(to_array(Array<int>{1, 2}).cast<Array<int>>().size(), 2u);
  EXPECT_EQ(CatchError([&] { to_array(1); }).message(), "Cannot cast from `int` to `Array<Any>`");
  Function to_object = ConvertAttrOf(TypeIndex::kTVMFFIObject);
  EXPECT_EQ(to_object(nullptr).type_index(), TypeIndex::kTVMFFINone);
  EXPECT_EQ(CatchError([&] { to_object(String("abc")); }).message(),
            "Cannot cast from `ffi.SmallStr` to `ffi.Object`");
}

TEST(ObjectDef, RegistersTypeMetadata) {
  const TVMFFITypeMetadata* meta = PointInfo()->metadata;
  ASSERT_NE(meta, nullptr);
  EXPECT_EQ(ToStdString(meta->doc), "A 2D point");
  EXPECT_EQ(meta->total_size, static_cast<int32_t>(sizeof(PointObj)));
  EXPECT_EQ(meta->structural_eq_hash_kind, kTVMFFISEqHashKindTreeNode);
  ASSERT_NE(meta->creator, nullptr);
  ObjectRef made = refl::CreateEmptyObject(PointInfo());
  EXPECT_EQ(made.type_index(), PointObj::RuntimeTypeIndex());
  EXPECT_EQ(made.as<PointObj>()->x, 1);
}

TEST(ObjectDef, RegistersFieldLayout) {
  const TVMFFITypeInfo* info = PointInfo();
  ASSERT_EQ(info->num_fields, 4);
  PointObj probe;
  const char* base = reinterpret_cast<const char*>(static_cast<const Object*>(&probe));
  EXPECT_EQ(ToStdString(info->fields[0].name), "x");
  EXPECT_EQ(info->fields[0].offset, reinterpret_cast<const char*>(&probe.x) - base);
  EXPECT_EQ(info->fields[1].offset, reinterpret_cast<const char*>(&probe.y) - base);
  EXPECT_EQ(info->fields[2].offset, reinterpret_cast<const char*>(&probe.name) - base);
  EXPECT_EQ(info->fields[0].size, 8);
  EXPECT_EQ(info->fields[0].alignment, 8);
  EXPECT_EQ(info->fields[2].size, static_cast<int64_t>(sizeof(String)));
  EXPECT_EQ(info->fields[0].field_static_type_index, kTVMFFIInt);
  EXPECT_EQ(info->fields[1].field_static_type_index, kTVMFFIFloat);
  EXPECT_EQ(info->fields[3].field_static_type_index, kTVMFFIAny);
}

TEST(ObjectDef, RegistersFieldFlagsDocsAndDefaults) {
  const TVMFFIFieldInfo* f = PointInfo()->fields;
  EXPECT_EQ(f[0].flags, kTVMFFIFieldFlagBitMaskWritable | kTVMFFIFieldFlagBitMaskHasDefault |
                            kTVMFFIFieldFlagBitMaskKwOnly);
  EXPECT_EQ(ToStdString(f[0].doc), "x coord");
  EXPECT_EQ(AnyView::CopyFromTVMFFIAny(f[0].default_value_or_factory).cast<int64_t>(), 1);
  EXPECT_EQ(f[1].flags, kTVMFFIFieldFlagBitMaskSEqHashIgnore | kTVMFFIFieldFlagBitMaskInitOff);
  EXPECT_EQ(f[2].flags, kTVMFFIFieldFlagBitMaskWritable | kTVMFFIFieldFlagBitMaskReprOff |
                            kTVMFFIFieldFlagBitMaskHashOff | kTVMFFIFieldFlagBitMaskCompareOff);
  EXPECT_EQ(f[3].flags, kTVMFFIFieldFlagBitMaskWritable | kTVMFFIFieldFlagBitMaskHasDefault |
                            kTVMFFIFieldFlagBitMaskDefaultFromFactory);
  EXPECT_EQ(ToStdString(f[0].metadata), "{\"type_schema\":\"{\\\"type\\\":\\\"int\\\"}\"}");
  EXPECT_EQ(ToStdString(f[2].metadata),
            "{\"type_schema\":\"{\\\"type\\\":\\\"ffi.String\\\"}\",\"tag\":7}");
}

TEST(ObjectDef, FieldFlagSpellings) {
  TVMFFIFieldInfo info{};
  refl::AttachFieldFlag::SEqHashDef().Apply(&info);
  EXPECT_EQ(info.flags, kTVMFFIFieldFlagBitMaskSEqHashDefRecursive);
  refl::AttachFieldFlag::SEqHashDefNonRecursive().Apply(&info);
  EXPECT_EQ(info.flags, kTVMFFIFieldFlagBitMaskSEqHashDefRecursive |
                            kTVMFFIFieldFlagBitMaskSEqHashDefNonRecursive);
}

TEST(ObjectDef, GetterAndSetterThroughCApi) {
  ObjectPtr<PointObj> p = make_object<PointObj>(3, 4.0);
  const TVMFFIFieldInfo* fx = refl::GetFieldInfo("test.refl.Point", "x");
  void* addr = reinterpret_cast<char*>(static_cast<Object*>(p.get())) + fx->offset;
  TVMFFIAny out;
  ASSERT_EQ(fx->getter(addr, &out), 0);
  EXPECT_EQ(out.type_index, kTVMFFIInt);
  EXPECT_EQ(out.v_int64, 3);
  TVMFFIAny value = AnyView(int64_t{9}).CopyToTVMFFIAny();
  ASSERT_EQ(reinterpret_cast<TVMFFIFieldSetter>(fx->setter)(addr, &value), 0);
  EXPECT_EQ(p->x, 9);
}

TEST(ObjectDef, SetterRejectsMismatchedType) {
  ObjectPtr<PointObj> p = make_object<PointObj>();
  refl::FieldSetter setter("test.refl.Point", "x");
  Error err = CatchError([&] { setter(p.get(), String("abc")); });
  EXPECT_EQ(err.kind(), "TypeError");
  EXPECT_EQ(err.message(), "Cannot convert from type `ffi.SmallStr` to `int`");
  EXPECT_EQ(p->x, 1);
}

TEST(ObjectDef, GetterCopiesObjectFields) {
  ObjectPtr<PointObj> p = make_object<PointObj>();
  p->name = String("a long name that is not small");
  Any got = refl::FieldGetter("test.refl.Point", "name")(p.get());
  EXPECT_EQ(got.cast<String>(), "a long name that is not small");
  EXPECT_EQ(got.type_index(), kTVMFFIStr);
}

TEST(ObjectDef, SetFieldToDefaultUsesFactory) {
  ObjectPtr<PointObj> p = make_object<PointObj>();
  const TVMFFIFieldInfo* extra = refl::GetFieldInfo("test.refl.Point", "extra");
  refl::SetFieldToDefault(extra, refl::FieldAddress(p.get(), extra));
  EXPECT_EQ(p->extra.cast<String>(), "made");
}

TEST(ObjectDef, MethodsTakeSelfFirst) {
  ObjectRef p(make_object<PointObj>(3, 4.0));
  EXPECT_EQ(refl::GetMethod("test.refl.Point", "norm1")(p).cast<int64_t>(), 7);
  refl::GetMethod("test.refl.Point", "scale")(p, 2);
  EXPECT_EQ(p.as<PointObj>()->x, 6);
  const TVMFFIMethodInfo* norm = refl::GetMethodInfo("test.refl.Point", "norm1");
  EXPECT_EQ(norm->flags, 0);
  EXPECT_EQ(ToStdString(norm->doc), "x + y");
  EXPECT_EQ(ToStdString(norm->metadata),
            R"({"type_schema":"{\"type\":\"ffi.Function\",\"named_args\":{\"return\":)"
            R"([{\"type\":\"int\"}],\"params\":[{\"type\":\"test.refl.Point\"}]}}"})");
}

TEST(ObjectDef, MethodErrorsCarryQualifiedName) {
  Error err = CatchError([] { refl::GetMethod("test.refl.Point", "norm1")(1); });
  EXPECT_EQ(err.kind(), "TypeError");
  EXPECT_EQ(err.message(),
            "Mismatched type on argument #0 when calling: `test.refl.Point.norm1(0: "
            "test.refl.Point) -> int`. Expected `test.refl.Point` but got `int`");
}

TEST(ObjectDef, MethodOnNoneIsTypeError) {
  Error norm = CatchError([] { refl::GetMethod("test.refl.Point", "norm1")(nullptr); });
  Error scale = CatchError([] { refl::GetMethod("test.refl.Point", "scale")(nullptr, 2); });
  for (const Error& err : {norm, scale}) {
    EXPECT_EQ(err.kind(), "TypeError");
    EXPECT_NE(err.message().find("Expected `test.refl.Point` but got `None`"), std::string::npos)
        << err.message();
  }
}

TEST(ObjectDef, StaticMethodHasFlag) {
  const TVMFFIMethodInfo* origin = refl::GetMethodInfo("test.refl.Point", "origin");
  EXPECT_EQ(origin->flags, kTVMFFIFieldFlagBitMaskIsStaticMethod);
  Any made = refl::GetMethod("test.refl.Point", "origin")();
  EXPECT_EQ(made.as<PointObj>()->x, 0);
}

TEST(ObjectDef, InitRegistersMethodAndTypeAttr) {
  const TVMFFIMethodInfo* init = refl::GetMethodInfo("test.refl.Point", "__ffi_init__");
  EXPECT_EQ(init->flags, kTVMFFIFieldFlagBitMaskIsStaticMethod);
  EXPECT_EQ(ToStdString(init->doc), "make a point");
  Any made = refl::GetMethod("test.refl.Point", "__ffi_init__")(5, 1.5);
  EXPECT_EQ(made.as<PointObj>()->x, 5);
  EXPECT_EQ(made.as<PointObj>()->y, 1.5);
  Function attr =
      refl::TypeAttrColumn("__ffi_init__")[PointObj::RuntimeTypeIndex()].cast<Function>();
  EXPECT_EQ(attr(2, 0.5).as<PointObj>()->x, 2);
  Error err = CatchError([&] { attr(1); });
  EXPECT_NE(err.message().find("`test.refl.Point.__ffi_init__(0: int, 1: float) -> ffi.Object`"),
            std::string::npos);
}

TEST(TypeAttrDef, StoresFunctionsAndValues) {
  int32_t index = PointObj::RuntimeTypeIndex();
  Function twice = refl::TypeAttrColumn("__test_twice__")[index].cast<Function>();
  EXPECT_EQ(twice(21).cast<int64_t>(), 42);
  EXPECT_EQ(refl::TypeAttrColumn("__test_value__")[index].cast<int64_t>(), 42);
  EXPECT_EQ(refl::TypeAttrColumn("__test_value__")[kTVMFFIObject], nullptr);
}

TEST(TypeAttrDef, EnsureColumnCreatesEmptyColumn) {
  refl::EnsureTypeAttrColumn("__test_empty_column__");
  EXPECT_EQ(refl::TypeAttrColumn("__test_empty_column__")[PointObj::RuntimeTypeIndex()], nullptr);
  EXPECT_EQ(refl::type_attr::kRepr, std::string("__ffi_repr__"));
}

TEST(Accessor, MissingFieldAndMethodErrors) {
  Error err = CatchError([] { refl::GetFieldInfo("test.refl.Point", "nope"); });
  EXPECT_EQ(err.kind(), "RuntimeError");
  EXPECT_EQ(err.message(), "Cannot find field  `nope` in test.refl.Point");
  Error err2 = CatchError([] { refl::GetMethod("test.refl.Point", "nope"); });
  EXPECT_EQ(err2.message(), "Cannot find method nope in test.refl.Point");
}

TEST(Accessor, ForEachFieldInfoVisitsParentsFirst) {
  std::vector<std::string> names;
  refl::ForEachFieldInfo(refl::GetTypeInfoByKey("testing.TestObjectDerived"),
                         [&](const TVMFFIFieldInfo* f) { names.push_back(ToStdString(f->name)); });
  EXPECT_EQ(names, (std::vector<std::string>{"v_i64", "v_f64", "v_str", "v_map", "v_array"}));
}

TEST(MakeObjectFromPackedArgs, SetsFieldsInOrder) {
  Function make = Function::GetGlobalRequired("ffi.MakeObjectFromPackedArgs");
  Any obj = make("testing.TestObjectDerived", 1, 2.0, "s", Map<Any, Any>(), Array<Any>({1, 2}));
  EXPECT_EQ(obj.GetTypeKey(), "testing.TestObjectDerived");
  EXPECT_EQ(
      refl::FieldGetter("testing.TestObjectBase", "v_i64")(obj.cast<ObjectRef>()).cast<int64_t>(),
      1);
  Any arr = refl::FieldGetter("testing.TestObjectDerived", "v_array")(obj.cast<ObjectRef>());
  EXPECT_EQ(arr.cast<Array<int64_t>>().size(), 2u);
}

TEST(MakeObjectFromPackedArgs, RejectsWrongArityAndMissingCreator) {
  Function make = Function::GetGlobalRequired("ffi.MakeObjectFromPackedArgs");
  Error arity = CatchError([&] { make("testing.TestObjectBase", 1); });
  EXPECT_EQ(arity.kind(), "TypeError");
  Error no_creator = CatchError([&] { make("testing.TestUnregisteredObject", 1, 2); });
  EXPECT_EQ(no_creator.kind(), "RuntimeError");
  Error mismatch = CatchError([&] { make("testing.TestObjectBase", "x", 1.0, "s"); });
  EXPECT_EQ(mismatch.message(), "Cannot convert from type `const char*` to `int`");
}

}  // namespace tvm_ffi_reflection_test

// SPDX-License-Identifier: Apache-2.0
// test_source_parity_reflection.cc: reflection spellings of Apache TVM FFI 0.1.13.post2 and
// 0.1.15.post2 that source code written against either release uses: methods as type attributes
// and global functions, the info builders custom traits apply to, typed column keys,
// overload_cast, owning-pointer fields, the field accessors and offsets, structural hooks and
// walks, and the renamed field flags and attribute names.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/expected.h>
#include <tvm/ffi/extra/structural_mutate.h>
#include <tvm/ffi/extra/structural_visit.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "test_utils.h"

namespace tvm_ffi_source_parity_reflection_test {

using namespace tvm::ffi;  // NOLINT(*)
namespace refl = tvm::ffi::reflection;
using tvm_ffi_test::ErrorText;

// ---- test types ----------------------------------------------------------------------------

class BoxObj : public Object {
 public:
  int64_t value = 0;
  BoxObj() = default;
  explicit BoxObj(int64_t v) : value(v) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("tsp.refl.Box", BoxObj, Object);
};

class PointObj : public Object {
 public:
  int64_t x = 0;
  int64_t level = 0;
  ObjectPtr<BoxObj> maybe_box;
  Arc<BoxObj> box = make_arc<BoxObj>(1);

  int64_t Sum(int64_t k) const { return x + k; }
  void Bump(int64_t d) { x += d; }
  int64_t Scale(int64_t k) { return x * k; }
  int64_t Scale(int64_t k, int64_t offset) { return x * k + offset; }
  int64_t Peek(int64_t k) { return k; }
  int64_t Peek(int64_t k) const { return -k; }

  static constexpr bool _type_mutable = true;
  static constexpr uint32_t _type_child_slots = 1;
  TVM_FFI_DECLARE_OBJECT_INFO("tsp.refl.Point", PointObj, Object);
};

class Point3Obj : public PointObj {
 public:
  int64_t z = 0;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("tsp.refl.Point3", Point3Obj, PointObj);
};

class PointRef : public ObjectRef {
 public:
  explicit PointRef(int64_t x) : ObjectRef(make_object<PointObj>()) {
    static_cast<PointObj*>(get_mutable())->x = x;
  }
  int64_t Twice() const { return 2 * static_cast<const PointObj*>(get())->x; }
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(PointRef, ObjectRef, PointObj);
};

/// A field trait in the 0.1.15 style: it installs its own setter (clamping to [0, 10]) and adds
/// a metadata entry through the builder.
struct ClampTrait : public refl::InfoTrait {
  static int Set(void* field, const TVMFFIAny* value) {
    TVM_FFI_SAFE_CALL_BEGIN();
    int64_t v = AnyView::CopyFromTVMFFIAny(*value).cast<int64_t>();
    *static_cast<int64_t*>(field) = v < 0 ? 0 : (v > 10 ? 10 : v);
    TVM_FFI_SAFE_CALL_END();
  }
  void Apply(refl::FieldInfoBuilder* info) const {
    info->setter = reinterpret_cast<void*>(&Set);
    info->metadata_.emplace_back("clamped", true);
  }
};

/// A method trait adding a metadata entry through the builder.
struct PureTrait : public refl::InfoTrait {
  void Apply(refl::MethodInfoBuilder* info) const { info->metadata_.emplace_back("pure", 1); }
};

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<BoxObj>().def_ro("value", &BoxObj::value);
  refl::ObjectDef<PointObj>()
      .def_rw("x", &PointObj::x, refl::DefaultValue(5))
      .def_rw("level", &PointObj::level, ClampTrait{}, refl::Metadata{{"unit", "step"}})
      .def_rw("maybe_box", &PointObj::maybe_box)
      .def_rw("box", &PointObj::box)
      .def("sum", &PointObj::Sum, "x + k", PureTrait{});
  refl::ObjectDef<Point3Obj>().def_rw("z", &Point3Obj::z);
  refl::TypeAttrDef<PointObj>()
      .def("tsp_refl_sum", &PointObj::Sum)
      .def("tsp_refl_bump", &PointObj::Bump)
      .def("tsp_refl_twice", &PointRef::Twice)
      .def("tsp_refl_lambda", [](const PointObj* self) { return self->x * 10; })
      .def("tsp_refl_value", 7)
      .attr("tsp_refl_attr", String("a"));
  refl::GlobalDef()
      .def_method("tsp.refl.Sum", &PointObj::Sum, "doc of Sum")
      .def_method("tsp.refl.Bump", &PointObj::Bump)
      .def_method("tsp.refl.Twice", &PointRef::Twice)
      .def_method("tsp.refl.Plain", [](int64_t a) { return a + 1; })
      .def("tsp.refl.Meta", [](int64_t a) { return a; }, PureTrait{}, refl::Metadata{{"k", "v"}});
}

PointRef MakePoint(int64_t x) { return PointRef(x); }

/// The value of type attribute `name` of PointObj.
AnyView PointAttr(const char* name) {
  return refl::TypeAttrColumn(name)[PointObj::RuntimeTypeIndex()];
}

std::string MetadataOf(const TVMFFIByteArray& metadata) {
  return std::string(metadata.data, metadata.size);
}

// ---- TypeAttrDef::def with member function pointers ------------------------------------------

static_assert(std::is_base_of_v<refl::ReflectionDefBase, refl::TypeAttrDef<PointObj>>);
static_assert(std::is_same_v<refl::TypeAttrDef<PointObj>,
                             refl::TypeAttrDef<PointObj, std::enable_if_t<true>>>);  // 2 parameters
static_assert(std::is_same_v<details::FunctionInfo<decltype(&PointObj::Sum)>::ArgType,
                             std::tuple<const PointObj*, int64_t>>);
static_assert(std::is_same_v<details::FunctionInfo<decltype(&PointObj::Bump)>::ArgType,
                             std::tuple<PointObj*, int64_t>>);
static_assert(details::FunctionInfo<decltype(&PointRef::Twice)>::num_args == 1);

TEST(SourceParityReflection, TypeAttrDefStoresConstMethodAsFunction) {
  Function sum = PointAttr("tsp_refl_sum").cast<Function>();
  PointRef p = MakePoint(3);
  EXPECT_EQ(sum(p, 4).cast<int64_t>(), 7);
  EXPECT_NE(ErrorText([&] { sum(String("no"), 1); }).find("TypeError"), std::string::npos);
  EXPECT_NE(ErrorText([&] { sum(p); }).find("Mismatched number of arguments"), std::string::npos);
}

TEST(SourceParityReflection, TypeAttrDefStoresMutatingAndRefMethods) {
  PointRef p = MakePoint(3);
  PointAttr("tsp_refl_bump").cast<Function>()(p, 5);
  EXPECT_EQ(p->x, 8);
  EXPECT_EQ(PointAttr("tsp_refl_twice").cast<Function>()(p).cast<int64_t>(), 16);
  EXPECT_EQ(PointAttr("tsp_refl_lambda").cast<Function>()(p).cast<int64_t>(), 80);
}

TEST(SourceParityReflection, TypeAttrDefStoresValuesAsIs) {
  EXPECT_EQ(PointAttr("tsp_refl_value").cast<int64_t>(), 7);
  EXPECT_EQ(PointAttr("tsp_refl_attr").cast<String>(), "a");
  EXPECT_EQ(refl::TypeAttrColumn("tsp_refl_value")[BoxObj::RuntimeTypeIndex()], nullptr);
}

// ---- FieldInfoBuilder / MethodInfoBuilder --------------------------------------------------

static_assert(std::is_base_of_v<TVMFFIFieldInfo, refl::FieldInfoBuilder>);
static_assert(std::is_base_of_v<TVMFFIMethodInfo, refl::MethodInfoBuilder>);
static_assert(std::is_same_v<decltype(refl::FieldInfoBuilder::metadata_), refl::_MetadataType>);

TEST(SourceParityReflection, FieldTraitAppliesToTheBuilder) {
  const TVMFFIFieldInfo* level = refl::GetFieldInfo("tsp.refl.Point", "level");
  EXPECT_EQ(MetadataOf(level->metadata),
            R"({"type_schema":"{\"type\":\"int\"}","clamped":true,"unit":"step"})");
  PointRef p = MakePoint(0);
  refl::FieldSetter setter(level);
  setter(p, 42);
  EXPECT_EQ(p->level, 10);
  setter(p, -3);
  EXPECT_EQ(p->level, 0);
  EXPECT_NE(ErrorText([&] { setter(p, String("s")); }).find("TypeError"), std::string::npos);
}

TEST(SourceParityReflection, MethodTraitAndDocApplyToTheBuilder) {
  const TVMFFIMethodInfo* sum = refl::GetMethodInfo("tsp.refl.Point", "sum");
  EXPECT_EQ(std::string(sum->doc.data, sum->doc.size), "x + k");
  std::string metadata = MetadataOf(sum->metadata);
  EXPECT_NE(metadata.find(R"("pure":1)"), std::string::npos) << metadata;
  EXPECT_EQ(metadata.rfind(R"({"type_schema":)", 0), 0U) << metadata;
}

TEST(SourceParityReflection, MetadataAppliesEntriesInOrder) {
  refl::FieldInfoBuilder field;
  refl::Metadata({{"a", 1}, {"b", "x"}}).Apply(&field);
  ASSERT_EQ(field.metadata_.size(), 2U);
  EXPECT_EQ(field.metadata_[0].first, "a");
  EXPECT_EQ(field.metadata_[1].second.cast<String>(), "x");
  refl::MethodInfoBuilder method;
  refl::Metadata({{"c", true}}).Apply(&method);
  ASSERT_EQ(method.metadata_.size(), 1U);
  EXPECT_TRUE(method.metadata_[0].second.cast<bool>());
}

// ---- GlobalDef::def_method ------------------------------------------------------------------

TEST(SourceParityReflection, DefMethodRegistersMethodsWithSelfFirst) {
  PointRef p = MakePoint(2);
  EXPECT_EQ(Function::GetGlobalRequired("tsp.refl.Sum")(p, 3).cast<int64_t>(), 5);
  Function::GetGlobalRequired("tsp.refl.Bump")(p, 1);
  EXPECT_EQ(p->x, 3);
  EXPECT_EQ(Function::GetGlobalRequired("tsp.refl.Twice")(p).cast<int64_t>(), 6);
  EXPECT_EQ(Function::GetGlobalRequired("tsp.refl.Plain")(1).cast<int64_t>(), 2);
  EXPECT_NE(ErrorText([&] { Function::GetGlobalRequired("tsp.refl.Sum")(1, 3); }).find("TypeError"),
            std::string::npos);
}

TEST(SourceParityReflection, GlobalDefAppliesMethodTraits) {
  Function meta = Function::GetGlobalRequired("ffi.GetGlobalFuncMetadata");
  std::string text = meta("tsp.refl.Meta").cast<String>();
  EXPECT_NE(text.find(R"("pure":1)"), std::string::npos) << text;
  EXPECT_NE(text.find(R"("k":"v")"), std::string::npos) << text;
  std::string sum = meta("tsp.refl.Sum").cast<String>();
  EXPECT_NE(sum.find(R"(\"params\":[{\"type\":\"tsp.refl.Point\"},{\"type\":\"int\"}])"),
            std::string::npos)
      << sum;
}

// ---- EnsureTypeAttrColumn(AttrKey) ---------------------------------------------------------

TEST(SourceParityReflection, EnsureTypeAttrColumnTakesATypedKey) {
  constexpr refl::AttrKey<int64_t> kKey{"tsp_refl_ensured"};
  EXPECT_NE(ErrorText([] { refl::TypeAttrColumn("tsp_refl_never_made"); }).find("RuntimeError"),
            std::string::npos);
  refl::EnsureTypeAttrColumn(kKey);
  refl::TypeAttrColumn column(kKey);
  EXPECT_EQ(column[PointObj::RuntimeTypeIndex()], nullptr);
  if (column[BoxObj::RuntimeTypeIndex()] == nullptr) {  // first run of this test
    refl::TypeAttrDef<BoxObj>().attr(kKey, 9);
  }
  EXPECT_EQ(kKey.ValueFrom(refl::TypeAttrColumn(kKey)[BoxObj::RuntimeTypeIndex()]), 9);
  refl::EnsureTypeAttrColumn(kKey);  // idempotent: the value stays
  EXPECT_EQ(refl::TypeAttrColumn(kKey)[BoxObj::RuntimeTypeIndex()].cast<int64_t>(), 9);
}

TEST(SourceParityReflection, AttrKeyValueFromIsStrict) {
  constexpr refl::AttrKey<bool> kFlag{"tsp_refl_flag"};
  EXPECT_EQ(kFlag.ValueFrom(AnyView(true)), std::optional<bool>(true));
  EXPECT_FALSE(kFlag.ValueFrom(AnyView(nullptr)).has_value());
  // An int is not a bool here, though it would convert to one.
  EXPECT_EQ(ErrorText([&] { kFlag.ValueFrom(AnyView(1)); }),
            "TypeError: Cannot treat type `int` as type `bool`");
}

// ---- GetFieldByteOffsetToObject ------------------------------------------------------------

TEST(SourceParityReflection, FieldOffsetDeducesTheClass) {
  int64_t offset = refl::GetFieldByteOffsetToObject(&PointObj::level);
  EXPECT_EQ(offset, refl::GetFieldInfo("tsp.refl.Point", "level")->offset);
  EXPECT_EQ((refl::GetFieldByteOffsetToObject<PointObj, int64_t>(&PointObj::level)), offset);
  EXPECT_EQ(refl::GetFieldByteOffsetToObject<Point3Obj>(&PointObj::level), offset);
  EXPECT_EQ(refl::GetFieldByteOffsetToObject(&Point3Obj::z),
            refl::GetFieldInfo("tsp.refl.Point3", "z")->offset);
  EXPECT_GE(offset, static_cast<int64_t>(sizeof(TVMFFIObject)));
}

// ---- FieldGetter / FieldSetter with owning pointers ----------------------------------------

TEST(SourceParityReflection, FieldAccessorsTakeOwningPointerHolders) {
  Arc<PointObj> holder = make_arc<PointObj>();
  refl::FieldSetter setter("tsp.refl.Point", "x");
  refl::FieldGetter getter("tsp.refl.Point", "x");
  setter(holder, 11);
  EXPECT_EQ(holder->x, 11);
  ObjectPtr<Object> as_object = holder;
  EXPECT_EQ(getter(as_object).cast<int64_t>(), 11);
  setter(as_object, 12);
  EXPECT_EQ(getter(holder).cast<int64_t>(), 12);
}

TEST(SourceParityReflection, FieldSetterStoresArcValues) {
  Arc<PointObj> holder = make_arc<PointObj>();
  refl::FieldSetter setter("tsp.refl.Point", "box");
  Arc<BoxObj> box = make_arc<BoxObj>(5);
  setter(holder, box);
  EXPECT_EQ(holder->box.get(), box.get());
  EXPECT_NE(ErrorText([&] { setter(holder, nullptr); }).find("TypeError"), std::string::npos);
  EXPECT_EQ(holder->box.get(), box.get());
}

// ---- def_rw on Arc<T> / ObjectPtr<T> fields ------------------------------------------------

TEST(SourceParityReflection, OwningPointerFieldsRoundTrip) {
  const TVMFFIFieldInfo* box = refl::GetFieldInfo("tsp.refl.Point", "box");
  const TVMFFIFieldInfo* maybe = refl::GetFieldInfo("tsp.refl.Point", "maybe_box");
  EXPECT_TRUE(box->flags & kTVMFFIFieldFlagBitMaskWritable);
  EXPECT_EQ(box->size, static_cast<int64_t>(sizeof(void*)));
  PointRef p = MakePoint(0);
  refl::FieldGetter get_box(box);
  refl::FieldGetter get_maybe(maybe);
  refl::FieldSetter set_box(box);
  refl::FieldSetter set_maybe(maybe);
  EXPECT_EQ(get_box(p).cast<Arc<BoxObj>>()->value, 1);
  EXPECT_EQ(get_maybe(p), nullptr);
  set_maybe(p, make_object<BoxObj>(4));
  EXPECT_EQ(p->maybe_box->value, 4);
  set_maybe(p, nullptr);
  EXPECT_EQ(p->maybe_box, nullptr);
  EXPECT_NE(ErrorText([&] { set_box(p, MakePoint(1)); }).find("TypeError"), std::string::npos);
}

// ---- CallFieldSetterToDefault, AsByteArray -------------------------------------------------

TEST(SourceParityReflection, CallFieldSetterToDefaultReturnsTheCode) {
  const TVMFFIFieldInfo* x = refl::GetFieldInfo("tsp.refl.Point", "x");
  PointRef p = MakePoint(1);
  EXPECT_EQ(refl::CallFieldSetterToDefault(x, refl::FieldAddress(p.get(), x)), 0);
  EXPECT_EQ(p->x, 5);
  refl::FieldInfoBuilder bad = {};
  bad.flags = kTVMFFIFieldFlagBitMaskHasDefault;
  bad.setter = reinterpret_cast<void*>(&ClampTrait::Set);
  bad.default_value_or_factory = AnyView(String("x")).CopyToTVMFFIAny();
  int64_t slot = 0;
  EXPECT_EQ(refl::CallFieldSetterToDefault(&bad, &slot), -1);
  tvm_ffi_test::ExpectRaised("TypeError", "");
}

TEST(SourceParityReflection, AsByteArrayIsConstexpr) {
  constexpr TVMFFIByteArray name = refl::AsByteArray("__ffi_repr__");
  static_assert(name.size == 12);
  EXPECT_EQ(std::string(name.data, name.size), "__ffi_repr__");
}

// ---- overload_cast -------------------------------------------------------------------------

int64_t Pick(int64_t a) { return a; }
int64_t Pick(int64_t a, int64_t b) { return a + b; }
int64_t Pick(String s) { return static_cast<int64_t>(s.size()); }

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::GlobalDef().def("tsp.refl.PickString", refl::overload_cast<String>(&Pick));
}

static_assert(std::is_same_v<decltype(refl::overload_cast<int64_t>(&PointObj::Scale)),
                             int64_t (PointObj::*)(int64_t)>);
static_assert(std::is_same_v<decltype(refl::overload_cast<int64_t, int64_t>(&PointObj::Scale)),
                             int64_t (PointObj::*)(int64_t, int64_t)>);
static_assert(std::is_same_v<decltype(refl::overload_cast<int64_t>(&PointObj::Peek, refl::const_)),
                             int64_t (PointObj::*)(int64_t) const>);
static_assert(refl::overload_cast<String>(&Pick) == static_cast<int64_t (*)(String)>(&Pick));

template <auto F>
struct AsTemplateArgument {
  static constexpr auto value = F;
};

TEST(SourceParityReflection, OverloadCastPicksTheOverload) {
  PointObj p;
  p.x = 3;
  EXPECT_EQ((p.*refl::overload_cast<int64_t>(&PointObj::Scale))(2), 6);
  EXPECT_EQ((p.*refl::overload_cast<int64_t, int64_t>(&PointObj::Scale))(2, 1), 7);
  EXPECT_EQ((p.*refl::overload_cast<int64_t>(&PointObj::Peek))(4), 4);
  EXPECT_EQ((p.*refl::overload_cast<int64_t>(&PointObj::Peek, refl::const_))(4), -4);
  EXPECT_EQ((AsTemplateArgument<refl::overload_cast<int64_t, int64_t>(&Pick)>::value(1, 2)), 3);
  EXPECT_EQ(Function::GetGlobalRequired("tsp.refl.PickString")(String("abcd")).cast<int64_t>(), 4);
}

// ---- reflection::detail, ReflectionDefBase -------------------------------------------------

static_assert(refl::detail::HasContainerType<PointRef>::value);
static_assert(!refl::detail::HasContainerType<int>::value);

struct DefBaseProbe : public refl::ReflectionDefBase {
  using refl::ReflectionDefBase::FieldGetter;
  using refl::ReflectionDefBase::FieldSetter;
  using refl::ReflectionDefBase::GetMethod;
  using refl::ReflectionDefBase::ObjectCreatorDefault;
};

TEST(SourceParityReflection, ReflectionDefBaseHelpers) {
  Function sum = DefBaseProbe::GetMethod("probe.sum", &PointObj::Sum);
  EXPECT_EQ(sum(MakePoint(1), 1).cast<int64_t>(), 2);
  int64_t slot = 0;
  TVMFFIAny cell = AnyView(int64_t{6}).CopyToTVMFFIAny();
  EXPECT_EQ(DefBaseProbe::FieldSetter<int64_t>(&slot, &cell), 0);
  TVMFFIAny out;
  EXPECT_EQ(DefBaseProbe::FieldGetter<int64_t>(&slot, &out), 0);
  EXPECT_EQ(out.v_int64, 6);
  TVMFFIObjectHandle handle = nullptr;
  EXPECT_EQ(DefBaseProbe::ObjectCreatorDefault<BoxObj>(&handle), 0);
  ObjectPtr<Object> made =
      details::ObjectUnsafe::ObjectPtrFromOwned<Object>(static_cast<TVMFFIObject*>(handle));
  EXPECT_EQ(made->type_index(), BoxObj::RuntimeTypeIndex());
}

TEST(SourceParityReflection, ConvertThroughTheDetailSpelling) {
  PointRef p = MakePoint(2);
  EXPECT_EQ(refl::detail::FFIConvertFromAnyViewToObjectRef<PointRef>(p).get(), p.get());
  EXPECT_NE(ErrorText([] {
              refl::detail::FFIConvertFromAnyViewToObjectRef<PointRef>(1);
            }).find("TypeError"),
            std::string::npos);
}

// ---- 0.1.13 spellings ----------------------------------------------------------------------

TEST(SourceParityReflection, OldFlagAndAttributeNames) {
  TVMFFIFieldInfo info{};
  refl::AttachFieldFlag::SEqHashDefRecursive().Apply(&info);
  EXPECT_EQ(info.flags, kTVMFFIFieldFlagBitMaskSEqHashDefPattern);
  refl::AttachFieldFlag::SEqHashDefNonRecursive().Apply(&info);
  EXPECT_TRUE(info.flags & kTVMFFIFieldFlagBitMaskSEqHashDefSimple);
  EXPECT_STREQ(refl::type_attr::kRepr, "__ffi_repr__");
  EXPECT_STREQ(refl::type_attr::kNew, type_attr::kNew.name);
  EXPECT_STREQ(refl::type_attr::kInit, type_attr::kInit.name);
  EXPECT_EQ(
      refl::TypeAttrColumn(refl::type_attr::kTypeFinal)[BoxObj::RuntimeTypeIndex()].cast<bool>(),
      true);
}

// ---- structural hooks and walks ------------------------------------------------------------

/// A mutate hook answering with an ObjectPtr (converted to Expected<UnchangedOr<Any>>).
Expected<UnchangedOr<Any>> BoxMutate(StructuralMutatorObj*, AnyView value) noexcept {
  const BoxObj* self = value.as<BoxObj>();
  if (self->value < 0) return UnchangedOr<Any>(Unchanged());
  return make_object<BoxObj>(self->value + 100);
}

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::TypeAttrDef<BoxObj>().native_fn_attr<&BoxMutate>(type_attr::kStructuralMutate);
}

TEST(SourceParityReflection, MutateHookMayReturnAnObjectPtr) {
  Any root = Array<Any>{ObjectRef(make_object<BoxObj>(1)), ObjectRef(make_object<BoxObj>(-1))};
  Any mapped = StructuralMap<WalkOrder::kPostOrder>(root, [](const String& s) -> Any { return s; });
  Array<Any> items = mapped.cast<Array<Any>>();
  EXPECT_EQ(items[0].as<BoxObj>()->value, 101);
  EXPECT_TRUE(items[1].same_as(root.cast<Array<Any>>()[1]));
}

TEST(SourceParityReflection, PreOrderWalkWithExpectedWalkResult) {
  Any root = Array<Any>{1, Array<Any>{2, 3}, String("s"), 4};
  std::vector<int64_t> seen;
  Optional<VisitInterrupt> stop = StructuralWalk<WalkOrder::kPreOrder>(
      root,
      [&](const Array<Any>& arr) -> Expected<WalkResult> {
        if (arr.size() == 2) return WalkResult::Skip();
        return WalkResult::Advance();
      },
      [&](int64_t v) -> Expected<WalkResult> {
        seen.push_back(v);
        if (v == 4) return WalkResult::Interrupt(VisitInterrupt(String("four")));
        return WalkResult::Advance();
      });
  EXPECT_EQ(seen, (std::vector<int64_t>{1, 4}));
  ASSERT_TRUE(stop.has_value());
  EXPECT_EQ((*stop)->value.cast<String>(), "four");
  Expected<Optional<VisitInterrupt>> failed = StructuralWalkExpected<WalkOrder::kPreOrder>(
      root, [](int64_t) -> Expected<WalkResult> { return Error("ValueError", "bad", ""); });
  ASSERT_TRUE(failed.is_err());
  EXPECT_EQ(failed.error().kind(), "ValueError");
}

TEST(SourceParityReflection, OldWalkBuildingBlocks) {
  std::vector<std::string> log;
  auto dispatch = details::StructuralWalkCallbackChain::FromChain(
      [&](const String& s) -> Expected<WalkResult> {
        log.push_back("s:" + std::string(s));
        return WalkResult::Advance();
      },
      [&](int64_t v, TVMFFIDefRegionKind kind) -> Expected<WalkResult> {
        log.push_back("i:" + std::to_string(v) + "/" + std::to_string(static_cast<int>(kind)));
        return WalkResult::Advance();
      });
  EXPECT_TRUE(dispatch(AnyView(String("x")), kTVMFFIDefRegionKindNone).is_ok());
  using Visitor =
      details::StructuralWalkCallbackVisitorObj<WalkOrder::kPostOrder, decltype(dispatch)>;
  StructuralVisitor visitor(make_object<Visitor>(dispatch));
  Any root = Array<Any>{String("a"), 7};
  EXPECT_FALSE(visitor->Visit(root).has_value());
  EXPECT_EQ(log, (std::vector<std::string>{"s:x", "s:a", "i:7/0"}));
}

}  // namespace tvm_ffi_source_parity_reflection_test

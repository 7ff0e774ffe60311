// SPDX-License-Identifier: Apache-2.0
// test_structural_mutate.cc: structural rewriting (extra/structural_mutate.h): map orders over
// containers and reflected objects, copy on write and in-place reuse, the var remap of
// definitions and DAG nodes, StructuralMutate callbacks owning the rewrite, custom
// `__s_mutate__` hooks, UnchangedOr, errors with visit contexts, and the ffi.StructuralMap /
// ffi.StructuralMutate globals called as Functions.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/big_int.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/expected.h>
#include <tvm/ffi/extra/dataclass.h>
#include <tvm/ffi/extra/structural_equal.h>
#include <tvm/ffi/extra/structural_mutate.h>
#include <tvm/ffi/extra/structural_visit.h>
#include <tvm/ffi/extra/visit_error_context.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "test_utils.h"

namespace tvm_ffi_structural_mutate_test {

using namespace tvm::ffi;  // NOLINT(*)
namespace refl = tvm::ffi::reflection;
using tvm_ffi_test::CatchError;
using MutateResult = Expected<UnchangedOr<Any>>;

// ---- test types ----------------------------------------------------------------------------

class TyObj : public Object {
 public:
  String tag;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("tsm.Ty", TyObj, Object);
};

class VarObj : public Object {
 public:
  String name;
  Any ty;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindFreeVar;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("tsm.Var", VarObj, Object);
};

/// var is a simple definition; note is ignored.
class LetObj : public Object {
 public:
  Any var;
  Any value;
  Any body;
  Any note;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("tsm.Let", LetObj, Object);
};

/// params is a pattern definition.
class LamObj : public Object {
 public:
  Any params;
  Any body;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("tsm.Lam", LamObj, Object);
};

/// A DAG node: rewritten once however often it is shared.
class NodeObj : public Object {
 public:
  Any child;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindDAGNode;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("tsm.Node", NodeObj, Object);
};

/// A read-only field (rewritten in copies all the same).
class FrozenObj : public Object {
 public:
  Any child;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("tsm.Frozen", FrozenObj, Object);
};

/// A field registered through the C API without a setter.
class NoSetterObj : public Object {
 public:
  Any child;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("tsm.NoSetter", NoSetterObj, Object);
};

/// An ffi.Function `__s_mutate__`: the replacement is an Array of the rewritten `shown`.
class FnHookedObj : public Object {
 public:
  Any shown;
  Any hidden;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("tsm.FnHooked", FnHookedObj, Object);
};

/// Not copy constructible, so it has no `__ffi_shallow_copy__`.
class PinnedObj : public Object {
 public:
  Any child;
  PinnedObj() = default;
  PinnedObj(const PinnedObj&) = delete;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("tsm.Pinned", PinnedObj, Object);
};

/// Native `__s_mutate__`: rewrites both children, counting its calls.
class PairObj : public Object {
 public:
  Any first;
  Any second;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("tsm.Pair", PairObj, Object);
};

/// Native `__s_mutate__` that declares its child an Array and fails otherwise.
class ArrayHolderObj : public Object {
 public:
  Any items;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("tsm.ArrayHolder", ArrayHolderObj, Object);
};

/// `__s_mutate__` is an int.
class MalformedObj : public Object {
 public:
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("tsm.Malformed", MalformedObj, Object);
};

int pair_hook_calls = 0;

MutateResult PairMutate(StructuralMutatorObj* mutator, AnyView value) noexcept {
  ++pair_hook_calls;
  const PairObj* self = value.as<PairObj>();
  TVM_FFI_S_MUTATE_ASSIGN_OR_RETURN(UnchangedOr<Any>, first, mutator->MutateExpected(self->first));
  TVM_FFI_S_MUTATE_ASSIGN_OR_RETURN(UnchangedOr<Any>, second,
                                    mutator->MutateExpected(self->second));
  if (first.UnchangedOrSameAs(self->first) && second.UnchangedOrSameAs(self->second)) {
    return UnchangedOr<Any>(Unchanged());
  }
  ObjectPtr<PairObj> copy = make_object<PairObj>(*self);
  copy->first = std::move(first).ValueOrUnchanged(self->first);
  copy->second = std::move(second).ValueOrUnchanged(self->second);
  return UnchangedOr<Any>(Any(ObjectRef(copy)));
}

MutateResult ArrayHolderMutate(StructuralMutatorObj* mutator, AnyView value) noexcept {
  const ArrayHolderObj* self = value.as<ArrayHolderObj>();
  TVM_FFI_S_MUTATE_ASSIGN_OR_RETURN(UnchangedOr<Array<Any>>, items,
                                    mutator->MutateExpected(self->items));
  if (items.IsUnchanged()) return UnchangedOr<Any>(Unchanged());
  ObjectPtr<ArrayHolderObj> copy = make_object<ArrayHolderObj>(*self);
  copy->items = std::move(items).ValueUnchecked();
  return UnchangedOr<Any>(Any(ObjectRef(copy)));
}

void RegisterFieldWithoutSetter() {
  TVMFFIFieldInfo info{};
  info.name = TVMFFIByteArray{"child", 5};
  info.size = sizeof(Any);
  info.alignment = alignof(Any);
  info.offset = refl::GetFieldByteOffsetToObject<NoSetterObj>(&NoSetterObj::child);
  info.getter = refl::details::FieldGetterOf<Any>;
  info.setter = nullptr;
  info.default_value_or_factory.type_index = TypeIndex::kTVMFFINone;
  info.field_static_type_index = TypeIndex::kTVMFFIAny;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterField(NoSetterObj::RuntimeTypeIndex(), &info));
}

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<TyObj>().def_rw("tag", &TyObj::tag);
  refl::ObjectDef<VarObj>().def_rw("name", &VarObj::name).def_rw("ty", &VarObj::ty);
  refl::ObjectDef<LetObj>()
      .def_rw("var", &LetObj::var, refl::AttachFieldFlag::SEqHashDefSimple())
      .def_rw("value", &LetObj::value)
      .def_rw("body", &LetObj::body)
      .def_rw("note", &LetObj::note, refl::AttachFieldFlag::SEqHashIgnore());
  refl::ObjectDef<LamObj>()
      .def_rw("params", &LamObj::params, refl::AttachFieldFlag::SEqHashDefPattern())
      .def_rw("body", &LamObj::body);
  refl::ObjectDef<NodeObj>().def_rw("child", &NodeObj::child);
  refl::ObjectDef<FrozenObj>().def_ro("child", &FrozenObj::child);
  refl::ObjectDef<PinnedObj>().def_rw("child", &PinnedObj::child);
  refl::ObjectDef<PairObj>().def_rw("first", &PairObj::first).def_rw("second", &PairObj::second);
  refl::ObjectDef<ArrayHolderObj>().def_rw("items", &ArrayHolderObj::items);
  refl::ObjectDef<MalformedObj>();
  refl::ObjectDef<FnHookedObj>()
      .def_rw("shown", &FnHookedObj::shown)
      .def_rw("hidden", &FnHookedObj::hidden);
  refl::ObjectDef<NoSetterObj>();
  RegisterFieldWithoutSetter();
  TypedFunction<Any(StructuralMutatorObj*, AnyView)> shown_only(
      [](StructuralMutatorObj* mutator, AnyView value) -> Any {
        const FnHookedObj* self = value.as<FnHookedObj>();
        return Array<Any>{mutator->Mutate(self->shown).ValueOrUnchanged(self->shown)};
      });
  refl::TypeAttrDef<FnHookedObj>().attr("__s_mutate__", shown_only.packed());
  refl::TypeAttrDef<PairObj>().native_fn_attr<&PairMutate>(type_attr::kStructuralMutate);
  refl::TypeAttrDef<ArrayHolderObj>().native_fn_attr<&ArrayHolderMutate>(
      type_attr::kStructuralMutate);
  refl::TypeAttrDef<MalformedObj>().attr("__s_mutate__", int64_t{7});
}

template <typename T, typename... Fields>
ObjectRef Make(Fields... fields) {
  ObjectPtr<T> obj = make_object<T>();
  Any values[] = {Any(std::move(fields))...};
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(T::RuntimeTypeIndex());
  size_t i = 0;
  refl::ForEachFieldInfo(info, [&](const TVMFFIFieldInfo* field) {
    if (i < sizeof...(Fields)) {
      refl::CallFieldSetter(field, refl::FieldAddress(obj.get(), field), AnyView(values[i++]));
    }
  });
  return ObjectRef(obj);
}
ObjectRef Ty(const char* tag) { return Make<TyObj>(String(tag)); }
ObjectRef Var(const char* name, Any ty) { return Make<VarObj>(String(name), std::move(ty)); }

/// The field `name` of an object value.
Any FieldOf(const Any& value, const char* name) {
  const Object* obj = value.as<Object>();
  Any result;
  refl::ForEachFieldInfo(TVMFFIGetTypeInfo(obj->type_index()), [&](const TVMFFIFieldInfo* f) {
    if (std::string(f->name.data, f->name.size) != name) return;
    TVM_FFI_CHECK_SAFE_CALL(f->getter(refl::FieldAddress(obj, f),
                                      details::AnyUnsafe::MutableTVMFFIAnyPtrFromAny(&result)));
  });
  return result;
}

Any DoubleInts(Any root) {
  return StructuralMap<WalkOrder::kPostOrder>(std::move(root),
                                              [](int64_t x) -> Any { return x * 2; });
}

// ---- maps over containers ------------------------------------------------------------------

TEST(StructuralMap, RewritesItemsAndMapValuesButNotKeys) {
  Any root = Array<Any>{1,
                        Array<Any>{2, String("s")},
                        Map<Any, Any>{{3, 4}},
                        List<Any>{5},
                        Dict<Any, Any>{{6, 7}},
                        nullptr,
                        2.5};
  Any mapped = DoubleInts(root);
  EXPECT_TRUE(StructuralEqual::Equal(
      mapped, Array<Any>{2, Array<Any>{4, String("s")}, Map<Any, Any>{{3, 8}}, List<Any>{10},
                         Dict<Any, Any>{{6, 14}}, nullptr, 2.5}));
  // Copy on write: the caller's value is left as it was.
  EXPECT_EQ(root.cast<Array<Any>>()[0].cast<int64_t>(), 1);
  EXPECT_EQ(root.cast<Array<Any>>()[3].cast<List<Any>>()[0].cast<int64_t>(), 5);
}

TEST(StructuralMap, NothingChangedGivesTheSameObjects) {
  Any inner = Array<Any>{String("a")};
  Any root = Array<Any>{inner, Map<Any, Any>{{1, String("b")}}};
  Any mapped = DoubleInts(root);
  EXPECT_TRUE(mapped.same_as(root));
  // A callback returning its input is no change either.
  Any same = StructuralMap<WalkOrder::kPostOrder>(root, [](AnyView v) -> Any { return Any(v); });
  EXPECT_TRUE(same.same_as(root));
  // Only the changed path is copied.
  Any partly = Array<Any>{inner, Array<Any>{1}};
  Any result = DoubleInts(partly);
  EXPECT_FALSE(result.same_as(partly));
  EXPECT_TRUE(result.cast<Array<Any>>()[0].same_as(inner));
}

TEST(StructuralMap, PreOrderRewritesWhatTheCallbackReturned) {
  // [[1]] -> the inner array is replaced by [1, 5] first, then its ints are incremented.
  std::vector<std::string> seen;
  Any mapped = StructuralMap<WalkOrder::kPreOrder>(
      Array<Any>{Array<Any>{1}},
      [&](const Array<Any>& a) -> Any {
        seen.push_back("array" + std::to_string(a.size()));
        if (a.size() == 1 && a[0].type_index() == TypeIndex::kTVMFFIInt) {
          return Array<Any>{a[0], 5};
        }
        return Unchanged();
      },
      [&](int64_t x) -> Any { return x + 1; });
  EXPECT_TRUE(StructuralEqual::Equal(mapped, Array<Any>{Array<Any>{2, 6}}));
  EXPECT_EQ(seen, (std::vector<std::string>{"array1", "array1"}));
}

TEST(StructuralMap, PostOrderSeesTheRewrittenChildren) {
  Any mapped = StructuralMap<WalkOrder::kPostOrder>(
      Array<Any>{1, 2, 3}, [](int64_t x) -> Any { return x * 10; },
      [](const Array<Any>& a) -> Any {
        int64_t sum = 0;
        for (const Any& item : a) sum += item.cast<int64_t>();
        return sum;
      });
  EXPECT_EQ(mapped.cast<int64_t>(), 60);
}

TEST(StructuralMap, AMovedUniqueRootIsRewrittenInPlace) {
  Array<Any> inner{1, 2};
  const Object* inner_ptr = inner.get();
  Any root = Array<Any>{std::move(inner), List<Any>{3}};
  const Object* root_ptr = root.cast<ObjectRef>().get();
  Any mapped = DoubleInts(std::move(root));
  EXPECT_EQ(mapped.cast<ObjectRef>().get(), root_ptr);
  Array<Any> result = mapped.cast<Array<Any>>();
  EXPECT_EQ(result[0].cast<ObjectRef>().get(), inner_ptr);
  EXPECT_TRUE(StructuralEqual::Equal(result, Array<Any>{Array<Any>{2, 4}, List<Any>{6}}));
}

TEST(StructuralMap, ASharedChildIsCopiedEvenUnderAUniqueRoot) {
  Array<Any> shared{1};
  Any root = Array<Any>{shared};
  Any mapped = DoubleInts(std::move(root));
  EXPECT_EQ(shared[0].cast<int64_t>(), 1);
  EXPECT_EQ(mapped.cast<Array<Any>>()[0].cast<Array<Any>>()[0].cast<int64_t>(), 2);
}

TEST(StructuralMap, CallbackMayTakeTheDefRegionKind) {
  // Lam's params are a pattern definition; the body's var is a use. Callbacks run at every
  // occurrence (only the default descent consults the var remap).
  std::vector<std::string> kinds;
  Any var = Var("x", nullptr);
  Any lam = Make<LamObj>(Array<Any>{var}, var);
  StructuralMap<WalkOrder::kPreOrder>(lam, [&](const ObjectRef& obj, TVMFFIDefRegionKind kind) {
    if (!obj.defined()) return Any(Unchanged());  // the var's type is None
    kinds.push_back(obj->GetTypeKey() + ":" + std::to_string(static_cast<int>(kind)));
    return Any(Unchanged());
  });
  EXPECT_EQ(kinds,
            (std::vector<std::string>{"tsm.Lam:0", "ffi.Array:1", "tsm.Var:1", "tsm.Var:0"}));
}

// ---- reflected objects and the var remap ---------------------------------------------------

Any RetagTypes(Any root) {
  return StructuralMap<WalkOrder::kPostOrder>(std::move(root), [](const ObjectRef& obj) -> Any {
    if (const TyObj* ty = obj.as<TyObj>()) {
      if (ty->tag == "i32") return Ty("i64");
    }
    return Unchanged();
  });
}

TEST(StructuralMapObjects, ChangedFieldsGoIntoACopy) {
  Any ty = Ty("i32");
  Any note = Ty("i32");
  Any let = Make<LetObj>(Var("x", Ty("f32")), ty, 1, note);
  Any mapped = RetagTypes(let);
  ASSERT_FALSE(mapped.same_as(let));
  EXPECT_EQ(FieldOf(FieldOf(mapped, "value"), "tag").cast<String>(), "i64");
  // The ignored field is not structure; the unchanged var is kept.
  EXPECT_TRUE(FieldOf(mapped, "note").same_as(note));
  EXPECT_TRUE(FieldOf(mapped, "var").same_as(FieldOf(let, "var")));
  EXPECT_EQ(FieldOf(FieldOf(let, "value"), "tag").cast<String>(), "i32");
}

TEST(StructuralMapObjects, ARewrittenDefinitionIsUsedAtEveryUse) {
  Any x = Var("x", Ty("i32"));
  Any body = Array<Any>{x, x};
  Any let = Make<LetObj>(x, 0, body);
  Any mapped = RetagTypes(let);
  Any new_var = FieldOf(mapped, "var");
  EXPECT_FALSE(new_var.same_as(x));
  EXPECT_EQ(FieldOf(FieldOf(new_var, "ty"), "tag").cast<String>(), "i64");
  Array<Any> new_body = FieldOf(mapped, "body").cast<Array<Any>>();
  EXPECT_TRUE(new_body[0].same_as(new_var));
  EXPECT_TRUE(new_body[1].same_as(new_var));
}

TEST(StructuralMapObjects, AFreeVarUseIsNotDescended) {
  // x is never defined here: its uses are left alone, whatever its fields hold.
  Any x = Var("x", Ty("i32"));
  Any root = Array<Any>{x, Ty("i32")};
  Array<Any> mapped = RetagTypes(root).cast<Array<Any>>();
  EXPECT_TRUE(mapped[0].same_as(x));
  EXPECT_EQ(FieldOf(mapped[1], "tag").cast<String>(), "i64");
}

TEST(StructuralMapObjects, PatternDefinitionsBindEveryVarOnce) {
  Any x = Var("x", Ty("i32"));
  Any y = Var("y", Ty("f32"));
  Any lam = Make<LamObj>(Array<Any>{x, y, x}, Array<Any>{y, x});
  Any mapped = RetagTypes(lam);
  Array<Any> params = FieldOf(mapped, "params").cast<Array<Any>>();
  Array<Any> body = FieldOf(mapped, "body").cast<Array<Any>>();
  EXPECT_FALSE(params[0].same_as(x));
  EXPECT_TRUE(params[2].same_as(params[0]));
  EXPECT_TRUE(params[1].same_as(y));
  EXPECT_TRUE(body[0].same_as(y));
  EXPECT_TRUE(body[1].same_as(params[0]));
}

TEST(StructuralMapObjects, ADagNodeIsRewrittenOnce) {
  Any node = Make<NodeObj>(Ty("i32"));
  int rewrites = 0;
  Any mapped = StructuralMap<WalkOrder::kPostOrder>(Array<Any>{node, node},
                                                    [&](const ObjectRef& obj) -> Any {
                                                      if (const TyObj* ty = obj.as<TyObj>()) {
                                                        ++rewrites;
                                                        if (ty->tag == "i32") return Ty("i64");
                                                      }
                                                      return Unchanged();
                                                    });
  Array<Any> result = mapped.cast<Array<Any>>();
  EXPECT_EQ(rewrites, 1);
  EXPECT_FALSE(result[0].same_as(node));
  EXPECT_TRUE(result[1].same_as(result[0]));
}

// ---- StructuralMutate ----------------------------------------------------------------------

TEST(StructuralMutate, MatchedCallbackOwnsTheRewrite) {
  // The callback rewrites only the first item of each array it meets.
  Any root = Array<Any>{1, Array<Any>{2, 3}, 4};
  Any mutated = StructuralMutate(
      root,
      [](const Array<Any>& a, StructuralMutatorObj* mutator) -> Expected<Any> {
        Array<Any> copy = a;
        copy.Set(0, std::move(mutator->Mutate(a[0])).ValueOrUnchanged(AnyView(a[0])));
        return copy;
      },
      [](int64_t x, StructuralMutatorObj*) -> Any { return x + 100; });
  EXPECT_TRUE(StructuralEqual::Equal(mutated, Array<Any>{101, Array<Any>{2, 3}, 4}));
}

TEST(StructuralMutate, DefaultMutateDescendsIntoTheMatchedValue) {
  Any mutated = StructuralMutate(
      Array<Any>{1, Array<Any>{2}},
      [](const Array<Any>& a, StructuralMutatorObj* mutator) -> Expected<Any> {
        MutateResult result = mutator->DefaultMutateExpected(a);
        if (result.is_err()) return Unexpected(std::move(result).error());
        return std::move(result).value().ValueOrUnchanged(Any(a));
      },
      [](int64_t x, StructuralMutatorObj*) -> Any { return -x; });
  EXPECT_TRUE(StructuralEqual::Equal(mutated, Array<Any>{-1, Array<Any>{-2}}));
}

TEST(StructuralMutate, InplaceModeIsAllowOnlyOnAUniquePath) {
  std::vector<InplaceMode> modes;
  auto record = [&](const Array<Any>& a, StructuralMutatorObj* mutator,
                    InplaceMode mode) -> Expected<Any> {
    modes.push_back(mode);
    // The items as borrowed views (Array's iterator yields copies, which are not unique).
    for (const Any& item : *a.get()) {
      mutator->Mutate(item, mode);
    }
    return Unchanged();
  };
  Array<Any> shared{1};
  Any root = Array<Any>{Array<Any>{2}, shared};
  StructuralMutate(root, record);  // the caller keeps root
  EXPECT_EQ(modes, (std::vector<InplaceMode>{InplaceMode::kDisallow, InplaceMode::kDisallow,
                                             InplaceMode::kDisallow}));
  modes.clear();
  StructuralMutate(std::move(root), record);
  EXPECT_EQ(modes, (std::vector<InplaceMode>{InplaceMode::kAllow, InplaceMode::kAllow,
                                             InplaceMode::kDisallow}));
}

// ---- hooks ---------------------------------------------------------------------------------

TEST(StructuralMutateHooks, NativeHookRewritesItsChildren) {
  pair_hook_calls = 0;
  Any pair = Make<PairObj>(1, Array<Any>{2});
  Any mapped = DoubleInts(pair);
  EXPECT_EQ(pair_hook_calls, 1);
  EXPECT_EQ(FieldOf(mapped, "first").cast<int64_t>(), 2);
  EXPECT_TRUE(StructuralEqual::Equal(FieldOf(mapped, "second"), Array<Any>{4}));
  Any strings = Make<PairObj>(String("a"), String("b"));
  EXPECT_TRUE(DoubleInts(strings).same_as(strings));
}

TEST(StructuralMutateHooks, DeclaredTypeMismatchIsATypeError) {
  Any holder = Make<ArrayHolderObj>(Array<Any>{1});
  Any mapped = DoubleInts(holder);
  EXPECT_TRUE(StructuralEqual::Equal(FieldOf(mapped, "items"), Array<Any>{2}));
  Error err = CatchError([&] {
    StructuralMap<WalkOrder::kPostOrder>(holder,
                                         [](const Array<Any>&) -> Any { return String("no"); });
  });
  EXPECT_EQ(err.kind(), "TypeError");
  EXPECT_EQ(err.message(), "structural mutate result does not match the declared type");
}

TEST(StructuralMutateHooks, FunctionHookIsCalledWithTheMutator) {
  Any hooked = Make<FnHookedObj>(1, 2);
  Any mapped = DoubleInts(hooked);
  EXPECT_TRUE(StructuralEqual::Equal(mapped, Array<Any>{2}));
}

TEST(StructuralMutateHooks, MalformedHookIsATypeError) {
  Error err = CatchError([] { DoubleInts(Array<Any>{ObjectRef(make_object<MalformedObj>())}); });
  EXPECT_EQ(err.kind(), "TypeError");
  EXPECT_NE(err.message().find("tsm.Malformed"), std::string::npos);
}

// ---- errors --------------------------------------------------------------------------------

TEST(StructuralMutateErrors, CallbackErrorCarriesTheVisitContext) {
  Any inner = Array<Any>{1, 2};
  Any let = Make<LetObj>(Var("v", nullptr), inner, nullptr);
  Any root = Make<LamObj>(Array<Any>{}, let);
  Expected<Any> result =
      StructuralMapExpected<WalkOrder::kPostOrder>(root, [](int64_t x) -> Expected<Any> {
        if (x == 2) return Unexpected(Error("ValueError", "two", ""));
        return x;
      });
  ASSERT_TRUE(result.is_err());
  Error err = result.error();
  EXPECT_EQ(err.kind(), "ValueError");
  Optional<VisitErrorContext> context = VisitErrorContext::TryGetFromError(err);
  ASSERT_TRUE(context.has_value());
  List<ObjectRef> pattern = (*context)->reverse_visit_pattern;
  ASSERT_EQ(pattern.size(), 3);  // the array, the Let, the Lam (the int has no record)
  EXPECT_TRUE(pattern[0].same_as(inner.cast<ObjectRef>()));
  Array<refl::AccessPath> paths =
      VisitErrorContext::FindAccessPaths(root.cast<ObjectRef>(), *context);
  // The path leads to the innermost recorded node (the array is passed through).
  ASSERT_EQ(paths.size(), 1);
  EXPECT_EQ(std::string(ReprPrint(paths[0])), "<root>.body");
}

TEST(StructuralMutateErrors, ThrownErrorsAreReturned) {
  Expected<Any> result = StructuralMutateExpected(
      Array<Any>{1},
      [](int64_t, StructuralMutatorObj*) -> Any { throw Error("IndexError", "thrown", ""); });
  ASSERT_TRUE(result.is_err());
  EXPECT_EQ(result.error().kind(), "IndexError");
}

TEST(StructuralMutateErrors, MissingSetterAndMissingCopyAreTypeErrors) {
  ObjectPtr<FrozenObj> frozen = make_object<FrozenObj>();
  frozen->child = 1;
  Any rewritten = DoubleInts(ObjectRef(frozen));
  EXPECT_EQ(FieldOf(rewritten, "child").cast<int64_t>(), 2);
  EXPECT_EQ(frozen->child.cast<int64_t>(), 1);

  ObjectPtr<NoSetterObj> no_setter = make_object<NoSetterObj>();
  no_setter->child = 1;
  Error err = CatchError([&] { DoubleInts(ObjectRef(no_setter)); });
  EXPECT_EQ(err.kind(), "TypeError");
  EXPECT_EQ(err.message(),
            "Cannot structurally mutate field `child` of type `tsm.NoSetter` because it does not "
            "define a setter");
  Error pinned = CatchError([] { DoubleInts(Make<PinnedObj>(1)); });
  EXPECT_EQ(pinned.kind(), "TypeError");
  EXPECT_NE(pinned.message().find("__ffi_shallow_copy__"), std::string::npos);
  EXPECT_NE(pinned.message().find("tsm.Pinned"), std::string::npos);
  // Unchanged, neither needs a copy or a setter.
  Any kept = Make<PinnedObj>(String("s"));
  EXPECT_TRUE(DoubleInts(kept).same_as(kept));
}

TEST(StructuralMutateErrors, SelfContainingListIsARecursionError) {
  List<Any> list{1};
  list.push_back(list);
  Error err = CatchError([&] { DoubleInts(list); });
  EXPECT_EQ(err.kind(), "RecursionError");
  list.clear();
}

TEST(StructuralMutateErrors, ACycleOfObjectsIsARecursionError) {
  ObjectPtr<LamObj> lam = make_object<LamObj>();
  lam->body = ObjectRef(lam);
  Error mutated = CatchError([&] { DoubleInts(ObjectRef(lam)); });
  EXPECT_EQ(mutated.kind(), "RecursionError");
  Error walked = CatchError([&] {
    StructuralWalk<WalkOrder::kPreOrder>(
        ObjectRef(lam), [](AnyView) { return Expected<WalkResult>(WalkResult::Advance()); });
  });
  EXPECT_EQ(walked.kind(), "RecursionError");
  lam->body = nullptr;  // break the cycle
}

TEST(StructuralMutateErrors, ThrownErrorStaysValidAfterItsExpectedIsGone) {
  // value() && of a temporary Expected throws the error while the temporary is destroyed during
  // the unwinding: the thrown error must hold a reference of its own. The Expected keeps the
  // error it threw (the throwing path writes nothing to it).
  Expected<Any> failed = Unexpected(Error("TypeError", std::string(40, 'x') + " message", ""));
  Error thrown = CatchError([&] { std::move(failed).value(); });
  EXPECT_TRUE(failed.is_err());
  EXPECT_TRUE(thrown.same_as(failed.error()));
  Expected<void> failed_void = Unexpected(Error("ValueError", "void", ""));
  Error thrown_void = CatchError([&] { std::move(failed_void).value(); });
  EXPECT_TRUE(failed_void.is_err());
  EXPECT_EQ(thrown_void.kind(), "ValueError");
  // The same through a temporary, many times (a freed error would be reused and overwritten).
  for (int i = 0; i < 100; ++i) {
    Error err = CatchError([] {
      StructuralMap<WalkOrder::kPostOrder>(Make<ArrayHolderObj>(Array<Any>{1}),
                                           [](const Array<Any>&) -> Any { return String("no"); });
    });
    ASSERT_EQ(err.message(), "structural mutate result does not match the declared type");
  }
}

// ---- ownership the callbacks see -----------------------------------------------------------

/// A StructuralMutate callback that adds one to ints and records, for each other Array than
/// root, whether it was uniquely owned and the mode it came with; it descends by default.
struct OwnershipRecorder {
  const Object* root = nullptr;
  std::vector<std::pair<bool, InplaceMode>> arrays;

  Any Mutate(Any value) {
    root = value.as<Object>();
    return StructuralMutate(
        std::move(value),
        [this](AnyView v, StructuralMutatorObj* mutator,
               InplaceMode mode) -> Expected<UnchangedOr<Any>> {
          if (std::optional<int64_t> x = v.as<int64_t>()) {
            return UnchangedOr<Any>(Any(*x + 1));
          }
          if (v.type_index() == TypeIndex::kTVMFFIArray && v.as<Object>() != root) {
            arrays.emplace_back(v.as<Object>()->unique(), mode);
          }
          return mutator->DefaultMutateExpected(v, mode);
        });
  }
};

/// Each container kind, holding the given child as its only item (or value).
std::vector<std::function<Any(Any)>> ContainerMakers() {
  return {[](Any child) { return Any(Array<Any>{std::move(child)}); },
          [](Any child) { return Any(List<Any>{std::move(child)}); },
          [](Any child) { return Any(Map<Any, Any>{{String("k"), std::move(child)}}); },
          [](Any child) { return Any(Dict<Any, Any>{{String("k"), std::move(child)}}); }};
}

/// The only item (or value) of a container ContainerMakers made.
Any OnlyChild(const Any& container) {
  if (auto array = container.as<Array<Any>>()) return (*array)[0];
  if (auto list = container.as<List<Any>>()) return (*list)[0];
  if (auto map = container.as<Map<Any, Any>>()) return map->at(String("k"));
  return container.cast<Dict<Any, Any>>().at(String("k"));
}

TEST(StructuralMutateOwnership, CopyOnWriteShowsAChildAsItsContainerHoldsIt) {
  for (const auto& make : ContainerMakers()) {
    Any root = make(Array<Any>{1});  // the inner array: held by the container alone
    Any kept = root;                 // the caller keeps root: copy on write
    OwnershipRecorder recorder;
    Any mutated = recorder.Mutate(root);
    SCOPED_TRACE(root.GetTypeKey());
    EXPECT_EQ(recorder.arrays,
              (std::vector<std::pair<bool, InplaceMode>>{{true, InplaceMode::kDisallow}}));
    EXPECT_FALSE(mutated.same_as(kept));
    EXPECT_EQ(OnlyChild(kept).cast<Array<Any>>()[0].cast<int64_t>(), 1);
    EXPECT_EQ(OnlyChild(mutated).cast<Array<Any>>()[0].cast<int64_t>(), 2);
  }
}

TEST(StructuralMutateOwnership, AMovedUniqueRootAllowsInPlaceAlongItsPath) {
  for (const auto& make : ContainerMakers()) {
    Any root = make(Array<Any>{1});
    const Object* root_ptr = root.as<Object>();
    const Object* child_ptr = OnlyChild(root).as<Object>();
    OwnershipRecorder recorder;
    Any mutated = recorder.Mutate(std::move(root));
    SCOPED_TRACE(mutated.GetTypeKey());
    EXPECT_EQ(recorder.arrays,
              (std::vector<std::pair<bool, InplaceMode>>{{true, InplaceMode::kAllow}}));
    EXPECT_EQ(mutated.as<Object>(), root_ptr);
    EXPECT_EQ(OnlyChild(mutated).as<Object>(), child_ptr);
    EXPECT_EQ(OnlyChild(mutated).cast<Array<Any>>()[0].cast<int64_t>(), 2);
  }
}

TEST(StructuralMutateOwnership, ARootPassedByValueLeavesItsOtherOwnerAlone) {
  Array<Any> outer{Array<Any>{1}};
  const Object* child_ptr = outer[0].as<Object>();
  // outer[0] is a new reference to the child: the root is shared, so it is copied.
  Any mapped = StructuralMutate(
      outer[0], [](int64_t x, StructuralMutatorObj*) -> Expected<Any> { return Any(x + 1); });
  EXPECT_NE(mapped.as<Object>(), child_ptr);
  EXPECT_EQ(mapped.cast<Array<Any>>()[0].cast<int64_t>(), 2);
  EXPECT_EQ(outer[0].as<Object>(), child_ptr);
  EXPECT_EQ(outer[0].cast<Array<Any>>()[0].cast<int64_t>(), 1);
}

TEST(StructuralMutateOwnership, ACallbackMayResizeTheListOrDictBeingRewritten) {
  // The items are read from the container as the rewrite reaches them: the rewrite covers the
  // entries there were when it began and still are.
  List<Any> grown{1, 2};  // shared with this test: copy on write
  Any doubled = StructuralMap<WalkOrder::kPostOrder>(grown, [&](int64_t x) -> Any {
    for (int i = 0; i < 64; ++i) grown.push_back(x);  // grows (and moves) the storage
    return x * 10;
  });
  EXPECT_TRUE(StructuralEqual::Equal(doubled, List<Any>{10, 20}));
  EXPECT_EQ(grown.size(), 130u);
  List<Any> shrunk{1, 2, 3};
  Any first_only = StructuralMap<WalkOrder::kPostOrder>(shrunk, [&](int64_t x) -> Any {
    shrunk.clear();
    return x * 10;
  });
  EXPECT_TRUE(StructuralEqual::Equal(first_only, List<Any>{10}));
  Dict<Any, Any> dict{{String("a"), 1}, {String("b"), 2}};
  Any rewritten = StructuralMap<WalkOrder::kPostOrder>(dict, [&](int64_t x) -> Any {
    dict.erase(String("b"));
    for (int64_t i = 0; i < 64; ++i) dict.Set(i, i);  // rehashes into a new layout
    return x * 10;
  });
  EXPECT_TRUE(StructuralEqual::Equal(rewritten, Dict<Any, Any>{{String("a"), 10}}));
}

TEST(StructuralMutateHooks, BigIntIsALeafAsOnApache) {
  // ffi.BigInt has its mutate hooks (as on Apache TVM FFI): a big integer is kept as it is,
  // whether rewritten by default, in place or inside a container.
  for (const reflection::AttrKey<FStructuralMutate>* key :
       {&type_attr::kStructuralMutate, &type_attr::kStructuralMaybeInplaceMutate}) {
    reflection::TypeAttrColumn hooks(*key);
    EXPECT_EQ(hooks[TypeIndex::kTVMFFIBigInt].type_index(), TypeIndex::kTVMFFIOpaquePtr);
  }
  BigInt big = BigInt(1) << 100;
  Any root = Array<Any>{big, 1};
  auto by_default = [](AnyView v, StructuralMutatorObj* mutator,
                       InplaceMode mode) -> Expected<UnchangedOr<Any>> {
    return mutator->DefaultMutateExpected(v, mode);
  };
  EXPECT_TRUE(StructuralMutate(root, by_default).same_as(root));
  EXPECT_TRUE(StructuralMutate(Any(big), by_default).same_as(Any(big)));
  Any unique = BigInt(1) << 80;
  const Object* unique_ptr = unique.as<Object>();
  EXPECT_EQ(StructuralMutate(std::move(unique), by_default).as<Object>(), unique_ptr);
  Any doubled = DoubleInts(root);
  EXPECT_TRUE(doubled.cast<Array<Any>>()[0].same_as(Any(big)));
  EXPECT_EQ(doubled.cast<Array<Any>>()[1].cast<int64_t>(), 2);
}

// ---- UnchangedOr ---------------------------------------------------------------------------

TEST(UnchangedOr, MarkerValuesAndConversions) {
  UnchangedOr<Any> unchanged = Unchanged();
  EXPECT_TRUE(unchanged.IsUnchanged());
  EXPECT_TRUE(unchanged.UnchangedOrSameAs(Any(5)));
  EXPECT_EQ(std::move(unchanged).ValueOrUnchanged(Any(5)).cast<int64_t>(), 5);

  String s("abc");
  UnchangedOr<String> replaced = String("xyz");
  EXPECT_FALSE(replaced.IsUnchanged());
  EXPECT_FALSE(replaced.UnchangedOrSameAs(s));
  UnchangedOr<Any> widened = std::move(replaced);
  EXPECT_EQ(std::move(widened).as<String>().value(), "xyz");

  Any cell = UnchangedOr<int64_t>(Unchanged());
  EXPECT_EQ(cell.type_index(), TypeIndex::kTVMFFIUnchanged);
  EXPECT_TRUE(cell.as<UnchangedOr<int64_t>>().value().IsUnchanged());
  EXPECT_FALSE(Any(String("s")).as<UnchangedOr<int64_t>>().has_value());
  EXPECT_EQ(TypeTraits<UnchangedOr<int64_t>>::TypeStr(), "UnchangedOr<int>");
  static_assert(type_subsumes_v<Any, UnchangedOr<int64_t>>);
  static_assert(type_subsumes_v<UnchangedOr<Any>, UnchangedOr<String>>);
  static_assert(!type_subsumes_v<UnchangedOr<String>, UnchangedOr<Any>>);
}

// ---- the globals ---------------------------------------------------------------------------

TEST(StructuralMutateGlobals, MapWithTypeIndexedCallbacksInEitherOrder) {
  Function map = Function::GetGlobalRequired("ffi.StructuralMap");
  using Entries = Array<Tuple<int32_t, Function>>;
  Function twice = Function::FromTyped([](int64_t x) { return x * 2; });
  Function kinded = Function::FromTyped(
      [](String s, int kind) { return String(std::string(s) + std::to_string(kind)); });
  Any root = Array<Any>{1, String("s")};
  Entries ints{Tuple<int32_t, Function>(TypeIndex::kTVMFFIInt, twice)};
  Entries strs{Tuple<int32_t, Function>(TypeIndex::kTVMFFIStr, kinded)};
  for (int order : {0, 1}) {
    Any mapped = map(root, ints, strs, order);
    EXPECT_TRUE(StructuralEqual::Equal(mapped, Array<Any>{2, String("s0")}));
  }
}

TEST(StructuralMutateGlobals, MutateAndMutatorMethods) {
  Function mutate = Function::GetGlobalRequired("ffi.StructuralMutate");
  Function get = Function::GetGlobalRequired("ffi.StructuralMutatorVarRemapGet");
  Function set = Function::GetGlobalRequired("ffi.StructuralMutatorVarRemapSet");
  Function kind = Function::GetGlobalRequired("ffi.StructuralMutatorDefRegionKind");
  Function with_kind = Function::GetGlobalRequired("ffi.StructuralMutatorWithDefRegionKind");
  Function default_mutate = Function::GetGlobalRequired("ffi.StructuralMutatorDefaultMutate");
  Any x = Var("x", nullptr);
  Any replacement = Var("y", nullptr);
  std::vector<int> modes;
  Function on_array = Function::FromTyped([&](Array<Any> a, StructuralMutator m, int mode) {
    modes.push_back(mode);
    EXPECT_EQ(get(m, x), nullptr);
    set(m, x, replacement);
    EXPECT_TRUE(get(m, x).same_as(replacement));
    EXPECT_EQ(with_kind(m, 2, Function::FromTyped([&]() { return kind(m); })).cast<int>(), 2);
    EXPECT_EQ(kind(m).cast<int>(), 0);
    return default_mutate(m, a);
  });
  using Entries = Array<Tuple<int32_t, Function, bool>>;
  Entries entries{Tuple<int32_t, Function, bool>(TypeIndex::kTVMFFIArray, on_array, true)};
  Any mutated = mutate(Array<Any>{x}, entries);
  // The var remap now sends the use of x to y.
  EXPECT_TRUE(mutated.cast<Array<Any>>()[0].same_as(replacement));
  EXPECT_EQ(modes, (std::vector<int>{0}));
  Error bad_kind = CatchError([&] {
    mutate(Array<Any>{1},
           Entries{Tuple<int32_t, Function, bool>(
               TypeIndex::kTVMFFIArray, Function::FromTyped([&](Array<Any>, StructuralMutator m) {
                 return with_kind(m, 9, Function::FromTyped([]() {}));
               }),
               false)});
  });
  EXPECT_EQ(bad_kind.kind(), "ValueError");
  Error bad_key = CatchError([&] {
    mutate(Array<Any>{1},
           Entries{Tuple<int32_t, Function, bool>(
               TypeIndex::kTVMFFIArray,
               Function::FromTyped([&](Array<Any>, StructuralMutator m) { return get(m, 5); }),
               false)});
  });
  EXPECT_EQ(bad_key.kind(), "TypeError");
  EXPECT_EQ(bad_key.message(), "Variable-remap key must be an object-backed value");
}

// Apache's spellings: the named-result expansion of the unchecked assign macro, and the engine
// base's descent error.
Expected<int64_t> DoubleUnchecked(Expected<Any> input) {
  TVM_FFI_UNSAFE_S_MUTATE_ASSIGN_OR_RETURN_IMPL_(named_result, int64_t, value, std::move(input));
  return value * 2;
}

struct DescentErrorProbe : StructuralMapEngineBase {
  static Expected<Any> Error() { return SMutateDescentTypeError(); }
};

TEST(StructuralMutateSpellings, UncheckedAssignImplAndDescentError) {
  EXPECT_EQ(DoubleUnchecked(Any(21)).value(), 42);
  Expected<int64_t> failed = DoubleUnchecked(Error("ValueError", "upstream", ""));
  ASSERT_TRUE(failed.is_err());
  EXPECT_EQ(failed.error().kind(), "ValueError");

  Expected<Any> descent = DescentErrorProbe::Error();
  ASSERT_TRUE(descent.is_err());
  EXPECT_EQ(descent.error().kind(), "TypeError");
  EXPECT_NE(std::string(descent.error().message()).find("descent changed the node type"),
            std::string::npos);
}

}  // namespace tvm_ffi_structural_mutate_test

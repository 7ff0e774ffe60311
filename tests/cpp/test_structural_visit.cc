// SPDX-License-Identifier: Apache-2.0
// test_structural_visit.cc: structural traversal (extra/structural_visit.h): walk order over
// containers and reflected objects, WalkResult control, typed callbacks, custom `__s_visit__`
// hooks (native and ffi.Function), def-region kinds, errors with visit contexts, malformed
// hooks, custom visitor layers, and the ffi.Structural* globals called as Functions.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/expected.h>
#include <tvm/ffi/extra/dataclass.h>
#include <tvm/ffi/extra/structural_visit.h>
#include <tvm/ffi/extra/visit_error_context.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "test_utils.h"

namespace tvm_ffi_structural_visit_test {

using namespace tvm::ffi;  // NOLINT(*)
namespace refl = tvm::ffi::reflection;
using tvm_ffi_test::CatchError;
using tvm_ffi_test::ErrorText;
using Log = std::vector<std::string>;
using VisitResult = Expected<Optional<VisitInterrupt>>;

// ---- test types ----------------------------------------------------------------------------

class TyObj : public Object {
 public:
  String tag;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("tsv.Ty", TyObj, Object);
};

class VarObj : public Object {
 public:
  String name;
  Any ty;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindFreeVar;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("tsv.Var", VarObj, Object);
};

/// params is a pattern definition; span is ignored.
class LamObj : public Object {
 public:
  Any params;
  Any body;
  Any span;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("tsv.Lam", LamObj, Object);
};

/// var is a simple definition.
class LetObj : public Object {
 public:
  Any var;
  Any value;
  Any body;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("tsv.Let", LetObj, Object);
};

/// Native hook: visits second, then first.
class PairObj : public Object {
 public:
  Any first;
  Any second;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("tsv.Pair", PairObj, Object);
};

/// ffi.Function hook: visits shown only.
class PackedHookedObj : public Object {
 public:
  Any shown;
  Any hidden;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("tsv.PackedHooked", PackedHookedObj, Object);
};

/// Native hook: visits child, then fails with ValueError.
class FailingObj : public Object {
 public:
  Any child;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("tsv.Failing", FailingObj, Object);
};

/// ffi.Function hook that throws.
class ThrowingObj : public Object {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("tsv.Throwing", ThrowingObj, Object);
};

/// `__s_visit__` is an int.
class MalformedObj : public Object {
 public:
  Any child;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("tsv.Malformed", MalformedObj, Object);
};

/// `__s_visit__` is a null opaque pointer.
class NullHookObj : public Object {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("tsv.NullHook", NullHookObj, Object);
};

VisitResult PairVisit(StructuralVisitorObj* visitor, AnyView value) noexcept {
  const PairObj* self = value.as<PairObj>();
  TVM_FFI_S_VISIT_MAYBE_EARLY_RETURN(visitor->VisitExpected(self->second));
  TVM_FFI_S_VISIT_MAYBE_EARLY_RETURN(visitor->VisitExpected(self->first));
  return Optional<VisitInterrupt>(std::nullopt);
}

VisitResult FailingVisit(StructuralVisitorObj* visitor, AnyView value) noexcept {
  TVM_FFI_S_VISIT_MAYBE_EARLY_RETURN(visitor->VisitExpected(value.as<FailingObj>()->child));
  return TVM_FFI_UNEXPECTED(ValueError) << "failing hook";
}

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<TyObj>().def_ro("tag", &TyObj::tag);
  refl::ObjectDef<VarObj>().def_ro("name", &VarObj::name).def_ro("ty", &VarObj::ty);
  refl::ObjectDef<LamObj>()
      .def_ro("params", &LamObj::params, refl::AttachFieldFlag::SEqHashDefPattern())
      .def_ro("body", &LamObj::body)
      .def_ro("span", &LamObj::span, refl::AttachFieldFlag::SEqHashIgnore());
  refl::ObjectDef<LetObj>()
      .def_ro("var", &LetObj::var, refl::AttachFieldFlag::SEqHashDefSimple())
      .def_ro("value", &LetObj::value)
      .def_ro("body", &LetObj::body);
  refl::ObjectDef<PairObj>().def_ro("first", &PairObj::first).def_ro("second", &PairObj::second);
  refl::ObjectDef<PackedHookedObj>()
      .def_ro("shown", &PackedHookedObj::shown)
      .def_ro("hidden", &PackedHookedObj::hidden);
  refl::ObjectDef<FailingObj>().def_ro("child", &FailingObj::child);
  refl::ObjectDef<ThrowingObj>();
  refl::ObjectDef<MalformedObj>().def_ro("child", &MalformedObj::child);
  refl::ObjectDef<NullHookObj>();

  refl::TypeAttrDef<PairObj>().native_fn_attr<&PairVisit>(type_attr::kStructuralVisit);
  refl::TypeAttrDef<FailingObj>().native_fn_attr<&FailingVisit>(type_attr::kStructuralVisit);
  TypedFunction<Optional<VisitInterrupt>(StructuralVisitorObj*, AnyView)> shown_only(
      [](StructuralVisitorObj* visitor, AnyView value) {
        return visitor->Visit(value.as<PackedHookedObj>()->shown);
      });
  refl::TypeAttrDef<PackedHookedObj>().attr(type_attr::kStructuralVisit, shown_only);
  TypedFunction<Optional<VisitInterrupt>(StructuralVisitorObj*, AnyView)> throwing(
      [](StructuralVisitorObj*, AnyView) -> Optional<VisitInterrupt> {
        throw Error("IndexError", "thrown by hook", "");
      });
  refl::TypeAttrDef<ThrowingObj>().attr(type_attr::kStructuralVisit, throwing);
  refl::TypeAttrDef<MalformedObj>().attr("__s_visit__", int64_t{42});
  refl::TypeAttrDef<NullHookObj>().attr("__s_visit__", static_cast<void*>(nullptr));
}

ObjectRef Ty(const char* tag) {
  ObjectPtr<TyObj> obj = make_object<TyObj>();
  obj->tag = tag;
  return ObjectRef(obj);
}
ObjectRef Var(const char* name, Any ty) {
  ObjectPtr<VarObj> obj = make_object<VarObj>();
  obj->name = name;
  obj->ty = std::move(ty);
  return ObjectRef(obj);
}
ObjectRef Lam(Any params, Any body, Any span) {
  ObjectPtr<LamObj> obj = make_object<LamObj>();
  obj->params = std::move(params);
  obj->body = std::move(body);
  obj->span = std::move(span);
  return ObjectRef(obj);
}
ObjectRef Let(Any var, Any value, Any body) {
  ObjectPtr<LetObj> obj = make_object<LetObj>();
  obj->var = std::move(var);
  obj->value = std::move(value);
  obj->body = std::move(body);
  return ObjectRef(obj);
}
template <typename T>
ObjectRef WithChildren(Any a, Any b = nullptr) {
  ObjectPtr<T> obj = make_object<T>();
  if constexpr (std::is_same_v<T, PairObj>) {
    obj->first = std::move(a);
    obj->second = std::move(b);
  } else if constexpr (std::is_same_v<T, PackedHookedObj>) {
    obj->shown = std::move(a);
    obj->hidden = std::move(b);
  } else {
    obj->child = std::move(a);
    static_cast<void>(b);
  }
  return ObjectRef(obj);
}

/// A short text of a value: 1, 2.5, true, 's', or the last part of an object's type key.
std::string Describe(AnyView value) {
  std::ostringstream os;
  switch (value.type_index()) {
    case TypeIndex::kTVMFFIInt:
      os << value.cast<int64_t>();
      break;
    case TypeIndex::kTVMFFIBool:
      os << (value.cast<bool>() ? "true" : "false");
      break;
    case TypeIndex::kTVMFFIFloat:
      os << value.cast<double>();
      break;
    case TypeIndex::kTVMFFISmallStr:
    case TypeIndex::kTVMFFIStr:
      os << "'" << value.cast<String>() << "'";
      break;
    default: {
      std::string key = value.GetTypeKey();
      os << key.substr(key.rfind('.') + 1);
    }
  }
  return os.str();
}

const char* KindName(TVMFFIDefRegionKind kind) {
  if (kind == kTVMFFIDefRegionKindPattern) return "P";
  if (kind == kTVMFFIDefRegionKindSimple) return "S";
  return "N";
}

/// The values a walk meets, in callback order.
template <WalkOrder order>
Log Walk(AnyView root) {
  Log log;
  StructuralWalk<order>(root, [&](AnyView value) -> Expected<WalkResult> {
    log.push_back(Describe(value));
    return WalkResult::Advance();
  });
  return log;
}

Any NestedRoot() {
  return Array<Any>{1, Array<Any>{2.5, String("s")}, Map<Any, Any>{{String("k"), 3}}, nullptr,
                    true};
}

// ---- walks ---------------------------------------------------------------------------------

TEST(StructuralWalk, PreOrderVisitsContainerItemsAndMapValues) {
  EXPECT_EQ(Walk<WalkOrder::kPreOrder>(NestedRoot()),
            (Log{"Array", "1", "Array", "2.5", "'s'", "Map", "3", "true"}));
  EXPECT_EQ(Walk<WalkOrder::kPreOrder>(List<Any>{1, List<Any>{2}}),
            (Log{"List", "1", "List", "2"}));
  EXPECT_EQ(Walk<WalkOrder::kPreOrder>(Dict<Any, Any>{{1, Array<Any>{8}}}),
            (Log{"Dict", "Array", "8"}));
  EXPECT_EQ(Walk<WalkOrder::kPreOrder>(int64_t{5}), (Log{"5"}));
  EXPECT_EQ(Walk<WalkOrder::kPreOrder>(nullptr), (Log{}));
}

TEST(StructuralWalk, PostOrderVisitsChildrenFirst) {
  EXPECT_EQ(Walk<WalkOrder::kPostOrder>(NestedRoot()),
            (Log{"1", "2.5", "'s'", "Array", "3", "Map", "true", "Array"}));
}

TEST(StructuralWalk, ReflectedFieldsInOrderSkippingIgnoredOnes) {
  Any root = Lam(Array<Any>{Var("x", nullptr)}, Ty("i32"), String("span"));
  EXPECT_EQ(Walk<WalkOrder::kPreOrder>(root), (Log{"Lam", "Array", "Var", "'x'", "Ty", "'i32'"}));
  EXPECT_EQ(Walk<WalkOrder::kPostOrder>(root), (Log{"'x'", "Var", "Array", "'i32'", "Ty", "Lam"}));
}

TEST(StructuralWalk, SkipPrunesChildren) {
  Log log;
  StructuralWalk<WalkOrder::kPreOrder>(NestedRoot(), [&](AnyView value) -> Expected<WalkResult> {
    log.push_back(Describe(value));
    if (auto array = value.as<Array<Any>>(); array.has_value() && array->size() == 2) {
      return WalkResult::Skip();
    }
    return WalkResult::Advance();
  });
  EXPECT_EQ(log, (Log{"Array", "1", "Array", "Map", "3", "true"}));
  // Skip after the children have been walked changes nothing.
  Log post;
  StructuralWalk<WalkOrder::kPostOrder>(Array<Any>{1, 2}, [&](AnyView value) {
    post.push_back(Describe(value));
    return Expected<WalkResult>(WalkResult::Skip());
  });
  EXPECT_EQ(post, (Log{"1", "2", "Array"}));
}

TEST(StructuralWalk, InterruptStopsWithItsPayload) {
  Log log;
  Optional<VisitInterrupt> stop =
      StructuralWalk<WalkOrder::kPreOrder>(NestedRoot(), [&](int64_t x) -> Expected<WalkResult> {
        log.push_back(std::to_string(x));
        if (x == 3) return WalkResult::Interrupt(VisitInterrupt(Any(x * 10)));
        return WalkResult::Advance();
      });
  ASSERT_TRUE(stop.has_value());
  EXPECT_EQ(stop.value()->value.cast<int64_t>(), 30);
  EXPECT_EQ(log, (Log{"1", "3"}));

  Optional<VisitInterrupt> bare = StructuralWalk<WalkOrder::kPostOrder>(
      Array<Any>{1, 2}, [](AnyView) -> Expected<WalkResult> { return WalkResult::Interrupt(); });
  ASSERT_TRUE(bare.has_value());
  EXPECT_TRUE(bare.value()->value == nullptr);

  Optional<VisitInterrupt> done = StructuralWalk<WalkOrder::kPreOrder>(
      NestedRoot(), [](AnyView) -> Expected<WalkResult> { return WalkResult::Advance(); });
  EXPECT_FALSE(done.has_value());
}

TEST(StructuralWalk, FirstMatchingTypedCallbackRuns) {
  Log log;
  StructuralWalk<WalkOrder::kPreOrder>(
      NestedRoot(),
      [&](const String& s) -> Expected<WalkResult> {
        log.push_back("str " + std::string(s));
        return WalkResult::Advance();
      },
      [&](int64_t x) -> Expected<WalkResult> {
        log.push_back("int " + std::to_string(x));
        return WalkResult::Advance();
      },
      [&](const Array<Any>& array) -> Expected<WalkResult> {
        log.push_back("array " + std::to_string(array.size()));
        return WalkResult::Advance();
      },
      [&](AnyView value) -> Expected<WalkResult> {
        log.push_back("other " + Describe(value));
        return WalkResult::Advance();
      });
  EXPECT_EQ(log, (Log{"array 5", "int 1", "array 2", "other 2.5", "str s", "other Map", "int 3",
                      "other true"}));
}

TEST(StructuralWalk, CallbackMayTakeTheDefRegionKind) {
  Log log;
  StructuralWalk<WalkOrder::kPreOrder>(Let(Var("x", nullptr), 5, nullptr),
                                       [&](AnyView value, TVMFFIDefRegionKind kind) {
                                         log.push_back(Describe(value) + KindName(kind));
                                         return Expected<WalkResult>(WalkResult::Advance());
                                       });
  EXPECT_EQ(log, (Log{"LetN", "VarS", "'x'N", "5N"}));
}

TEST(StructuralWalk, DefRegionKindsFollowFieldFlags) {
  Any x = Var("x", Ty("i32"));
  Any y = Var("y", Ty("f32"));
  Any inner = Let(y, 1, Lam(Array<Any>{x}, Array<Any>{x, y}, String("SPAN")));
  Any root = Lam(Array<Any>{Let(x, 2, x)}, inner, String("S2"));
  Log log;
  StructuralWalk<WalkOrder::kPreOrder>(root, [&](AnyView value, TVMFFIDefRegionKind kind) {
    log.push_back(Describe(value) + " " + KindName(kind));
    return Expected<WalkResult>(WalkResult::Advance());
  });
  // A pattern region reaches everything below it (a simple definition inside it included); a
  // simple definition covers the variable only, whose own fields are uses.
  EXPECT_EQ(log, (Log{"Lam N",   "Array P", "Let P",   "Var P",   "'x' P",   "Ty P",    "'i32' P",
                      "2 P",     "Var P",   "'x' P",   "Ty P",    "'i32' P", "Let N",   "Var S",
                      "'y' N",   "Ty N",    "'f32' N", "1 N",     "Lam N",   "Array P", "Var P",
                      "'x' P",   "Ty P",    "'i32' P", "Array N", "Var N",   "'x' N",   "Ty N",
                      "'i32' N", "Var N",   "'y' N",   "Ty N",    "'f32' N"}));
}

// ---- visits --------------------------------------------------------------------------------

TEST(StructuralVisit, MatchedCallbackOwnsTheDescent) {
  Log log;
  auto on_array = [&](const Array<Any>& array, StructuralVisitorObj* visitor) -> VisitResult {
    log.push_back("array " + std::to_string(array.size()));
    return visitor->DefaultVisitExpected(array);
  };
  auto on_other = [&](AnyView value, StructuralVisitorObj*) -> VisitResult {
    log.push_back(Describe(value));
    return Optional<VisitInterrupt>(std::nullopt);
  };
  EXPECT_FALSE(StructuralVisit(NestedRoot(), on_array, on_other).has_value());
  // The Map matched the catch-all, which did not descend.
  EXPECT_EQ(log, (Log{"array 5", "1", "array 2", "2.5", "'s'", "Map", "true"}));
}

TEST(StructuralVisit, UnmatchedValuesGetTheDefaultDescent) {
  Log log;
  StructuralVisit(NestedRoot(), [&](int64_t x, StructuralVisitorObj*) -> VisitResult {
    log.push_back(std::to_string(x));
    return Optional<VisitInterrupt>(std::nullopt);
  });
  EXPECT_EQ(log, (Log{"1", "3"}));
}

TEST(StructuralVisit, InterruptFromACallback) {
  Optional<VisitInterrupt> stop =
      StructuralVisit(NestedRoot(), [](const String& s, StructuralVisitorObj*) -> VisitResult {
        return Optional<VisitInterrupt>(VisitInterrupt(Any(s)));
      });
  ASSERT_TRUE(stop.has_value());
  EXPECT_EQ(stop.value()->value.cast<String>(), "s");
}

TEST(StructuralVisit, WithDefRegionKindScopesAndPatternWins) {
  std::vector<TVMFFIDefRegionKind> kinds;
  int result = 0;
  StructuralVisit(int64_t{1}, [&](AnyView, StructuralVisitorObj* visitor) -> VisitResult {
    auto note = [&] { kinds.push_back(visitor->def_region_kind()); };
    note();
    result = visitor->WithDefRegionKind(kTVMFFIDefRegionKindSimple, [&] {
      note();
      return visitor->WithDefRegionKind(kTVMFFIDefRegionKindPattern, [&] {
        note();
        return visitor->WithDefRegionKind(kTVMFFIDefRegionKindSimple, [&] {
          note();
          return 7;
        });
      });
    });
    note();
    try {
      visitor->WithDefRegionKind(kTVMFFIDefRegionKindSimple,
                                 [] { throw Error("ValueError", "inside", ""); });
    } catch (const Error&) {
      note();
    }
    return Optional<VisitInterrupt>(std::nullopt);
  });
  EXPECT_EQ(result, 7);
  EXPECT_EQ(kinds,
            (std::vector<TVMFFIDefRegionKind>{
                kTVMFFIDefRegionKindNone, kTVMFFIDefRegionKindSimple, kTVMFFIDefRegionKindPattern,
                kTVMFFIDefRegionKindPattern, kTVMFFIDefRegionKindNone, kTVMFFIDefRegionKindNone}));
}

// ---- hooks ---------------------------------------------------------------------------------

TEST(StructuralVisitHooks, NativeHookDecidesTheChildren) {
  Any pair = WithChildren<PairObj>(1, Array<Any>{2, 3});
  EXPECT_EQ(Walk<WalkOrder::kPreOrder>(pair), (Log{"Pair", "Array", "2", "3", "1"}));
  AnyView hook = refl::TypeAttrColumn(type_attr::kStructuralVisit)[PairObj::RuntimeTypeIndex()];
  EXPECT_EQ(hook.type_index(), TypeIndex::kTVMFFIOpaquePtr);
}

TEST(StructuralVisitHooks, FunctionHookDecidesTheChildren) {
  Any hooked = WithChildren<PackedHookedObj>(String("shown"), String("hidden"));
  EXPECT_EQ(Walk<WalkOrder::kPreOrder>(Array<Any>{hooked}),
            (Log{"Array", "PackedHooked", "'shown'"}));
  AnyView hook =
      refl::TypeAttrColumn(type_attr::kStructuralVisit)[PackedHookedObj::RuntimeTypeIndex()];
  EXPECT_EQ(hook.type_index(), TypeIndex::kTVMFFIFunction);
}

TEST(StructuralVisitHooks, HookErrorCarriesTheVisitContext) {
  Any failing = WithChildren<FailingObj>(1);
  Any let = Let(Var("v", nullptr), failing, nullptr);
  Any root = Lam(Array<Any>{}, let, nullptr);
  Log log;
  VisitResult result = StructuralWalkExpected<WalkOrder::kPreOrder>(
      root, [&](AnyView value) -> Expected<WalkResult> {
        log.push_back(Describe(value));
        return WalkResult::Advance();
      });
  ASSERT_TRUE(result.is_err());
  Error err = result.error();
  EXPECT_EQ(err.kind(), "ValueError");
  EXPECT_EQ(err.message(), "failing hook");
  // The hook visited its child before failing, and nothing ran after.
  EXPECT_EQ(log, (Log{"Lam", "Array", "Let", "Var", "'v'", "Failing", "1"}));
  Optional<VisitErrorContext> context = VisitErrorContext::TryGetFromError(err);
  ASSERT_TRUE(context.has_value());
  List<ObjectRef> pattern = (*context)->reverse_visit_pattern;
  ASSERT_EQ(pattern.size(), 3);
  EXPECT_TRUE(pattern[0].same_as(failing.cast<ObjectRef>()));
  EXPECT_TRUE(pattern[1].same_as(let.cast<ObjectRef>()));
  EXPECT_TRUE(pattern[2].same_as(root.cast<ObjectRef>()));
  Array<refl::AccessPath> paths =
      VisitErrorContext::FindAccessPaths(root.cast<ObjectRef>(), *context);
  ASSERT_EQ(paths.size(), 1);
  EXPECT_EQ(std::string(ReprPrint(paths[0])), "<root>.body.value");
}

TEST(StructuralVisitHooks, ThrowingFunctionHookAndCallbackErrors) {
  Any throwing = ObjectRef(make_object<ThrowingObj>());
  Any inner = Array<Any>{throwing};
  Any root = Array<Any>{1, inner};
  Error err = CatchError([&] { Walk<WalkOrder::kPostOrder>(root); });
  EXPECT_EQ(err.kind(), "IndexError");
  EXPECT_EQ(err.message(), "thrown by hook");
  List<ObjectRef> pattern = VisitErrorContext::TryGetFromError(err).value()->reverse_visit_pattern;
  ASSERT_EQ(pattern.size(), 3);
  EXPECT_TRUE(pattern[0].same_as(throwing.cast<ObjectRef>()));
  EXPECT_TRUE(pattern[1].same_as(inner.cast<ObjectRef>()));
  EXPECT_TRUE(pattern[2].same_as(root.cast<ObjectRef>()));

  // A callback's error: the failing value is a string (no record); its containers are.
  Any strings = Array<Any>{String("x")};
  Any outer = Array<Any>{1, strings};
  Error thrown = CatchError([&] {
    StructuralVisit(outer, [](const String&, StructuralVisitorObj*) -> VisitResult {
      throw Error("ValueError", "boom", "");
    });
  });
  EXPECT_EQ(thrown.message(), "boom");
  pattern = VisitErrorContext::TryGetFromError(thrown).value()->reverse_visit_pattern;
  ASSERT_EQ(pattern.size(), 2);
  EXPECT_TRUE(pattern[0].same_as(strings.cast<ObjectRef>()));
  EXPECT_TRUE(pattern[1].same_as(outer.cast<ObjectRef>()));
}

TEST(StructuralVisitHooks, MalformedHookIsATypeError) {
  Any malformed = WithChildren<MalformedObj>(1);
  VisitResult result = StructuralWalkExpected<WalkOrder::kPreOrder>(
      Array<Any>{malformed}, [](AnyView) { return Expected<WalkResult>(WalkResult::Advance()); });
  ASSERT_TRUE(result.is_err());
  EXPECT_EQ(result.error().kind(), "TypeError");
  EXPECT_NE(result.error().message().find("__s_visit__"), std::string::npos);
  EXPECT_NE(result.error().message().find("tsv.Malformed"), std::string::npos);

  Error null_hook =
      CatchError([] { Walk<WalkOrder::kPreOrder>(ObjectRef(make_object<NullHookObj>())); });
  EXPECT_EQ(null_hook.kind(), "TypeError");
  EXPECT_NE(null_hook.message().find("tsv.NullHook"), std::string::npos);
}

TEST(StructuralVisitHooks, SelfContainingListIsARecursionError) {
  List<Any> list{1};
  list.push_back(list);
  VisitResult result = StructuralWalkExpected<WalkOrder::kPreOrder>(
      list, [](AnyView) { return Expected<WalkResult>(WalkResult::Advance()); });
  list.clear();  // break the cycle
  ASSERT_TRUE(result.is_err());
  EXPECT_EQ(result.error().kind(), "RecursionError");
}

// ---- custom visitor layers -----------------------------------------------------------------

/// A layer counting the descent depth and handing it to walk callbacks.
class DepthLayer : public StructuralVisitorObj {
 public:
  using StateTupleType = std::tuple<const int&>;
  explicit DepthLayer(const StructuralVisitorVTable* vtable) : StructuralVisitorObj(vtable) {}

 protected:
  StateTupleType StateTuple() const noexcept { return StateTupleType(depth_); }
  VisitResult DefaultVisitExpected(AnyView value) noexcept {
    ++depth_;
    VisitResult result = StructuralVisitorObj::DefaultVisitExpected(value);
    --depth_;
    return result;
  }

 private:
  int depth_ = 0;
};

TEST(StructuralVisitLayers, WalkEngineOverAStatefulLayer) {
  Log log;
  auto callback = [&](AnyView value, const int& depth) -> Expected<WalkResult> {
    log.push_back(Describe(value) + "@" + std::to_string(depth));
    return WalkResult::Advance();
  };
  using Engine = StructuralWalkEngine<DepthLayer, WalkOrder::kPreOrder, decltype(callback)>;
  StructuralVisitor visitor(make_object<Engine>(callback));
  EXPECT_FALSE(visitor->Visit(Array<Any>{1, Array<Any>{2}}).has_value());
  EXPECT_EQ(log, (Log{"Array@0", "1@1", "Array@1", "2@2"}));
}

// ---- types and conversions -----------------------------------------------------------------

TEST(StructuralVisitTypes, VisitInterruptAndVisitorTypes) {
  EXPECT_EQ(VisitInterruptObj::RuntimeTypeIndex(), TypeIndex::kTVMFFIVisitInterrupt);
  EXPECT_EQ(TypeIndexToTypeKey(TypeIndex::kTVMFFIVisitInterrupt), "ffi.VisitInterrupt");
  EXPECT_EQ(std::string(StaticTypeKey::kTVMFFIVisitInterrupt), "ffi.VisitInterrupt");
  VisitInterrupt with_payload(Any(String("payload")));
  EXPECT_EQ(with_payload->value.cast<String>(), "payload");
  EXPECT_TRUE(VisitInterrupt()->value == nullptr);
  EXPECT_EQ(refl::FieldGetter("ffi.VisitInterrupt", "value")(with_payload).cast<String>(),
            "payload");
  EXPECT_EQ(TypeKeyToIndex("ffi.StructuralVisitor"), StructuralVisitorObj::RuntimeTypeIndex());
  EXPECT_GE(StructuralVisitorObj::RuntimeTypeIndex(), TypeIndex::kTVMFFIDynObjectBegin);
}

TEST(StructuralVisitTypes, WalkResultConversions) {
  EXPECT_EQ(Any(WalkResult::Skip()).cast<int64_t>(), WalkResult::kSkipTag);
  EXPECT_EQ(Any(WalkResult::Advance()).cast<int64_t>(), WalkResult::kAdvanceTag);
  EXPECT_EQ(Any(nullptr).cast<WalkResult>().as<int32_t>().value(), WalkResult::kAdvanceTag);
  EXPECT_TRUE(Any(VisitInterrupt()).cast<WalkResult>().as<VisitInterrupt>().has_value());
  EXPECT_FALSE(Any(String("no")).try_cast<WalkResult>().has_value());
  EXPECT_EQ(TypeTraits<WalkResult>::TypeStr(), "WalkResult");
}

// ---- the globals -----------------------------------------------------------------------------

using Callbacks = Array<Tuple<int, Function>>;

Callbacks One(int type_index, Function callback) {
  return Callbacks{Tuple<int, Function>(type_index, std::move(callback))};
}

TEST(StructuralVisitGlobals, WalkSelectsByTypeIndexInEitherOrder) {
  Function walk = Function::GetGlobalRequired("ffi.StructuralWalk");
  Log log;
  Function record = Function::FromTyped([&](AnyView value) { log.push_back(Describe(value)); });
  EXPECT_TRUE(walk(NestedRoot(), One(-1, record), Callbacks{}, 0) == nullptr);
  EXPECT_EQ(log, (Log{"Array", "1", "Array", "2.5", "'s'", "Map", "3", "true"}));
  log.clear();
  walk(NestedRoot(), One(-1, record), Callbacks{}, 1);
  EXPECT_EQ(log, (Log{"1", "2.5", "'s'", "Array", "3", "Map", "true", "Array"}));

  std::string long_text(64, 'a');
  Any strings = Array<Any>{String(long_text), String("b"), 1};
  log.clear();
  walk(strings, One(TypeIndex::kTVMFFIStr, record), Callbacks{}, 0);
  EXPECT_EQ(log, (Log{"'" + long_text + "'", "'b'"}));
  log.clear();
  walk(strings, One(TypeIndex::kTVMFFIObject, record), Callbacks{}, 0);
  EXPECT_EQ(log, (Log{"Array", "'" + long_text + "'"}));
  log.clear();
  walk(strings, One(-5, record), Callbacks{}, 0);
  walk(strings, One(TypeIndex::kTVMFFIBool, record), Callbacks{}, 0);
  EXPECT_EQ(log, (Log{}));
  walk(Lam(Array<Any>{Var("x", nullptr)}, nullptr, nullptr),
       One(VarObj::RuntimeTypeIndex(), record), Callbacks{}, 0);
  EXPECT_EQ(log, (Log{"Var"}));
}

TEST(StructuralVisitGlobals, WalkKindCallbacksControlAndErrors) {
  Function walk = Function::GetGlobalRequired("ffi.StructuralWalk");
  Log log;
  Function plain =
      Function::FromTyped([&](int64_t x) { log.push_back("plain " + std::to_string(x)); });
  Function with_kind = Function::FromTyped([&](AnyView value, int kind) {
    log.push_back(Describe(value) + " " + std::to_string(kind));
  });
  walk(Let(Var("x", nullptr), 5, nullptr), One(TypeIndex::kTVMFFIInt, plain), One(-1, with_kind),
       0);
  EXPECT_EQ(log, (Log{"Let 0", "Var 2", "'x' 0", "plain 5"}));

  Function skip_arrays = Function::FromTyped([&](AnyView value) -> int {
    log.push_back(Describe(value));
    return value.type_index() == TypeIndex::kTVMFFIArray ? WalkResult::kSkipTag
                                                         : WalkResult::kAdvanceTag;
  });
  log.clear();
  walk(List<Any>{1, Array<Any>{2}}, One(-1, skip_arrays), Callbacks{}, 0);
  EXPECT_EQ(log, (Log{"List", "1", "Array"}));

  Function make_interrupt = Function::GetGlobalRequired("ffi.VisitInterrupt");
  Function stop_at_two = Function::FromTyped([&](int64_t x) -> Any {
    if (x == 2) return make_interrupt(x * 100);
    return nullptr;
  });
  Any stop = walk(Array<Any>{1, 2, 3}, One(TypeIndex::kTVMFFIInt, stop_at_two), Callbacks{}, 1);
  EXPECT_EQ(stop.cast<VisitInterrupt>()->value.cast<int64_t>(), 200);

  Function bad = Function::FromTyped([](AnyView) { return String("abc"); });
  Error err = CatchError([&] { walk(Array<Any>{1}, One(-1, bad), Callbacks{}, 0); });
  EXPECT_EQ(err.kind(), "TypeError");
  EXPECT_NE(err.message().find("WalkResult"), std::string::npos);
}

TEST(StructuralVisitGlobals, VisitAndVisitorMethods) {
  Function visit = Function::GetGlobalRequired("ffi.StructuralVisit");
  Function default_visit = Function::GetGlobalRequired("ffi.StructuralVisitorDefaultVisit");
  Function visit_child = Function::GetGlobalRequired("ffi.StructuralVisitorVisit");
  Function kind_of = Function::GetGlobalRequired("ffi.StructuralVisitorDefRegionKind");
  Function with_kind = Function::GetGlobalRequired("ffi.StructuralVisitorWithDefRegionKind");
  Log log;
  Function on_any = Function::FromTyped([&](AnyView value, StructuralVisitor visitor) -> Any {
    log.push_back(Describe(value));
    if (value.type_index() == TypeIndex::kTVMFFIArray) return default_visit(visitor, value);
    return nullptr;
  });
  EXPECT_TRUE(visit(NestedRoot(), One(-1, on_any)) == nullptr);
  EXPECT_EQ(log, (Log{"Array", "1", "Array", "2.5", "'s'", "Map", "true"}));

  // visit() on a chosen child; def-region kinds set through the global.
  log.clear();
  Function probe = Function::FromTyped([&](const Array<Any>& array, StructuralVisitor visitor) {
    log.push_back("kind " + std::to_string(kind_of(visitor).cast<int>()));
    Function inside = Function::FromTyped([&]() {
      log.push_back("inside " + std::to_string(kind_of(visitor).cast<int>()));
      return visit_child(visitor, array[1]);
    });
    Any result = with_kind(visitor, static_cast<int>(kTVMFFIDefRegionKindSimple), inside);
    log.push_back("after " + std::to_string(kind_of(visitor).cast<int>()));
    EXPECT_EQ(ErrorText([&] { with_kind(visitor, 7, inside); }).rfind("ValueError: ", 0), 0u);
    return result;
  });
  Function on_int = Function::FromTyped([&](int64_t x, StructuralVisitor) -> Any {
    log.push_back("int " + std::to_string(x));
    return x == 2 ? Any(VisitInterrupt(Any(x))) : Any(nullptr);
  });
  Callbacks both{Tuple<int, Function>(TypeIndex::kTVMFFIArray, probe),
                 Tuple<int, Function>(TypeIndex::kTVMFFIInt, on_int)};
  Any stop = visit(Array<Any>{1, 2}, both);
  EXPECT_EQ(stop.cast<VisitInterrupt>()->value.cast<int64_t>(), 2);
  EXPECT_EQ(log, (Log{"kind 0", "inside 2", "int 2", "after 0"}));

  Function wrong = Function::FromTyped([](AnyView, StructuralVisitor) { return 1; });
  Error err = CatchError([&] { visit(Array<Any>{1}, One(-1, wrong)); });
  EXPECT_EQ(err.kind(), "TypeError");
}

TEST(StructuralVisitGlobals, AVisitorOutlivesItsTraversal) {
  Function visit = Function::GetGlobalRequired("ffi.StructuralVisit");
  Function visit_child = Function::GetGlobalRequired("ffi.StructuralVisitorVisit");
  std::vector<StructuralVisitor> saved;
  int calls = 0;
  Function keep = Function::FromTyped([&](AnyView, StructuralVisitor visitor) {
    ++calls;
    saved.push_back(visitor);
  });
  visit(Array<Any>{1}, One(-1, keep));
  ASSERT_EQ(saved.size(), 1u);
  StructuralVisitor first = saved[0];
  EXPECT_TRUE(visit_child(first, Array<Any>{1}) == nullptr);
  EXPECT_EQ(calls, 2);
}

// TVM_FFI_S_VISIT_MAYBE_EARLY_RETURN_WITH_ERROR_CONTEXT (0.1.13's spelling): falls through on
// None, returns an interrupt as it is and an Error with node appended to its visit context.
VisitResult ReturnEarlyWithContext(VisitResult result, AnyView node) noexcept {
  TVM_FFI_S_VISIT_MAYBE_EARLY_RETURN_WITH_ERROR_CONTEXT(std::move(result), node);
  return Optional<VisitInterrupt>(VisitInterrupt(Any("fell through")));
}

TEST(StructuralVisitMacros, EarlyReturnWithErrorContextRecordsTheNode) {
  ObjectRef node = Ty("here");
  VisitResult passed = ReturnEarlyWithContext(Optional<VisitInterrupt>(std::nullopt), node);
  EXPECT_EQ(passed.value().value()->value.cast<String>(), "fell through");

  VisitResult stopped =
      ReturnEarlyWithContext(Optional<VisitInterrupt>(VisitInterrupt(Any(7))), node);
  EXPECT_EQ(stopped.value().value()->value.cast<int64_t>(), 7);

  VisitResult failed = ReturnEarlyWithContext(Error("ValueError", "bad child", ""), node);
  ASSERT_TRUE(failed.is_err());
  Error err = failed.error();
  EXPECT_EQ(err.kind(), "ValueError");
  List<ObjectRef> pattern = VisitErrorContext::TryGetFromError(err).value()->reverse_visit_pattern;
  ASSERT_EQ(pattern.size(), 1);
  EXPECT_TRUE(pattern[0].same_as(node));
}

}  // namespace tvm_ffi_structural_visit_test

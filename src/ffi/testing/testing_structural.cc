// SPDX-License-Identifier: Apache-2.0
// testing_structural.cc: testing.* object types for structural equality and hashing: a free
// variable, binders with pattern and simple def regions, tree and DAG nodes, a type with custom
// `__s_equal__` / `__s_hash__` hooks, and types that do not support structural comparison.
#include <tvm/ffi/any.h>
#include <tvm/ffi/extra/structural_equal.h>
#include <tvm/ffi/extra/structural_hash.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <utility>

namespace tvm {
namespace ffi {
namespace testing {

/// testing.TestStructuralVar: a free variable; its name is ignored, its annotation compared.
class TestStructuralVarObj : public Object {
 public:
  String name;
  Any annotation;
  TestStructuralVarObj(String name, Any annotation)
      : name(std::move(name)), annotation(std::move(annotation)) {}
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindFreeVar;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestStructuralVar", TestStructuralVarObj, Object);
};

/// testing.TestStructuralFunc: binds the variables in `params` (a pattern def region).
class TestStructuralFuncObj : public Object {
 public:
  Any params;
  Any body;
  TestStructuralFuncObj(Any params, Any body) : params(std::move(params)), body(std::move(body)) {}
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestStructuralFunc", TestStructuralFuncObj, Object);
};

/// testing.TestStructuralLet: binds `var` alone (a simple def region; its annotation is a use).
class TestStructuralLetObj : public Object {
 public:
  Any var;
  Any body;
  TestStructuralLetObj(Any var, Any body) : var(std::move(var)), body(std::move(body)) {}
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestStructuralLet", TestStructuralLetObj, Object);
};

/// testing.TestStructuralNode: a mutable tree node (a, b compared; ignored is not).
class TestStructuralNodeObj : public Object {
 public:
  Any a;
  Any b;
  Any ignored;
  TestStructuralNodeObj(Any a, Any b, Any ignored)
      : a(std::move(a)), b(std::move(b)), ignored(std::move(ignored)) {}
  static constexpr bool _type_mutable = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestStructuralNode", TestStructuralNodeObj, Object);
};

/// testing.TestStructuralDAGNode: a node whose sharing must match on both sides.
class TestStructuralDAGNodeObj : public Object {
 public:
  Any a;
  Any b;
  TestStructuralDAGNodeObj(Any a, Any b) : a(std::move(a)), b(std::move(b)) {}
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindDAGNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestStructuralDAGNode", TestStructuralDAGNodeObj,
                                    Object);
};

/// testing.TestStructuralCustom: hooks compare and hash `key` only (`label` is left out).
class TestStructuralCustomObj : public Object {
 public:
  Any key;
  Any label;
  TestStructuralCustomObj(Any key, Any label) : key(std::move(key)), label(std::move(label)) {}
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestStructuralCustom", TestStructuralCustomObj,
                                    Object);
};

/// testing.TestStructuralUnsupported: reflected, but declares no structural kind.
class TestStructuralUnsupportedObj : public Object {
 public:
  int64_t value = 0;
  explicit TestStructuralUnsupportedObj(int64_t value) : value(value) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestStructuralUnsupported",
                                    TestStructuralUnsupportedObj, Object);
};

/// testing.TestStructuralOpaque: registered without any reflection metadata.
class TestStructuralOpaqueObj : public Object {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestStructuralOpaque", TestStructuralOpaqueObj,
                                    Object);
};

using SEqualCallback = TypedFunction<bool(AnyView, AnyView, int, AnyView)>;
using SHashCallback = TypedFunction<int64_t(AnyView, int64_t, int)>;

bool CustomSEqual(const Object* lhs, const Object* rhs, const SEqualCallback& compare) {
  const auto* a = static_cast<const TestStructuralCustomObj*>(lhs);
  const auto* b = static_cast<const TestStructuralCustomObj*>(rhs);
  return compare(a->key, b->key, kTVMFFIDefRegionKindNone, String("key"));
}

int64_t CustomSHash(const Object* obj, int64_t init_hash, const SHashCallback& hash) {
  return hash(static_cast<const TestStructuralCustomObj*>(obj)->key, init_hash,
              kTVMFFIDefRegionKindNone);
}

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = reflection;
  refl::ObjectDef<TestStructuralVarObj>()
      .def(refl::init<String, Any>())
      .def_ro("name", &TestStructuralVarObj::name, refl::AttachFieldFlag::SEqHashIgnore())
      .def_ro("annotation", &TestStructuralVarObj::annotation);
  refl::ObjectDef<TestStructuralFuncObj>()
      .def(refl::init<Any, Any>())
      .def_ro("params", &TestStructuralFuncObj::params, refl::AttachFieldFlag::SEqHashDef())
      .def_ro("body", &TestStructuralFuncObj::body);
  refl::ObjectDef<TestStructuralLetObj>()
      .def(refl::init<Any, Any>())
      .def_ro("var", &TestStructuralLetObj::var, refl::AttachFieldFlag::SEqHashDefNonRecursive())
      .def_ro("body", &TestStructuralLetObj::body);
  refl::ObjectDef<TestStructuralNodeObj>()
      .def(refl::init<Any, Any, Any>())
      .def_rw("a", &TestStructuralNodeObj::a)
      .def_rw("b", &TestStructuralNodeObj::b)
      .def_rw("ignored", &TestStructuralNodeObj::ignored, refl::AttachFieldFlag::SEqHashIgnore());
  refl::ObjectDef<TestStructuralDAGNodeObj>()
      .def(refl::init<Any, Any>())
      .def_ro("a", &TestStructuralDAGNodeObj::a)
      .def_ro("b", &TestStructuralDAGNodeObj::b);
  refl::ObjectDef<TestStructuralCustomObj>()
      .def(refl::init<Any, Any>())
      .def_ro("key", &TestStructuralCustomObj::key)
      .def_ro("label", &TestStructuralCustomObj::label);
  refl::TypeAttrDef<TestStructuralCustomObj>()
      .def(type_attr::kSEqual.name, CustomSEqual)
      .def(type_attr::kSHash.name, CustomSHash);
  refl::ObjectDef<TestStructuralUnsupportedObj>()
      .def(refl::init<int64_t>())
      .def_ro("value", &TestStructuralUnsupportedObj::value);
  refl::GlobalDef().def("testing.make_structural_opaque",
                        []() { return ObjectRef(make_object<TestStructuralOpaqueObj>()); });
}

}  // namespace testing
}  // namespace ffi
}  // namespace tvm

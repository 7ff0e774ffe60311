// SPDX-License-Identifier: Apache-2.0
// ir_nodes.cc: a tiny expression IR in C++ (variables, constants, additions, functions), whose
// reflection gives it printing, structural equality and hashing, and serialization (see
// docs/guide/compiler.md).
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/extra/structural_equal.h>
#include <tvm/ffi/extra/structural_hash.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <utility>

namespace cpp_guide {
namespace ffi = tvm::ffi;
namespace refl = ffi::reflection;

// [nodes-begin]
// The base of every expression; a tree node: compared field by field.
class ExprObj : public ffi::Object {
 public:
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO("cpp_guide.Expr", ExprObj, ffi::Object);
};

class Expr : public ffi::ObjectRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(Expr, ffi::ObjectRef, ExprObj);
};

// A variable: equal to another only where a definition binds the two (or map_free_vars).
class VarObj : public ExprObj {
 public:
  ffi::String name;
  explicit VarObj(ffi::String name) : name(std::move(name)) {}
  explicit VarObj(ffi::UnsafeInit) {}  // for reflection: deserializing, copying
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindFreeVar;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("cpp_guide.Var", VarObj, ExprObj);
};

class Var : public Expr {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(Var, Expr, VarObj);
};

class ConstObj : public ExprObj {
 public:
  int64_t value;
  explicit ConstObj(int64_t value) : value(value) {}
  explicit ConstObj(ffi::UnsafeInit) : value(0) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("cpp_guide.Const", ConstObj, ExprObj);
};

class AddObj : public ExprObj {
 public:
  Expr lhs, rhs;
  AddObj(Expr lhs, Expr rhs) : lhs(std::move(lhs)), rhs(std::move(rhs)) {}
  explicit AddObj(ffi::UnsafeInit tag) : lhs(tag), rhs(tag) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("cpp_guide.Add", AddObj, ExprObj);
};

// A function: its params are definitions, so two functions that differ only in the names
// (and identities) of their params are equal.
class FuncObj : public ExprObj {
 public:
  ffi::Array<Var> params;
  Expr body;
  FuncObj(ffi::Array<Var> params, Expr body) : params(std::move(params)), body(std::move(body)) {}
  explicit FuncObj(ffi::UnsafeInit tag) : body(tag) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("cpp_guide.Func", FuncObj, ExprObj);
};
// [nodes-end]

// [reflection-begin]
TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<ExprObj>();
  // A variable's name is for people: structural equality and hashing skip it.
  refl::ObjectDef<VarObj>()
      .def_ro("name", &VarObj::name, refl::AttachFieldFlag::SEqHashIgnore())
      .def(refl::init<ffi::String>());
  refl::ObjectDef<ConstObj>().def_ro("value", &ConstObj::value).def(refl::init<int64_t>());
  refl::ObjectDef<AddObj>()
      .def_ro("lhs", &AddObj::lhs)
      .def_ro("rhs", &AddObj::rhs)
      .def(refl::init<Expr, Expr>());
  // params defines the variables that body uses.
  refl::ObjectDef<FuncObj>()
      .def_ro("params", &FuncObj::params, refl::AttachFieldFlag::SEqHashDef())
      .def_ro("body", &FuncObj::body)
      .def(refl::init<ffi::Array<Var>, Expr>());
}
// [reflection-end]

// [cpp-compare-begin]
// The same comparisons from C++: StructuralEqual and StructuralHash take any values.
bool SameIR(const Expr& lhs, const Expr& rhs) {
  return ffi::StructuralEqual::Equal(lhs, rhs) &&
         ffi::StructuralHash::Hash(lhs) == ffi::StructuralHash::Hash(rhs);
}

TVM_FFI_DLL_EXPORT_TYPED_FUNC(same_ir, SameIR);
// [cpp-compare-end]

}  // namespace cpp_guide

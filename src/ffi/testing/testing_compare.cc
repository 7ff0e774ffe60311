// SPDX-License-Identifier: Apache-2.0
// testing_compare.cc: testing.* object types for recursive equality, ordering and hashing: fields
// left out of comparison or hashing, and types whose `__ffi_hash__` / `__ffi_eq__` /
// `__ffi_compare__` hooks look at `key` alone (one with equality but no hash).
#include <tvm/ffi/any.h>
#include <tvm/ffi/extra/dataclass.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <utility>

namespace tvm {
namespace ffi {
namespace testing {

/// testing.TestCompare: `ignored_field` takes no part in comparison.
class TestCompareObj : public Object {
 public:
  int64_t key = 0;
  String name;
  int64_t ignored_field = 0;
  TestCompareObj(int64_t key, String name, int64_t ignored_field)
      : key(key), name(std::move(name)), ignored_field(ignored_field) {}
  explicit TestCompareObj(UnsafeInit) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestCompare", TestCompareObj, Object);
};

/// testing.TestHash: `hash_ignored` takes no part in hashing.
class TestHashObj : public Object {
 public:
  int64_t key = 0;
  String name;
  int64_t hash_ignored = 0;
  TestHashObj(int64_t key, String name, int64_t hash_ignored)
      : key(key), name(std::move(name)), hash_ignored(hash_ignored) {}
  explicit TestHashObj(UnsafeInit) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestHash", TestHashObj, Object);
};

/// testing.TestCustomHash: hashes `key` alone; equality still compares both fields.
class TestCustomHashObj : public Object {
 public:
  int64_t key = 0;
  String label;
  TestCustomHashObj(int64_t key, String label) : key(key), label(std::move(label)) {}
  explicit TestCustomHashObj(UnsafeInit) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestCustomHash", TestCustomHashObj, Object);
};

/// testing.TestCustomCompare: hashes, compares and orders by `key` alone.
class TestCustomCompareObj : public Object {
 public:
  int64_t key = 0;
  String label;
  TestCustomCompareObj(int64_t key, String label) : key(key), label(std::move(label)) {}
  explicit TestCustomCompareObj(UnsafeInit) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestCustomCompare", TestCustomCompareObj, Object);
};

/// testing.TestEqWithoutHash: equality by `key` alone and no hash hook, so it cannot be hashed.
class TestEqWithoutHashObj : public Object {
 public:
  int64_t key = 0;
  String label;
  TestEqWithoutHashObj(int64_t key, String label) : key(key), label(std::move(label)) {}
  explicit TestEqWithoutHashObj(UnsafeInit) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestEqWithoutHash", TestEqWithoutHashObj, Object);
};

namespace {
namespace refl = reflection;

using NestedHash = TypedFunction<int64_t(AnyView)>;
using NestedEq = TypedFunction<bool(AnyView, AnyView)>;
using NestedCompare = TypedFunction<int32_t(AnyView, AnyView)>;

template <typename T>
int64_t KeyOf(const Object* obj) {
  return static_cast<const T*>(obj)->key;
}

template <typename T>
int64_t HashKey(const Object* obj, const NestedHash& hash) {
  return hash(KeyOf<T>(obj));
}

template <typename T>
bool EqualKeys(const Object* lhs, const Object* rhs, const NestedEq& eq) {
  return eq(KeyOf<T>(lhs), KeyOf<T>(rhs));
}

template <typename T>
int32_t CompareKeys(const Object* lhs, const Object* rhs, const NestedCompare& compare) {
  return compare(KeyOf<T>(lhs), KeyOf<T>(rhs));
}

/// The reflection shared by the key/label types: a 2-argument constructor and read-only fields.
template <typename T>
void DefKeyLabel() {
  refl::ObjectDef<T>()
      .def(refl::init<int64_t, String>())
      .def_ro("key", &T::key)
      .def_ro("label", &T::label);
}

void RegisterFieldFlagTypes() {
  refl::ObjectDef<TestCompareObj>()
      .def(refl::init<int64_t, String, int64_t>())
      .def_ro("key", &TestCompareObj::key)
      .def_ro("name", &TestCompareObj::name)
      .def_ro("ignored_field", &TestCompareObj::ignored_field, refl::compare(false));
  refl::ObjectDef<TestHashObj>()
      .def(refl::init<int64_t, String, int64_t>())
      .def_ro("key", &TestHashObj::key)
      .def_ro("name", &TestHashObj::name)
      .def_ro("hash_ignored", &TestHashObj::hash_ignored, refl::hash(false));
}

void RegisterHookTypes() {
  DefKeyLabel<TestCustomHashObj>();
  refl::TypeAttrDef<TestCustomHashObj>().attr(type_attr::kHash, HashKey<TestCustomHashObj>);
  DefKeyLabel<TestCustomCompareObj>();
  refl::TypeAttrDef<TestCustomCompareObj>()
      .attr(type_attr::kHash, HashKey<TestCustomCompareObj>)
      .attr(type_attr::kEq, EqualKeys<TestCustomCompareObj>)
      .attr(type_attr::kCompare, CompareKeys<TestCustomCompareObj>);
  DefKeyLabel<TestEqWithoutHashObj>();
  refl::TypeAttrDef<TestEqWithoutHashObj>().attr(type_attr::kEq, EqualKeys<TestEqWithoutHashObj>);
}

}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  RegisterFieldFlagTypes();
  RegisterHookTypes();
}

}  // namespace testing
}  // namespace ffi
}  // namespace tvm

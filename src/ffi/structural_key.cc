// SPDX-License-Identifier: Apache-2.0
// structural_key.cc: reflection of ffi.StructuralKey (fields, constructor, map-key hooks) and the
// ffi.StructuralKey / ffi.StructuralKeyEqual globals.
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/structural_key.h>
#include <tvm/ffi/reflection/registry.h>

#include <utility>

namespace tvm {
namespace ffi {
namespace {

const StructuralKeyObj* AsStructuralKey(const Any& value) {
  const StructuralKeyObj* key = value.as<StructuralKeyObj>();
  if (key == nullptr) {
    TVM_FFI_THROW(TypeError) << "StructuralKey: expected an ffi.StructuralKey, got "
                             << value.GetTypeKey();
  }
  return key;
}

/// The `__any_hash__` of StructuralKey: its cached structural hash.
int64_t StructuralKeyHash(const Any& key) { return AsStructuralKey(key)->hash_i64; }

/// The `__any_equal__` of StructuralKey and the ffi.StructuralKeyEqual global.
bool StructuralKeyEqual(const Any& lhs, const Any& rhs) {
  if (lhs.same_as(rhs)) return true;
  const StructuralKeyObj* a = AsStructuralKey(lhs);
  const StructuralKeyObj* b = AsStructuralKey(rhs);
  return a->hash_i64 == b->hash_i64 && StructuralEqual::Equal(a->key, b->key);
}

}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = reflection;
  refl::ObjectDef<StructuralKeyObj>()
      .def(refl::init<Any>(), "Constructor that takes any key and computes its structural hash")
      .def_ro("key", &StructuralKeyObj::key)
      .def_ro("hash_i64", &StructuralKeyObj::hash_i64);
  refl::TypeAttrDef<StructuralKeyObj>()
      .native_fn_attr<&StructuralKeyHash>(type_attr::kAnyHash)
      .native_fn_attr<&StructuralKeyEqual>(type_attr::kAnyEqual);
  refl::GlobalDef()
      .def("ffi.StructuralKey", [](Any key) { return StructuralKey(std::move(key)); })
      .def("ffi.StructuralKeyEqual", &StructuralKeyEqual);
}

}  // namespace ffi
}  // namespace tvm

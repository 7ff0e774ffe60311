// SPDX-License-Identifier: Apache-2.0
// structural_traversal.h: what the structural visit and mutate runtimes share: checking a
// def-region kind from a frontend, and registering the type of a traversal object.
#ifndef TVM_FFI_SRC_FFI_STRUCTURAL_TRAVERSAL_H_
#define TVM_FFI_SRC_FFI_STRUCTURAL_TRAVERSAL_H_

#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/reflection/registry.h>

#include <cstdint>

namespace tvm {
namespace ffi {

/// A def-region kind from a frontend; ValueError for values TVMFFIDefRegionKind does not have.
inline TVMFFIDefRegionKind CheckedDefRegionKind(int64_t kind) {
  if (kind != kTVMFFIDefRegionKindNone && kind != kTVMFFIDefRegionKindPattern &&
      kind != kTVMFFIDefRegionKindSimple) {
    TVM_FFI_THROW(ValueError) << "CheckedDefRegionKind: invalid def-region kind " << kind
                              << " (expected 0 = none, 1 = pattern, 2 = simple)";
  }
  return static_cast<TVMFFIDefRegionKind>(kind);
}

/// Registers the metadata of a traversal type (a visitor or mutator) and its
/// `__ffi_type_final__` (false: each engine is a C++ subclass sharing the type's index). It has
/// no other reflection, `__ffi_shallow_copy__` included: such an object comes only from a
/// running traversal, and a copy would lose its engine.
template <typename TraversalObj>
inline void RegisterTraversalType() {
  int32_t type_index = TraversalObj::_GetOrAllocRuntimeTypeIndex();
  TVMFFITypeMetadata metadata;
  metadata.doc = TVMFFIByteArray{nullptr, 0};
  metadata.creator = nullptr;
  metadata.total_size = static_cast<int32_t>(sizeof(TraversalObj));
  metadata.structural_eq_hash_kind = kTVMFFISEqHashKindUnsupported;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterMetadata(type_index, &metadata));
  reflection::details::RegisterTypeAttr(type_index, reflection::type_attr::kTypeFinal,
                                        TraversalObj::_type_final);
}

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_SRC_FFI_STRUCTURAL_TRAVERSAL_H_

// SPDX-License-Identifier: Apache-2.0
// structural_traversal.h: what the structural visit and mutate runtimes share: checking a
// def-region kind from a frontend, and registering the type of a traversal object.
#ifndef TVM_FFI_SRC_FFI_STRUCTURAL_TRAVERSAL_H_
#define TVM_FFI_SRC_FFI_STRUCTURAL_TRAVERSAL_H_

#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>

#include <cstdint>

namespace tvm {
namespace ffi {

/// A def-region kind from a frontend; ValueError for values TVMFFIDefRegionKind does not have.
inline TVMFFIDefRegionKind CheckedDefRegionKind(int64_t kind) {
  if (kind != kTVMFFIDefRegionKindNone && kind != kTVMFFIDefRegionKindPattern &&
      kind != kTVMFFIDefRegionKindSimple) {
    TVM_FFI_THROW(ValueError) << "invalid def-region kind " << kind
                              << " (expected 0 = none, 1 = pattern, 2 = simple)";
  }
  return static_cast<TVMFFIDefRegionKind>(kind);
}

/// Registers the metadata of a traversal type (a visitor or mutator) of total_size bytes. It
/// has no reflection: such an object comes only from a running traversal, and a copy would lose
/// its engine.
inline void RegisterTraversalType(int32_t type_index, int32_t total_size) {
  TVMFFITypeMetadata metadata;
  metadata.doc = TVMFFIByteArray{nullptr, 0};
  metadata.creator = nullptr;
  metadata.total_size = total_size;
  metadata.structural_eq_hash_kind = kTVMFFISEqHashKindUnsupported;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterMetadata(type_index, &metadata));
}

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_SRC_FFI_STRUCTURAL_TRAVERSAL_H_

// SPDX-License-Identifier: Apache-2.0
// container/map_hash.h: key hashing and equality of Map/Dict (docs/abi.md, 'Equality and hashing').
#ifndef TVM_FFI_CONTAINER_MAP_HASH_H_
#define TVM_FFI_CONTAINER_MAP_HASH_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>

#include <cstdint>

namespace tvm {
namespace ffi {
namespace details {

/// Whether a cell is an object other than a string or bytes (the ones type attrs may customise).
inline bool IsCustomizableKey(const TVMFFIAny* cell) {
  return cell->type_index >= TypeIndex::kTVMFFIStaticObjectBegin &&
         cell->type_index != TypeIndex::kTVMFFIStr && cell->type_index != TypeIndex::kTVMFFIBytes;
}

/// Hash of a map key: AnyHash (a type's `__any_hash__` combined with its type index, else the
/// hash of docs/abi.md, 'Equality and hashing'), as Apache's maps hash, so that maps built by
/// either side's headers agree.
inline uint64_t MapKeyHash(const Any& key) { return AnyHash()(key); }

/// Equality of map keys: AnyEqual (bitwise or string content; two objects of one type that
/// registers `__any_equal__` by that hook).
inline bool MapKeyEqual(const Any& lhs, const Any& rhs) { return AnyEqual()(lhs, rhs); }

/// Whether comparing key with a stored key of its type may call an `__any_equal__` hook.
inline bool MapKeyHasEqualHook(const Any& key) {
  const TVMFFIAny* cell = AnyUnsafe::TVMFFIAnyPtrFromAny(key);
  return IsCustomizableKey(cell) && AnyHookRow<kAnyEqualHookName>(cell->type_index) != nullptr;
}

}  // namespace details
}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_CONTAINER_MAP_HASH_H_

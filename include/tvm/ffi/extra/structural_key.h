// SPDX-License-Identifier: Apache-2.0
// extra/structural_key.h: StructuralKey, a value wrapped with its cached structural hash, so it
// can key hash maps by structure (== is StructuralEqual, std::hash the cached hash).
#ifndef TVM_FFI_EXTRA_STRUCTURAL_KEY_H_
#define TVM_FFI_EXTRA_STRUCTURAL_KEY_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/extra/structural_equal.h>
#include <tvm/ffi/extra/structural_hash.h>
#include <tvm/ffi/memory.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>

namespace tvm {
namespace ffi {

/// A key value and its structural hash (as int64).
class StructuralKeyObj : public Object {
 public:
  /// The key value.
  Any key;
  /// The structural hash of key.
  int64_t hash_i64{0};

  /// An empty key (None, hash 0), filled by reflection.
  StructuralKeyObj() = default;
  /// Wraps key and computes its structural hash.
  explicit StructuralKeyObj(Any key)
      : key(std::move(key)), hash_i64(static_cast<int64_t>(StructuralHash::Hash(this->key))) {}

  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("ffi.StructuralKey", StructuralKeyObj, Object);
};

/// Reference to a StructuralKeyObj; compares structurally.
class StructuralKey : public ObjectRef {
 public:
  /// A new key of key, hashing it.
  explicit StructuralKey(Any key) : ObjectRef(make_object<StructuralKeyObj>(std::move(key))) {}

  /// Same object, or equal hashes and structurally equal keys.
  bool operator==(const StructuralKey& other) const {
    if (same_as(other)) return true;
    if (get()->hash_i64 != other->hash_i64) return false;
    return StructuralEqual::Equal(get()->key, other->key);
  }
  /// Negation of ==.
  bool operator!=(const StructuralKey& other) const { return !(*this == other); }

  /// Copy, move and access members of the reference.
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(StructuralKey, ObjectRef, StructuralKeyObj);
};

}  // namespace ffi
}  // namespace tvm

namespace std {
/// The cached structural hash of a StructuralKey.
template <>
struct hash<tvm::ffi::StructuralKey> {
  /// The structural hash of key's value.
  size_t operator()(const tvm::ffi::StructuralKey& key) const {
    return static_cast<size_t>(static_cast<uint64_t>(key->hash_i64));
  }
};
}  // namespace std

#endif  // TVM_FFI_EXTRA_STRUCTURAL_KEY_H_

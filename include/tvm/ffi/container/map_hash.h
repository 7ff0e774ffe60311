// SPDX-License-Identifier: Apache-2.0
// container/map_hash.h: key hashing and equality of Map/Dict (docs/abi.md, 'Equality and hashing').
#ifndef TVM_FFI_CONTAINER_MAP_HASH_H_
#define TVM_FFI_CONTAINER_MAP_HASH_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/function.h>

#include <atomic>
#include <cstdint>
#include <cstring>

namespace tvm {
namespace ffi {
namespace details {

/// The row of type_index in the attribute column `name` (cached once the column exists), or
/// nullptr when the column or the row is missing / None.
template <const char* kName>
inline const TVMFFIAny* MapKeyAttrRow(int32_t type_index) {
  static std::atomic<const TVMFFITypeAttrColumn*> cache{nullptr};
  const TVMFFITypeAttrColumn* column = cache.load(std::memory_order_acquire);
  if (column == nullptr) {
    TVMFFIByteArray key{kName, std::strlen(kName)};
    column = TVMFFIGetTypeAttrColumn(&key);
    if (column == nullptr) return nullptr;
    cache.store(column, std::memory_order_release);
  }
  int32_t row = type_index - column->begin_index;
  if (row < 0 || row >= column->size) return nullptr;
  const TVMFFIAny* cell = column->data + row;
  return cell->type_index == TypeIndex::kTVMFFINone ? nullptr : cell;
}

inline constexpr char kAnyHashAttr[] = "__any_hash__";
inline constexpr char kAnyEqualAttr[] = "__any_equal__";

/// Whether a cell is an object other than a string or bytes (the ones type attrs may customise).
inline bool IsCustomizableKey(const TVMFFIAny* cell) {
  return cell->type_index >= TypeIndex::kTVMFFIStaticObjectBegin &&
         cell->type_index != TypeIndex::kTVMFFIStr && cell->type_index != TypeIndex::kTVMFFIBytes;
}

/// The owned result cell of a native key hook as an Any; a returned Error is thrown.
/// Native hooks (Apache 0.1.15's convention) are `TVMFFIAny (*)(const Any&...) noexcept` and
/// return their result, or the Error they raised, in an owned cell.
inline Any TakeKeyHookResult(TVMFFIAny result) {
  Any owned = AnyUnsafe::MoveTVMFFIAnyToAny(&result);
  if (owned.type_index() == TypeIndex::kTVMFFIError) throw owned.cast<Error>();
  return owned;
}

/// Hash of a map key: the type's `__any_hash__` (an OpaquePtr to
/// TVMFFIAny(const Any&) noexcept giving an int, or a Function (Any) -> int) when it registers
/// one, else the hash of docs/abi.md, 'Equality and hashing'.
inline uint64_t MapKeyHash(const Any& key) {
  const TVMFFIAny* cell = AnyUnsafe::TVMFFIAnyPtrFromAny(key);
  if (IsCustomizableKey(cell)) {
    if (const TVMFFIAny* attr = MapKeyAttrRow<kAnyHashAttr>(cell->type_index)) {
      if (attr->type_index == TypeIndex::kTVMFFIOpaquePtr) {
        using FHash = TVMFFIAny (*)(const Any&) noexcept;
        Any hash = TakeKeyHookResult(reinterpret_cast<FHash>(attr->v_ptr)(key));
        return static_cast<uint64_t>(hash.cast<int64_t>());
      }
      Function func = AnyView::CopyFromTVMFFIAny(*attr).cast<Function>();
      return static_cast<uint64_t>(func(key).cast<int64_t>());
    }
  }
  return AnyHashCell(cell);
}

/// Equality of map keys: bitwise or string content (docs/abi.md, 'Equality and hashing'); two
/// objects of the same type that registers `__any_equal__` (OpaquePtr to TVMFFIAny(const Any&,
/// const Any&) noexcept giving a bool, or a Function) are compared by it.
inline bool MapKeyEqual(const Any& lhs, const Any& rhs) {
  const TVMFFIAny* a = AnyUnsafe::TVMFFIAnyPtrFromAny(lhs);
  const TVMFFIAny* b = AnyUnsafe::TVMFFIAnyPtrFromAny(rhs);
  if (a->type_index == b->type_index && a->v_uint64 == b->v_uint64 &&
      a->zero_padding == b->zero_padding) {
    return true;
  }
  if (IsCustomizableKey(a) && a->type_index == b->type_index) {
    if (const TVMFFIAny* attr = MapKeyAttrRow<kAnyEqualAttr>(a->type_index)) {
      if (attr->type_index == TypeIndex::kTVMFFIOpaquePtr) {
        using FEqual = TVMFFIAny (*)(const Any&, const Any&) noexcept;
        return TakeKeyHookResult(reinterpret_cast<FEqual>(attr->v_ptr)(lhs, rhs)).cast<bool>();
      }
      Function func = AnyView::CopyFromTVMFFIAny(*attr).cast<Function>();
      return func(lhs, rhs).cast<bool>();
    }
    return false;
  }
  return AnyEqualCell(a, b);
}

}  // namespace details
}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_CONTAINER_MAP_HASH_H_

// SPDX-License-Identifier: Apache-2.0
// extra/dataclass.h: the reflection-driven value operations of the runtime (deep copy, readable
// printing, recursive hashing and ordering) and the type attributes that customise them.
#ifndef TVM_FFI_EXTRA_DATACLASS_H_
#define TVM_FFI_EXTRA_DATACLASS_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/variant.h>
#include <tvm/ffi/extra/base.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <ostream>

namespace tvm {
namespace ffi {

/// A copy of value in which containers and reflected objects with a creator are rebuilt
/// recursively; strings, bytes, shapes and other immutable leaves are shared. Cycle-safe.
TVM_FFI_EXTRA_CXX_API Any DeepCopy(const Any& value);

/// Readable text of value (the format of Python's repr of FFI values); cycles print as `...`.
TVM_FFI_EXTRA_CXX_API String ReprPrint(const Any& value);

/// A hash of value's content, consistent with RecursiveEq (equal values hash equal).
TVM_FFI_EXTRA_CXX_API int64_t RecursiveHash(const Any& value);

/// Content equality: same kinds of values with equal contents, objects field by field.
TVM_FFI_EXTRA_CXX_API bool RecursiveEq(const Any& lhs, const Any& rhs);

/// Content order lhs < rhs; TypeError for values that have no order (different types, maps).
TVM_FFI_EXTRA_CXX_API bool RecursiveLt(const Any& lhs, const Any& rhs);

/// Content order lhs <= rhs (see RecursiveLt).
TVM_FFI_EXTRA_CXX_API bool RecursiveLe(const Any& lhs, const Any& rhs);

/// Content order lhs > rhs (see RecursiveLt).
TVM_FFI_EXTRA_CXX_API bool RecursiveGt(const Any& lhs, const Any& rhs);

/// Content order lhs >= rhs (see RecursiveLt).
TVM_FFI_EXTRA_CXX_API bool RecursiveGe(const Any& lhs, const Any& rhs);

/// Writes the ReprPrint text of value.
inline std::ostream& operator<<(std::ostream& os, const Any& value) {
  return os << ReprPrint(value);
}

/// Writes the ReprPrint text of value.
inline std::ostream& operator<<(std::ostream& os, const ObjectRef& value) {
  return os << ReprPrint(Any(value));
}

/// Writes the ReprPrint text of value.
template <typename... V>
inline std::ostream& operator<<(std::ostream& os, const Variant<V...>& value) {
  return os << ReprPrint(Any(value));
}

/// Writes the ReprPrint text of value (None when empty).
template <typename T>
inline std::ostream& operator<<(std::ostream& os, const Optional<T>& value) {
  return os << ReprPrint(Any(value));
}

namespace type_attr {
/// Type attribute: (obj, print) -> str replaces the default printing of a type; `print` formats
/// nested values with the same cycle guard.
inline constexpr reflection::AttrKey<
    TypedFunction<String(const Object*, const TypedFunction<String(AnyView)>&)>>
    kRepr{"__ffi_repr__"};
/// Type attribute: (obj, hash) -> int replaces the default hashing of a type; `hash` hashes
/// nested values.
inline constexpr reflection::AttrKey<
    TypedFunction<int64_t(const Object*, const TypedFunction<int64_t(AnyView)>&)>>
    kHash{"__ffi_hash__"};
/// Type attribute: (lhs, rhs, eq) -> bool replaces the default equality of a type; `eq`
/// compares nested values.
inline constexpr reflection::AttrKey<
    TypedFunction<bool(const Object*, const Object*, const TypedFunction<bool(AnyView, AnyView)>&)>>
    kEq{"__ffi_eq__"};
/// Type attribute: (lhs, rhs, cmp) -> int (<0, 0, >0) replaces the default ordering of a type
/// (and its equality when kEq is absent); `cmp` compares nested values.
inline constexpr reflection::AttrKey<TypedFunction<int32_t(
    const Object*, const Object*, const TypedFunction<int32_t(AnyView, AnyView)>&)>>
    kCompare{"__ffi_compare__"};
}  // namespace type_attr

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_EXTRA_DATACLASS_H_

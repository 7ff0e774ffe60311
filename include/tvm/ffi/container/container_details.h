// SPDX-License-Identifier: Apache-2.0
// container/container_details.h: element conversion and iterator helpers shared by containers.
#ifndef TVM_FFI_CONTAINER_CONTAINER_DETAILS_H_
#define TVM_FFI_CONTAINER_CONTAINER_DETAILS_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/type_traits.h>

#include <cstddef>
#include <iterator>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {
namespace details {

/// Whether objects of this type index are sequences with a TVMFFISeqCell (Array, List).
inline bool IsSeqTypeIndex(int32_t index) {
  return index == TypeIndex::kTVMFFIArray || index == TypeIndex::kTVMFFIList;
}
/// Whether objects of this type index are maps with MapBaseObj storage (Map, Dict).
inline bool IsMapTypeIndex(int32_t index) {
  return index == TypeIndex::kTVMFFIMap || index == TypeIndex::kTVMFFIDict;
}

/// Whether T can be stored as a container element (Any, or a storage-enabled type).
template <typename T>
inline constexpr bool container_storage_enabled_v =
    std::is_same_v<T, Any> || TypeTraits<T>::storage_enabled;

/// Element-level view of TypeTraits<T> that also covers T = Any (which accepts everything).
template <typename T>
struct ElemTraits {
  static bool CheckStrict(const TVMFFIAny* cell) { return TypeTraits<T>::CheckAnyStrict(cell); }
  static std::optional<T> TryCast(const TVMFFIAny* cell) {
    return TypeTraits<T>::TryCastFromAnyView(cell);
  }
  static std::string MismatchInfo(const TVMFFIAny* cell) {
    return TypeTraits<T>::GetMismatchTypeInfo(cell);
  }
  /// The stored element (whose cell passed CheckStrict) as T.
  static T FromCell(const TVMFFIAny* cell) {
    return TypeTraits<T>::CopyFromAnyViewAfterCheck(cell);
  }
};

template <>
struct ElemTraits<Any> {
  static bool CheckStrict(const TVMFFIAny*) { return true; }
  static std::optional<Any> TryCast(const TVMFFIAny* cell) {
    return Any(AnyView::CopyFromTVMFFIAny(*cell));
  }
  static std::string MismatchInfo(const TVMFFIAny* cell) {
    return TypeIndexToTypeKey(cell->type_index);
  }
  static Any FromCell(const TVMFFIAny* cell) { return Any(AnyView::CopyFromTVMFFIAny(*cell)); }
};

/// Whether every element of a value of type U is already a valid T (so storage can be shared).
template <typename T, typename U, typename = void>
struct TypeContains : std::bool_constant<std::is_same_v<T, Any> || std::is_same_v<T, U>> {};
template <typename T, typename U>
struct TypeContains<T, U,
                    std::enable_if_t<std::is_base_of_v<ObjectRef, T> &&
                                     std::is_base_of_v<ObjectRef, U> && !std::is_same_v<T, U>>>
    : std::is_base_of<typename T::ContainerType, typename U::ContainerType> {};
template <typename T, typename U>
inline constexpr bool type_contains_v = TypeContains<T, U>::value;

/// Reads a stored owning cell as an element of type T.
template <typename T>
TVM_FFI_INLINE T CellToElem(const TVMFFIAny* cell) {
  return ElemTraits<T>::FromCell(cell);
}

/// Bidirectional value-returning iterator over cells: Converter::Get(const TVMFFIAny*) -> value.
template <typename Converter, typename CellPtr>
class CellIterator {
 public:
  using iterator_category = std::bidirectional_iterator_tag;
  using difference_type = std::ptrdiff_t;
  using value_type = decltype(Converter::Get(std::declval<CellPtr>()));
  using pointer = value_type*;
  using reference = value_type;

  CellIterator() = default;
  explicit CellIterator(CellPtr ptr) : ptr_(ptr) {}
  value_type operator*() const { return Converter::Get(ptr_); }
  CellIterator& operator++() {
    ++ptr_;
    return *this;
  }
  CellIterator& operator--() {
    --ptr_;
    return *this;
  }
  CellIterator operator++(int) {
    CellIterator copy = *this;
    ++ptr_;
    return copy;
  }
  CellIterator operator--(int) {
    CellIterator copy = *this;
    --ptr_;
    return copy;
  }
  CellIterator operator+(difference_type n) const { return CellIterator(ptr_ + n); }
  CellIterator operator-(difference_type n) const { return CellIterator(ptr_ - n); }
  difference_type operator-(const CellIterator& other) const { return ptr_ - other.ptr_; }
  bool operator==(const CellIterator& other) const { return ptr_ == other.ptr_; }
  bool operator!=(const CellIterator& other) const { return ptr_ != other.ptr_; }
  CellPtr cell() const { return ptr_; }

 private:
  CellPtr ptr_{nullptr};
};

/// Converter giving elements of type T from owning cells.
template <typename T>
struct CellToElemConverter {
  static T Get(const TVMFFIAny* cell) { return CellToElem<T>(cell); }
};

}  // namespace details
}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_CONTAINER_CONTAINER_DETAILS_H_

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

/// Reads a stored owning cell as an element of type T.
template <typename T>
TVM_FFI_INLINE T CellToElem(const TVMFFIAny* cell) {
  return ElemTraits<T>::FromCell(cell);
}

/// Whether T can be stored as a container element (the wheel's name of
/// container_storage_enabled_v).
template <typename T>
inline constexpr bool storage_enabled_v = container_storage_enabled_v<T>;
/// Whether every one of Ts can be stored as a container element.
template <typename... Ts>
inline constexpr bool all_storage_enabled_v = (storage_enabled_v<Ts> && ...);
/// Whether every one of Ts is an ObjectRef type.
template <typename... Ts>
inline constexpr bool all_object_ref_v = (std::is_base_of_v<ObjectRef, Ts> && ...);

/// Iterator over TIter whose elements are Converter::convert(*iter), of type
/// Converter::ResultType. Steps backwards when Reverse is true.
template <typename Converter, typename TIter, bool Reverse>
class ConvertingIterator {
 public:
  using difference_type = typename std::iterator_traits<TIter>::difference_type;
  using value_type = typename Converter::ResultType;
  using pointer = const value_type*;
  using reference = const value_type;
  using iterator_category = typename std::iterator_traits<TIter>::iterator_category;

  ConvertingIterator() : iter_() {}
  explicit ConvertingIterator(TIter iter) : iter_(iter) {}

  reference operator*() const { return Converter::convert(*iter_); }
  ConvertingIterator& operator++() { return *this += 1; }
  ConvertingIterator& operator--() { return *this -= 1; }
  ConvertingIterator operator++(int) {
    ConvertingIterator copy = *this;
    ++*this;
    return copy;
  }
  ConvertingIterator operator--(int) {
    ConvertingIterator copy = *this;
    --*this;
    return copy;
  }
  ConvertingIterator& operator+=(difference_type n) {
    std::advance(iter_, Reverse ? -n : n);
    return *this;
  }
  ConvertingIterator& operator-=(difference_type n) { return *this += -n; }
  ConvertingIterator operator+(difference_type n) const {
    ConvertingIterator moved = *this;
    return moved += n;
  }
  ConvertingIterator operator-(difference_type n) const {
    ConvertingIterator moved = *this;
    return moved -= n;
  }
  /// The distance from other (random-access iterators only).
  template <typename Self = ConvertingIterator>
  std::enable_if_t<
      std::is_same_v<typename Self::iterator_category, std::random_access_iterator_tag>,
      difference_type>
  operator-(const ConvertingIterator& other) const {
    return Reverse ? other.iter_ - iter_ : iter_ - other.iter_;
  }
  bool operator==(const ConvertingIterator& other) const { return iter_ == other.iter_; }
  bool operator!=(const ConvertingIterator& other) const { return !(*this == other); }

 private:
  TIter iter_;
};

/// Forward converting iterator over TIter (see ConvertingIterator).
template <typename Converter, typename TIter>
using IterAdapter = ConvertingIterator<Converter, TIter, false>;
/// Converting iterator that walks TIter backwards: ++ steps to the previous element.
template <typename Converter, typename TIter>
using ReverseIterAdapter = ConvertingIterator<Converter, TIter, true>;

/// The type string `name<T1, T2, ...>` of a container of Ts.
template <typename... Ts>
std::string ContainerTypeStr(const char* name) {
  std::string out = std::string(name) + "<";
  bool first = true;
  ((out += (first ? "" : ", ") + Type2Str<Ts>::v(), first = false), ...);
  return out + ">";
}

}  // namespace details
}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_CONTAINER_CONTAINER_DETAILS_H_

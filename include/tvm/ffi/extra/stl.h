// SPDX-License-Identifier: Apache-2.0
// extra/stl.h: TypeTraits that let STL values (vector, array, tuple, pair, map, unordered_map,
// optional, variant, function) be typed-function arguments and results and convert to/from Any.
//
// Containers travel as newly built ffi.Array / ffi.Map objects and are rebuilt (copied) on the
// way back, so prefer Array, Map and Tuple where performance matters. std::string is handled by
// tvm/ffi/string.h.
#ifndef TVM_FFI_EXTRA_STL_H_
#define TVM_FFI_EXTRA_STL_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/container_details.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/seq_traits.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/string.h>
#include <tvm/ffi/type_traits.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

namespace tvm {
namespace ffi {
namespace details {

/// Thrown by STLTypeTrait::ConstructFromAny when an element does not convert.
struct STLTypeMismatch : public std::exception {
  const char* what() const noexcept override { return "STL type mismatch"; }
};

/// A base for user traits of STL-like types (Apache's helper): never storable in containers;
/// protected helpers move an object into a cell, borrow one out, and convert an element.
struct STLTypeTrait : public TypeTraitsBase {
  static constexpr bool storage_enabled = false;

 protected:
  /// Hands the reference of src (not null) over to result.
  template <typename T>
  static void MoveToAnyImpl(ObjectPtr<T>&& src, TVMFFIAny* result) {
    TVMFFIObject* header = ObjectUnsafe::MoveObjectPtrToTVMFFIObjectPtr(std::move(src));
    result->type_index = header->type_index;
    result->zero_padding = 0;
    TVM_FFI_CLEAR_PTR_PADDING_IN_FFI_ANY(result);
    result->v_obj = header;
  }
  /// A new reference to the object of an object cell.
  template <typename T>
  static ObjectPtr<T> CopyFromAnyImpl(const TVMFFIAny* src) {
    return ObjectUnsafe::ObjectPtrFromUnowned<T>(src->v_obj);
  }
  /// value converted to T; STLTypeMismatch when it does not convert.
  template <typename T>
  static T ConstructFromAny(const Any& value) {
    if constexpr (std::is_same_v<T, Any>) {
      return value;
    } else {
      std::optional<T> converted =
          TypeTraits<T>::TryCastFromAnyView(AnyUnsafe::TVMFFIAnyPtrFromAny(value));
      if (!converted.has_value()) throw STLTypeMismatch{};
      return *std::move(converted);
    }
  }
};

/// Tags whose TypeTraits give user traits of list-like (ListTemplate) and map-like
/// (MapTemplate) STL types their building helpers.
struct ListTemplate {};
struct MapTemplate {};

/// Whether TypeTraits<T>::CopyToAnyView builds a new object (so that the cell owns a reference).
template <typename T, typename = void>
struct STLViewAllocates : std::false_type {};
template <typename T>
struct STLViewAllocates<T, std::enable_if_t<TypeTraits<T>::view_allocates>> : std::true_type {};
template <typename T>
inline constexpr bool stl_view_allocates_v = STLViewAllocates<T>::value;

/// Whether T can be an element of an STL value that crosses the FFI (Any or a convertible type).
template <typename T>
inline constexpr bool stl_elem_convertible_v =
    std::is_same_v<T, Any> || TypeTraits<T>::convert_enabled;

/// An owning Any made from value as element type T (copied from an lvalue, moved from an rvalue).
template <typename T, typename U>
TVM_FFI_INLINE Any STLElemToAny(U&& value) {
  if constexpr (std::is_same_v<T, Any>) {
    return Any(std::forward<U>(value));
  } else {
    return Any(static_cast<T>(std::forward<U>(value)));
  }
}

/// Writes a view of value (of type T, possibly Any) into result.
template <typename T>
TVM_FFI_INLINE void STLCopyToCell(const T& value, TVMFFIAny* result) {
  if constexpr (std::is_same_v<T, Any>) {
    *result = AnyView(value).CopyToTVMFFIAny();
  } else {
    TypeTraits<T>::CopyToAnyView(value, result);
  }
}

/// Writes an owning cell made from value (of type T, possibly Any) into result.
template <typename T>
TVM_FFI_INLINE void STLMoveToCell(T&& value, TVMFFIAny* result) {
  using Value = std::decay_t<T>;
  if constexpr (std::is_same_v<Value, Any>) {
    *result = AnyUnsafe::MoveAnyToTVMFFIAny(Any(std::forward<T>(value)));
  } else {
    TypeTraits<Value>::MoveToAny(Value(std::forward<T>(value)), result);
  }
}

/// Hands the reference held by owner over to result.
TVM_FFI_INLINE void STLStoreOwned(Any owner, TVMFFIAny* result) {
  *result = AnyUnsafe::MoveAnyToTVMFFIAny(std::move(owner));
}

/// The cell of a container element.
TVM_FFI_INLINE const TVMFFIAny* STLCellOf(const Any& value) {
  return AnyUnsafe::TVMFFIAnyPtrFromAny(value);
}

/// The "got" part of a mismatch that is not about an element: the cell's type key.
inline std::string STLPlainMismatch(const TVMFFIAny* src) {
  return TypeTraits<ObjectRef>::GetMismatchTypeInfo(src);
}

/// The ffi.Array a cell (or an rvalue reference in it) holds, or nullptr; a List is not one.
inline const SeqBaseObj* STLArrayFromCell(const TVMFFIAny* src) {
  const SeqBaseObj* seq = SeqFromCell(src);
  return seq != nullptr && seq->type_index() == TypeIndex::kTVMFFIArray ? seq : nullptr;
}

/// The ffi.Map a cell (or an rvalue reference in it) holds, or nullptr; a Dict is not one.
inline const MapBaseObj* STLMapObjFromCell(const TVMFFIAny* src) {
  const MapBaseObj* m = MapFromCell(src);
  return m != nullptr && m->type_index() == TypeIndex::kTVMFFIMap ? m : nullptr;
}

/// "Array" or "List": how a sequence names itself in mismatch messages.
inline std::string STLSeqKind(const SeqBaseObj* seq) {
  return seq->type_index() == TypeIndex::kTVMFFIArray ? "Array" : "List";
}

/// `<kind>[index <i>: <info>]` for the first element of seq that does not convert to T, or "".
template <typename T>
std::string STLFirstBadElement(const SeqBaseObj* seq) {
  for (size_t i = 0; i < seq->size(); ++i) {
    const TVMFFIAny* cell = STLCellOf(seq->begin()[i]);
    if (!ElemTraits<T>::TryCast(cell).has_value()) {
      return STLSeqKind(seq) + "[index " + std::to_string(i) + ": " +
             ElemTraits<T>::MismatchInfo(cell) + "]";
    }
  }
  return "";
}

/// Whether every element of seq is strictly a T.
template <typename T>
bool STLAllStrict(const SeqBaseObj* seq) {
  for (const Any& item : *seq) {
    if (!ElemTraits<T>::CheckStrict(STLCellOf(item))) return false;
  }
  return true;
}

/// A new ArrayObj holding every element of range as T (moved when range is an rvalue).
template <typename T, typename Range>
ObjectPtr<ArrayObj> STLArrayObjFromRange(Range&& range) {
  ObjectPtr<ArrayObj> arr = ArrayObj::Empty(static_cast<int64_t>(std::size(range)));
  for (auto&& item : range) {
    if constexpr (std::is_lvalue_reference_v<Range>) {
      arr->EmplaceBackUnchecked(STLElemToAny<T>(item));
    } else {
      arr->EmplaceBackUnchecked(STLElemToAny<T>(std::move(item)));
    }
  }
  return arr;
}

/// STLArrayObjFromRange as an ffi.Array.
template <typename T, typename Range>
Any STLArrayFromRange(Range&& range) {
  return Any(Array<Any>(ObjectPtr<Object>(STLArrayObjFromRange<T>(std::forward<Range>(range)))));
}

/// A new ArrayObj of the elements of a tuple-like value (std::tuple, std::pair, std::array).
template <typename Tuple, size_t... I>
ObjectPtr<ArrayObj> STLArrayObjFromTuple(Tuple&& tuple, std::index_sequence<I...>) {
  using Plain = std::decay_t<Tuple>;
  ObjectPtr<ArrayObj> arr = ArrayObj::Empty(static_cast<int64_t>(sizeof...(I)));
  // Each std::get takes a different element.  NOLINTBEGIN(bugprone-use-after-move)
  (arr->EmplaceBackUnchecked(
       STLElemToAny<std::tuple_element_t<I, Plain>>(std::get<I>(std::forward<Tuple>(tuple)))),
   ...);
  // NOLINTEND(bugprone-use-after-move)
  return arr;
}

/// STLArrayObjFromTuple as an ffi.Array.
template <typename Tuple, size_t... I>
Any STLArrayFromTuple(Tuple&& tuple, std::index_sequence<I...> indices) {
  return Any(
      Array<Any>(ObjectPtr<Object>(STLArrayObjFromTuple(std::forward<Tuple>(tuple), indices))));
}

/// Builds a new ffi.Map from the entries of a std::map or std::unordered_map.
template <typename K, typename V, typename MapType>
Any STLMapFromRange(MapType&& src) {
  Map<Any, Any> result;
  for (auto&& entry : src) {
    if constexpr (std::is_lvalue_reference_v<MapType>) {
      result.Set(STLElemToAny<K>(entry.first), STLElemToAny<V>(entry.second));
    } else {
      result.Set(STLElemToAny<K>(entry.first), STLElemToAny<V>(std::move(entry.second)));
    }
  }
  return Any(std::move(result));
}

/// Rebuilds a std::map / std::unordered_map from a Map cell; nullopt when an entry fails.
/// On keys that become equal after conversion the first one wins.
template <typename MapType, typename K, typename V>
std::optional<MapType> STLMapFromCell(const TVMFFIAny* src) {
  const MapBaseObj* m = STLMapObjFromCell(src);
  if (m == nullptr) return std::nullopt;
  MapType result;
  for (uint64_t i = m->IterBegin(); i != m->IterEnd(); i = m->IterNext(i)) {
    std::optional<K> key = ElemTraits<K>::TryCast(STLCellOf(m->KeyAt(i)));
    if (!key.has_value()) return std::nullopt;
    std::optional<V> value = ElemTraits<V>::TryCast(STLCellOf(m->ValueAt(i)));
    if (!value.has_value()) return std::nullopt;
    result.emplace(*std::move(key), *std::move(value));
  }
  return result;
}

/// Whether a cell is exactly a Map whose keys are strictly K and values strictly V.
template <typename K, typename V>
bool STLMapStrict(const TVMFFIAny* src) {
  if (src->type_index != TypeIndex::kTVMFFIMap) return false;
  const MapBaseObj* m = MapFromCell(src);
  for (uint64_t i = m->IterBegin(); i != m->IterEnd(); i = m->IterNext(i)) {
    if (!ElemTraits<K>::CheckStrict(STLCellOf(m->KeyAt(i))) ||
        !ElemTraits<V>::CheckStrict(STLCellOf(m->ValueAt(i)))) {
      return false;
    }
  }
  return true;
}

/// `Map[some key is <info>, V]` or `Map[K, some value is <info>]` for the first entry that does
/// not convert; the plain type key otherwise.
template <typename K, typename V>
std::string STLMapMismatch(const TVMFFIAny* src) {
  const MapBaseObj* m = STLMapObjFromCell(src);
  if (m == nullptr || src->type_index == TypeIndex::kTVMFFIObjectRValueRef) {
    return STLPlainMismatch(src);
  }
  std::string kind = "Map[";
  for (uint64_t i = m->IterBegin(); i != m->IterEnd(); i = m->IterNext(i)) {
    const TVMFFIAny* key = STLCellOf(m->KeyAt(i));
    if (!ElemTraits<K>::TryCast(key).has_value()) {
      return kind + "some key is " + ElemTraits<K>::MismatchInfo(key) + ", " + Type2Str<V>::v() +
             "]";
    }
    const TVMFFIAny* value = STLCellOf(m->ValueAt(i));
    if (!ElemTraits<V>::TryCast(value).has_value()) {
      return kind + Type2Str<K>::v() + ", some value is " + ElemTraits<V>::MismatchInfo(value) +
             "]";
    }
  }
  return STLPlainMismatch(src);
}

/// "A, B, C": the TypeStr of each of Ts (const and references dropped).
template <typename... Ts>
std::string STLJoinTypeStr() {
  std::string out;
  bool first = true;
  ((out += (first ? "" : ", ") + Type2Str<std::decay_t<Ts>>::v(), first = false), ...);
  return out;
}

/// The schemas of Ts, joined by sep.
template <typename... Ts>
std::string STLJoinTypeSchema(const char* sep) {
  std::string out;
  bool first = true;
  ((out += (first ? "" : sep) + TypeSchemaOf<std::decay_t<Ts>>::v(), first = false), ...);
  return out;
}

/// `{"type":"<name>","args":[<schema of each of Ts>]}`; variadic types separate them by ", ".
template <typename... Ts>
std::string STLTypeSchema(const char* name, const char* sep = ",") {
  return std::string("{\"type\":\"") + name + "\",\"args\":[" + STLJoinTypeSchema<Ts...>(sep) +
         "]}";
}

/// Common defaults of the STL container traits: converted on every crossing, never stored.
struct STLContainerTraitsBase : public TypeTraitsBase {
  static constexpr bool storage_enabled = false;
  static constexpr bool view_allocates = true;
};

/// Traits of a tuple-like Self (std::tuple, std::pair): an Array of exactly its arity.
template <typename Self>
struct STLTupleTraitsBase : public STLContainerTraitsBase {
  static constexpr size_t kArity = std::tuple_size_v<Self>;
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIArray;
  using Indices = std::make_index_sequence<kArity>;

  static void CopyToAnyView(const Self& src, TVMFFIAny* result) {
    STLStoreOwned(STLArrayFromTuple(src, Indices{}), result);
  }
  static void MoveToAny(Self src, TVMFFIAny* result) {
    STLStoreOwned(STLArrayFromTuple(std::move(src), Indices{}), result);
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    if (src->type_index != TypeIndex::kTVMFFIArray) return false;
    const SeqBaseObj* seq = SeqFromCell(src);
    return seq->size() == kArity && AllStrict(seq, Indices{});
  }
  static Self CopyFromAnyViewAfterCheck(const TVMFFIAny* src) { return *TryCastFromAnyView(src); }
  static Self MoveFromAnyAfterCheck(TVMFFIAny* src) { return *TryCastFromAnyView(src); }
  /// Accepts an Array of exactly kArity elements that each convert.
  static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* src) {
    const SeqBaseObj* seq = STLArrayFromCell(src);
    if (seq == nullptr || seq->size() != kArity) return std::nullopt;
    return ConvertAll(seq, Indices{});
  }
  /// `Array[size=<n>]` on an arity mismatch, else `Array[index <i>: <info>]`.
  static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    const SeqBaseObj* seq = STLArrayFromCell(src);
    if (seq == nullptr || src->type_index == TypeIndex::kTVMFFIObjectRValueRef) {
      return STLPlainMismatch(src);
    }
    if (seq->size() != kArity) {
      return STLSeqKind(seq) + "[size=" + std::to_string(seq->size()) + "]";
    }
    std::string info = FirstBad(seq, Indices{});
    return info.empty() ? STLPlainMismatch(src) : info;
  }

 private:
  template <size_t I>
  using Elem = std::tuple_element_t<I, Self>;

  template <size_t... I>
  static bool AllStrict(const SeqBaseObj* seq, std::index_sequence<I...>) {
    return (ElemTraits<Elem<I>>::CheckStrict(STLCellOf(seq->begin()[I])) && ...);
  }
  template <size_t... I>
  static std::optional<Self> ConvertAll(const SeqBaseObj* seq, std::index_sequence<I...>) {
    std::tuple<std::optional<Elem<I>>...> items{
        ElemTraits<Elem<I>>::TryCast(STLCellOf(seq->begin()[I]))...};
    if (!(std::get<I>(items).has_value() && ...)) return std::nullopt;
    return Self(*std::move(std::get<I>(items))...);
  }
  template <size_t... I>
  static std::string FirstBad(const SeqBaseObj* seq, std::index_sequence<I...>) {
    std::string info;
    auto check = [&](size_t i, auto traits) {
      using Traits = decltype(traits);
      const TVMFFIAny* cell = STLCellOf(seq->begin()[i]);
      if (Traits::TryCast(cell).has_value()) return false;
      info =
          STLSeqKind(seq) + "[index " + std::to_string(i) + ": " + Traits::MismatchInfo(cell) + "]";
      return true;
    };
    static_cast<void>((check(I, ElemTraits<Elem<I>>{}) || ...));
    return info;
  }
};

/// Traits of std::map / std::unordered_map of K to V: a new Map out; a Map in.
template <typename Self, typename K, typename V>
struct STLMapTraitsBase : public STLContainerTraitsBase {
  static constexpr bool convert_enabled = stl_elem_convertible_v<K> && stl_elem_convertible_v<V>;
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIMap;

  static void CopyToAnyView(const Self& src, TVMFFIAny* result) {
    STLStoreOwned(STLMapFromRange<K, V>(src), result);
  }
  static void MoveToAny(Self src, TVMFFIAny* result) {
    STLStoreOwned(STLMapFromRange<K, V>(std::move(src)), result);
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) { return STLMapStrict<K, V>(src); }
  static Self CopyFromAnyViewAfterCheck(const TVMFFIAny* src) { return *TryCastFromAnyView(src); }
  static Self MoveFromAnyAfterCheck(TVMFFIAny* src) { return *TryCastFromAnyView(src); }
  static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* src) {
    return STLMapFromCell<Self, K, V>(src);
  }
  static std::string GetMismatchTypeInfo(const TVMFFIAny* src) { return STLMapMismatch<K, V>(src); }
};

}  // namespace details

/// std::vector<T>: a new Array out; an Array or List whose elements all convert to T in.
template <typename T, typename Alloc>
struct TypeTraits<std::vector<T, Alloc>> : public details::STLContainerTraitsBase {
  /// The converted type.
  using Self = std::vector<T, Alloc>;
  /// Convertible when T is.
  static constexpr bool convert_enabled = details::stl_elem_convertible_v<T>;
  /// A field of this type holds an Array.
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIArray;

  /// Stores a new Array of the elements of src in result.
  static void CopyToAnyView(const Self& src, TVMFFIAny* result) {
    details::STLStoreOwned(details::STLArrayFromRange<T>(src), result);
  }
  /// Stores a new Array of the elements moved out of src in result.
  static void MoveToAny(Self src, TVMFFIAny* result) {
    details::STLStoreOwned(details::STLArrayFromRange<T>(std::move(src)), result);
  }
  /// Whether src holds an Array whose elements are all strictly T.
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == TypeIndex::kTVMFFIArray &&
           details::STLAllStrict<T>(details::SeqFromCell(src));
  }
  /// The vector of the elements of src (which passed the check).
  static Self CopyFromAnyViewAfterCheck(const TVMFFIAny* src) { return *TryCastFromAnyView(src); }
  /// Same as CopyFromAnyViewAfterCheck (the elements are copied).
  static Self MoveFromAnyAfterCheck(TVMFFIAny* src) { return *TryCastFromAnyView(src); }
  /// The vector of an Array or List in src, or nullopt when src is neither or an element does not
  /// convert.
  static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* src) {
    const SeqBaseObj* seq = details::SeqFromCell(src);
    if (seq == nullptr) return std::nullopt;
    Self result;
    result.reserve(seq->size());
    for (const Any& item : *seq) {
      std::optional<T> value = details::ElemTraits<T>::TryCast(details::STLCellOf(item));
      if (!value.has_value()) return std::nullopt;
      result.push_back(*std::move(value));
    }
    return result;
  }
  /// `Array[index <i>: <info>]` (or `List[...]`) for the first element that does not convert.
  static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    const SeqBaseObj* seq = details::SeqFromCell(src);
    if (seq == nullptr || src->type_index == TypeIndex::kTVMFFIObjectRValueRef) {
      return details::STLPlainMismatch(src);
    }
    std::string info = details::STLFirstBadElement<T>(seq);
    return info.empty() ? details::STLPlainMismatch(src) : info;
  }
  /// `std::vector<T>`.
  static std::string TypeStr() { return "std::vector<" + details::Type2Str<T>::v() + ">"; }
  /// The type schema, with the schema of T as argument.
  static std::string TypeSchema() { return details::STLTypeSchema<T>("std::vector"); }
};

/// std::array<T, N>: a new Array out; an Array of exactly N convertible elements in.
template <typename T, size_t N>
struct TypeTraits<std::array<T, N>> : public details::STLContainerTraitsBase {
  /// The converted type.
  using Self = std::array<T, N>;
  /// Convertible when T is.
  static constexpr bool convert_enabled = details::stl_elem_convertible_v<T>;
  /// A field of this type holds an Array.
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIArray;

  /// Stores a new Array of the N elements of src in result.
  static void CopyToAnyView(const Self& src, TVMFFIAny* result) {
    details::STLStoreOwned(details::STLArrayFromRange<T>(src), result);
  }
  /// Stores a new Array of the N elements moved out of src in result.
  static void MoveToAny(Self src, TVMFFIAny* result) {
    details::STLStoreOwned(details::STLArrayFromRange<T>(std::move(src)), result);
  }
  /// Whether src holds an Array of N elements, all strictly T.
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    if (src->type_index != TypeIndex::kTVMFFIArray) return false;
    const SeqBaseObj* seq = details::STLArrayFromCell(src);
    return seq->size() == N && details::STLAllStrict<T>(seq);
  }
  /// The array of the elements of src (which passed the check).
  static Self CopyFromAnyViewAfterCheck(const TVMFFIAny* src) { return *TryCastFromAnyView(src); }
  /// Same as CopyFromAnyViewAfterCheck (the elements are copied).
  static Self MoveFromAnyAfterCheck(TVMFFIAny* src) { return *TryCastFromAnyView(src); }
  /// The array of an Array of N convertible elements in src, else nullopt.
  static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* src) {
    const SeqBaseObj* seq = details::STLArrayFromCell(src);
    if (seq == nullptr || seq->size() != N) return std::nullopt;
    Self result;
    for (size_t i = 0; i < N; ++i) {
      std::optional<T> value = details::ElemTraits<T>::TryCast(details::STLCellOf(seq->begin()[i]));
      if (!value.has_value()) return std::nullopt;
      result[i] = *std::move(value);
    }
    return result;
  }
  /// `Array[size=<n>]` on a size mismatch, else `Array[index <i>: <info>]`.
  static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    const SeqBaseObj* seq = details::STLArrayFromCell(src);
    if (seq == nullptr || src->type_index == TypeIndex::kTVMFFIObjectRValueRef) {
      return details::STLPlainMismatch(src);
    }
    if (seq->size() != N) {
      return details::STLSeqKind(seq) + "[size=" + std::to_string(seq->size()) + "]";
    }
    std::string info = details::STLFirstBadElement<T>(seq);
    return info.empty() ? details::STLPlainMismatch(src) : info;
  }
  /// `std::array<T, N>`.
  static std::string TypeStr() {
    return "std::array<" + details::Type2Str<T>::v() + ", " + std::to_string(N) + ">";
  }
  /// The type schema, with the schema of T and N as arguments.
  static std::string TypeSchema() {
    return "{\"type\":\"std::array\",\"args\":[" + details::TypeSchemaOf<T>::v() + "," +
           std::to_string(N) + "]}";
  }
};

/// std::tuple<Ts...>: an Array of exactly sizeof...(Ts) elements, converted one by one.
template <typename... Ts>
struct TypeTraits<std::tuple<Ts...>> : public details::STLTupleTraitsBase<std::tuple<Ts...>> {
  /// Convertible when every Ts is.
  static constexpr bool convert_enabled = (details::stl_elem_convertible_v<Ts> && ...);
  /// `std::tuple<Ts...>`.
  static std::string TypeStr() { return "std::tuple<" + details::STLJoinTypeStr<Ts...>() + ">"; }
  /// The type schema, with the schemas of Ts as arguments.
  static std::string TypeSchema() { return details::STLTypeSchema<Ts...>("std::tuple", ", "); }
};

/// std::pair<A, B>: an Array of two elements.
template <typename A, typename B>
struct TypeTraits<std::pair<A, B>> : public details::STLTupleTraitsBase<std::pair<A, B>> {
  /// Convertible when A and B are.
  static constexpr bool convert_enabled =
      details::stl_elem_convertible_v<A> && details::stl_elem_convertible_v<B>;
  /// `std::pair<A, B>`.
  static std::string TypeStr() { return "std::pair<" + details::STLJoinTypeStr<A, B>() + ">"; }
  /// The type schema, with the schemas of A and B as arguments.
  static std::string TypeSchema() { return details::STLTypeSchema<A, B>("std::pair"); }
};

/// std::map<K, V>: a new Map out; a Map whose keys and values all convert in.
template <typename K, typename V, typename Compare, typename Alloc>
struct TypeTraits<std::map<K, V, Compare, Alloc>>
    : public details::STLMapTraitsBase<std::map<K, V, Compare, Alloc>, K, V> {
  /// `std::map<K, V>`.
  static std::string TypeStr() { return "std::map<" + details::STLJoinTypeStr<K, V>() + ">"; }
  /// The type schema, with the schemas of K and V as arguments.
  static std::string TypeSchema() { return details::STLTypeSchema<K, V>("std::map"); }
};

/// std::unordered_map<K, V>: like std::map.
template <typename K, typename V, typename Hash, typename Equal, typename Alloc>
struct TypeTraits<std::unordered_map<K, V, Hash, Equal, Alloc>>
    : public details::STLMapTraitsBase<std::unordered_map<K, V, Hash, Equal, Alloc>, K, V> {
  /// `std::unordered_map<K, V>`.
  static std::string TypeStr() {
    return "std::unordered_map<" + details::STLJoinTypeStr<K, V>() + ">";
  }
  /// The type schema, with the schemas of K and V as arguments.
  static std::string TypeSchema() { return details::STLTypeSchema<K, V>("std::unordered_map"); }
};

/// std::optional<T>: None for nullopt, otherwise whatever T is.
template <typename T>
struct TypeTraits<std::optional<T>> : public TypeTraitsBase {
  /// The converted type.
  using Self = std::optional<T>;
  /// Convertible when T is.
  static constexpr bool convert_enabled = details::stl_elem_convertible_v<T>;
  /// Storable in containers when T is.
  static constexpr bool storage_enabled = details::container_storage_enabled_v<T>;
  /// Whether a view of the value builds a new object (as T's does).
  static constexpr bool view_allocates = details::stl_view_allocates_v<T>;

  /// Stores None for nullopt, else a view of the value, in result.
  static void CopyToAnyView(const Self& src, TVMFFIAny* result) {
    if (!src.has_value()) return details::ResetPODCell(result, TypeIndex::kTVMFFINone);
    details::STLCopyToCell<T>(*src, result);
  }
  /// Stores None for nullopt, else the value moved out of src, in result.
  static void MoveToAny(Self src, TVMFFIAny* result) {
    if (!src.has_value()) return details::ResetPODCell(result, TypeIndex::kTVMFFINone);
    details::STLMoveToCell(*std::move(src), result);
  }
  /// Whether src is None or strictly a T.
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == TypeIndex::kTVMFFINone || details::ElemTraits<T>::CheckStrict(src);
  }
  /// nullopt for None, else the T in src (which passed the check).
  static Self CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFINone) return std::nullopt;
    return details::ElemTraits<T>::FromCell(src);
  }
  /// Same as CopyFromAnyViewAfterCheck.
  static Self MoveFromAnyAfterCheck(TVMFFIAny* src) { return CopyFromAnyViewAfterCheck(src); }
  /// An empty optional for None, the converted T otherwise; nullopt when src does not convert.
  static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFINone) return Self();
    std::optional<T> value = details::ElemTraits<T>::TryCast(src);
    if (!value.has_value()) return std::nullopt;
    return Self(std::move(value));
  }
  /// What src holds, as T's traits describe it.
  static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    return details::ElemTraits<T>::MismatchInfo(src);
  }
  /// `std::optional<T>`.
  static std::string TypeStr() { return "std::optional<" + details::Type2Str<T>::v() + ">"; }
  /// The type schema, with the schema of T as argument.
  static std::string TypeSchema() { return details::STLTypeSchema<T>("std::optional"); }
};

/// std::variant<Vs...>: the value of the alternative held; from a cell, the first alternative
/// that the cell already is exactly, else the first one it converts to.
template <typename... Vs>
struct TypeTraits<std::variant<Vs...>> : public TypeTraitsBase {
  /// The converted type.
  using Self = std::variant<Vs...>;
  /// Convertible when every alternative is.
  static constexpr bool convert_enabled = (details::stl_elem_convertible_v<Vs> && ...);
  /// Storable in containers when every alternative is.
  static constexpr bool storage_enabled = (details::container_storage_enabled_v<Vs> && ...);
  /// Whether a view of some alternative builds a new object.
  static constexpr bool view_allocates = (details::stl_view_allocates_v<Vs> || ...);

  /// Stores a view of the alternative held in result (None when valueless).
  static void CopyToAnyView(const Self& src, TVMFFIAny* result) {
    if (src.valueless_by_exception()) return details::ResetPODCell(result, TypeIndex::kTVMFFINone);
    std::visit(
        [result](const auto& value) {
          details::STLCopyToCell<std::decay_t<decltype(value)>>(value, result);
        },
        src);
  }
  /// Stores the alternative held, moved out of src, in result (None when valueless).
  static void MoveToAny(Self src, TVMFFIAny* result) {
    if (src.valueless_by_exception()) return details::ResetPODCell(result, TypeIndex::kTVMFFINone);
    std::visit(
        [result](auto&& value) {
          details::STLMoveToCell(std::forward<decltype(value)>(value), result);
        },
        std::move(src));
  }
  /// Whether src is strictly one of the alternatives.
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return (details::ElemTraits<Vs>::CheckStrict(src) || ...);
  }
  /// The first alternative that src strictly is (src passed the check).
  static Self CopyFromAnyViewAfterCheck(const TVMFFIAny* src) { return *FirstStrict(src); }
  /// Same as CopyFromAnyViewAfterCheck.
  static Self MoveFromAnyAfterCheck(TVMFFIAny* src) { return *FirstStrict(src); }
  /// The first alternative src strictly is, else the first it converts to, else nullopt.
  static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* src) {
    std::optional<Self> strict = FirstStrict(src);
    if (strict.has_value()) return strict;
    return FirstConvertible(src);
  }
  /// The type key of what src holds.
  static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    return details::STLPlainMismatch(src);
  }
  /// `std::variant<Vs...>`.
  static std::string TypeStr() { return "std::variant<" + details::STLJoinTypeStr<Vs...>() + ">"; }
  /// The type schema, with the schemas of Vs as arguments.
  static std::string TypeSchema() { return details::STLTypeSchema<Vs...>("std::variant", ", "); }

 private:
  template <size_t I = 0>
  static std::optional<Self> FirstStrict(const TVMFFIAny* src) {
    if constexpr (I == sizeof...(Vs)) {
      return std::nullopt;
    } else {
      using Alt = std::variant_alternative_t<I, Self>;
      if (!details::ElemTraits<Alt>::CheckStrict(src)) return FirstStrict<I + 1>(src);
      return Self(std::in_place_index<I>, details::ElemTraits<Alt>::FromCell(src));
    }
  }
  template <size_t I = 0>
  static std::optional<Self> FirstConvertible(const TVMFFIAny* src) {
    if constexpr (I == sizeof...(Vs)) {
      return std::nullopt;
    } else {
      using Alt = std::variant_alternative_t<I, Self>;
      std::optional<Alt> value = details::ElemTraits<Alt>::TryCast(src);
      if (!value.has_value()) return FirstConvertible<I + 1>(src);
      return Self(std::in_place_index<I>, *std::move(value));
    }
  }
};

/// std::function<R(Args...)>: a new Function out (None when empty); from a Function (or None)
/// in, wrapped so that calling it calls the Function with converted arguments and result.
template <typename R, typename... Args>
struct TypeTraits<std::function<R(Args...)>> : public TypeTraitsBase {
  /// The converted type.
  using Self = std::function<R(Args...)>;
  /// Convertible when R (or void) and every argument type can cross the FFI.
  static constexpr bool convert_enabled =
      (std::is_void_v<R> || details::is_param_type_v<std::decay_t<R>>) &&
      (details::is_param_type_v<std::decay_t<Args>> && ...);
  /// Not storable in containers (a Function is).
  static constexpr bool storage_enabled = false;
  /// A view builds a new Function.
  static constexpr bool view_allocates = true;
  /// A field of this type holds a Function.
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIFunction;

  /// Stores a new Function wrapping a copy of src in result (None when empty).
  static void CopyToAnyView(const Self& src, TVMFFIAny* result) { MoveToAny(src, result); }
  /// Stores a new Function wrapping src in result (None when empty).
  static void MoveToAny(Self src, TVMFFIAny* result) {
    if (!src) return details::ResetPODCell(result, TypeIndex::kTVMFFINone);
    TypeTraits<Function>::MoveToAny(Function::FromTyped(std::move(src)), result);
  }
  /// Whether src is None or a Function.
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == TypeIndex::kTVMFFINone ||
           src->type_index == TypeIndex::kTVMFFIFunction;
  }
  /// The wrapped Function of src (empty for None); src passed the check.
  static Self CopyFromAnyViewAfterCheck(const TVMFFIAny* src) { return *TryCastFromAnyView(src); }
  /// Same as CopyFromAnyViewAfterCheck.
  static Self MoveFromAnyAfterCheck(TVMFFIAny* src) { return *TryCastFromAnyView(src); }
  /// An empty function for None, a wrapper calling the Function otherwise; nullopt for other
  /// values.
  static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFINone) return Self();
    std::optional<Function> func = TypeTraits<Function>::TryCastFromAnyView(src);
    if (!func.has_value()) return std::nullopt;
    TypedFunction<R(Args...)> typed(*std::move(func));
    return Self([typed = std::move(typed)](Args... args) -> R {
      return typed(std::forward<Args>(args)...);
    });
  }
  /// What src holds, as Function's traits describe it.
  static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    return TypeTraits<Function>::GetMismatchTypeInfo(src);
  }
  /// `std::function<R(Args...)>`.
  static std::string TypeStr() {
    return "std::function<" + details::Type2Str<std::decay_t<R>>::v() + "(" +
           details::STLJoinTypeStr<Args...>() + ")>";
  }
  /// `{"type":"std::function","named_args":{"return":[<R>],"params":[<Args>...]}}`.
  static std::string TypeSchema() {
    return "{\"type\":\"std::function\",\"named_args\":{\"return\":[" +
           details::TypeSchemaOf<std::decay_t<R>>::v() + "],\"params\":[" +
           details::STLJoinTypeSchema<Args...>(", ") + "]}}";
  }
};

/// Base of the traits of list-like STL types: protected helpers build an ffi.Array from a
/// tuple-like value or a range.
template <>
struct TypeTraits<details::ListTemplate> : public details::STLTypeTrait {
  /// A field of a list-like type holds an Array.
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIArray;

 protected:
  /// An Array of the elements of a tuple-like value (std::tuple, std::pair, std::array).
  template <typename Tuple>
  static ObjectPtr<ArrayObj> CopyToTuple(const Tuple& src) {
    return details::STLArrayObjFromTuple(src, std::make_index_sequence<std::tuple_size_v<Tuple>>{});
  }
  /// Like CopyToTuple, moving the elements out of src.
  template <typename Tuple>
  static ObjectPtr<ArrayObj> MoveToTuple(Tuple&& src) {
    return details::STLArrayObjFromTuple(
        std::forward<Tuple>(src),
        std::make_index_sequence<std::tuple_size_v<std::decay_t<Tuple>>>{});
  }
  /// An Array of the elements of a sized range.
  template <typename Range>
  static ObjectPtr<ArrayObj> CopyToArray(const Range& src) {
    return details::STLArrayObjFromRange<ElementOf<Range>>(src);
  }
  /// Like CopyToArray, moving the elements out of src, an lvalue included.
  template <typename Range>
  static ObjectPtr<ArrayObj> MoveToArray(Range&& src) {
    // NOLINTNEXTLINE(bugprone-move-forwarding-reference): moving from an lvalue is the contract
    return details::STLArrayObjFromRange<ElementOf<Range>>(std::move(src));
  }

 private:
  template <typename Range>
  using ElementOf = std::decay_t<decltype(*std::begin(std::declval<Range&>()))>;
};

/// Base of the traits of map-like STL types: protected helpers build an ffi.Map from one and
/// one from an ffi.Map cell.
template <>
struct TypeTraits<details::MapTemplate> : public details::STLTypeTrait {
  /// A field of a map-like type holds a Map.
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIMap;

 protected:
  /// A Map of the (key, value) pairs of src.
  template <typename MapType>
  static ObjectPtr<Object> CopyToMap(const MapType& src) {
    return MapObj::CreateFromRange<MapObj>(std::begin(src), std::end(src));
  }
  /// Like CopyToMap, moving the pairs out of src.
  template <typename MapType>
  static ObjectPtr<Object> MoveToMap(MapType&& src) {
    return MapObj::CreateFromRange<MapObj>(std::make_move_iterator(std::begin(src)),
                                           std::make_move_iterator(std::end(src)));
  }
  /// A MapType of the entries of the Map or Dict cell src, each key and value converted
  /// (STLTypeMismatch when one does not convert); reserved first when CanReserve.
  template <typename MapType, bool CanReserve>
  static MapType ConstructMap(const TVMFFIAny* src) {
    MapType result;
    ObjectPtr<MapBaseObj> map = CopyFromAnyImpl<MapBaseObj>(src);
    if constexpr (CanReserve) result.reserve(map->size());
    for (const auto& [key, value] : *map) {
      result.try_emplace(ConstructFromAny<typename MapType::key_type>(key),
                         ConstructFromAny<typename MapType::mapped_type>(value));
    }
    return result;
  }
};

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_EXTRA_STL_H_

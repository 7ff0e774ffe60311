// SPDX-License-Identifier: Apache-2.0
// container/tuple.h: Tuple<Types...>, a fixed-arity heterogeneous sequence stored as an ffi.Array.
#ifndef TVM_FFI_CONTAINER_TUPLE_H_
#define TVM_FFI_CONTAINER_TUPLE_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/container_details.h>
#include <tvm/ffi/container/seq_base.h>
#include <tvm/ffi/container/seq_traits.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/type_traits.h>

#include <cstddef>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {

template <typename... Types>
class Tuple;

namespace details {
/// Whether Tuple<Types...> can be converted from Tuple<U...> element by element.
template <typename Target, typename Source>
struct TupleConvertible : std::false_type {};
template <typename... Types, typename... U>
struct TupleConvertible<Tuple<Types...>, Tuple<U...>>
    : std::bool_constant<sizeof...(Types) == sizeof...(U) &&
                         (std::is_convertible_v<U, Types> && ...)> {};
/// Whether every element of Tuple<U...> is already a valid element of Tuple<Types...>.
template <typename Target, typename Source>
struct TupleShares : std::false_type {};
template <typename... Types, typename... U>
struct TupleShares<Tuple<Types...>, Tuple<U...>>
    : std::bool_constant<sizeof...(Types) == sizeof...(U) && (type_subsumes_v<Types, U> && ...)> {};
}  // namespace details

/// A fixed-arity tuple of Types... whose elements live in an (immutable, copy-on-write) ArrayObj.
template <typename... Types>
class Tuple : public ObjectRef {
 public:
  static_assert((details::container_storage_enabled_v<Types> && ...),
                "every Tuple element type must be storable in a container");
  /// The number of elements.
  static constexpr size_t kArity = sizeof...(Types);

  /// Every element default-constructed.
  Tuple() : ObjectRef(MakeObj(Types()...)) {}
  /// The tuple of n (an ArrayObj of kArity elements of the types, or null).
  explicit Tuple(ObjectPtr<Object> n) : ObjectRef(std::move(n)) {}
  /// A null tuple, to be filled by the caller.
  explicit Tuple(UnsafeInit tag) : ObjectRef(tag) {}
  /// Copying shares the storage.
  TVM_FFI_DEFINE_DEFAULT_COPY_MOVE_AND_ASSIGN(Tuple);

  /// From one value per element, each converted to its element type.
  template <typename... U,
            typename = std::enable_if_t<
                sizeof...(U) == sizeof...(Types) && (sizeof...(U) > 0) &&
                !(sizeof...(U) == 1 &&
                  (details::TupleConvertible<Tuple, std::decay_t<U>>::value || ...)) &&
                (std::is_constructible_v<Types, U&&> && ...)>>
  explicit Tuple(U&&... args) : ObjectRef(MakeObj(Types(std::forward<U>(args))...)) {}

  /// From a tuple whose elements each convert (sharing storage when no conversion is needed).
  template <typename... U,
            typename = std::enable_if_t<details::TupleConvertible<Tuple, Tuple<U...>>::value &&
                                        !std::is_same_v<Tuple<U...>, Tuple>>>
  Tuple(const Tuple<U...>& other)  // NOLINT(*)
      : ObjectRef(ConvertFrom(other, std::index_sequence_for<Types...>{})) {}

  /// Element I (a null reference when an object element was moved out by `get() &&`).
  template <size_t I>
  auto get() const& {
    static_assert(I < kArity, "Tuple index out of range");
    using T = std::tuple_element_t<I, std::tuple<Types...>>;
    const Any& cell = Cells()[I];
    if constexpr (std::is_base_of_v<ObjectRef, T>) {
      if (cell == nullptr) return details::ObjectUnsafe::ObjectRefFromObjectPtr<T>(nullptr);
    }
    return cell.template cast<T>();
  }
  /// Element I, moved out when this tuple holds the only reference.
  template <size_t I>
  auto get() && {
    static_assert(I < kArity, "Tuple index out of range");
    using T = std::tuple_element_t<I, std::tuple<Types...>>;
    if (data_ != nullptr && data_.unique()) {
      return std::move(MutableCells()[I]).template cast<T>();
    }
    return Cells()[I].template cast<T>();
  }
  /// Replaces element I (copying the storage first when it is shared).
  template <size_t I, typename U>
  void Set(U&& value) {
    static_assert(I < kArity, "Tuple index out of range");
    using T = std::tuple_element_t<I, std::tuple<Types...>>;
    Any item(T(std::forward<U>(value)));
    CopyOnWrite()[I] = std::move(item);
  }

  /// The storage object.
  const ArrayObj* get() const { return static_cast<const ArrayObj*>(data_.get()); }
  /// The storage object.
  const ArrayObj* operator->() const { return get(); }

  /// The object type.
  using ContainerType = ArrayObj;
  /// The object may hold elements of other types (checked on conversion).
  static constexpr bool _type_container_is_exact = false;
  /// Not nullable.
  static constexpr bool _type_is_nullable = false;

 private:
  template <typename... E>
  static ObjectPtr<Object> MakeObj(E&&... elems) {
    ObjectPtr<ArrayObj> obj = ArrayObj::Empty(static_cast<int64_t>(sizeof...(E)));
    (obj->EmplaceBackUnchecked(Any(std::forward<E>(elems))), ...);
    return ObjectPtr<Object>(std::move(obj));
  }
  template <typename... U, size_t... I>
  static ObjectPtr<Object> ConvertFrom(const Tuple<U...>& other, std::index_sequence<I...>) {
    if constexpr (details::TupleShares<Tuple, Tuple<U...>>::value) {
      return details::ObjectUnsafe::GetObjectPtr(other);
    } else {
      return MakeObj(Types(other.template get<I>())...);
    }
  }
  const Any* Cells() const {
    if (data_ == nullptr) TVM_FFI_THROW(RuntimeError) << "Tuple: cannot access a null Tuple";
    return get()->begin();
  }
  Any* MutableCells() const { return get()->MutableBegin(); }
  /// The element storage, copied first when shared; a null tuple gets default elements (a
  /// RuntimeError when one of its types has no default).
  Any* CopyOnWrite() {
    if (data_ == nullptr) {
      if constexpr ((std::is_default_constructible_v<Types> && ...)) {
        data_ = MakeObj(Types()...);
      } else {
        TVM_FFI_THROW(RuntimeError) << "Tuple: cannot set an element of a null Tuple";
      }
    } else if (!data_.unique()) {
      data_ = ObjectPtr<Object>(ArrayObj::CopyFrom(static_cast<int64_t>(kArity), get()));
    }
    return MutableCells();
  }
};

/// Deduces the element types from the values: `Tuple(1, String("a"))` is a Tuple<int, String>.
template <typename... U>
Tuple(U&&...) -> Tuple<std::decay_t<U>...>;

/// Element I of a tuple (found by argument-dependent lookup).
template <size_t I, typename... Types>
auto get(const Tuple<Types...>& tuple) {
  return tuple.template get<I>();
}
/// Element I of a tuple about to expire (moved out when the storage is not shared).
template <size_t I, typename... Types>
auto get(Tuple<Types...>&& tuple) {
  return std::move(tuple).template get<I>();
}

/// Tuple has its own TypeTraits (below).
template <typename... Types>
inline constexpr bool use_default_type_traits_v<Tuple<Types...>> = false;

/// Tuple<Types...> in cells: an Array (or List) of exactly the arity, converted elementwise.
template <typename... Types>
struct TypeTraits<Tuple<Types...>> : public TypeTraitsBase {
  /// The converted type.
  using Self = Tuple<Types...>;
  /// The traits of Self as a plain object reference.
  using RefTraits = ObjectRefTypeTraitsBase<Self>;
  /// The static type index Apache gives a field of this type (the generic object index).
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIObject;  // as Apache
  /// The number of elements.
  static constexpr size_t kArity = sizeof...(Types);

  /// Stores a borrowed view of src in result.
  static void CopyToAnyView(const Self& src, TVMFFIAny* result) {
    RefTraits::CopyToAnyView(src, result);
  }
  /// Moves src into result.
  static void MoveToAny(Self src, TVMFFIAny* result) {
    RefTraits::MoveToAny(std::move(src), result);
  }
  /// Whether src is an Array of kArity elements, each strictly of its type.
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    if (src->type_index != TypeIndex::kTVMFFIArray) return false;
    const SeqBaseObj* seq = details::SeqFromCell(src);
    return seq->size() == kArity && AllStrict(seq, std::index_sequence_for<Types...>{});
  }
  /// The tuple of src (which passed the check), sharing its storage.
  static Self CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return RefTraits::CopyFromAnyViewAfterCheck(src);
  }
  /// Takes the tuple out of src (which passed the check).
  static Self MoveFromAnyAfterCheck(TVMFFIAny* src) {
    return RefTraits::MoveFromAnyAfterCheck(src);
  }
  /// Shares the array when every element already has its type, otherwise builds a converted copy.
  /// An rvalue reference cell is refused (only RValueRef<Tuple> takes one), as Apache does.
  static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFIObjectRValueRef) return std::nullopt;
    const SeqBaseObj* seq = details::SeqFromCell(src);
    if (seq == nullptr || seq->size() != kArity) return std::nullopt;
    if (seq->type_index() == TypeIndex::kTVMFFIArray &&
        AllStrict(seq, std::index_sequence_for<Types...>{})) {
      return details::ObjectUnsafe::ObjectRefFromObjectPtr<Self>(
          details::ObjectUnsafe::ObjectPtrFromUnowned<Object>(static_cast<const Object*>(seq)));
    }
    return ConvertAll(seq, std::index_sequence_for<Types...>{});
  }
  /// `Array[size=<n>]` on an arity mismatch, else `Array[index <i>: <info>]` for the first failure.
  static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    const SeqBaseObj* seq = details::SeqFromCell(src);
    if (seq == nullptr || src->type_index == TypeIndex::kTVMFFIObjectRValueRef) {
      return RefTraits::GetMismatchTypeInfo(src);
    }
    const char* kind = seq->type_index() == TypeIndex::kTVMFFIArray ? "Array" : "List";
    if (seq->size() != kArity) {
      return std::string(kind) + "[size=" + std::to_string(seq->size()) + "]";
    }
    std::string info;
    FirstMismatch(seq, kind, &info, std::index_sequence_for<Types...>{});
    return info.empty() ? TypeIndexToTypeKey(src->type_index) : info;
  }
  /// `Tuple<Types...>`.
  static std::string TypeStr() {
    std::string out = "Tuple<";
    bool first = true;
    ((out += (first ? "" : ", ") + details::Type2Str<Types>::v(), first = false), ...);
    return out + ">";
  }
  /// The type schema, with the schemas of Types as arguments.
  static std::string TypeSchema() {
    std::string out = "{\"type\":\"Tuple\",\"args\":[";
    bool first = true;
    ((out += (first ? "" : ",") + details::TypeSchemaOf<Types>::v(), first = false), ...);
    return out + "]}";
  }

  /// Whether the cells src_arr[I], src_arr[I + 1], ... are strictly a T, Rest... (Any accepts
  /// everything).
  template <size_t I, typename T, typename... Rest>
  static bool CheckAnyStrictHelper(const TVMFFIAny* src_arr) {
    if (!details::ElemTraits<T>::CheckStrict(src_arr + I)) return false;
    if constexpr (sizeof...(Rest) > 0) {
      return CheckAnyStrictHelper<I + 1, Rest...>(src_arr);
    } else {
      return true;
    }
  }
  /// `Array[index <i>: <info>]` for the first of arr[I], arr[I + 1], ... that does not convert
  /// to its type among T, Rest... (InternalError when they all do).
  template <size_t I, typename T, typename... Rest>
  static std::string GetMismatchTypeInfoHelper(const Any* arr) {
    const TVMFFIAny* cell = details::AnyUnsafe::TVMFFIAnyPtrFromAny(arr[I]);
    if (!details::ElemTraits<T>::TryCast(cell).has_value()) {
      return "Array[index " + std::to_string(I) + ": " +
             details::ElemTraits<T>::MismatchInfo(cell) + "]";
    }
    if constexpr (sizeof...(Rest) > 0) {
      return GetMismatchTypeInfoHelper<I + 1, Rest...>(arr);
    } else {
      TVM_FFI_THROW(InternalError) << "GetMismatchTypeInfoHelper: every element converts";
      TVM_FFI_UNREACHABLE();
    }
  }
  /// Converts arr[I], arr[I + 1], ... in place to T, Rest...; false at the first that does not
  /// convert (the elements before it stay converted).
  template <size_t I, typename T, typename... Rest>
  static bool TryConvertElements(Any* arr) {
    if constexpr (!std::is_same_v<T, Any>) {
      std::optional<T> converted =
          details::ElemTraits<T>::TryCast(details::AnyUnsafe::TVMFFIAnyPtrFromAny(arr[I]));
      if (!converted.has_value()) return false;
      arr[I] = Any(*std::move(converted));
    }
    if constexpr (sizeof...(Rest) > 0) {
      return TryConvertElements<I + 1, Rest...>(arr);
    } else {
      return true;
    }
  }

 private:
  static const TVMFFIAny* CellAt(const SeqBaseObj* seq, size_t i) {
    return details::AnyUnsafe::TVMFFIAnyPtrFromAny(seq->begin()[i]);
  }
  template <size_t... I>
  static bool AllStrict(const SeqBaseObj* seq, std::index_sequence<I...>) {
    return (details::ElemTraits<Types>::CheckStrict(CellAt(seq, I)) && ...);
  }
  template <size_t... I>
  static std::optional<Self> ConvertAll(const SeqBaseObj* seq, std::index_sequence<I...>) {
    std::tuple<std::optional<Types>...> items{
        details::ElemTraits<Types>::TryCast(CellAt(seq, I))...};
    if (!(std::get<I>(items).has_value() && ...)) return std::nullopt;
    ObjectPtr<ArrayObj> obj = ArrayObj::Empty(static_cast<int64_t>(kArity));
    (obj->EmplaceBackUnchecked(Any(*std::move(std::get<I>(items)))), ...);
    return Self(ObjectPtr<Object>(std::move(obj)));
  }
  template <size_t... I>
  static void FirstMismatch(const SeqBaseObj* seq, const char* kind, std::string* info,
                            std::index_sequence<I...>) {
    auto check = [&](size_t i, auto traits) {
      using Traits = decltype(traits);
      const TVMFFIAny* cell = CellAt(seq, i);
      if (Traits::TryCast(cell).has_value()) return false;
      *info = std::string(kind) + "[index " + std::to_string(i) + ": " +
              Traits::MismatchInfo(cell) + "]";
      return true;
    };
    static_cast<void>((check(I, details::ElemTraits<Types>{}) || ...));
  }
};

/// A Tuple<U...> can be used as a Tuple<T...> as it is when every U is its T.
template <typename... T, typename... U>
inline constexpr bool
    type_subsumes_v<Tuple<T...>, Tuple<U...>, std::enable_if_t<sizeof...(T) == sizeof...(U)>> =
        (type_subsumes_v<T, U> && ...);

}  // namespace ffi
}  // namespace tvm

namespace std {
/// The arity of a Tuple, for structured bindings.
template <typename... Types>
struct tuple_size<::tvm::ffi::Tuple<Types...>>
    : public std::integral_constant<size_t, sizeof...(Types)> {};

/// The type of element I of a Tuple, for structured bindings.
template <size_t I, typename... Types>
struct tuple_element<I, ::tvm::ffi::Tuple<Types...>> {
  /// Element I's type.
  using type = std::tuple_element_t<I, std::tuple<Types...>>;
};
}  // namespace std

#endif  // TVM_FFI_CONTAINER_TUPLE_H_

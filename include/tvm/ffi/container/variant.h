// SPDX-License-Identifier: Apache-2.0
// container/variant.h: Variant<V...>, a value holding exactly one of several FFI types.
#ifndef TVM_FFI_CONTAINER_VARIANT_H_
#define TVM_FFI_CONTAINER_VARIANT_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/type_traits.h>

#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {

/// A value of one of V... stored in an Any; conversions try the alternatives in order.
template <typename... V>
class Variant {
 public:
  static_assert(sizeof...(V) >= 1, "Variant needs at least one alternative");
  static constexpr bool _type_container_is_exact = false;
  /// Whether every T can be held as one of the alternatives without conversion.
  template <typename T>
  static constexpr bool variant_contains_v = (type_subsumes_v<V, T> || ...);
  /// SFINAE helper: valid only when variant_contains_v<T>.
  template <typename T>
  using enable_if_variant_contains_t = std::enable_if_t<variant_contains_v<T>>;

  /// From a value convertible to one of the alternatives.
  template <typename T, typename = std::enable_if_t<(std::is_convertible_v<T, V> || ...) &&
                                                    !std::is_same_v<std::decay_t<T>, Variant>>>
  Variant(T&& value) : data_(Convert(std::forward<T>(value))) {}  // NOLINT(*)

  /// The value as T when it holds exactly a T.
  template <typename T>
  std::optional<T> as() const {
    return data_.as<T>();
  }
  /// The value converted to T (TypeError when it cannot be).
  template <typename T>
  T get() const& {
    return data_.cast<T>();
  }
  /// The value converted to T, moved out of this variant when it already is a T.
  template <typename T>
  T get() && {
    return std::move(data_).template cast<T>();
  }
  /// The index (in V...) of the alternative held.
  size_t index() const {
    const TVMFFIAny* cell = details::AnyUnsafe::TVMFFIAnyPtrFromAny(data_);
    size_t i = 0;
    bool found = false;
    // The fold stops at the first match.  NOLINTNEXTLINE(bugprone-assignment-in-selection-*)
    ((found || (TypeTraits<V>::CheckAnyStrict(cell) ? (found = true) : (++i, false))), ...);
    return i;
  }
  /// The held value.
  const Any& value() const { return data_; }
  /// The type key of the held value (e.g. "ffi.Array", "int").
  std::string GetTypeKey() const { return data_.GetTypeKey(); }
  /// Whether both hold the same object (or equal plain values).
  bool same_as(const Variant& other) const { return data_.same_as(other.data_); }

 private:
  friend struct ObjectPtrHash;
  friend struct ObjectPtrEqual;
  /// The object held, for identity hashing and equality; every alternative must be an ObjectRef.
  const Object* GetObjectPtrForHashEqual() const {
    static_assert((std::is_base_of_v<ObjectRef, V> && ...),
                  "ObjectPtrHash and ObjectPtrEqual need a Variant of ObjectRef types");
    const TVMFFIAny* cell = details::AnyUnsafe::TVMFFIAnyPtrFromAny(data_);
    if (cell->type_index < TypeIndex::kTVMFFIStaticObjectBegin) return nullptr;
    return details::ObjectUnsafe::FromHandle(cell->v_obj);
  }
  template <typename T>
  static Any Convert(T&& value) {
    return Any(std::forward<T>(value));
  }
  explicit Variant(Any data, std::nullptr_t) : data_(std::move(data)) {}
  Any data_;

  template <typename, typename>
  friend struct TypeTraits;
};

/// Variant<V...> in cells: the value of the alternative held, as that alternative stores it.
template <typename... V>
struct TypeTraits<Variant<V...>> : public TypeTraitsBase {
  /// The converted type.
  using Self = Variant<V...>;
  /// Stores a view of the held value in result.
  static void CopyToAnyView(const Self& src, TVMFFIAny* result) {
    *result = AnyView(src.data_).CopyToTVMFFIAny();
  }
  /// Moves the held value into result.
  static void MoveToAny(Self src, TVMFFIAny* result) {
    *result = details::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(src.data_));
  }
  /// Whether src is strictly one of the alternatives.
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return (TypeTraits<V>::CheckAnyStrict(src) || ...);
  }
  /// The variant holding the value of src (which passed the check).
  static Self CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return Self(Any(AnyView::CopyFromTVMFFIAny(*src)), nullptr);
  }
  /// The variant holding the value moved out of src (which passed the check).
  static Self MoveFromAnyAfterCheck(TVMFFIAny* src) {
    return Self(details::AnyUnsafe::MoveTVMFFIAnyToAny(src), nullptr);
  }
  /// The first alternative passing a strict check, else the first that converts.
  static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* src) {
    if (CheckAnyStrict(src)) return CopyFromAnyViewAfterCheck(src);
    return TryVariantTypes<V...>(src);
  }
  /// src converted to the first of VariantType, Rest... that accepts it, or nullopt.
  template <typename VariantType, typename... Rest>
  static std::optional<Self> TryVariantTypes(const TVMFFIAny* src) {
    if (std::optional<VariantType> value = TypeTraits<VariantType>::TryCastFromAnyView(src)) {
      return Self(Any(*std::move(value)), nullptr);
    }
    if constexpr (sizeof...(Rest) > 0) {
      return TryVariantTypes<Rest...>(src);
    } else {
      return std::nullopt;
    }
  }
  /// `Variant<V...>`.
  static std::string TypeStr() {
    std::string out;
    ((out += (out.empty() ? "" : ", ") + details::Type2Str<V>::v()), ...);
    return "Variant<" + out + ">";
  }
  /// The type schema, with the schemas of V as arguments.
  static std::string TypeSchema() {
    std::string out;
    ((out += (out.empty() ? "" : ",") + details::TypeSchemaOf<V>::v()), ...);
    return "{\"type\":\"Variant\",\"args\":[" + out + "]}";
  }
};

/// Identity hash of the object a Variant of ObjectRef types holds.
template <typename... V>
inline size_t ObjectPtrHash::operator()(const Variant<V...>& a) const {
  return std::hash<const Object*>()(a.GetObjectPtrForHashEqual());
}

/// Whether two Variants of ObjectRef types hold the same object.
template <typename... V>
inline bool ObjectPtrEqual::operator()(const Variant<V...>& a, const Variant<V...>& b) const {
  return a.GetObjectPtrForHashEqual() == b.GetObjectPtrForHashEqual();
}

/// A T can be held in a Variant as it is when one alternative takes every T.
template <typename... V, typename T>
inline constexpr bool type_subsumes_v<Variant<V...>, T> =
    std::is_same_v<Variant<V...>, T> || (type_subsumes_v<V, T> || ...);

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_CONTAINER_VARIANT_H_

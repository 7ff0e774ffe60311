// SPDX-License-Identifier: Apache-2.0
// container/variant.h: Variant<V...>, a value holding exactly one of several FFI types.
#ifndef TVM_FFI_CONTAINER_VARIANT_H_
#define TVM_FFI_CONTAINER_VARIANT_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/type_traits.h>

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
  T get() const {
    return data_.cast<T>();
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

 private:
  template <typename T>
  static Any Convert(T&& value) {
    return Any(std::forward<T>(value));
  }
  explicit Variant(Any data, std::nullptr_t) : data_(std::move(data)) {}
  Any data_;

  template <typename, typename>
  friend struct TypeTraits;
};

template <typename... V>
struct TypeTraits<Variant<V...>> : public TypeTraitsBase {
  using Self = Variant<V...>;
  static void CopyToAnyView(const Self& src, TVMFFIAny* result) {
    *result = AnyView(src.data_).CopyToTVMFFIAny();
  }
  static void MoveToAny(Self src, TVMFFIAny* result) {
    *result = details::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(src.data_));
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return (TypeTraits<V>::CheckAnyStrict(src) || ...);
  }
  static Self CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return Self(Any(AnyView::CopyFromTVMFFIAny(*src)), nullptr);
  }
  static Self MoveFromAnyAfterCheck(TVMFFIAny* src) {
    return Self(details::AnyUnsafe::MoveTVMFFIAnyToAny(src), nullptr);
  }
  /// The first alternative passing a strict check, else the first that converts.
  static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* src) {
    if (CheckAnyStrict(src)) return CopyFromAnyViewAfterCheck(src);
    std::optional<Self> result;
    ((result.has_value() ? void() : TryOne<V>(src, &result)), ...);
    return result;
  }
  static std::string TypeStr() {
    std::string out;
    ((out += (out.empty() ? "" : ", ") + details::Type2Str<V>::v()), ...);
    return "Variant<" + out + ">";
  }
  static std::string TypeSchema() {
    std::string out;
    ((out += (out.empty() ? "" : ",") + details::TypeSchemaOf<V>::v()), ...);
    return "{\"type\":\"Variant\",\"args\":[" + out + "]}";
  }

 private:
  template <typename T>
  static void TryOne(const TVMFFIAny* src, std::optional<Self>* result) {
    if (std::optional<T> value = TypeTraits<T>::TryCastFromAnyView(src)) {
      *result = Self(Any(std::move(*value)), nullptr);
    }
  }
};

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_CONTAINER_VARIANT_H_

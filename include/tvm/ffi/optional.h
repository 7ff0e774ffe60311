// SPDX-License-Identifier: Apache-2.0
// optional.h: Optional<T>, a value that may be None (ObjectRef-backed for object references).
#ifndef TVM_FFI_OPTIONAL_H_
#define TVM_FFI_OPTIONAL_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/type_traits.h>

#include <optional>
#include <string>
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {

namespace details {
[[noreturn]] TVM_FFI_COLD_CODE inline void ThrowBackOptionalAccess() {
  TVM_FFI_THROW(RuntimeError) << "Back optional access";
  TVM_FFI_UNREACHABLE();
}
}  // namespace details

template <typename T, typename = void>
class Optional;

template <typename T>
inline constexpr bool is_optional_type_v = false;
template <typename T>
inline constexpr bool is_optional_type_v<Optional<T>> = true;

/// Whether Optional<T> is one pointer, a null reference meaning "nothing".
template <typename T>
inline constexpr bool use_object_ref_optional_v =
    std::is_base_of_v<ObjectRef, T> && !is_optional_type_v<T>;

template <typename T>
inline constexpr bool is_object_ptr_type_v = false;
template <typename TObject>
inline constexpr bool is_object_ptr_type_v<ObjectPtr<TObject>> = true;
template <typename T>
inline constexpr bool is_arc_type_v = false;
template <typename TObject>
inline constexpr bool is_arc_type_v<Arc<TObject>> = true;

/// Whether Optional<T> is one pointer: T an object reference, an ObjectPtr or an Arc.
template <typename T>
inline constexpr bool use_object_ptr_optional_v =
    use_object_ref_optional_v<T> || is_object_ptr_type_v<T> || is_arc_type_v<T>;

/// Whether Optional<T> stores its value in an Any cell (None meaning "nothing"). This is the
/// layout C++ entry points of the runtime take and return (16 bytes, as in Apache TVM FFI).
template <typename T>
inline constexpr bool use_any_optional_v =
    TypeTraits<T>::storage_enabled && !use_object_ptr_optional_v<T>;

/// A T or nothing, for types an Any cannot hold (views such as DLTensor*): a std::optional.
template <typename T, typename>
class Optional {
 public:
  Optional() = default;
  Optional(std::nullopt_t) {}                                    // NOLINT(*)
  Optional(std::nullptr_t) {}                                    // NOLINT(*)
  Optional(T value) : data_(std::move(value)) {}                 // NOLINT(*)
  Optional(std::optional<T> value) : data_(std::move(value)) {}  // NOLINT(*)

  bool has_value() const { return data_.has_value(); }
  explicit operator bool() const { return has_value(); }
  const T& value() const& {
    if (!has_value()) details::ThrowBackOptionalAccess();
    return *data_;
  }
  T&& value() && {
    if (!has_value()) details::ThrowBackOptionalAccess();
    return *std::move(data_);
  }
  template <typename U>
  T value_or(U&& default_value) const {
    return has_value() ? *data_ : T(std::forward<U>(default_value));
  }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  bool operator==(std::nullopt_t) const { return !has_value(); }
  bool operator!=(std::nullopt_t) const { return has_value(); }
  bool operator==(std::nullptr_t) const { return !has_value(); }
  bool operator!=(std::nullptr_t) const { return has_value(); }
  bool operator==(const Optional& other) const { return data_ == other.data_; }
  bool operator!=(const Optional& other) const { return data_ != other.data_; }

 private:
  std::optional<T> data_;
};

/// A T or nothing, stored in one Any cell: None is "nothing", anything else is exactly a T.
template <typename T>
class Optional<T, std::enable_if_t<use_any_optional_v<T>>> {
 public:
  Optional() = default;
  Optional(std::nullopt_t) {}                     // NOLINT(*)
  Optional(std::nullptr_t) {}                     // NOLINT(*)
  Optional(T value) : data_(std::move(value)) {}  // NOLINT(*)
  Optional(std::optional<T> value) {              // NOLINT(*)
    if (value.has_value()) data_ = Any(*std::move(value));
  }
  template <typename U, typename = std::enable_if_t<std::is_convertible_v<U, T> &&
                                                    !std::is_same_v<std::decay_t<U>, T> &&
                                                    !is_optional_type_v<std::decay_t<U>>>>
  Optional(U&& value) : data_(T(std::forward<U>(value))) {}  // NOLINT(*)

  bool has_value() const { return data_.type_index() != TypeIndex::kTVMFFINone; }
  explicit operator bool() const { return has_value(); }
  T value() const& {
    if (!has_value()) details::ThrowBackOptionalAccess();
    return details::AnyUnsafe::CopyFromAnyViewAfterCheck<T>(data_);
  }
  T value() && {
    if (!has_value()) details::ThrowBackOptionalAccess();
    return details::AnyUnsafe::MoveFromAnyAfterCheck<T>(std::move(data_));
  }
  template <typename U>
  T value_or(U&& default_value) const {
    return has_value() ? value() : T(std::forward<U>(default_value));
  }
  T operator*() const& { return value(); }
  T operator*() && { return std::move(*this).value(); }
  bool operator==(std::nullopt_t) const { return !has_value(); }
  bool operator!=(std::nullopt_t) const { return has_value(); }
  bool operator==(std::nullptr_t) const { return !has_value(); }
  bool operator!=(std::nullptr_t) const { return has_value(); }
  bool operator==(const Optional& other) const {
    if (!has_value() || !other.has_value()) return has_value() == other.has_value();
    return value() == other.value();
  }
  bool operator!=(const Optional& other) const { return !(*this == other); }
  template <typename U, typename = std::enable_if_t<!is_optional_type_v<U>>,
            typename = decltype(std::declval<const T&>() == std::declval<const U&>())>
  bool operator==(const U& other) const {
    return has_value() && value() == other;
  }
  template <typename U, typename = std::enable_if_t<!is_optional_type_v<U>>,
            typename = decltype(std::declval<const T&>() == std::declval<const U&>())>
  bool operator!=(const U& other) const {
    return !(*this == other);
  }

 private:
  Any data_;
};

/// Optional of an object reference: one pointer; a null reference means "nothing".
template <typename T>
class Optional<T, std::enable_if_t<use_object_ref_optional_v<T>>> : public ObjectRef {
 public:
  using ContainerType = typename T::ContainerType;
  Optional() = default;
  Optional(std::nullopt_t) {}                         // NOLINT(*)
  Optional(std::nullptr_t) {}                         // NOLINT(*)
  Optional(T value) : ObjectRef(std::move(value)) {}  // NOLINT(*)
  Optional(std::optional<T> value) {                  // NOLINT(*)
    if (value.has_value()) *this = Optional(*std::move(value));
  }
  template <typename U, typename = std::enable_if_t<std::is_base_of_v<T, U>>>
  Optional(const Optional<U>& other) : ObjectRef(other) {}  // NOLINT(*)
  explicit Optional(UnsafeInit tag) : ObjectRef(tag) {}

  bool has_value() const { return data_ != nullptr; }
  explicit operator bool() const { return has_value(); }
  T value() const {
    if (!has_value()) details::ThrowBackOptionalAccess();
    return details::ObjectUnsafe::ObjectRefFromObjectPtr<T>(data_);
  }
  T value_or(T default_value) const { return has_value() ? value() : default_value; }
  T operator*() const { return value(); }
  auto get() const { return value().get(); }
  bool operator==(std::nullopt_t) const { return !has_value(); }
  bool operator!=(std::nullopt_t) const { return has_value(); }
  bool operator==(std::nullptr_t) const { return !has_value(); }
  bool operator!=(std::nullptr_t) const { return has_value(); }
  bool operator==(const Optional& other) const { return data_ == other.data_; }
  bool operator!=(const Optional& other) const { return data_ != other.data_; }
  static constexpr bool _type_is_nullable = true;
};

namespace details {
template <typename TPtr>
struct OwningPointee;
template <typename TObject>
struct OwningPointee<ObjectPtr<TObject>> {
  using type = TObject;
};
template <typename TObject>
struct OwningPointee<Arc<TObject>> {
  using type = TObject;
};
}  // namespace details

/// Optional of an owning pointer (ObjectPtr<X> or Arc<X>): one ObjectPtr<X>, null meaning
/// "nothing" (pointer-sized, the layout Apache's headers give it). A present Arc is never null.
template <typename T>
class Optional<T, std::enable_if_t<is_object_ptr_type_v<T> || is_arc_type_v<T>>> {
 public:
  using ContainerType = typename details::OwningPointee<T>::type;
  Optional() = default;
  Optional(std::nullopt_t) {}                     // NOLINT(*)
  Optional(std::nullptr_t) {}                     // NOLINT(*)
  Optional(T value) : data_(std::move(value)) {}  // NOLINT(*)
  Optional(std::optional<T> value) {              // NOLINT(*)
    if (value.has_value()) data_ = *std::move(value);
  }

  bool has_value() const { return data_ != nullptr; }
  explicit operator bool() const { return has_value(); }
  T value() const& {
    if (!has_value()) details::ThrowBackOptionalAccess();
    return Wrap(data_);
  }
  T value() && {
    if (!has_value()) details::ThrowBackOptionalAccess();
    return Wrap(std::move(data_));
  }
  template <typename U>
  T value_or(U&& default_value) const {
    return has_value() ? Wrap(data_) : T(std::forward<U>(default_value));
  }
  T operator*() const& { return value(); }
  T operator*() && { return std::move(*this).value(); }
  /// The object pointed to, or nullptr.
  ContainerType* get() const { return data_.get(); }
  int use_count() const { return data_.use_count(); }
  bool unique() const { return data_.unique(); }
  bool same_as(const Optional& other) const { return data_ == other.data_; }
  bool same_as(const T& other) const { return get() == other.get(); }
  bool operator==(std::nullopt_t) const { return !has_value(); }
  bool operator!=(std::nullopt_t) const { return has_value(); }
  bool operator==(std::nullptr_t) const { return !has_value(); }
  bool operator!=(std::nullptr_t) const { return has_value(); }
  bool operator==(const Optional& other) const { return data_ == other.data_; }
  bool operator!=(const Optional& other) const { return data_ != other.data_; }
  bool operator==(const T& other) const { return get() == other.get(); }
  bool operator!=(const T& other) const { return get() != other.get(); }

 private:
  static T Wrap(ObjectPtr<ContainerType> ptr) {
    if constexpr (is_arc_type_v<T>) {
      return details::ObjectUnsafe::ArcFromObjectPtr(std::move(ptr));
    } else {
      return ptr;
    }
  }

  ObjectPtr<ContainerType> data_;
};

/// Optional<T> in cells: None, or whatever T accepts.
template <typename T>
struct TypeTraits<Optional<T>> : public TypeTraitsBase {
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIAny;
  static void CopyToAnyView(const Optional<T>& src, TVMFFIAny* result) {
    if (!src.has_value()) return details::ResetPODCell(result, TypeIndex::kTVMFFINone);
    TypeTraits<T>::CopyToAnyView(*src, result);
  }
  static void MoveToAny(Optional<T> src, TVMFFIAny* result) {
    if (!src.has_value()) return details::ResetPODCell(result, TypeIndex::kTVMFFINone);
    TypeTraits<T>::MoveToAny(*std::move(src), result);
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == TypeIndex::kTVMFFINone || TypeTraits<T>::CheckAnyStrict(src);
  }
  static Optional<T> CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFINone) return Optional<T>();
    return TypeTraits<T>::CopyFromAnyViewAfterCheck(src);
  }
  static Optional<T> MoveFromAnyAfterCheck(TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFINone) return Optional<T>();
    return TypeTraits<T>::MoveFromAnyAfterCheck(src);
  }
  static std::optional<Optional<T>> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFINone) return Optional<T>();
    std::optional<T> value = TypeTraits<T>::TryCastFromAnyView(src);
    if (!value.has_value()) return std::nullopt;
    return Optional<T>(*std::move(value));
  }
  static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    return TypeTraits<T>::GetMismatchTypeInfo(src);
  }
  static std::string TypeStr() { return "Optional<" + details::Type2Str<T>::v() + ">"; }
  static std::string TypeSchema() {
    return "{\"type\":\"Optional\",\"args\":[" + details::TypeSchemaOf<T>::v() + "]}";
  }
};

template <typename T>
inline constexpr bool use_default_type_traits_v<Optional<T>> = false;

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_OPTIONAL_H_

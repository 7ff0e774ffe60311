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

/// Optional::as_or_throw<U>() &&: moves the value out as U when it is strictly one.
template <typename U, typename Opt>
U OptionalMoveAsOrThrow(Opt&& opt) {
  if constexpr (std::is_same_v<U, Any> || TypeTraits<U>::storage_enabled) {
    if (AnyUnsafe::CheckAnyViewStrict<U>(AnyView(opt))) {
      return AnyUnsafe::MoveFromAnyAfterCheck<U>(Any(std::forward<Opt>(opt)));
    }
  }
  return AnyView(opt).template as_or_throw<U>();
}
}  // namespace details

template <typename T, typename = void>
class Optional;

namespace details {
/// Whether two const T can be compared with ==.
template <typename T, typename = void>
inline constexpr bool has_equality_v = false;
template <typename T>
inline constexpr bool
    has_equality_v<T, std::void_t<decltype(std::declval<const T&>() == std::declval<const T&>())>> =
        true;
}  // namespace details

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
  /// The value as U when the cell it travels in is strictly a U (a U* for an object class U;
  /// None when empty), without conversion.
  template <typename U>
  auto as() const {
    return AnyView(*this).template as<U>();
  }
  /// The value as U; TypeError "Cannot treat type `<got>` as type `<U>`" when it is not one.
  template <typename U>
  U as_or_throw() const& {
    return AnyView(*this).template as_or_throw<U>();
  }
  /// Like as_or_throw() const&, moving the value out on success; nothing is consumed on error.
  template <typename U>
  U as_or_throw() && {
    return details::OptionalMoveAsOrThrow<U>(std::move(*this));
  }
  T operator*() const& { return value(); }
  T operator*() && { return std::move(*this).value(); }
  bool operator==(std::nullopt_t) const { return !has_value(); }
  bool operator!=(std::nullopt_t) const { return has_value(); }
  bool operator==(std::nullptr_t) const { return !has_value(); }
  bool operator!=(std::nullptr_t) const { return has_value(); }
  /// Whether both hold the same cell: both empty, the same object, or equal plain values.
  bool same_as(const Optional& other) const { return data_.same_as(other.data_); }
  /// Whether this holds exactly the object of other.
  template <typename U = T, typename = std::enable_if_t<std::is_base_of_v<ObjectRef, U>>>
  bool same_as(const U& other) const {
    return data_.same_as(other);
  }
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

/// Optional of an object reference: one pointer; a null reference means "nothing". Like
/// Apache's, it is not an ObjectRef itself.
template <typename T>
class Optional<T, std::enable_if_t<use_object_ref_optional_v<T>>> {
 public:
  using value_type = T;
  using ContainerType = typename T::ContainerType;
  /// As T's (0.1.13's headers declare it; 0.1.15's do not).
  static constexpr bool _type_container_is_exact = T::_type_container_is_exact;
  Optional() = default;
  Optional(std::nullopt_t) {}  // NOLINT(*)
  Optional(std::nullptr_t) {}  // NOLINT(*)
  Optional(T value)            // NOLINT(*)
      : data_(details::ObjectUnsafe::ObjectPtrFromObjectRef<Object>(std::move(value))) {}
  Optional(std::optional<T> value) {  // NOLINT(*)
    if (value.has_value()) {
      data_ = details::ObjectUnsafe::ObjectPtrFromObjectRef<Object>(*std::move(value));
    }
  }
  template <typename U, typename = std::enable_if_t<std::is_base_of_v<T, U>>>
  Optional(const Optional<U>& other) : data_(other.data_) {}  // NOLINT(*)
  explicit Optional(UnsafeInit) {}

  bool has_value() const noexcept { return data_ != nullptr; }
  explicit operator bool() const noexcept { return has_value(); }
  /// The value; RuntimeError "Back optional access" when empty.
  T value() const& {
    if (!has_value()) details::ThrowBackOptionalAccess();
    return details::ObjectUnsafe::ObjectRefFromObjectPtr<T>(data_);
  }
  /// Like value() const&, moving the reference out.
  T value() && {
    if (!has_value()) details::ThrowBackOptionalAccess();
    return details::ObjectUnsafe::ObjectRefFromObjectPtr<T>(std::move(data_));
  }
  /// The value, or default_value (converted to T) when empty.
  template <typename U = std::remove_cv_t<T>>
  T value_or(U&& default_value) const {
    return has_value() ? details::ObjectUnsafe::ObjectRefFromObjectPtr<T>(data_)
                       : T(std::forward<U>(default_value));
  }
  /// The value as U when the cell it travels in is strictly a U (a U* for an object class U;
  /// None when empty), without conversion.
  template <typename U>
  auto as() const {
    return AnyView(*this).template as<U>();
  }
  /// The value as U; TypeError "Cannot treat type `<got>` as type `<U>`" when it is not one.
  template <typename U>
  U as_or_throw() const& {
    return AnyView(*this).template as_or_throw<U>();
  }
  /// Like as_or_throw() const&, moving the value out on success; nothing is consumed on error.
  template <typename U>
  U as_or_throw() && {
    return details::OptionalMoveAsOrThrow<U>(std::move(*this));
  }
  /// The value, unchecked: a null T when empty.
  T operator*() const& noexcept { return details::ObjectUnsafe::ObjectRefFromObjectPtr<T>(data_); }
  /// Like operator*() const&, moving the reference out.
  T operator*() && noexcept {
    return details::ObjectUnsafe::ObjectRefFromObjectPtr<T>(std::move(data_));
  }
  /// The object, nullptr when empty.
  const ContainerType* get() const { return static_cast<const ContainerType*>(data_.get()); }
  const ContainerType* operator->() const { return get(); }
  /// Whether both hold the same object (or are both empty).
  bool same_as(const Optional& other) const { return data_ == other.data_; }
  /// Whether this holds other's object (empty and a null reference count as the same).
  bool same_as(const ObjectRef& other) const { return data_.get() == other.get(); }
  bool unique() const { return data_.unique(); }
  int use_count() const { return data_.use_count(); }

  bool operator==(std::nullopt_t) const noexcept { return !has_value(); }
  bool operator!=(std::nullopt_t) const noexcept { return has_value(); }
  bool operator==(std::nullptr_t) const noexcept { return !has_value(); }
  bool operator!=(std::nullptr_t) const noexcept { return has_value(); }
  // Comparisons with values compare T's way (whatever T's == gives, e.g. an expression), after
  // the shortcuts of emptiness and identity; by identity when T has no == (e.g. Function).
  auto operator==(const Optional& other) const { return EqualsOptional(other); }
  auto operator!=(const Optional& other) const { return DiffersOptional(other); }
  auto operator==(const std::optional<T>& other) const { return EqualsOptional(other); }
  auto operator!=(const std::optional<T>& other) const { return DiffersOptional(other); }
  auto operator==(const T& other) const {
    if constexpr (!details::has_equality_v<T>) {
      return has_value() && same_as(other);
    } else {
      using Result = decltype(**this == other);
      if (!has_value()) return Result(false);
      if (same_as(other)) return Result(true);
      return **this == other;
    }
  }
  auto operator!=(const T& other) const { return !(*this == other); }
  template <typename U>
  auto operator==(const U& other) const {
    using Result = decltype(**this == other);
    return has_value() ? **this == other : Result(false);
  }
  template <typename U>
  auto operator!=(const U& other) const {
    using Result = decltype(**this != other);
    return has_value() ? **this != other : Result(true);
  }
  static constexpr bool _type_is_nullable = true;

 private:
  template <typename Other>
  auto EqualsOptional(const Other& other) const {
    if constexpr (!details::has_equality_v<T>) {
      return has_value() == other.has_value() && (!has_value() || same_as(*other));
    } else {
      using Result = decltype(**this == *other);
      if (!has_value() || !other.has_value()) return Result(has_value() == other.has_value());
      if (same_as(*other)) return Result(true);
      return **this == *other;
    }
  }
  template <typename Other>
  auto DiffersOptional(const Other& other) const {
    if constexpr (!details::has_equality_v<T>) {
      return !EqualsOptional(other);
    } else {
      return DiffersByValue(other);
    }
  }
  template <typename Other>
  auto DiffersByValue(const Other& other) const {
    using Result = decltype(**this != *other);
    if (!has_value() || !other.has_value()) return Result(has_value() != other.has_value());
    if (same_as(*other)) return Result(false);
    return **this != *other;
  }

  ObjectPtr<Object> data_;
  friend struct details::ObjectUnsafe;
  template <typename, typename>
  friend class Optional;
};

namespace details {
/// How Optional<T> of an owning pointer T (ObjectPtr<X> or Arc<X>) stores its value: as an
/// ObjectPtr<X> (StorageType), handed out as a T by Copy and Move.
template <typename T>
struct OptionalObjectPtrTraits;
template <typename TObject>
struct OptionalObjectPtrTraits<ObjectPtr<TObject>> {
  using ContainerType = TObject;
  using StorageType = ObjectPtr<TObject>;
  static ObjectPtr<TObject> Copy(const StorageType& value) { return value; }
  static ObjectPtr<TObject> Move(StorageType&& value) { return std::move(value); }
};
template <typename TObject>
struct OptionalObjectPtrTraits<Arc<TObject>> {
  using ContainerType = TObject;
  using StorageType = ObjectPtr<TObject>;
  /// value must not be null.
  static Arc<TObject> Copy(const StorageType& value) {
    return ObjectUnsafe::ArcFromObjectPtr(StorageType(value));
  }
  /// value must not be null.
  static Arc<TObject> Move(StorageType&& value) {
    return ObjectUnsafe::ArcFromObjectPtr(std::move(value));
  }
};
}  // namespace details

/// Optional of an owning pointer (ObjectPtr<X> or Arc<X>): one ObjectPtr<X>, null meaning
/// "nothing" (pointer-sized, the layout Apache's headers give it). A present Arc is never null.
template <typename T>
class Optional<T, std::enable_if_t<is_object_ptr_type_v<T> || is_arc_type_v<T>>> {
 public:
  using ContainerType = typename details::OptionalObjectPtrTraits<T>::ContainerType;
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
  /// The value as U when the cell it travels in is strictly a U (a U* for an object class U;
  /// None when empty), without conversion.
  template <typename U>
  auto as() const {
    return AnyView(*this).template as<U>();
  }
  /// The value as U; TypeError "Cannot treat type `<got>` as type `<U>`" when it is not one.
  template <typename U>
  U as_or_throw() const& {
    return AnyView(*this).template as_or_throw<U>();
  }
  /// Like as_or_throw() const&, moving the value out on success; nothing is consumed on error.
  template <typename U>
  U as_or_throw() && {
    return details::OptionalMoveAsOrThrow<U>(std::move(*this));
  }
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
    return details::OptionalObjectPtrTraits<T>::Move(std::move(ptr));
  }

  ObjectPtr<ContainerType> data_;
};

/// Optional<T> in cells: None, or whatever T accepts.
template <typename T>
struct TypeTraits<Optional<T>> : public TypeTraitsBase {
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIAny;
  /// An Optional can be stored (in an Any, a container) exactly when its value can.
  static constexpr bool storage_enabled = TypeTraits<T>::storage_enabled;
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

/// Every U a T subsumes is a valid Optional<T> (as is None, from another Optional).
template <typename T, typename U>
inline constexpr bool type_subsumes_v<Optional<T>, U> =
    std::is_same_v<Optional<T>, U> || type_subsumes_v<T, U>;
template <typename T, typename U>
inline constexpr bool type_subsumes_v<Optional<T>, Optional<U>> = type_subsumes_v<T, U>;

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_OPTIONAL_H_

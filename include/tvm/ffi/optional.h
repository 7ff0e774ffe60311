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

/*! \brief Whether T is an Optional (false by default). */
template <typename T>
inline constexpr bool is_optional_type_v = false;
/*! \brief An `Optional<T>` is an Optional. */
template <typename T>
inline constexpr bool is_optional_type_v<Optional<T>> = true;

/// Whether Optional<T> is one pointer, a null reference meaning "nothing".
template <typename T>
inline constexpr bool use_object_ref_optional_v =
    std::is_base_of_v<ObjectRef, T> && !is_optional_type_v<T>;

/*! \brief Whether T is an ObjectPtr (false by default). */
template <typename T>
inline constexpr bool is_object_ptr_type_v = false;
/*! \brief An `ObjectPtr<TObject>` is an ObjectPtr. */
template <typename TObject>
inline constexpr bool is_object_ptr_type_v<ObjectPtr<TObject>> = true;
/*! \brief Whether T is an Arc (false by default). */
template <typename T>
inline constexpr bool is_arc_type_v = false;
/*! \brief An `Arc<TObject>` is an Arc. */
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
  /*! \brief Construct an empty Optional. */
  Optional(std::nullopt_t) {}                                    // NOLINT(*)
  Optional(std::nullptr_t) {}                                    // NOLINT(*)
  Optional(T value) : data_(std::move(value)) {}                 // NOLINT(*)
  Optional(std::optional<T> value) : data_(std::move(value)) {}  // NOLINT(*)

  /*! \brief Whether a value is held. */
  bool has_value() const { return data_.has_value(); }
  /*! \brief Whether a value is held. */
  explicit operator bool() const { return has_value(); }
  /*! \brief Return the held value; throws when empty. */
  const T& value() const& {
    if (!has_value()) details::ThrowBackOptionalAccess();
    return *data_;
  }
  /*! \brief Move the held value out; throws when empty. */
  T&& value() && {
    if (!has_value()) details::ThrowBackOptionalAccess();
    return *std::move(data_);
  }
  /*! \brief Return the held value, or default_value when empty. */
  template <typename U>
  T value_or(U&& default_value) const {
    return has_value() ? *data_ : T(std::forward<U>(default_value));
  }
  /*! \brief Return the held value; throws when empty. */
  const T& operator*() const& { return value(); }
  /*! \brief Move the held value out; throws when empty. */
  T&& operator*() && { return std::move(*this).value(); }
  /*! \brief Whether this Optional is empty. */
  bool operator==(std::nullopt_t) const { return !has_value(); }
  /*! \brief Whether this Optional holds a value. */
  bool operator!=(std::nullopt_t) const { return has_value(); }
  /*! \brief Whether this Optional is empty. */
  bool operator==(std::nullptr_t) const { return !has_value(); }
  /*! \brief Whether this Optional holds a value. */
  bool operator!=(std::nullptr_t) const { return has_value(); }
  /*! \brief Whether both are empty or hold equal values. */
  bool operator==(const Optional& other) const { return data_ == other.data_; }
  /*! \brief Whether exactly one is empty or the held values differ. */
  bool operator!=(const Optional& other) const { return data_ != other.data_; }

 private:
  std::optional<T> data_;
};

/// A T or nothing, stored in one Any cell: None is "nothing", anything else is exactly a T.
template <typename T>
class Optional<T, std::enable_if_t<use_any_optional_v<T>>> {
 public:
  Optional() = default;
  /*! \brief Construct an empty Optional. */
  Optional(std::nullopt_t) {}                     // NOLINT(*)
  Optional(std::nullptr_t) {}                     // NOLINT(*)
  Optional(T value) : data_(std::move(value)) {}  // NOLINT(*)
  Optional(std::optional<T> value) {              // NOLINT(*)
    if (value.has_value()) data_ = Any(*std::move(value));
  }
  /*! \brief Construct an Optional holding a T converted from value. */
  template <typename U, typename = std::enable_if_t<std::is_convertible_v<U, T> &&
                                                    !std::is_same_v<std::decay_t<U>, T> &&
                                                    !is_optional_type_v<std::decay_t<U>>>>
  Optional(U&& value) : data_(T(std::forward<U>(value))) {}  // NOLINT(*)

  /*! \brief Whether a value is held. */
  bool has_value() const { return data_.type_index() != TypeIndex::kTVMFFINone; }
  /*! \brief Whether a value is held. */
  explicit operator bool() const { return has_value(); }
  /*! \brief Return a copy of the held value; throws when empty. */
  T value() const& {
    if (!has_value()) details::ThrowBackOptionalAccess();
    return details::AnyUnsafe::CopyFromAnyViewAfterCheck<T>(data_);
  }
  /*! \brief Move the held value out; throws when empty. */
  T value() && {
    if (!has_value()) details::ThrowBackOptionalAccess();
    return details::AnyUnsafe::MoveFromAnyAfterCheck<T>(std::move(data_));
  }
  /*! \brief Return the held value, or default_value when empty. */
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
  /*! \brief Return a copy of the held value; throws when empty. */
  T operator*() const& { return value(); }
  /*! \brief Move the held value out; throws when empty. */
  T operator*() && { return std::move(*this).value(); }
  /*! \brief Whether this Optional is empty. */
  bool operator==(std::nullopt_t) const { return !has_value(); }
  /*! \brief Whether this Optional holds a value. */
  bool operator!=(std::nullopt_t) const { return has_value(); }
  /*! \brief Whether this Optional is empty. */
  bool operator==(std::nullptr_t) const { return !has_value(); }
  /*! \brief Whether this Optional holds a value. */
  bool operator!=(std::nullptr_t) const { return has_value(); }
  /// Whether both hold the same cell: both empty, the same object, or equal plain values.
  bool same_as(const Optional& other) const { return data_.same_as(other.data_); }
  /// Whether this holds exactly the object of other.
  template <typename U = T, typename = std::enable_if_t<std::is_base_of_v<ObjectRef, U>>>
  bool same_as(const U& other) const {
    return data_.same_as(other);
  }
  /*! \brief Whether both are empty or hold equal values. */
  bool operator==(const Optional& other) const {
    if (!has_value() || !other.has_value()) return has_value() == other.has_value();
    return value() == other.value();
  }
  /*! \brief Whether exactly one is empty or the held values differ. */
  bool operator!=(const Optional& other) const { return !(*this == other); }
  /*! \brief Whether a value is held and equals other. */
  template <typename U, typename = std::enable_if_t<!is_optional_type_v<U>>,
            typename = decltype(std::declval<const T&>() == std::declval<const U&>())>
  bool operator==(const U& other) const {
    return has_value() && value() == other;
  }
  /*! \brief Whether no value is held or it differs from other. */
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
  /*! \brief The type of the held reference. */
  using value_type = T;
  /*! \brief The object type the held reference points to. */
  using ContainerType = typename T::ContainerType;
  /// As T's (0.1.13's headers declare it; 0.1.15's do not).
  static constexpr bool _type_container_is_exact = T::_type_container_is_exact;
  Optional() = default;
  /*! \brief Construct an empty Optional. */
  Optional(std::nullopt_t) {}  // NOLINT(*)
  Optional(std::nullptr_t) {}  // NOLINT(*)
  Optional(T value)            // NOLINT(*)
      : data_(details::ObjectUnsafe::ObjectPtrFromObjectRef<Object>(std::move(value))) {}
  /*! \brief Construct from a std::optional, empty when it is. */
  Optional(std::optional<T> value) {  // NOLINT(*)
    if (value.has_value()) {
      data_ = details::ObjectUnsafe::ObjectPtrFromObjectRef<Object>(*std::move(value));
    }
  }
  /*! \brief Construct from an Optional of a compatible reference type, sharing its object. */
  template <typename U, typename = std::enable_if_t<std::is_base_of_v<T, U>>>
  Optional(const Optional<U>& other) : data_(other.data_) {}  // NOLINT(*)
  explicit Optional(UnsafeInit) {}

  /*! \brief Whether a value is held (the object pointer is not null). */
  bool has_value() const noexcept { return data_ != nullptr; }
  /*! \brief Whether a value is held. */
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
  /*! \brief Return the held object; null when empty. */
  const ContainerType* operator->() const { return get(); }
  /// Whether both hold the same object (or are both empty).
  bool same_as(const Optional& other) const { return data_ == other.data_; }
  /// Whether this holds other's object (empty and a null reference count as the same).
  bool same_as(const ObjectRef& other) const { return data_.get() == other.get(); }
  /*! \brief Whether this is the only reference to the held object. */
  bool unique() const { return data_.unique(); }
  /*! \brief Return the number of references to the held object (0 when empty). */
  int use_count() const { return data_.use_count(); }

  /*! \brief Whether this Optional is empty. */
  bool operator==(std::nullopt_t) const noexcept { return !has_value(); }
  /*! \brief Whether this Optional holds a value. */
  bool operator!=(std::nullopt_t) const noexcept { return has_value(); }
  /*! \brief Whether this Optional is empty. */
  bool operator==(std::nullptr_t) const noexcept { return !has_value(); }
  /*! \brief Whether this Optional holds a value. */
  bool operator!=(std::nullptr_t) const noexcept { return has_value(); }
  // Comparisons with values compare T's way (whatever T's == gives, e.g. an expression), after
  // the shortcuts of emptiness and identity; by identity when T has no == (e.g. Function).
  /*! \brief Compare with another Optional: both empty, or the held values compare equal. */
  auto operator==(const Optional& other) const { return EqualsOptional(other); }
  /*! \brief Negation of operator== with another Optional. */
  auto operator!=(const Optional& other) const { return DiffersOptional(other); }
  /*! \brief Compare with a std::optional: both empty, or the held values compare equal. */
  auto operator==(const std::optional<T>& other) const { return EqualsOptional(other); }
  /*! \brief Negation of operator== with a std::optional. */
  auto operator!=(const std::optional<T>& other) const { return DiffersOptional(other); }
  /*! \brief Whether a value is held and compares equal to other. */
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
  /*! \brief Negation of operator== with a T. */
  auto operator!=(const T& other) const { return !(*this == other); }
  /*! \brief Whether a value is held and compares equal to other. */
  template <typename U>
  auto operator==(const U& other) const {
    using Result = decltype(**this == other);
    return has_value() ? **this == other : Result(false);
  }
  /*! \brief Negation of operator== with a U. */
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
  /*! \brief The object type the held pointer points to. */
  using ContainerType = typename details::OptionalObjectPtrTraits<T>::ContainerType;
  Optional() = default;
  /*! \brief Construct an empty Optional. */
  Optional(std::nullopt_t) {}                     // NOLINT(*)
  Optional(std::nullptr_t) {}                     // NOLINT(*)
  Optional(T value) : data_(std::move(value)) {}  // NOLINT(*)
  Optional(std::optional<T> value) {              // NOLINT(*)
    if (value.has_value()) data_ = *std::move(value);
  }

  /*! \brief Whether a value is held (the pointer is not null). */
  bool has_value() const { return data_ != nullptr; }
  /*! \brief Whether a value is held. */
  explicit operator bool() const { return has_value(); }
  /*! \brief Return the held pointer; throws when empty. */
  T value() const& {
    if (!has_value()) details::ThrowBackOptionalAccess();
    return Wrap(data_);
  }
  /*! \brief Move the held pointer out; throws when empty. */
  T value() && {
    if (!has_value()) details::ThrowBackOptionalAccess();
    return Wrap(std::move(data_));
  }
  /*! \brief Return the held pointer, or default_value when empty. */
  template <typename U>
  T value_or(U&& default_value) const {
    return has_value() ? Wrap(data_) : T(std::forward<U>(default_value));
  }
  /*! \brief Return the held pointer; throws when empty. */
  T operator*() const& { return value(); }
  /*! \brief Move the held pointer out; throws when empty. */
  T operator*() && { return std::move(*this).value(); }
  /// The object pointed to, or nullptr.
  ContainerType* get() const { return data_.get(); }
  /*! \brief Return the number of references to the held object (0 when empty). */
  int use_count() const { return data_.use_count(); }
  /*! \brief Whether this is the only reference to the held object. */
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
  /*! \brief Whether both point to the same object (or are both empty). */
  bool same_as(const Optional& other) const { return data_ == other.data_; }
  /*! \brief Whether this points to the same object as other. */
  bool same_as(const T& other) const { return get() == other.get(); }
  /*! \brief Whether this Optional is empty. */
  bool operator==(std::nullopt_t) const { return !has_value(); }
  /*! \brief Whether this Optional holds a value. */
  bool operator!=(std::nullopt_t) const { return has_value(); }
  /*! \brief Whether this Optional is empty. */
  bool operator==(std::nullptr_t) const { return !has_value(); }
  /*! \brief Whether this Optional holds a value. */
  bool operator!=(std::nullptr_t) const { return has_value(); }
  /*! \brief Whether both point to the same object (or are both empty). */
  bool operator==(const Optional& other) const { return data_ == other.data_; }
  /*! \brief Whether the two point to different objects. */
  bool operator!=(const Optional& other) const { return data_ != other.data_; }
  /*! \brief Whether this points to the same object as other. */
  bool operator==(const T& other) const { return get() == other.get(); }
  /*! \brief Whether this points to a different object than other. */
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
  /*! \brief An Optional is stored as any value, so its field has no single static type index. */
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIAny;
  /// An Optional can be stored (in an Any, a container) exactly when its value can.
  static constexpr bool storage_enabled = TypeTraits<T>::storage_enabled;
  /*! \brief Store src (None when empty) in an AnyView without taking ownership. */
  static void CopyToAnyView(const Optional<T>& src, TVMFFIAny* result) {
    if (!src.has_value()) return details::ResetPODCell(result, TypeIndex::kTVMFFINone);
    TypeTraits<T>::CopyToAnyView(*src, result);
  }
  /*! \brief Move src (None when empty) into an Any. */
  static void MoveToAny(Optional<T> src, TVMFFIAny* result) {
    if (!src.has_value()) return details::ResetPODCell(result, TypeIndex::kTVMFFINone);
    TypeTraits<T>::MoveToAny(*std::move(src), result);
  }
  /*! \brief Whether src holds None or exactly a T. */
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == TypeIndex::kTVMFFINone || TypeTraits<T>::CheckAnyStrict(src);
  }
  /*! \brief Read an Optional from src after CheckAnyStrict held. */
  static Optional<T> CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFINone) return Optional<T>();
    return TypeTraits<T>::CopyFromAnyViewAfterCheck(src);
  }
  /*! \brief Move an Optional out of src after CheckAnyStrict held. */
  static Optional<T> MoveFromAnyAfterCheck(TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFINone) return Optional<T>();
    return TypeTraits<T>::MoveFromAnyAfterCheck(src);
  }
  /*! \brief Convert src to an `Optional<T>,` with T's conversions; nullopt when impossible. */
  static std::optional<Optional<T>> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFINone) return Optional<T>();
    std::optional<T> value = TypeTraits<T>::TryCastFromAnyView(src);
    if (!value.has_value()) return std::nullopt;
    return Optional<T>(*std::move(value));
  }
  /*! \brief Describe the type held by src for a conversion error message. */
  static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    return TypeTraits<T>::GetMismatchTypeInfo(src);
  }
  /*! \brief Return the type's name, `"Optional<T>".` */
  static std::string TypeStr() { return "Optional<" + details::Type2Str<T>::v() + ">"; }
  /*! \brief Return the type's schema as JSON text. */
  static std::string TypeSchema() {
    return "{\"type\":\"Optional\",\"args\":[" + details::TypeSchemaOf<T>::v() + "]}";
  }
};

/*! \brief Optional has its own TypeTraits specialization. */
template <typename T>
inline constexpr bool use_default_type_traits_v<Optional<T>> = false;

/// Every U a T subsumes is a valid Optional<T> (as is None, from another Optional).
template <typename T, typename U>
inline constexpr bool type_subsumes_v<Optional<T>, U> =
    std::is_same_v<Optional<T>, U> || type_subsumes_v<T, U>;
/*! \brief An Optional of T accepts every Optional of U that T accepts. */
template <typename T, typename U>
inline constexpr bool type_subsumes_v<Optional<T>, Optional<U>> = type_subsumes_v<T, U>;

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_OPTIONAL_H_

// SPDX-License-Identifier: Apache-2.0
// expected.h: Expected<T>, a success value or an Error, for error handling without exceptions.
#ifndef TVM_FFI_EXPECTED_H_
#define TVM_FFI_EXPECTED_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/base_detail.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/type_traits.h>

#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {

/// Marks an error as the value of an Expected: `return Unexpected(Error(...));`.
template <typename E = Error>
class Unexpected {
  static_assert(std::is_base_of_v<Error, std::remove_cv_t<E>>,
                "Unexpected<E> requires E to be Error or derived from it");

 public:
  /// Wrap error as the error of an Expected.
  explicit Unexpected(E error) : error_(std::move(error)) {}

  /// Return the wrapped error.
  const E& error() const& noexcept { return error_; }
  /// Return the wrapped error.
  E& error() & noexcept { return error_; }
  /// Move the wrapped error out.
  const E&& error() const&& noexcept { return std::move(error_); }
  /// Move the wrapped error out.
  E&& error() && noexcept { return std::move(error_); }

 private:
  E error_;
};

/// Deduce the error type of Unexpected from its argument.
template <typename E>
Unexpected(E) -> Unexpected<E>;

template <typename T>
class Expected;

/// An Expected keeps another Expected's cell when its value type subsumes the other's.
template <typename T, typename U>
inline constexpr bool type_subsumes_v<Expected<T>, Expected<U>> = type_subsumes_v<T, U>;

namespace details {
struct ExpectedUnsafe;

template <typename T>
inline constexpr bool is_expected_v = false;
template <typename T>
inline constexpr bool is_expected_v<Expected<T>> = true;

template <typename T>
inline constexpr bool is_unexpected_v = false;
template <typename E>
inline constexpr bool is_unexpected_v<Unexpected<E>> = true;

/// The value of an owning cell known to hold a T (Any itself is returned as is).
template <typename T>
TVM_FFI_INLINE T CopyExpectedValue(const Any& data) {
  if constexpr (std::is_same_v<T, Any>) {
    return data;
  } else {
    return AnyUnsafe::CopyFromAnyViewAfterCheck<T>(data);
  }
}
template <typename T>
TVM_FFI_INLINE T MoveExpectedValue(Any&& data) {
  if constexpr (std::is_same_v<T, Any>) {
    return std::move(data);
  } else {
    return AnyUnsafe::MoveFromAnyAfterCheck<T>(std::move(data));
  }
}
/// Throws a new reference to the error in an Expected's cell and leaves the cell as it is (also
/// for value() &&), so that the caller's cleanup releases the Expected's own reference. With the
/// error moved out instead, GCC 12 at -O2 (the outlined throwing part of value() && merged
/// across T by ipa-icf) let that cleanup release the reference the thrown error had taken over.
[[noreturn]] TVM_FFI_COLD_CODE inline void ThrowExpectedError(const Any& data) {
  throw AnyUnsafe::CopyFromAnyViewAfterCheck<Error>(data);
}
}  // namespace details

/// Either a success value of type T or an Error (like std::expected<T, Error>), stored in one
/// Any: the value is an Error exactly when the cell holds an ffi.Error object.
/// T must be convertible to Any and must not be Error; Expected<void> has no value.
template <typename T>
class Expected {
 public:
  static_assert(!std::is_void_v<T>, "use Expected<void> for a success without a value");
  static_assert(!std::is_same_v<T, Error>, "Expected<Error> is not allowed; use Error");

  Expected(const Expected&) = default;
  Expected(Expected&&) noexcept = default;
  Expected& operator=(const Expected&) = default;
  Expected& operator=(Expected&&) noexcept = default;

  /// A success value.
  Expected(T value) : data_(Any(std::move(value))) {}  // NOLINT(*)
  /// A success value converted implicitly to T.
  template <typename U, typename = std::enable_if_t<!details::is_expected_v<std::decay_t<U>> &&
                                                    !details::is_unexpected_v<std::decay_t<U>> &&
                                                    !std::is_base_of_v<Error, std::decay_t<U>> &&
                                                    std::is_convertible_v<U, T>>>
  Expected(U&& value) : data_(Any(T(std::forward<U>(value)))) {}  // NOLINT(*)
  /// The value or error of another Expected whose value T's storage subsumes (kept as it is)
  /// or whose value converts to T.
  template <typename U,
            typename = std::enable_if_t<!std::is_void_v<U> &&
                                        (type_subsumes_v<T, U> || std::is_convertible_v<U, T>)>>
  Expected(Expected<U> other)  // NOLINT(*)
      : data_(AdoptOrConvert(std::move(other))) {}
  /// An error.
  Expected(Error error) : data_(Any(std::move(error))) {}  // NOLINT(*)
  /// An error wrapped in Unexpected.
  template <typename E, typename = std::enable_if_t<std::is_base_of_v<Error, std::remove_cv_t<E>>>>
  Expected(Unexpected<E> unexpected)  // NOLINT(*)
      : data_(Any(Error(std::move(unexpected).error()))) {}

  /// The type index of the stored cell (kTVMFFIError for an error).
  int32_t type_index() const noexcept { return data_.type_index(); }
  /// Whether this holds a value rather than an error.
  bool is_ok() const noexcept { return data_.type_index() != TypeIndex::kTVMFFIError; }
  /// Whether this holds an error.
  bool is_err() const noexcept { return data_.type_index() == TypeIndex::kTVMFFIError; }
  /// Whether this holds a value rather than an error.
  bool has_value() const noexcept { return is_ok(); }

  /// The success value; throws the stored error otherwise.
  T value() const& {
    if (TVM_FFI_PREDICT_FALSE(is_err())) details::ThrowExpectedError(data_);
    return details::CopyExpectedValue<T>(data_);
  }
  /// Move the success value out; throws the stored error otherwise.
  T value() && {
    if (TVM_FFI_PREDICT_FALSE(is_err())) details::ThrowExpectedError(data_);
    return details::MoveExpectedValue<T>(std::move(data_));
  }
  /// The stored error; RuntimeError when this holds a value.
  Error error() const& {
    if (is_ok()) TVM_FFI_THROW(RuntimeError) << "Bad expected access: contains value, not error";
    return details::CopyExpectedValue<Error>(data_);
  }
  /// Move the stored error out; RuntimeError when this holds a value.
  Error error() && {
    if (is_ok()) TVM_FFI_THROW(RuntimeError) << "Bad expected access: contains value, not error";
    return details::MoveExpectedValue<Error>(std::move(data_));
  }
  /// The success value, or default_value converted to T when this holds an error.
  template <typename U = std::remove_cv_t<T>>
  T value_or(U&& default_value) const& {
    if (is_ok()) return details::CopyExpectedValue<T>(data_);
    return T(std::forward<U>(default_value));
  }
  /// Move the success value out, or return default_value converted to T on an error.
  template <typename U = std::remove_cv_t<T>>
  T value_or(U&& default_value) && {
    if (is_ok()) return details::MoveExpectedValue<T>(std::move(data_));
    return T(std::forward<U>(default_value));
  }

  /// The same value seen as U without conversion (TypeError when the stored value is not a
  /// U); an error stays the same error.
  template <typename U, typename = std::enable_if_t<
                            std::is_same_v<U, std::decay_t<U>> && !std::is_base_of_v<Error, U> &&
                            (std::is_same_v<U, Any> || TypeTraits<U>::storage_enabled)>>
  Expected<U> as_or_error() const& {
    if (!StoredAs<U>()) return MismatchError<U>();
    return Expected<U>(UnsafeInit{}, details::AnyUnsafe::MoveAnyToTVMFFIAny(Any(data_)));
  }
  /// Move the value out seen as U without conversion (TypeError when it is not a U).
  template <typename U, typename = std::enable_if_t<
                            std::is_same_v<U, std::decay_t<U>> && !std::is_base_of_v<Error, U> &&
                            (std::is_same_v<U, Any> || TypeTraits<U>::storage_enabled)>>
  Expected<U> as_or_error() && {
    if (!StoredAs<U>()) return MismatchError<U>();
    return Expected<U>(UnsafeInit{}, details::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(data_)));
  }

 private:
  template <typename>
  friend class Expected;
  friend struct details::ExpectedUnsafe;

  Expected(UnsafeInit, TVMFFIAny raw) noexcept
      : data_(details::AnyUnsafe::MoveTVMFFIAnyToAny(&raw)) {}

  /// The storage for the value or error of other: its own cell when T subsumes U.
  template <typename U>
  static Any AdoptOrConvert(Expected<U>&& other) {
    if constexpr (type_subsumes_v<T, U>) {
      return std::move(other.data_);
    } else {
      return other.is_err() ? Any(std::move(other).error()) : Any(T(std::move(other).value()));
    }
  }

  template <typename U>
  bool StoredAs() const {
    if constexpr (std::is_same_v<U, Any>) {
      return true;
    } else {
      return is_err() ||
             TypeTraits<U>::CheckAnyStrict(details::AnyUnsafe::TVMFFIAnyPtrFromAny(data_));
    }
  }
  template <typename U>
  Error MismatchError() const {
    return Error("TypeError",
                 "Cannot treat type `" + data_.GetTypeKey() + "` as type `" +
                     details::Type2Str<U>::v() + "`",
                 "");
  }

  Any data_;  // a T, or an Error
};

/// Success without a value (None inside) or an Error.
template <>
class Expected<void> {
 public:
  /// Success.
  Expected() = default;
  Expected(const Expected&) = default;
  Expected(Expected&&) noexcept = default;
  Expected& operator=(const Expected&) = default;
  Expected& operator=(Expected&&) noexcept = default;
  /// An error.
  Expected(Error error) : data_(Any(std::move(error))) {}  // NOLINT(*)
  /// An error wrapped in Unexpected.
  template <typename E, typename = std::enable_if_t<std::is_base_of_v<Error, std::remove_cv_t<E>>>>
  Expected(Unexpected<E> unexpected)  // NOLINT(*)
      : data_(Any(Error(std::move(unexpected).error()))) {}

  /// Return the type index of what is held (kTVMFFINone on success).
  int32_t type_index() const noexcept { return data_.type_index(); }
  /// Whether this holds no error.
  bool is_ok() const noexcept { return data_.type_index() != TypeIndex::kTVMFFIError; }
  /// Whether this holds an error.
  bool is_err() const noexcept { return data_.type_index() == TypeIndex::kTVMFFIError; }
  /// Whether this holds no error.
  bool has_value() const noexcept { return is_ok(); }

  /// Throws the stored error, if any.
  void value() const& {
    if (TVM_FFI_PREDICT_FALSE(is_err())) details::ThrowExpectedError(data_);
  }
  /// Throws the stored error, if any.
  void value() && {
    if (TVM_FFI_PREDICT_FALSE(is_err())) details::ThrowExpectedError(data_);
  }
  /// The stored error; RuntimeError on success.
  Error error() const& {
    if (is_ok()) TVM_FFI_THROW(RuntimeError) << "Bad expected access: contains value, not error";
    return details::CopyExpectedValue<Error>(data_);
  }
  /// Move the stored error out; RuntimeError on success.
  Error error() && {
    if (is_ok()) TVM_FFI_THROW(RuntimeError) << "Bad expected access: contains value, not error";
    return details::MoveExpectedValue<Error>(std::move(data_));
  }

 private:
  template <typename>
  friend class Expected;
  friend struct details::ExpectedUnsafe;

  Expected(UnsafeInit, TVMFFIAny raw) noexcept
      : data_(details::AnyUnsafe::MoveTVMFFIAnyToAny(&raw)) {}

  Any data_;  // None, or an Error
};

namespace details {

/// Raw access to the cell of an Expected, for ABI code that already knows it holds a T or Error.
struct ExpectedUnsafe {
  /// Adopts an owning cell holding a T or an Error.
  template <typename T>
  static Expected<T> MoveFromTVMFFIAny(TVMFFIAny raw) {
    return Expected<T>(UnsafeInit{}, raw);
  }
  /// Hands the owning cell over; result is left holding None.
  template <typename T>
  static TVMFFIAny MoveToTVMFFIAny(Expected<T>&& result) {
    return AnyUnsafe::MoveAnyToTVMFFIAny(std::move(result.data_));
  }
  /// The stored Any as an xvalue (initialising from it moves).
  template <typename T>
  static Any&& GetData(Expected<T>& result) noexcept {
    return std::move(result.data_);
  }
  template <typename T>
  static const Any& GetData(const Expected<T>& result) noexcept {
    return result.data_;
  }
  /// The stored value read as T (no check), or the stored error thrown; T = void only checks.
  template <typename T, typename U>
  static T ValueAs(const Expected<U>& result) {
    if constexpr (std::is_void_v<T>) {
      static_assert(std::is_void_v<U>, "ValueAs<void> needs an Expected<void>");
      result.value();
    } else {
      if (TVM_FFI_PREDICT_FALSE(result.is_err())) throw CopyExpectedValue<Error>(result.data_);
      return CopyExpectedValue<T>(result.data_);
    }
  }
};

}  // namespace details

/// Expected has its own TypeTraits specialization.
template <typename T>
inline constexpr bool use_default_type_traits_v<Expected<T>> = false;

/// Expected<T> converts as T or as Error.
template <typename T>
struct TypeTraits<Expected<T>> : public TypeTraitsBase {
  /// Store src's value or error in an AnyView.
  static void CopyToAnyView(const Expected<T>& src, TVMFFIAny* result) {
    const Any& data = details::ExpectedUnsafe::GetData(src);
    *result = AnyView(data).CopyToTVMFFIAny();
  }
  /// Move src's value or error into an Any.
  static void MoveToAny(Expected<T> src, TVMFFIAny* result) {
    *result = details::ExpectedUnsafe::MoveToTVMFFIAny(std::move(src));
  }
  /// Whether src holds an Error or a T.
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return TypeTraits<T>::CheckAnyStrict(src) || TypeTraits<Error>::CheckAnyStrict(src);
  }
  /// Read an Expected from src after CheckAnyStrict held.
  static Expected<T> CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    if (TypeTraits<T>::CheckAnyStrict(src)) return TypeTraits<T>::CopyFromAnyViewAfterCheck(src);
    return TypeTraits<Error>::CopyFromAnyViewAfterCheck(src);
  }
  /// Move an Expected out of src after CheckAnyStrict held.
  static Expected<T> MoveFromAnyAfterCheck(TVMFFIAny* src) {
    if (TypeTraits<T>::CheckAnyStrict(src)) return TypeTraits<T>::MoveFromAnyAfterCheck(src);
    return TypeTraits<Error>::MoveFromAnyAfterCheck(src);
  }
  /// Convert src (an Error, or a value convertible to T) to an Expected; nullopt otherwise.
  static std::optional<Expected<T>> TryCastFromAnyView(const TVMFFIAny* src) {
    if (std::optional<T> value = TypeTraits<T>::TryCastFromAnyView(src)) {
      return Expected<T>(*std::move(value));
    }
    if (std::optional<Error> error = TypeTraits<Error>::TryCastFromAnyView(src)) {
      return Expected<T>(*std::move(error));
    }
    return std::nullopt;
  }
  /// Return the type's name, "Expected" of T's name.
  static std::string TypeStr() { return "Expected<" + TypeTraits<T>::TypeStr() + ">"; }
  /// Return the type's schema as JSON text.
  static std::string TypeSchema() {
    return "{\"type\":\"Expected\",\"args\":[" + details::TypeSchemaOf<T>::v() +
           ",{\"type\":\"ffi.Error\"}]}";
  }
};

/// Expected<void> converts as None or as Error.
template <>
struct TypeTraits<Expected<void>> : public TypeTraitsBase {
  /// Store src's error (or None on success) in an AnyView.
  static void CopyToAnyView(const Expected<void>& src, TVMFFIAny* result) {
    *result = AnyView(details::ExpectedUnsafe::GetData(src)).CopyToTVMFFIAny();
  }
  /// Move src's error (or None on success) into an Any.
  static void MoveToAny(Expected<void> src, TVMFFIAny* result) {
    *result = details::ExpectedUnsafe::MoveToTVMFFIAny(std::move(src));
  }
  /// Whether src holds an Error or None.
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == TypeIndex::kTVMFFINone || TypeTraits<Error>::CheckAnyStrict(src);
  }
  /// Read an Expected of void from src after CheckAnyStrict held.
  static Expected<void> CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFINone) return Expected<void>();
    return TypeTraits<Error>::CopyFromAnyViewAfterCheck(src);
  }
  /// Move an Expected of void out of src after CheckAnyStrict held.
  static Expected<void> MoveFromAnyAfterCheck(TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFINone) return Expected<void>();
    return TypeTraits<Error>::MoveFromAnyAfterCheck(src);
  }
  /// Convert src (an Error or None) to an Expected of void; nullopt otherwise.
  static std::optional<Expected<void>> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFINone) return Expected<void>();
    if (std::optional<Error> error = TypeTraits<Error>::TryCastFromAnyView(src)) {
      return Expected<void>(*std::move(error));
    }
    return std::nullopt;
  }
  /// Return the type's name.
  static std::string TypeStr() { return "Expected<void>"; }
  /// Return the type's schema as JSON text.
  static std::string TypeSchema() {
    return "{\"type\":\"Expected\",\"args\":[" + TypeTraits<std::nullptr_t>::TypeSchema() +
           ",{\"type\":\"ffi.Error\"}]}";
  }
};

namespace details {

/// Collects a streamed message into an Error of a given kind whose backtrace is the one frame
/// where it was made; converts to Unexpected<Error> or to any Expected<T>.
class UnexpectedBuilder {
 public:
  UnexpectedBuilder(const char* kind, const char* file, int line, const char* function)
      : kind_(kind), file_(file), line_(line), function_(function) {}

  template <typename T>
  UnexpectedBuilder&& operator<<(T&& value) && {
    stream_ << std::forward<T>(value);
    return std::move(*this);
  }
  UnexpectedBuilder&& operator<<(std::ostream& (*manipulator)(std::ostream&)) && {
    manipulator(stream_);
    return std::move(*this);
  }

  operator Unexpected<Error>() && {  // NOLINT(*)
    std::ostringstream frame;
    frame << "  File \"" << file_ << "\", line " << line_ << ", in " << function_ << "\n";
    return Unexpected<Error>(Error(kind_, stream_.str(), frame.str()));
  }
  template <typename T>
  operator Expected<T>() && {  // NOLINT(*)
    return static_cast<Unexpected<Error>>(std::move(*this));
  }

 private:
  const char* kind_;
  const char* file_;
  int line_;
  const char* function_;
  std::ostringstream stream_;
};

}  // namespace details

}  // namespace ffi
}  // namespace tvm

/// An error value to return from a function returning Expected:
/// `return TVM_FFI_UNEXPECTED(ValueError) << "bad input " << x;`.
#define TVM_FFI_UNEXPECTED(ErrorKind) \
  ::tvm::ffi::details::UnexpectedBuilder(#ErrorKind, __FILE__, __LINE__, TVM_FFI_FUNC_SIG)

/// Returns an ErrorKind error (with the streamed text appended) unless cond holds.
#define TVM_FFI_RET_CHECK(cond, ErrorKind) \
  while (TVM_FFI_PREDICT_FALSE(!(cond)))   \
  return TVM_FFI_UNEXPECTED(ErrorKind) << "Check failed: (" #cond ") is false: "

// The expansion is a statement, not an expression.  NOLINTBEGIN(bugprone-macro-parentheses)
/// Helper of the comparison checks below: returns an ErrorKind error unless x Op y.
#define TVM_FFI_RET_CHECK_BINARY_OP(Name, Op, x, y, ErrorKind)                        \
  while (auto tvm_ffi_ret_check_msg_ = ::tvm::ffi::details::LogCheck##Name((x), (y))) \
  return TVM_FFI_UNEXPECTED(ErrorKind)                                                \
         << "Check failed: " #x " " #Op " " #y << *tvm_ffi_ret_check_msg_ << ": "
// NOLINTEND(bugprone-macro-parentheses)

/// Returns an ErrorKind error unless x < y (each operand evaluated once); likewise below.
#define TVM_FFI_RET_CHECK_LT(x, y, ErrorKind) TVM_FFI_RET_CHECK_BINARY_OP(_LT, <, x, y, ErrorKind)
/// Returns an ErrorKind error unless x > y.
#define TVM_FFI_RET_CHECK_GT(x, y, ErrorKind) TVM_FFI_RET_CHECK_BINARY_OP(_GT, >, x, y, ErrorKind)
/// Returns an ErrorKind error unless x `<=` y.
#define TVM_FFI_RET_CHECK_LE(x, y, ErrorKind) TVM_FFI_RET_CHECK_BINARY_OP(_LE, <=, x, y, ErrorKind)
/// Returns an ErrorKind error unless x >= y.
#define TVM_FFI_RET_CHECK_GE(x, y, ErrorKind) TVM_FFI_RET_CHECK_BINARY_OP(_GE, >=, x, y, ErrorKind)
/// Returns an ErrorKind error unless x == y.
#define TVM_FFI_RET_CHECK_EQ(x, y, ErrorKind) TVM_FFI_RET_CHECK_BINARY_OP(_EQ, ==, x, y, ErrorKind)
/// Returns an ErrorKind error unless x != y.
#define TVM_FFI_RET_CHECK_NE(x, y, ErrorKind) TVM_FFI_RET_CHECK_BINARY_OP(_NE, !=, x, y, ErrorKind)

/// The same checks returning InternalError.
#define TVM_FFI_RET_ICHECK(x) TVM_FFI_RET_CHECK(x, InternalError)
/// Returns an InternalError unless x `<` y.
#define TVM_FFI_RET_ICHECK_LT(x, y) TVM_FFI_RET_CHECK_LT(x, y, InternalError)
/// Returns an InternalError unless x > y.
#define TVM_FFI_RET_ICHECK_GT(x, y) TVM_FFI_RET_CHECK_GT(x, y, InternalError)
/// Returns an InternalError unless x `<=` y.
#define TVM_FFI_RET_ICHECK_LE(x, y) TVM_FFI_RET_CHECK_LE(x, y, InternalError)
/// Returns an InternalError unless x >= y.
#define TVM_FFI_RET_ICHECK_GE(x, y) TVM_FFI_RET_CHECK_GE(x, y, InternalError)
/// Returns an InternalError unless x == y.
#define TVM_FFI_RET_ICHECK_EQ(x, y) TVM_FFI_RET_CHECK_EQ(x, y, InternalError)
/// Returns an InternalError unless x != y.
#define TVM_FFI_RET_ICHECK_NE(x, y) TVM_FFI_RET_CHECK_NE(x, y, InternalError)

#endif  // TVM_FFI_EXPECTED_H_

// SPDX-License-Identifier: Apache-2.0
// reflection/native_function.h: typed hooks stored in type attributes that are either a native
// adapter (an opaque pointer to a `TVMFFIAny(Args...) noexcept` function, called directly) or
// an ffi.Function (called packed). NativeFunctionView borrows the hook; NativeFunction owns it.
//
//   TVM_FFI_INLINE int Twice(int x) { return 2 * x; }
//   using FTwice = NativeFunctionView<int(int)>;
//   FTwice hook = FTwice::FromNative<&Twice>();
//   int y = hook(3);                              // 6; throws the hook's error
//   Expected<int> checked = hook.CallExpected(3);
//
// A native adapter returns the raw cell of an Expected<R>: R's value (None for void) or an
// Error. A target returning Expected<R> (noexcept) is passed through; a target returning R has
// its exceptions turned into the error.
#ifndef TVM_FFI_REFLECTION_NATIVE_FUNCTION_H_
#define TVM_FFI_REFLECTION_NATIVE_FUNCTION_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/expected.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/function_detail.h>

#include <cstddef>
#include <exception>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {
namespace reflection {

/// A borrowed typed hook of Signature; defined for function types R(Args...) only (below).
template <typename Signature>
class NativeFunctionView;
/// An owning typed hook of Signature; defined for function types R(Args...) only (below).
template <typename Signature>
class NativeFunction;

/// A borrowed typed hook R(Args...): a native adapter or an ffi.Function (which must outlive
/// the view). Never empty.
template <typename R, typename... Args>
class NativeFunctionView<R(Args...)> {
 public:
  static_assert(((std::is_lvalue_reference_v<Args> ||
                  (std::is_standard_layout_v<Args> && std::is_trivially_copyable_v<Args>)) &&
                 ...),
                "NativeFunctionView parameters must be lvalue references or standard-layout, "
                "trivially copyable values");
  static_assert((ffi::details::ArgSupported<Args> && ...) && ffi::details::RetSupported<R>,
                "NativeFunctionView signature must be one a TypedFunction supports");

  /// The native adapter's C ABI.
  using ABIType = TVMFFIAny (*)(Args...) noexcept;

  NativeFunctionView() = delete;
  NativeFunctionView(std::nullptr_t) = delete;
  /// Borrows a typed function returning R or Expected<R>; ValueError when it is null.
  template <typename PackedR, typename = std::enable_if_t<std::is_same_v<PackedR, R> ||
                                                          std::is_same_v<PackedR, Expected<R>>>>
  NativeFunctionView(const TypedFunction<PackedR(Args...)>& packed)  // NOLINT(*)
      : data_(AnyView(packed.packed()).CopyToTVMFFIAny()) {
    if (packed.packed() == nullptr) {
      TVM_FFI_THROW(ValueError) << "NativeFunctionView requires a non-null typed function";
    }
  }
  /// A temporary function would leave the view dangling.
  template <typename PackedR, typename = std::enable_if_t<std::is_same_v<PackedR, R> ||
                                                          std::is_same_v<PackedR, Expected<R>>>>
  NativeFunctionView(const TypedFunction<PackedR(Args...)>&&) = delete;

  /// The hook calling Fn (R(Args...) or Expected<R>(Args...) noexcept) through a static adapter.
  /// A TVM_FFI_INLINE Fn whose body is visible can be inlined into the adapter.
  template <auto Fn>
  static NativeFunctionView FromNative() {
    // Not `Fn != nullptr`: GCC's -fsanitize=undefined makes that comparison non-constant.
    static_assert(!std::is_same_v<decltype(Fn), std::nullptr_t>,
                  "NativeFunctionView requires a non-null native function");
    TVMFFIAny cell;
    ffi::details::ResetPODCell(&cell, TypeIndex::kTVMFFIOpaquePtr);
    cell.v_ptr = reinterpret_cast<void*>(&Adapter<Fn>);
    return NativeFunctionView(UnsafeInit{}, cell);
  }

  /// Calls the hook; its error comes back as the Expected's error.
  TVM_FFI_INLINE Expected<R> CallExpected(Args... args) const noexcept {
    return ffi::details::ExpectedUnsafe::MoveFromTVMFFIAny<R>(CallRaw(args...));
  }
  /// Calls the hook; its error is thrown.
  TVM_FFI_INLINE R operator()(Args... args) const { return CallExpected(args...).value(); }

 private:
  template <typename, typename>
  friend struct ::tvm::ffi::TypeTraits;
  template <typename>
  friend class NativeFunction;

  NativeFunctionView(UnsafeInit, TVMFFIAny cell) : data_(cell) {}

  /// The raw Expected<R> cell of a value, an error or a call's outcome.
  template <typename T>
  static TVMFFIAny RawOf(Expected<T>&& result) noexcept {
    return ffi::details::ExpectedUnsafe::MoveToTVMFFIAny(std::move(result));
  }
  static TVMFFIAny RawError(Error error) noexcept { return RawOf(Expected<R>(std::move(error))); }

  /// Fn's outcome as an Expected<R> (Fn may throw).
  template <auto Fn>
  static Expected<R> CallTarget(Args... args) {
    using FnResult = std::invoke_result_t<decltype(Fn), Args...>;
    if constexpr (std::is_void_v<FnResult>) {
      Fn(args...);
      return Expected<R>();
    } else {
      return Expected<R>(Fn(args...));
    }
  }

  template <auto Fn>
  static TVMFFIAny Adapter(Args... args) noexcept {
    using FnResult = std::invoke_result_t<decltype(Fn), Args...>;
    static_assert(std::is_same_v<FnResult, R> || std::is_same_v<FnResult, Expected<R>>,
                  "FromNative: the function must return R or Expected<R>");
    if constexpr (std::is_same_v<FnResult, Expected<R>> &&
                  std::is_nothrow_invocable_v<decltype(Fn), Args...>) {
      return RawOf(Fn(args...));
    } else {
      try {
        return RawOf(CallTarget<Fn>(args...));
      } catch (const Error& error) {
        return RawError(error);
      } catch (const std::exception& error) {
        return RawError(Error("InternalError", error.what(), ""));
      }
    }
  }

  TVM_FFI_INLINE TVMFFIAny CallRaw(Args... args) const noexcept {
    if (TVM_FFI_PREDICT_TRUE(data_.type_index == TypeIndex::kTVMFFIOpaquePtr)) {
      return reinterpret_cast<ABIType>(data_.v_ptr)(args...);
    }
    return CallPacked(args...);
  }

  /// The ffi.Function path: the result must be an R (None for void) or an Error.
  TVM_FFI_COLD_CODE TVMFFIAny CallPacked(Args... args) const noexcept {
    try {
      AnyView views[sizeof...(Args) > 0 ? sizeof...(Args) : 1];
      PackedArgs::Fill(views, args...);
      Any result;
      const TVMFFIFunctionCell* cell = TVMFFIFunctionGetCellPtr(data_.v_obj);
      int code = cell->safe_call(data_.v_obj, reinterpret_cast<const TVMFFIAny*>(views),
                                 static_cast<int32_t>(sizeof...(Args)),
                                 ffi::details::AnyUnsafe::MutableTVMFFIAnyPtrFromAny(&result));
      if (TVM_FFI_PREDICT_FALSE(code != 0)) return RawError(ffi::details::MoveFromSafeCallRaised());
      return RawOf(ffi::details::ExpectedFromResult<R>(std::move(result)));
    } catch (const Error& error) {
      return RawError(error);
    } catch (const std::exception& error) {
      return RawError(Error("InternalError", error.what(), ""));
    }
  }

  TVMFFIAny data_;  // borrowed: an opaque adapter pointer or an ffi.Function
};

/// An owning typed hook R(Args...): a native adapter or a retained ffi.Function.
template <typename R, typename... Args>
class NativeFunction<R(Args...)> {
 public:
  /// The borrowed counterpart.
  using View = NativeFunctionView<R(Args...)>;

  /// Retains what view refers to.
  explicit NativeFunction(View view) : data_(AnyView::CopyFromTVMFFIAny(view.data_)) {}
  /// Retains a typed function returning R or Expected<R>; ValueError when it is null.
  template <typename PackedR, typename = std::enable_if_t<std::is_same_v<PackedR, R> ||
                                                          std::is_same_v<PackedR, Expected<R>>>>
  NativeFunction(const TypedFunction<PackedR(Args...)>& packed)  // NOLINT(*)
      : NativeFunction(View(packed)) {}

  /// An owner of what view refers to.
  static NativeFunction From(View view) { return NativeFunction(view); }
  /// The owner of the static adapter of Fn (see View::FromNative).
  template <auto Fn>
  static NativeFunction FromNative() {
    return From(View::template FromNative<Fn>());
  }

  /// Calls the hook; its error comes back as the Expected's error.
  TVM_FFI_INLINE Expected<R> CallExpected(Args... args) const noexcept {
    return view().CallExpected(args...);
  }
  /// Calls the hook; its error is thrown.
  TVM_FFI_INLINE R operator()(Args... args) const { return CallExpected(args...).value(); }

 private:
  template <typename, typename>
  friend struct ::tvm::ffi::TypeTraits;

  NativeFunction(UnsafeInit, Any data) : data_(std::move(data)) {}
  View view() const noexcept { return View(UnsafeInit{}, AnyView(data_).CopyToTVMFFIAny()); }

  Any data_;  // an opaque adapter pointer or an ffi.Function
};

}  // namespace reflection

template <typename Signature>
inline constexpr bool use_default_type_traits_v<reflection::NativeFunctionView<Signature>> = false;
template <typename Signature>
inline constexpr bool use_default_type_traits_v<reflection::NativeFunction<Signature>> = false;

/// A hook travels as a non-null opaque pointer (native adapter) or as an ffi.Function.
template <typename Signature>
struct TypeTraits<reflection::NativeFunctionView<Signature>> : public TypeTraitsBase {
  /// The converted type.
  using View = reflection::NativeFunctionView<Signature>;
  /// A field of this type holds any value (an opaque pointer or a Function).
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIAny;

  /// Stores the view's pointer or Function in result, borrowed.
  static void CopyToAnyView(const View& src, TVMFFIAny* result) { *result = src.data_; }
  /// Stores an owning copy of the view's pointer or Function in result.
  static void MoveToAny(View src, TVMFFIAny* result) {
    *result = details::AnyUnsafe::MoveAnyToTVMFFIAny(Any(AnyView::CopyFromTVMFFIAny(src.data_)));
  }
  /// Whether src is a non-null opaque pointer or a Function.
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return (src->type_index == TypeIndex::kTVMFFIOpaquePtr && src->v_ptr != nullptr) ||
           src->type_index == TypeIndex::kTVMFFIFunction;
  }
  /// A view of the hook in src (which passed the check), valid while src lives.
  static View CopyFromAnyViewAfterCheck(const TVMFFIAny* src) { return View(UnsafeInit{}, *src); }
  /// Same as CopyFromAnyViewAfterCheck (the view does not own the hook).
  static View MoveFromAnyAfterCheck(TVMFFIAny* src) { return CopyFromAnyViewAfterCheck(src); }
  /// A view of the hook in src, or nullopt when src is not one (no conversion).
  static std::optional<View> TryCastFromAnyView(const TVMFFIAny* src) {
    if (!CheckAnyStrict(src)) return std::nullopt;
    return CopyFromAnyViewAfterCheck(src);
  }
  /// `Variant<void*, <signature>>`: how the hook's type reads in messages.
  static std::string TypeStr() {
    return "Variant<" + TypeTraits<void*>::TypeStr() + ", " +
           TypeTraits<TypedFunction<Signature>>::TypeStr() + ">";
  }
  /// The type schema of that Variant.
  static std::string TypeSchema() {
    return "{\"type\":\"Variant\",\"args\":[" + TypeTraits<void*>::TypeSchema() + "," +
           TypeTraits<TypedFunction<Signature>>::TypeSchema() + "]}";
  }
};

/// An owning hook converts like NativeFunctionView, holding a reference to the Function.
template <typename Signature>
struct TypeTraits<reflection::NativeFunction<Signature>> : public TypeTraitsBase {
  /// The converted type.
  using Owner = reflection::NativeFunction<Signature>;
  /// The traits of the borrowed form.
  using ViewTraits = TypeTraits<typename Owner::View>;
  /// A field of this type holds any value (an opaque pointer or a Function).
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIAny;

  /// Stores a borrowed view of the hook in result.
  static void CopyToAnyView(const Owner& src, TVMFFIAny* result) {
    *result = AnyView(src.data_).CopyToTVMFFIAny();
  }
  /// Moves the hook into result.
  static void MoveToAny(Owner src, TVMFFIAny* result) {
    *result = details::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(src.data_));
  }
  /// Whether src is a non-null opaque pointer or a Function.
  static bool CheckAnyStrict(const TVMFFIAny* src) { return ViewTraits::CheckAnyStrict(src); }
  /// The hook in src (which passed the check), sharing a Function.
  static Owner CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return Owner(UnsafeInit{}, Any(AnyView::CopyFromTVMFFIAny(*src)));
  }
  /// Takes the hook out of src (which passed the check).
  static Owner MoveFromAnyAfterCheck(TVMFFIAny* src) {
    return Owner(UnsafeInit{}, details::AnyUnsafe::MoveTVMFFIAnyToAny(src));
  }
  /// The hook in src, or nullopt when src is not one (no conversion).
  static std::optional<Owner> TryCastFromAnyView(const TVMFFIAny* src) {
    if (!CheckAnyStrict(src)) return std::nullopt;
    return CopyFromAnyViewAfterCheck(src);
  }
  /// Same as NativeFunctionView's.
  static std::string TypeStr() { return ViewTraits::TypeStr(); }
  /// Same as NativeFunctionView's.
  static std::string TypeSchema() { return ViewTraits::TypeSchema(); }
};

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_REFLECTION_NATIVE_FUNCTION_H_

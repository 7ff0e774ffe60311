// SPDX-License-Identifier: Apache-2.0
// function_detail.h: signature introspection and argument unpacking for typed functions, with
// the helper names Apache TVM FFI gives them.
#ifndef TVM_FFI_FUNCTION_DETAIL_H_
#define TVM_FFI_FUNCTION_DETAIL_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/base_detail.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/type_traits.h>

#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {
namespace details {

/// Whether T may appear as a typed parameter (convert-enabled, Any or AnyView).
template <typename T>
inline constexpr bool is_param_type_v =
    std::is_same_v<T, Any> || std::is_same_v<T, AnyView> || TypeTraits<T>::convert_enabled;

/// Whether T (by value, const T& or T&&) may be a typed function parameter.
template <typename T>
inline constexpr bool ArgSupported =
    (!std::is_reference_v<T> ||
     (std::is_lvalue_reference_v<T> && std::is_const_v<std::remove_reference_t<T>>) ||
     (std::is_rvalue_reference_v<T> && !std::is_const_v<std::remove_reference_t<T>>)) &&
    is_param_type_v<std::remove_const_t<std::remove_reference_t<T>>>;

/// Whether T may be the return type of a typed function.
template <typename T>
inline constexpr bool RetSupported =
    std::is_void_v<T> || std::is_same_v<T, Any> || TypeTraits<T>::convert_enabled;

/// A function returning a typed signature string such as "(0: int) -> int".
using FGetFuncSignature = std::string (*)();

/// Writes the "0: int, 1: str" parameter list of the tuple ArgType.
template <typename ArgType>
struct Arg2Str {
  /// Writes entry i, preceded by ", " unless it is the first.
  template <size_t i>
  TVM_FFI_INLINE static void Apply(std::ostream& os) {
    if constexpr (i != 0) os << ", ";
    os << i << ": " << Type2Str<std::decay_t<std::tuple_element_t<i, ArgType>>>::v();
  }
  /// Writes the entries I... in order.
  template <size_t... I>
  TVM_FFI_INLINE static void Run(std::ostream& os, std::index_sequence<I...>) {
    (Apply<I>(os), ...);
  }
};

/// A function returning the text of one type: a Type2Str<T>::v or a TypeSchemaOf<T>::v.
using FGetTypeText = std::string (*)();

// The signature texts and the call errors are built out of line, by the non-template functions
// below, so that a typed function instantiates only arrays of pointers to them.

/// "(0: <params[0]>, 1: <params[1]>) -> <ret>".
TVM_FFI_NO_INLINE inline std::string FormatSignature(const FGetTypeText* params, size_t num_params,
                                                     FGetTypeText ret) {
  std::string sig = "(";
  for (size_t i = 0; i < num_params; ++i) {
    if (i != 0) sig += ", ";
    sig += std::to_string(i) + ": " + params[i]();
  }
  return sig + ") -> " + ret();
}

/// The ffi.Function type schema with the given return and parameter schemas.
TVM_FFI_NO_INLINE inline std::string FormatFunctionTypeSchema(const FGetTypeText* params,
                                                              size_t num_params, FGetTypeText ret) {
  std::string schema =
      "{\"type\":\"ffi.Function\",\"named_args\":{\"return\":[" + ret() + "],\"params\":[";
  for (size_t i = 0; i < num_params; ++i) {
    if (i != 0) schema += ',';
    schema += params[i]();
  }
  return schema + "]}}";
}

/// Signature facts of R(Args...).
template <typename R, typename... Args>
struct FunctionSignature {
  using FType = R(Args...);
  using RetType = R;
  using ArgType = std::tuple<Args...>;
  static constexpr size_t num_args = sizeof...(Args);
  /// Whether every parameter and the result can be converted in a typed call.
  static constexpr bool unpacked_supported = (ArgSupported<Args> && ...) && RetSupported<R>;

  /// "(0: int, 1: str) -> int".
  static std::string Sig() {
    (CheckParam<Args>(), ...);
    static constexpr FGetTypeText kParams[] = {&Type2Str<std::decay_t<Args>>::v..., nullptr};
    return FormatSignature(kParams, num_args, &Type2Str<std::decay_t<R>>::v);
  }
  /// {"type":"ffi.Function","named_args":{"return":[<return>],"params":[<param0>,...]}}.
  static std::string TypeSchema() {
    static constexpr FGetTypeText kParams[] = {&TypeSchemaOf<std::decay_t<Args>>::v..., nullptr};
    return FormatFunctionTypeSchema(kParams, num_args, &TypeSchemaOf<std::decay_t<R>>::v);
  }

 private:
  template <typename A>
  static void CheckParam() {
    static_assert(!std::is_lvalue_reference_v<A> || std::is_const_v<std::remove_reference_t<A>>,
                  "Typed function parameters cannot be mutable lvalue references");
    static_assert(is_param_type_v<std::decay_t<A>>,
                  "Typed function parameter type is not convertible");
  }
};

template <typename F, typename = void>
struct FunctionInfo;

template <typename R, typename... Args>
struct FunctionInfo<R(Args...)> : public FunctionSignature<R, Args...> {};
template <typename R, typename... Args>
struct FunctionInfo<R (*)(Args...)> : public FunctionSignature<R, Args...> {};
template <typename R, typename... Args>
struct FunctionInfo<R (&)(Args...)> : public FunctionSignature<R, Args...> {};

/// The signature of a member function, without its class (used for operator()).
template <typename T>
struct FunctionInfoHelper;
template <typename C, typename R, typename... Args>
struct FunctionInfoHelper<R (C::*)(Args...)> : public FunctionSignature<R, Args...> {};
template <typename C, typename R, typename... Args>
struct FunctionInfoHelper<R (C::*)(Args...) const> : public FunctionSignature<R, Args...> {};

/// Lambdas and functors: the signature of their (single, non-template) operator().
template <typename F>
struct FunctionInfo<F, std::void_t<decltype(&std::decay_t<F>::operator())>>
    : public FunctionInfoHelper<decltype(&std::decay_t<F>::operator())> {};

/// Methods of an object class: the object pointer is the first parameter.
template <typename C, typename R, typename... Args>
struct FunctionInfo<R (C::*)(Args...), std::enable_if_t<std::is_base_of_v<Object, C>>>
    : public FunctionSignature<R, C*, Args...> {};
template <typename C, typename R, typename... Args>
struct FunctionInfo<R (C::*)(Args...) const, std::enable_if_t<std::is_base_of_v<Object, C>>>
    : public FunctionSignature<R, const C*, Args...> {};
/// Methods of a reference class: the reference is the first parameter.
template <typename C, typename R, typename... Args>
struct FunctionInfo<R (C::*)(Args...), std::enable_if_t<std::is_base_of_v<ObjectRef, C>>>
    : public FunctionSignature<R, C, Args...> {};
template <typename C, typename R, typename... Args>
struct FunctionInfo<R (C::*)(Args...) const, std::enable_if_t<std::is_base_of_v<ObjectRef, C>>>
    : public FunctionSignature<R, const C, Args...> {};

/// Throws the TypeError for a call with num_args arguments to a function of expected ones; name
/// and f_sig (both nullable) name the function in the message.
[[noreturn]] TVM_FFI_NO_INLINE TVM_FFI_COLD_CODE inline void ThrowArityMismatch(
    const std::string* name, FGetFuncSignature f_sig, size_t expected, int32_t num_args) {
  TVM_FFI_THROW(TypeError) << "Mismatched number of arguments when calling: `"
                           << (name ? *name : std::string()) << (f_sig ? f_sig() : std::string())
                           << "`. Expected " << expected << " but got " << num_args << " arguments";
  TVM_FFI_UNREACHABLE();
}

/// TypeTraits<T>::GetMismatchTypeInfo as a plain function pointer.
template <typename T>
std::string MismatchTypeInfoOf(const TVMFFIAny* cell) {
  return TypeTraits<T>::GetMismatchTypeInfo(cell);
}

/// Throws the TypeError for argument #index (cell) that is not of the type named by expected
/// (whose mismatch_info describes the cell); name and f_sig (both nullable) name the function in
/// the message.
[[noreturn]] TVM_FFI_NO_INLINE TVM_FFI_COLD_CODE inline void ThrowArgMismatch(
    const std::string* name, FGetFuncSignature f_sig, int32_t index, const TVMFFIAny* cell,
    FGetTypeText expected, std::string (*mismatch_info)(const TVMFFIAny*)) {
  TVM_FFI_THROW(TypeError) << "Mismatched type on argument #" << index << " when calling: `"
                           << (name ? *name : std::string()) << (f_sig ? f_sig() : std::string())
                           << "`. Expected `" << expected() << "` but got `" << mismatch_info(cell)
                           << "`";
  TVM_FFI_UNREACHABLE();
}

/// Argument #arg_index of a packed call, converting to Type (without const and reference) on
/// use; a mismatch is a TypeError naming the function (optional_name, f_sig; both nullable).
template <typename Type>
class ArgValueWithContext {
 public:
  using TypeWithoutCR = std::remove_const_t<std::remove_reference_t<Type>>;

  TVM_FFI_INLINE ArgValueWithContext(const AnyView* args, int32_t arg_index,
                                     const std::string* optional_name, FGetFuncSignature f_sig)
      : args_(args), arg_index_(arg_index), optional_name_(optional_name), f_sig_(f_sig) {}

  /// The converted argument.
  TVM_FFI_INLINE operator TypeWithoutCR() {  // NOLINT(google-explicit-constructor)
    if constexpr (std::is_same_v<TypeWithoutCR, AnyView>) {
      return args_[arg_index_];
    } else if constexpr (std::is_same_v<TypeWithoutCR, Any>) {
      return Any(args_[arg_index_]);
    } else {
      const TVMFFIAny* cell = reinterpret_cast<const TVMFFIAny*>(args_ + arg_index_);
      std::optional<TypeWithoutCR> value = TypeTraits<TypeWithoutCR>::TryCastFromAnyView(cell);
      if (TVM_FFI_PREDICT_FALSE(!value.has_value())) {
        ThrowArgMismatch(optional_name_, f_sig_, arg_index_, cell, &Type2Str<TypeWithoutCR>::v,
                         &MismatchTypeInfoOf<TypeWithoutCR>);
      }
      return *std::move(value);
    }
  }

 private:
  const AnyView* args_;
  int32_t arg_index_;
  const std::string* optional_name_;
  FGetFuncSignature f_sig_;
};

/// Converts argument #index to parameter type A.
template <typename Info, typename A>
TVM_FFI_INLINE std::decay_t<A> ConvertArg(const AnyView* args, size_t index,
                                          const std::string* name) {
  return ArgValueWithContext<A>(args, static_cast<int32_t>(index), name, &Info::Sig);
}

template <typename R, typename Info, typename F, typename... Args, size_t... I>
TVM_FFI_INLINE void UnpackCallImpl(std::tuple<Args...>*, std::index_sequence<I...>,
                                   const std::string* name, const F& f, const AnyView* args,
                                   Any* rv) {
  if constexpr (std::is_void_v<R>) {
    f(ConvertArg<Info, Args>(args, I, name)...);
  } else {
    *rv = R(f(ConvertArg<Info, Args>(args, I, name)...));
  }
}

/// Checks arity, converts each argument, calls f and stores its result in *rv.
template <typename R, size_t... I, typename F>
TVM_FFI_INLINE void unpack_call(std::index_sequence<I...> seq, const std::string* name, const F& f,
                                const AnyView* args, int32_t num_args, Any* rv) {
  using Info = FunctionInfo<F>;
  if (TVM_FFI_PREDICT_FALSE(num_args != static_cast<int32_t>(Info::num_args))) {
    ThrowArityMismatch(name, &Info::Sig, Info::num_args, num_args);
  }
  UnpackCallImpl<R, Info>(static_cast<typename Info::ArgType*>(nullptr), seq, name, f, args, rv);
}

}  // namespace details
}  // namespace ffi
}  // namespace tvm

namespace tvm {
namespace ffi {

template <typename T>
class Expected;

namespace details {

/// Signature facts of R(Args...) (the wheel's name for FunctionSignature).
template <typename R, typename... Args>
using FuncFunctorImpl = FunctionSignature<R, Args...>;

/// The JSON type schema of T, ignoring const and references.
template <typename T>
using TypeSchema = TypeSchemaOf<std::remove_const_t<std::remove_reference_t<T>>>;
template <typename T>
using TypeSchemaImpl = TypeSchemaOf<T>;

}  // namespace details
}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_FUNCTION_DETAIL_H_

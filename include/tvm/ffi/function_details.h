// SPDX-License-Identifier: Apache-2.0
// function_details.h: signature introspection and argument unpacking for typed functions.
#ifndef TVM_FFI_FUNCTION_DETAILS_H_
#define TVM_FFI_FUNCTION_DETAILS_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/base_details.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/type_traits.h>

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

/// Signature facts of R(Args...).
template <typename R, typename... Args>
struct FunctionSignature {
  using RetType = R;
  using ArgType = std::tuple<Args...>;
  static constexpr size_t num_args = sizeof...(Args);

  /// "(0: int, 1: str) -> int".
  static std::string Sig() {
    std::ostringstream os;
    os << "(";
    size_t index = 0;
    ((os << (index == 0 ? "" : ", ") << index << ": " << ArgStr<Args>(), ++index), ...);
    os << ") -> " << Type2Str<std::decay_t<R>>::v();
    return os.str();
  }
  /// {"type":"ffi.Function","named_args":{"return":[<return>],"params":[<param0>,...]}}.
  static std::string TypeSchema() {
    std::string params;
    ((params += (params.empty() ? "" : ",") + TypeSchemaOf<std::decay_t<Args>>::v()), ...);
    return "{\"type\":\"ffi.Function\",\"named_args\":{\"return\":[" +
           TypeSchemaOf<std::decay_t<R>>::v() + "],\"params\":[" + params + "]}}";
  }

 private:
  template <typename A>
  static std::string ArgStr() {
    static_assert(!std::is_lvalue_reference_v<A> || std::is_const_v<std::remove_reference_t<A>>,
                  "Typed function parameters cannot be mutable lvalue references");
    using T = std::decay_t<A>;
    static_assert(is_param_type_v<T>, "Typed function parameter type is not convertible");
    return Type2Str<T>::v();
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

template <typename T>
struct MemberFunctionInfo;
template <typename C, typename R, typename... Args>
struct MemberFunctionInfo<R (C::*)(Args...)> : public FunctionSignature<R, Args...> {};
template <typename C, typename R, typename... Args>
struct MemberFunctionInfo<R (C::*)(Args...) const> : public FunctionSignature<R, Args...> {};

/// Lambdas and functors: the signature of their (single, non-template) operator().
template <typename F>
struct FunctionInfo<F, std::void_t<decltype(&std::decay_t<F>::operator())>>
    : public MemberFunctionInfo<decltype(&std::decay_t<F>::operator())> {};

/// Throws the arity mismatch TypeError.
template <typename Info>
[[noreturn]] TVM_FFI_NO_INLINE TVM_FFI_COLD_CODE void ThrowArityMismatch(const std::string* name,
                                                                         int32_t num_args) {
  TVM_FFI_THROW(TypeError) << "Mismatched number of arguments when calling: `"
                           << (name ? *name : std::string()) << Info::Sig() << "`. Expected "
                           << Info::num_args << " but got " << num_args << " arguments";
  TVM_FFI_UNREACHABLE();
}

/// Throws the argument type mismatch TypeError.
template <typename Info, typename T>
[[noreturn]] TVM_FFI_NO_INLINE TVM_FFI_COLD_CODE void ThrowArgMismatch(const std::string* name,
                                                                       size_t index,
                                                                       const TVMFFIAny* cell) {
  TVM_FFI_THROW(TypeError) << "Mismatched type on argument #" << index << " when calling: `"
                           << (name ? *name : std::string()) << Info::Sig() << "`. Expected `"
                           << Type2Str<T>::v() << "` but got `"
                           << TypeTraits<T>::GetMismatchTypeInfo(cell) << "`";
  TVM_FFI_UNREACHABLE();
}

/// Converts argument #index to parameter type A.
template <typename Info, typename A>
TVM_FFI_INLINE std::decay_t<A> ConvertArg(const AnyView* args, size_t index,
                                          const std::string* name) {
  using T = std::decay_t<A>;
  if constexpr (std::is_same_v<T, AnyView>) {
    return args[index];
  } else if constexpr (std::is_same_v<T, Any>) {
    return Any(args[index]);
  } else {
    const TVMFFIAny* cell = reinterpret_cast<const TVMFFIAny*>(args + index);
    std::optional<T> value = TypeTraits<T>::TryCastFromAnyView(cell);
    if (TVM_FFI_PREDICT_FALSE(!value.has_value())) ThrowArgMismatch<Info, T>(name, index, cell);
    return *std::move(value);
  }
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
    ThrowArityMismatch<Info>(name, num_args);
  }
  UnpackCallImpl<R, Info>(static_cast<typename Info::ArgType*>(nullptr), seq, name, f, args, rv);
}

}  // namespace details
}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_FUNCTION_DETAILS_H_

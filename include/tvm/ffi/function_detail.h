// SPDX-License-Identifier: Apache-2.0
// function_detail.h: the wheel's spelling of function_details.h, with its helper names.
#ifndef TVM_FFI_FUNCTION_DETAIL_H_
#define TVM_FFI_FUNCTION_DETAIL_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/function_details.h>
#include <tvm/ffi/type_traits.h>

#include <string>
#include <type_traits>

namespace tvm {
namespace ffi {

template <typename T>
class Expected;

namespace details {

/// A function returning a typed signature string such as "(0: int) -> int".
using FGetFuncSignature = std::string (*)();

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

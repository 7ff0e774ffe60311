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

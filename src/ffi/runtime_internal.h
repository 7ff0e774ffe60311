// SPDX-License-Identifier: Apache-2.0
// runtime_internal.h: declarations shared between runtime source files (never installed).
#ifndef TVM_FFI_SRC_FFI_RUNTIME_INTERNAL_H_
#define TVM_FFI_SRC_FFI_RUNTIME_INTERNAL_H_

#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <string>
#include <string_view>
#include <vector>

namespace tvm {
namespace ffi {

/// Type keys of every registered type.
std::vector<std::string> RegisteredTypeKeys();

/// Creates a heap String object (index 65) even for short text.
Any MakeHeapString(std::string text);

/// Creates an Error object owned by the runtime.
Error MakeRuntimeError(std::string_view kind, std::string_view message, std::string_view backtrace,
                       TVMFFIObjectHandle cause_chain, TVMFFIObjectHandle extra_context);

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_SRC_FFI_RUNTIME_INTERNAL_H_

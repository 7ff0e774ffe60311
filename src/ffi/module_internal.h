// SPDX-License-Identifier: Apache-2.0
// module_internal.h: helpers shared by the library and system-library modules.
#ifndef TVM_FFI_SRC_FFI_MODULE_INTERNAL_H_
#define TVM_FFI_SRC_FFI_MODULE_INTERNAL_H_

#include <tvm/ffi/c_api.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>

namespace tvm {
namespace ffi {

/// A Function calling an exported `__tvm_ffi_<name>` symbol with a NULL handle; it keeps
/// `owner` (the module) alive.
Function MakeSymbolFunction(TVMFFISafeCallType symbol, ObjectRef owner);

/// Calls a `__tvm_ffi__doc_<name>` / `__tvm_ffi__metadata_<name>` symbol; nullopt when the
/// result is empty or None.
Optional<String> CallStringSymbol(TVMFFISafeCallType symbol);

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_SRC_FFI_MODULE_INTERNAL_H_

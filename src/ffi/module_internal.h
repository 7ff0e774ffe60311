// SPDX-License-Identifier: Apache-2.0
// module_internal.h: helpers shared by the library and system-library modules.
#ifndef TVM_FFI_SRC_FFI_MODULE_INTERNAL_H_
#define TVM_FFI_SRC_FFI_MODULE_INTERNAL_H_

#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/module.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>

#include <string>

namespace tvm {
namespace ffi {

/// A Function calling an exported `__tvm_ffi_<name>` symbol with a NULL handle; it keeps
/// `owner` (the module) alive.
Function MakeSymbolFunction(TVMFFISafeCallType symbol, ObjectRef owner);

/// Calls a `__tvm_ffi__doc_<name>` / `__tvm_ffi__metadata_<name>` symbol; nullopt when the
/// result is empty or None.
Optional<String> CallStringSymbol(TVMFFISafeCallType symbol);

/// dlopen of a shared library, after checking that this process can run it (library_open.cc);
/// RuntimeError, or ImportError for an incompatible ABI version, naming the problem.
void* OpenLibrary(const std::string& path);

/// The module for error messages: "library '<path>'" for a loaded library, else "'<kind>' module".
std::string DescribeModule(const ModuleObj* module);

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_SRC_FFI_MODULE_INTERNAL_H_

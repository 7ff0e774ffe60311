// SPDX-License-Identifier: Apache-2.0
// elf_symbols_internal.h: function names from an ELF file's .symtab, for backtrace frames in
// functions that dladdr cannot name (static, hidden or otherwise unexported ones).
#ifndef TVM_FFI_ELF_SYMBOLS_INTERNAL_H_
#define TVM_FFI_ELF_SYMBOLS_INTERNAL_H_

#include <cstdint>

namespace tvm {
namespace ffi {
namespace details {

/// The mangled name of the function of `path`'s symbol table that contains `pc`, or nullptr.
/// `load_bias` is the object's link_map::l_addr. The file is read and mapped on first use and
/// kept for the life of the process, so the returned name stays valid. Thread-safe.
const char* FindSymtabFunctionName(const char* path, uintptr_t load_bias, uintptr_t pc);

}  // namespace details
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_ELF_SYMBOLS_INTERNAL_H_

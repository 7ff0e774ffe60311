// SPDX-License-Identifier: Apache-2.0
// elf_load_check_internal.h: what can be learned from a shared library's file before dlopen
// maps it: whether this process can load it at all, and the values of its exported constants.
#ifndef TVM_FFI_ELF_LOAD_CHECK_INTERNAL_H_
#define TVM_FFI_ELF_LOAD_CHECK_INTERNAL_H_

#include <cstddef>
#include <string>

#include "elf_file_internal.h"

namespace tvm {
namespace ffi {
namespace details {

/// Why this process cannot load `file` ("" when nothing visible prevents it): it is no ELF
/// file, is built for another class, byte order or machine, or its program headers or segments
/// reach past the end of the file (dlopen of such a file dies with SIGBUS).
std::string ElfLoadProblem(const ElfFileView& file);

/// Outcome of ReadElfDynamicObject.
enum class ElfObjectRead {
  kRead,       ///< the value was copied
  kAbsent,     ///< the dynamic symbol table has no such object of that size
  kNoSymbols,  ///< the file has no readable dynamic symbol table (e.g. no section headers)
};

/// Copies into `out` the `size`-byte initial value of the data object `name` that `file`
/// defines and exports.
ElfObjectRead ReadElfDynamicObject(const ElfFileView& file, const char* name, void* out,
                                   size_t size);

}  // namespace details
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_ELF_LOAD_CHECK_INTERNAL_H_

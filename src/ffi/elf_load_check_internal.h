// SPDX-License-Identifier: Apache-2.0
// elf_load_check_internal.h: what can be learned from a shared library's file before dlopen
// maps it: whether this process can load it at all, and the values of its exported constants.
#ifndef TVM_FFI_ELF_LOAD_CHECK_INTERNAL_H_
#define TVM_FFI_ELF_LOAD_CHECK_INTERNAL_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "elf_file_internal.h"

namespace tvm {
namespace ffi {
namespace details {

/// Why this process cannot load `file` ("" when nothing visible prevents it): it is no ELF
/// file, is built for another class, byte order or machine, its program headers or segments
/// reach past the end of the file (dlopen of such a file dies with SIGBUS), its segments
/// overlap, or its dynamic section sends the loader outside the file or the image.
std::string ElfLoadProblem(const ElfFileView& file);

/// Outcome of ReadElfDynamicObject.
enum class ElfObjectRead {
  kRead,         ///< the value was copied
  kAbsent,       ///< the library defines no such symbol
  kMisdeclared,  ///< the symbol is no constant object of that size initialized in the file
  kNoSymbols,    ///< the file has no readable dynamic symbol table
};

/// Copies into `out` the `size`-byte initial value of the constant `name` that `file` defines
/// and exports, as the dynamic loader will find it. For kMisdeclared, `problem` says what the
/// symbol is instead ("a function", "writable data", ...).
ElfObjectRead ReadElfDynamicObject(const ElfFileView& file, const char* name, void* out,
                                   size_t size, std::string* problem);

/// What a symbol of ELF `info` (binding and type) and `size` is instead of a data object of
/// `expected_size` bytes ("a function", "an object of 8 bytes", ...), or "".
std::string ElfObjectKindProblem(unsigned char info, uint64_t size, size_t expected_size);

}  // namespace details
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_ELF_LOAD_CHECK_INTERNAL_H_

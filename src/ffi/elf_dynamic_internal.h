// SPDX-License-Identifier: Apache-2.0
// elf_dynamic_internal.h: a library's image as the dynamic loader maps it (its loadable
// segments) and the dynamic linking tables it reads from there, checked from the file before
// dlopen so that a damaged library is refused instead of crashing the loader.
#ifndef TVM_FFI_ELF_DYNAMIC_INTERNAL_H_
#define TVM_FFI_ELF_DYNAMIC_INTERNAL_H_

#include <link.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "elf_file_internal.h"

namespace tvm {
namespace ffi {
namespace details {

/// The loadable (PT_LOAD) segments of a library: where each address of its image comes from.
class ElfLoadMap {
 public:
  /// The segments of `file`, whose program header table must fit in the file.
  ElfLoadMap(const ElfFileView& file, const ElfW(Ehdr) & header);

  /// Why the segments cannot be mapped as they are (out of order, overlapping, more file than
  /// memory bytes), or "".
  std::string Problem() const;

  /// The `count` objects at `address` when the file holds them all (within one segment's file
  /// bytes, aligned), else nullptr.
  template <typename T>
  const T* FileData(uint64_t address, uint64_t count = 1) const {
    const ElfW(Phdr)* segment = FileSegment(address, count, sizeof(T));
    if (segment == nullptr) return nullptr;
    return file_.At<T>(segment->p_offset + (address - segment->p_vaddr), count);
  }

  /// Whether the `size` bytes at `address` lie in the image (within one segment's memory).
  bool InImage(uint64_t address, uint64_t size) const;

  /// The segment whose memory holds `address`, or nullptr.
  const ElfW(Phdr) * SegmentAt(uint64_t address) const;

 private:
  const ElfW(Phdr) * FileSegment(uint64_t address, uint64_t count, uint64_t size) const;

  const ElfFileView& file_;
  std::vector<const ElfW(Phdr)*> segments_;
};

/// The dynamic symbol and string tables the loader resolves symbols with.
struct ElfDynamicSymbols {
  const ElfW(Sym) * symbols = nullptr;
  size_t count = 0;
  const char* names = nullptr;
  size_t names_size = 0;
};

/// Why the dynamic loader would crash on the dynamic section of `file` (a table or string
/// outside the file, an unterminated list, a symbol or relocation out of range), or "". On
/// success `symbols` (when given) receives the dynamic symbol table, if the file has one.
std::string ElfDynamicProblem(const ElfFileView& file, const ElfW(Ehdr) & header,
                              const ElfLoadMap& map, ElfDynamicSymbols* symbols);

}  // namespace details
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_ELF_DYNAMIC_INTERNAL_H_

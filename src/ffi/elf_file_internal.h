// SPDX-License-Identifier: Apache-2.0
// elf_file_internal.h: bounds-checked reading of ELF files of this process's class, shared by
// the backtrace symbolizer and the checks made before loading a library.
#ifndef TVM_FFI_ELF_FILE_INTERNAL_H_
#define TVM_FFI_ELF_FILE_INTERNAL_H_

#include <link.h>

#include <cstddef>
#include <cstdint>

namespace tvm {
namespace ffi {
namespace details {

/// ELFCLASS32 or ELFCLASS64: the class of the objects this process can load.
constexpr unsigned char kNativeElfClass = sizeof(void*) == 8 ? ELFCLASS64 : ELFCLASS32;

/// The bytes of a file, with bounds- and alignment-checked access.
struct ElfFileView {
  const char* data = nullptr;
  size_t size = 0;

  /// `count` objects of type T at `offset`, or nullptr when they do not fit or are misaligned.
  template <typename T>
  const T* At(uint64_t offset, uint64_t count = 1) const {
    if (offset > size || count > (size - offset) / sizeof(T)) return nullptr;
    if (offset % alignof(T) != 0) return nullptr;
    return reinterpret_cast<const T*>(data + offset);
  }
};

/// A file mapped read-only; empty when it cannot be opened or mapped, or is empty.
class MappedFile {
 public:
  explicit MappedFile(const char* path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  bool empty() const { return view_.data == nullptr; }
  const ElfFileView& view() const { return view_; }
  /// Keeps the mapping for the life of the process (pointers into it stay valid).
  void Leak() { view_ = ElfFileView(); }

 private:
  ElfFileView view_;
};

/// The ELF header of `file` when it is an ELF file of this process's class and byte order.
const ElfW(Ehdr) * NativeElfHeader(const ElfFileView& file);

/// A symbol table section (SHT_SYMTAB or SHT_DYNSYM) and its string table.
struct ElfSymbols {
  const ElfW(Shdr) * sections = nullptr;  ///< all section headers of the file
  size_t section_count = 0;
  const ElfW(Sym) * symbols = nullptr;
  size_t count = 0;
  const char* names = nullptr;
  size_t names_size = 0;  ///< the table ends with '\0'

  /// The name of `symbol`, or nullptr when its offset is out of range.
  const char* Name(const ElfW(Sym) & symbol) const {
    return symbol.st_name < names_size ? names + symbol.st_name : nullptr;
  }
};

/// The first symbol table of section type `type` in `file`; no symbols when there is none, when
/// the file has no section headers, or when the table is malformed.
ElfSymbols FindElfSymbols(const ElfFileView& file, uint32_t type);

}  // namespace details
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_ELF_FILE_INTERNAL_H_

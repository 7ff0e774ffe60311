// SPDX-License-Identifier: Apache-2.0
// elf_file.cc: MappedFile, NativeElfHeader and FindElfSymbols.
#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>

#include "elf_file_internal.h"

namespace tvm {
namespace ffi {
namespace details {

MappedFile::MappedFile(const char* path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  struct stat status{};
  void* mapped = MAP_FAILED;
  if (fstat(fd, &status) == 0 && S_ISREG(status.st_mode) && status.st_size > 0) {
    mapped = mmap(nullptr, static_cast<size_t>(status.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
  }
  close(fd);
  if (mapped == MAP_FAILED) return;
  view_ = ElfFileView{static_cast<const char*>(mapped), static_cast<size_t>(status.st_size)};
}

MappedFile::~MappedFile() {
  if (!empty()) munmap(const_cast<char*>(view_.data), view_.size);
}

const ElfW(Ehdr) * NativeElfHeader(const ElfFileView& file) {
  const auto* header = file.At<ElfW(Ehdr)>(0);
  if (header == nullptr || std::memcmp(header->e_ident, ELFMAG, SELFMAG) != 0) return nullptr;
  bool native_data = header->e_ident[EI_DATA] == (__BYTE_ORDER == __LITTLE_ENDIAN ? 1 : 2);
  return header->e_ident[EI_CLASS] == kNativeElfClass && native_data ? header : nullptr;
}

ElfSymbols FindElfSymbols(const ElfFileView& file, uint32_t type) {
  const ElfW(Ehdr)* header = NativeElfHeader(file);
  if (header == nullptr || header->e_shentsize != sizeof(ElfW(Shdr))) return {};
  const auto* sections = file.At<ElfW(Shdr)>(header->e_shoff, header->e_shnum);
  if (sections == nullptr || header->e_shnum == 0) return {};
  for (size_t i = 0; i < header->e_shnum; ++i) {
    const ElfW(Shdr) & table = sections[i];
    if (table.sh_type != type) continue;
    if (table.sh_entsize != sizeof(ElfW(Sym)) || table.sh_link >= header->e_shnum) return {};
    const ElfW(Shdr) & strings = sections[table.sh_link];
    size_t count = table.sh_size / sizeof(ElfW(Sym));
    const auto* symbols = file.At<ElfW(Sym)>(table.sh_offset, count);
    const char* names = file.At<char>(strings.sh_offset, strings.sh_size);
    if (symbols == nullptr || names == nullptr || strings.sh_size == 0 ||
        names[strings.sh_size - 1] != '\0') {
      return {};
    }
    return ElfSymbols{sections, header->e_shnum, symbols, count, names, strings.sh_size};
  }
  return {};
}

}  // namespace details
}  // namespace ffi
}  // namespace tvm

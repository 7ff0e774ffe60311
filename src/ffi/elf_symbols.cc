// SPDX-License-Identifier: Apache-2.0
// elf_symbols.cc: FindSymtabFunctionName, a minimal reader of ELF .symtab function symbols.
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "elf_symbols_internal.h"

namespace tvm {
namespace ffi {
namespace details {
namespace {

constexpr unsigned char kNativeElfClass = sizeof(void*) == 8 ? ELFCLASS64 : ELFCLASS32;

/// A function's address range in the file's own address space, and its name.
struct FunctionSymbol {
  uintptr_t begin;
  uintptr_t size;
  const char* name;
};

/// Bounds- and alignment-checked access to a mapped file.
struct FileView {
  const char* data;
  size_t size;

  /// `count` objects of type T at `offset`, or nullptr when they do not fit or are misaligned.
  template <typename T>
  const T* At(uint64_t offset, uint64_t count = 1) const {
    if (offset > size || count > (size - offset) / sizeof(T)) return nullptr;
    if (offset % alignof(T) != 0) return nullptr;
    return reinterpret_cast<const T*>(data + offset);
  }
};

/// The section of type SHT_SYMTAB, or nullptr.
const ElfW(Shdr) * FindSymtab(const ElfW(Shdr) * sections, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    if (sections[i].sh_type == SHT_SYMTAB) return &sections[i];
  }
  return nullptr;
}

/// Appends the defined function symbols of the file's .symtab; false if it has none.
bool CollectFunctions(const FileView& file, std::vector<FunctionSymbol>* out) {
  const auto* header = file.At<ElfW(Ehdr)>(0);
  if (header == nullptr || std::memcmp(header->e_ident, ELFMAG, SELFMAG) != 0 ||
      header->e_ident[EI_CLASS] != kNativeElfClass || header->e_shentsize != sizeof(ElfW(Shdr))) {
    return false;
  }
  const auto* sections = file.At<ElfW(Shdr)>(header->e_shoff, header->e_shnum);
  if (sections == nullptr) return false;
  const ElfW(Shdr)* symtab = FindSymtab(sections, header->e_shnum);
  if (symtab == nullptr || symtab->sh_entsize != sizeof(ElfW(Sym)) ||
      symtab->sh_link >= header->e_shnum) {
    return false;
  }
  const ElfW(Shdr) & strtab = sections[symtab->sh_link];
  size_t symbol_count = symtab->sh_size / sizeof(ElfW(Sym));
  const auto* symbols = file.At<ElfW(Sym)>(symtab->sh_offset, symbol_count);
  const char* names = file.At<char>(strtab.sh_offset, strtab.sh_size);
  if (symbols == nullptr || names == nullptr || strtab.sh_size == 0 ||
      names[strtab.sh_size - 1] != '\0') {
    return false;
  }
  for (size_t i = 0; i < symbol_count; ++i) {
    const ElfW(Sym) & symbol = symbols[i];
    bool is_function = (symbol.st_info & 0xf) == STT_FUNC;  // ELF*_ST_TYPE
    if (is_function && symbol.st_shndx != SHN_UNDEF && symbol.st_value != 0 &&
        symbol.st_name < strtab.sh_size) {
      out->push_back({static_cast<uintptr_t>(symbol.st_value),
                      static_cast<uintptr_t>(symbol.st_size), names + symbol.st_name});
    }
  }
  return !out->empty();
}

/// The function symbols of one ELF file, sorted by address. The file stays mapped while any
/// symbol was found, since the names point into it.
class SymbolTable {
 public:
  explicit SymbolTable(const char* path) { Load(path); }

  const char* Find(uintptr_t address) const {
    auto after = std::upper_bound(
        functions_.begin(), functions_.end(), address,
        [](uintptr_t value, const FunctionSymbol& symbol) { return value < symbol.begin; });
    if (after == functions_.begin()) return nullptr;
    const FunctionSymbol& symbol = *(after - 1);
    bool inside = symbol.size == 0 ? address == symbol.begin : address - symbol.begin < symbol.size;
    return inside ? symbol.name : nullptr;
  }

 private:
  void Load(const char* path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    struct stat status{};
    void* mapped = MAP_FAILED;
    if (fstat(fd, &status) == 0 && status.st_size > 0) {
      mapped = mmap(nullptr, static_cast<size_t>(status.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
    }
    close(fd);
    if (mapped == MAP_FAILED) return;
    FileView file{static_cast<const char*>(mapped), static_cast<size_t>(status.st_size)};
    if (!CollectFunctions(file, &functions_)) {
      functions_.clear();
      munmap(mapped, file.size);
      return;
    }
    std::sort(functions_.begin(), functions_.end(),
              [](const FunctionSymbol& a, const FunctionSymbol& b) { return a.begin < b.begin; });
  }

  std::vector<FunctionSymbol> functions_;
};

}  // namespace

const char* FindSymtabFunctionName(const char* path, uintptr_t load_bias, uintptr_t pc) {
  using Key = std::pair<std::string, uintptr_t>;
  // Leaked on purpose: frames may be printed while the process exits.
  static auto* mutex = new std::mutex();
  static auto* tables = new std::map<Key, std::unique_ptr<SymbolTable>>();
  std::lock_guard<std::mutex> lock(*mutex);
  std::unique_ptr<SymbolTable>& table = (*tables)[Key(path, load_bias)];
  if (table == nullptr) table = std::make_unique<SymbolTable>(path);
  return table->Find(pc - load_bias);
}

}  // namespace details
}  // namespace ffi
}  // namespace tvm

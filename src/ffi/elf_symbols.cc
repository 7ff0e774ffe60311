// SPDX-License-Identifier: Apache-2.0
// elf_symbols.cc: FindSymtabFunctionName, a minimal reader of ELF .symtab function symbols.
#include <elf.h>
#include <link.h>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "elf_file_internal.h"
#include "elf_symbols_internal.h"

namespace tvm {
namespace ffi {
namespace details {
namespace {

/// A function's address range in the file's own address space, and its name.
struct FunctionSymbol {
  uintptr_t begin;
  uintptr_t size;
  const char* name;
};

/// Appends the defined function symbols of the file's .symtab; false if it has none.
bool CollectFunctions(const ElfFileView& file, std::vector<FunctionSymbol>* out) {
  ElfSymbols table = FindElfSymbols(file, SHT_SYMTAB);
  for (size_t i = 0; i < table.count; ++i) {
    const ElfW(Sym) & symbol = table.symbols[i];
    bool is_function = (symbol.st_info & 0xf) == STT_FUNC;  // ELF*_ST_TYPE
    const char* name = table.Name(symbol);
    if (is_function && symbol.st_shndx != SHN_UNDEF && symbol.st_value != 0 && name != nullptr) {
      out->push_back(
          {static_cast<uintptr_t>(symbol.st_value), static_cast<uintptr_t>(symbol.st_size), name});
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
    MappedFile file(path);
    if (!CollectFunctions(file.view(), &functions_)) {
      functions_.clear();
      return;
    }
    file.Leak();  // the names point into the mapping
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

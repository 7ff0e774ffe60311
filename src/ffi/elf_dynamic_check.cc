// SPDX-License-Identifier: Apache-2.0
// elf_dynamic_check.cc: ElfDynamicProblem. The dynamic loader trusts the dynamic section: every
// table, string, symbol index, version index and relocation target it names is read or written
// without a bounds check. Each is checked here against the file and the image it will map.
#include <elf.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "elf_dynamic_internal.h"

#ifndef DT_RELRSZ
#define DT_RELRSZ 35
#define DT_RELR 36
#define DT_RELRENT 37
#endif

namespace tvm {
namespace ffi {
namespace details {
namespace {

constexpr uint64_t kWord = sizeof(ElfW(Addr));
constexpr uint64_t kPage = 4096;  // the smallest page size: what is mapped beyond a segment

/// The relocation whose addend is a resolver the loader calls (0: not checked here).
constexpr uint64_t kIndirectRelocation =
#if defined(__x86_64__)
    R_X86_64_IRELATIVE;
#elif defined(__aarch64__)
    R_AARCH64_IRELATIVE;
#else
    0;
#endif

std::string Hex(uint64_t value) {
  std::ostringstream os;
  os << "0x" << std::hex << value;
  return os.str();
}

std::string Corrupt(const std::string& what) { return "truncated or corrupt: " + what; }

uint64_t RelocationSymbol(uint64_t info) { return kWord == 8 ? info >> 32 : info >> 8; }
uint64_t RelocationType(uint64_t info) { return kWord == 8 ? info & 0xffffffff : info & 0xff; }

/// The dynamic section's entries: the last value of each tag (what the loader keeps) and every
/// entry in order (for the tags that repeat, such as DT_NEEDED).
struct DynamicEntries {
  std::map<int64_t, uint64_t> last;
  std::vector<std::pair<int64_t, uint64_t>> all;

  bool Has(int64_t tag) const { return last.count(tag) != 0; }
  uint64_t Get(int64_t tag) const { return Has(tag) ? last.at(tag) : 0; }
};

std::string ReadDynamicEntries(const ElfLoadMap& map, const ElfW(Phdr) & dynamic,
                               DynamicEntries* out) {
  for (uint64_t address = dynamic.p_vaddr;; address += sizeof(ElfW(Dyn))) {
    const auto* entry = map.FileData<ElfW(Dyn)>(address);
    if (entry == nullptr) {
      return Corrupt("the dynamic section at " + Hex(dynamic.p_vaddr) +
                     " does not end (DT_NULL) inside the file's loadable segments");
    }
    if (entry->d_tag == DT_NULL) return "";
    out->last[entry->d_tag] = entry->d_un.d_val;
    out->all.emplace_back(entry->d_tag, entry->d_un.d_val);
  }
}

/// Checks the dynamic section of one library, table by table, in the order the loader uses
/// them. Each step returns its problem or "".
class DynamicChecker {
 public:
  DynamicChecker(const ElfLoadMap& map, const DynamicEntries& entries)
      : map_(map), entries_(entries) {}

  std::string Run() {
    using Step = std::string (DynamicChecker::*)();
    for (Step step :
         {&DynamicChecker::EntrySizes, &DynamicChecker::StringTable, &DynamicChecker::NamedStrings,
          &DynamicChecker::HashTables, &DynamicChecker::Relocations, &DynamicChecker::SymbolTable,
          &DynamicChecker::Versions, &DynamicChecker::InitAndFini}) {
      std::string problem = (this->*step)();
      if (!problem.empty()) return problem;
    }
    return "";
  }

  ElfDynamicSymbols symbols() const { return symbols_; }

 private:
  /// The sizes the loader asserts.
  std::string EntrySizes() {
    const std::pair<int64_t, uint64_t> sizes[] = {{DT_SYMENT, sizeof(ElfW(Sym))},
                                                  {DT_RELAENT, sizeof(ElfW(Rela))},
                                                  {DT_RELENT, sizeof(ElfW(Rel))},
                                                  {DT_RELRENT, kWord}};
    for (const auto& [tag, size] : sizes) {
      if (entries_.Has(tag) && entries_.Get(tag) != size) {
        return Corrupt("dynamic entry " + std::to_string(tag) + " gives entries of " +
                       std::to_string(entries_.Get(tag)) + " bytes, expected " +
                       std::to_string(size));
      }
    }
    uint64_t plt = entries_.Get(DT_PLTREL);
    if (entries_.Has(DT_JMPREL) && plt != DT_RELA && plt != DT_REL) {
      return Corrupt("the PLT relocations are of unknown kind " + std::to_string(plt));
    }
    return "";
  }

  std::string StringTable() {
    if (!entries_.Has(DT_STRTAB)) return "";
    uint64_t address = entries_.Get(DT_STRTAB);
    uint64_t size = entries_.Get(DT_STRSZ);
    symbols_.names = map_.FileData<char>(address, size);
    if (symbols_.names == nullptr || size == 0) {
      return Corrupt("the dynamic string table at " + Hex(address) + " (" + std::to_string(size) +
                     " bytes) lies outside the file");
    }
    symbols_.names_size = size;
    return "";
  }

  /// "" when `offset` starts a string that ends inside the string table.
  std::string String(uint64_t offset, const std::string& what) {
    if (symbols_.names == nullptr) return Corrupt(what + " names a string, without a string table");
    if (offset >= symbols_.names_size ||
        std::memchr(symbols_.names + offset, '\0', symbols_.names_size - offset) == nullptr) {
      return Corrupt(what + " names the string at offset " + std::to_string(offset) +
                     ", past the end of the string table (" + std::to_string(symbols_.names_size) +
                     " bytes)");
    }
    return "";
  }

  std::string NamedStrings() {
    for (const auto& [tag, value] : entries_.all) {
      if (tag == DT_NEEDED || tag == DT_SONAME || tag == DT_RPATH || tag == DT_RUNPATH ||
          tag == DT_AUXILIARY || tag == DT_FILTER) {
        std::string problem = String(value, "dynamic entry " + std::to_string(tag));
        if (!problem.empty()) return problem;
      }
    }
    return "";
  }

  /// The symbols the hash tables cover: the loader reads each when it looks a name up.
  std::string HashTables() {
    if (entries_.Has(DT_HASH)) {
      std::string problem = SysvHashCount(entries_.Get(DT_HASH));
      if (!problem.empty()) return problem;
    }
    if (entries_.Has(DT_GNU_HASH)) return GnuHashCount(entries_.Get(DT_GNU_HASH));
    return "";
  }

  std::string SysvHashCount(uint64_t address) {
    const auto* head = map_.FileData<uint32_t>(address, 2);
    const uint32_t* table = head == nullptr
                                ? nullptr
                                : map_.FileData<uint32_t>(address, 2 + uint64_t{head[0]} + head[1]);
    if (table == nullptr || head[0] == 0) {
      return Corrupt("the symbol hash table at " + Hex(address) + " lies outside the file");
    }
    for (uint64_t i = 2; i < 2 + uint64_t{head[0]} + head[1]; ++i) {
      if (table[i] >= head[1]) return SymbolOutOfRange("the symbol hash table", table[i]);
    }
    needed_symbols_ = std::max<uint64_t>(needed_symbols_, head[1]);
    return "";
  }

  /// A GNU hash table: bucket b's chain runs from symbol b to the next entry with bit 0 set,
  /// so the whole table ends at the first such entry at or after the highest bucket.
  std::string GnuHashCount(uint64_t address) {
    const auto* head = map_.FileData<uint32_t>(address, 4);
    std::string malformed = Corrupt("the GNU symbol hash table at " + Hex(address) +
                                    " is malformed or lies outside the file");
    if (head == nullptr) return malformed;
    uint64_t buckets = head[0], first = head[1], bloom_words = head[2];
    bool bloom_ok = bloom_words != 0 && (bloom_words & (bloom_words - 1)) == 0;
    uint64_t bucket_address = address + 16 + bloom_words * kWord;
    const auto* bucket = map_.FileData<uint32_t>(bucket_address, buckets);
    if (buckets == 0 || !bloom_ok ||
        map_.FileData<ElfW(Addr)>(address + 16, bloom_words) == nullptr || bucket == nullptr) {
      return malformed;
    }
    uint64_t highest = 0;
    for (uint64_t i = 0; i < buckets; ++i) {
      if (bucket[i] != 0 && bucket[i] < first) return malformed;
      highest = std::max<uint64_t>(highest, bucket[i]);
    }
    needed_symbols_ = std::max(needed_symbols_, first);
    if (highest == 0) return "";  // no symbol is hashed
    uint64_t chains = bucket_address + 4 * buckets;
    for (uint64_t symbol = highest;; ++symbol) {
      const auto* value = map_.FileData<uint32_t>(chains + 4 * (symbol - first));
      if (value == nullptr) return malformed;
      if ((*value & 1) != 0) {
        needed_symbols_ = std::max(needed_symbols_, symbol + 1);
        return "";
      }
    }
  }

  std::string Relocations() {
    std::string problem = RelocationTable(DT_RELA, DT_RELASZ, entries_.Get(DT_RELA) != 0);
    if (problem.empty()) problem = RelocationTable(DT_REL, DT_RELSZ, entries_.Get(DT_REL) != 0);
    if (problem.empty() && entries_.Has(DT_JMPREL)) {
      problem = RelocationTable(DT_JMPREL, DT_PLTRELSZ, true, entries_.Get(DT_PLTREL) == DT_RELA);
    }
    if (problem.empty()) problem = RelativeRelocations();
    return problem;
  }

  std::string RelocationTable(int64_t tag, int64_t size_tag, bool present) {
    return RelocationTable(tag, size_tag, present, tag == DT_RELA);
  }

  std::string RelocationTable(int64_t tag, int64_t size_tag, bool present, bool with_addend) {
    if (!present) return "";
    return with_addend ? CheckRelocations<ElfW(Rela)>(tag, size_tag)
                       : CheckRelocations<ElfW(Rel)>(tag, size_tag);
  }

  template <typename Relocation>
  std::string CheckRelocations(int64_t tag, int64_t size_tag) {
    uint64_t address = entries_.Get(tag), size = entries_.Get(size_tag);
    uint64_t count = size / sizeof(Relocation);
    const auto* relocations = map_.FileData<Relocation>(address, count);
    std::string name = "the relocation table at " + Hex(address);
    if (size % sizeof(Relocation) != 0 || (count != 0 && relocations == nullptr)) {
      return Corrupt(name + " (" + std::to_string(size) + " bytes) lies outside the file");
    }
    for (uint64_t i = 0; i < count; ++i) {
      const Relocation& relocation = relocations[i];
      if (RelocationType(relocation.r_info) == 0) continue;  // R_*_NONE
      if (!InMappedPages(relocation.r_offset)) {
        return Corrupt("relocation " + std::to_string(i) + " of " + name + " writes to " +
                       Hex(relocation.r_offset) + ", outside the library's image");
      }
      if constexpr (std::is_same_v<Relocation, ElfW(Rela)>) {
        auto resolver = static_cast<uint64_t>(relocation.r_addend);
        if (kIndirectRelocation != 0 && RelocationType(relocation.r_info) == kIndirectRelocation &&
            !InCode(resolver)) {
          return Corrupt("relocation " + std::to_string(i) + " of " + name +
                         " calls a resolver at " + Hex(resolver) + ", outside the library's code");
        }
      }
      needed_symbols_ = std::max(needed_symbols_, RelocationSymbol(relocation.r_info) + 1);
    }
    return "";
  }

  /// A word written at `address` stays in the mapped pages of the segment that holds it.
  bool InMappedPages(uint64_t address) {
    const ElfW(Phdr)* segment = map_.SegmentAt(address);
    if (segment == nullptr) return false;
    uint64_t end = uint64_t{segment->p_vaddr} + segment->p_memsz;
    uint64_t mapped_end = end + (kPage - end % kPage) % kPage;
    return map_.InImage(address, 4) && kWord <= mapped_end - address;
  }

  /// DT_RELR: an even entry is an address to relocate; an odd one a bitmap of the words after.
  std::string RelativeRelocations() {
    if (!entries_.Has(DT_RELR)) return "";
    uint64_t address = entries_.Get(DT_RELR), size = entries_.Get(DT_RELRSZ);
    const auto* words = map_.FileData<ElfW(Addr)>(address, size / kWord);
    if (size % kWord != 0 || (size != 0 && words == nullptr)) {
      return Corrupt("the relative relocations at " + Hex(address) + " lie outside the file");
    }
    uint64_t next = 0;
    for (uint64_t i = 0; i < size / kWord; ++i) {
      std::vector<uint64_t> targets;
      if ((words[i] & 1) == 0) {
        targets.push_back(words[i]);
        next = words[i] + kWord;
      } else {
        for (uint64_t bit = 1; bit < 8 * kWord; ++bit) {
          if (((words[i] >> bit) & 1) != 0) targets.push_back(next + (bit - 1) * kWord);
        }
        next += (8 * kWord - 1) * kWord;
      }
      for (uint64_t target : targets) {
        if (!map_.InImage(target, kWord)) {
          return Corrupt("a relative relocation writes to " + Hex(target) +
                         ", outside the library's image");
        }
      }
    }
    return "";
  }

  std::string SymbolOutOfRange(const std::string& what, uint64_t index) {
    return Corrupt(what + " refers to symbol " + std::to_string(index) +
                   ", which lies outside the file");
  }

  /// Every symbol the hash tables and relocations reach: in the file, named inside the string
  /// table, and an indirect function's resolver (which the loader calls) in the code.
  std::string SymbolTable() {
    if (needed_symbols_ == 0) return "";
    if (entries_.Has(DT_SYMTAB)) {
      symbols_.symbols = map_.FileData<ElfW(Sym)>(entries_.Get(DT_SYMTAB), needed_symbols_);
    }
    if (symbols_.symbols == nullptr) {
      return SymbolOutOfRange("the dynamic section", needed_symbols_ - 1);
    }
    symbols_.count = needed_symbols_;
    for (uint64_t i = 0; i < symbols_.count; ++i) {
      const ElfW(Sym) & symbol = symbols_.symbols[i];
      std::string problem = String(symbol.st_name, "dynamic symbol " + std::to_string(i));
      if (!problem.empty()) return problem;
      if ((symbol.st_info & 0xf) == STT_GNU_IFUNC && symbol.st_shndx != SHN_UNDEF &&
          !InCode(symbol.st_value)) {
        return Corrupt("the resolver of indirect function symbol " + std::to_string(i) +
                       " lies outside the library's code");
      }
    }
    return "";
  }

  bool InCode(uint64_t address) {
    const ElfW(Phdr)* segment = map_.SegmentAt(address);
    return segment != nullptr && (segment->p_flags & PF_X) != 0;
  }

  /// Symbol versions: the loader indexes its version array (sized by the highest index the
  /// definitions and needs declare) with each symbol's DT_VERSYM entry.
  std::string Versions() {
    uint64_t highest = 0;
    std::string problem;
    if (entries_.Has(DT_VERDEF)) problem = VersionDefinitions(entries_.Get(DT_VERDEF), &highest);
    if (problem.empty() && entries_.Has(DT_VERNEED)) {
      problem = VersionNeeds(entries_.Get(DT_VERNEED), &highest);
    }
    if (!problem.empty() || !entries_.Has(DT_VERSYM) || needed_symbols_ == 0) return problem;
    const auto* versions = map_.FileData<uint16_t>(entries_.Get(DT_VERSYM), needed_symbols_);
    if (versions == nullptr) return Corrupt("the symbol version table lies outside the file");
    for (uint64_t i = 0; i < needed_symbols_; ++i) {
      if ((versions[i] & 0x7fff) > std::max<uint64_t>(highest, 1) || highest == 0) {
        return Corrupt(
            "dynamic symbol " + std::to_string(i) + " has version index " +
            std::to_string(versions[i] & 0x7fff) + ", the library declares " +
            (highest == 0 ? std::string("no versions") : "up to " + std::to_string(highest)));
      }
    }
    return "";
  }

  std::string VersionDefinitions(uint64_t address, uint64_t* highest) {
    for (;;) {
      const auto* definition = map_.FileData<ElfW(Verdef)>(address);
      const auto* aux = definition == nullptr
                            ? nullptr
                            : map_.FileData<ElfW(Verdaux)>(address + definition->vd_aux);
      if (aux == nullptr) return Corrupt("a version definition lies outside the file");
      std::string problem = String(aux->vda_name, "a version definition");
      if (!problem.empty()) return problem;
      *highest = std::max<uint64_t>(*highest, definition->vd_ndx & 0x7fff);
      if (definition->vd_next == 0) return "";
      address += definition->vd_next;
    }
  }

  std::string VersionNeeds(uint64_t address, uint64_t* highest) {
    for (;;) {
      const auto* need = map_.FileData<ElfW(Verneed)>(address);
      if (need == nullptr) return Corrupt("a version need lies outside the file");
      std::string problem = String(need->vn_file, "a version need");
      for (uint64_t at = address + need->vn_aux; problem.empty();) {
        const auto* aux = map_.FileData<ElfW(Vernaux)>(at);
        if (aux == nullptr) return Corrupt("a needed version lies outside the file");
        problem = String(aux->vna_name, "a needed version");
        *highest = std::max<uint64_t>(*highest, aux->vna_other & 0x7fff);
        if (aux->vna_next == 0) break;
        at += aux->vna_next;
      }
      if (!problem.empty()) return problem;
      if (need->vn_next == 0) return "";
      address += need->vn_next;
    }
  }

  std::string InitAndFini() {
    for (int64_t tag : {DT_INIT, DT_FINI}) {
      if (entries_.Has(tag) && !InCode(entries_.Get(tag))) {
        return Corrupt("the " + std::string(tag == DT_INIT ? "initializer" : "finalizer") + " at " +
                       Hex(entries_.Get(tag)) + " lies outside the library's code");
      }
    }
    const std::pair<int64_t, int64_t> arrays[] = {{DT_INIT_ARRAY, DT_INIT_ARRAYSZ},
                                                  {DT_FINI_ARRAY, DT_FINI_ARRAYSZ},
                                                  {DT_PREINIT_ARRAY, DT_PREINIT_ARRAYSZ}};
    for (const auto& [tag, size_tag] : arrays) {
      uint64_t size = entries_.Get(size_tag);
      if (entries_.Has(tag) && (size % kWord != 0 || !map_.InImage(entries_.Get(tag), size))) {
        return Corrupt("the initializer or finalizer array at " + Hex(entries_.Get(tag)) +
                       " lies outside the library's image");
      }
    }
    return "";
  }

  const ElfLoadMap& map_;
  const DynamicEntries& entries_;
  ElfDynamicSymbols symbols_;
  uint64_t needed_symbols_ = 0;
};

const ElfW(Phdr) * DynamicSegment(const ElfFileView& file, const ElfW(Ehdr) & header) {
  const auto* headers = file.At<ElfW(Phdr)>(header.e_phoff, header.e_phnum);
  if (headers == nullptr) return nullptr;
  for (size_t i = 0; i < header.e_phnum; ++i) {
    if (headers[i].p_type == PT_DYNAMIC) return &headers[i];
  }
  return nullptr;
}

}  // namespace

std::string ElfDynamicProblem(const ElfFileView& file, const ElfW(Ehdr) & header,
                              const ElfLoadMap& map, ElfDynamicSymbols* symbols) {
  const ElfW(Phdr)* dynamic = DynamicSegment(file, header);
  if (dynamic == nullptr) return "";  // dlopen reports that there is no dynamic section
  DynamicEntries entries;
  std::string problem = ReadDynamicEntries(map, *dynamic, &entries);
  if (!problem.empty()) return problem;
  DynamicChecker checker(map, entries);
  problem = checker.Run();
  if (problem.empty() && symbols != nullptr) *symbols = checker.symbols();
  return problem;
}

}  // namespace details
}  // namespace ffi
}  // namespace tvm

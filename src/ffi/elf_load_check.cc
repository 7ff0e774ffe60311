// SPDX-License-Identifier: Apache-2.0
// elf_load_check.cc: ElfLoadProblem, ElfObjectKindProblem and ReadElfDynamicObject.
#include <elf.h>

#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>

#include "elf_dynamic_internal.h"
#include "elf_load_check_internal.h"

namespace tvm {
namespace ffi {
namespace details {
namespace {

/// The e_machine of this process's own code; 0 where unknown (then not checked).
constexpr uint16_t kNativeMachine =
#if defined(__x86_64__)
    EM_X86_64;
#elif defined(__aarch64__)
    EM_AARCH64;
#elif defined(__i386__)
    EM_386;
#elif defined(__arm__)
    EM_ARM;
#elif defined(__powerpc64__)
    EM_PPC64;
#elif defined(__powerpc__)
    EM_PPC;
#elif defined(__riscv)
    243;  // EM_RISCV
#elif defined(__s390__)
    EM_S390;
#elif defined(__loongarch__)
    258;  // EM_LOONGARCH
#else
    0;
#endif

std::string MachineName(uint16_t machine) {
  switch (machine) {
    case EM_X86_64:
      return "x86-64";
    case EM_AARCH64:
      return "AArch64";
    case EM_386:
      return "i386";
    case EM_ARM:
      return "ARM";
    case EM_PPC64:
      return "PowerPC64";
    case EM_PPC:
      return "PowerPC";
    case 243:
      return "RISC-V";
    case EM_S390:
      return "s390";
    case 258:
      return "LoongArch";
    case EM_MIPS:
      return "MIPS";
    case EM_SPARCV9:
      return "SPARC V9";
    default:
      return "ELF machine " + std::to_string(machine);
  }
}

const char* ClassName(unsigned char elf_class) {
  if (elf_class == ELFCLASS32) return "32-bit ELF";
  if (elf_class == ELFCLASS64) return "64-bit";
  return nullptr;
}

const char* ByteOrderName(unsigned char data) {
  if (data == ELFDATA2LSB) return "little-endian";
  if (data == ELFDATA2MSB) return "big-endian";
  return nullptr;
}

/// The problem in the identification bytes (magic, class, byte order), or "".
std::string IdentProblem(const ElfFileView& file) {
  if (file.size < EI_NIDENT || std::memcmp(file.data, ELFMAG, SELFMAG) != 0) {
    return "not an ELF file (it does not start with the ELF magic bytes)";
  }
  const unsigned char* ident = reinterpret_cast<const unsigned char*>(file.data);
  unsigned char native_data = __BYTE_ORDER == __LITTLE_ENDIAN ? ELFDATA2LSB : ELFDATA2MSB;
  std::ostringstream os;
  if (ident[EI_CLASS] != kNativeElfClass) {
    const char* name = ClassName(ident[EI_CLASS]);
    os << "built for " << (name ? name : "an unknown ELF class") << ", this process is "
       << (kNativeElfClass == ELFCLASS64 ? "64-bit" : "32-bit");
  } else if (ident[EI_DATA] != native_data) {
    const char* name = ByteOrderName(ident[EI_DATA]);
    os << "built for " << (name ? name : "an unknown byte order") << ", this process is "
       << ByteOrderName(native_data);
  }
  return os.str();
}

/// "truncated or corrupt: <what> occupies bytes [begin, begin + size), the file has N bytes".
std::string BeyondTheEnd(const std::string& what, uint64_t begin, uint64_t size, size_t file_size) {
  std::ostringstream os;
  os << "truncated or corrupt: " << what << " occupies bytes [" << begin << ", " << begin + size
     << "), the file has " << file_size << " bytes";
  return os.str();
}

bool Fits(uint64_t begin, uint64_t size, size_t file_size) {
  return begin <= file_size && size <= file_size - begin;
}

/// The problem in the program headers and the file ranges of the segments, or "".
std::string SegmentProblem(const ElfFileView& file, const ElfW(Ehdr) & header) {
  if (header.e_phnum == 0) return "";  // dlopen reports that there is nothing to load
  if (header.e_phentsize != sizeof(ElfW(Phdr))) {
    return "truncated or corrupt: program header entries of " + std::to_string(header.e_phentsize) +
           " bytes, expected " + std::to_string(sizeof(ElfW(Phdr)));
  }
  uint64_t table_size = uint64_t{header.e_phnum} * sizeof(ElfW(Phdr));
  const auto* segments = file.At<ElfW(Phdr)>(header.e_phoff, header.e_phnum);
  if (segments == nullptr) {
    return BeyondTheEnd("the program header table", header.e_phoff, table_size, file.size);
  }
  for (size_t i = 0; i < header.e_phnum; ++i) {
    const ElfW(Phdr) & segment = segments[i];
    if (!Fits(segment.p_offset, segment.p_filesz, file.size)) {
      return BeyondTheEnd("segment " + std::to_string(i), segment.p_offset, segment.p_filesz,
                          file.size);
    }
  }
  return "";
}

/// Why `symbol` is not `size` bytes of constant data initialized in the file, or "".
std::string ConstantDataProblem(const ElfLoadMap& map, const ElfW(Sym) & symbol, size_t size) {
  if (symbol.st_shndx == SHN_ABS) return "an absolute symbol";
  const ElfW(Phdr)* segment = map.SegmentAt(symbol.st_value);
  if (segment == nullptr) return "outside the library's image";
  if (map.FileData<char>(symbol.st_value, size) == nullptr) {
    return "zero-filled data (not initialized in the file)";
  }
  if ((segment->p_flags & PF_W) != 0) {
    return "writable data (a value the library sets when it runs cannot be checked before)";
  }
  return "";
}

}  // namespace

std::string ElfLoadProblem(const ElfFileView& file) {
  std::string problem = IdentProblem(file);
  if (!problem.empty()) return problem;
  const ElfW(Ehdr)* header = NativeElfHeader(file);
  if (header == nullptr) return BeyondTheEnd("the ELF header", 0, sizeof(ElfW(Ehdr)), file.size);
  if (kNativeMachine != 0 && header->e_machine != kNativeMachine) {
    return "built for " + MachineName(header->e_machine) + ", this process is " +
           MachineName(kNativeMachine);
  }
  problem = SegmentProblem(file, *header);
  if (!problem.empty()) return problem;
  ElfLoadMap map(file, *header);
  problem = map.Problem();
  if (!problem.empty()) return problem;
  return ElfDynamicProblem(file, *header, map, nullptr);
}

std::string ElfObjectKindProblem(unsigned char info, uint64_t size, size_t expected_size) {
  switch (info & 0xf) {  // ELF*_ST_TYPE
    case STT_OBJECT:
      break;
    case STT_FUNC:
      return "a function";
    case STT_GNU_IFUNC:
      return "an indirect function";
    case STT_TLS:
      return "a thread-local variable";
    default:
      return "a symbol of ELF type " + std::to_string(info & 0xf);
  }
  if (size != expected_size) return "an object of " + std::to_string(size) + " bytes";
  return "";
}

ElfObjectRead ReadElfDynamicObject(const ElfFileView& file, const char* name, void* out,
                                   size_t size, std::string* problem) {
  const ElfW(Ehdr)* header = NativeElfHeader(file);
  if (header == nullptr) return ElfObjectRead::kNoSymbols;
  ElfLoadMap map(file, *header);
  ElfDynamicSymbols table;
  if (!map.Problem().empty() || !ElfDynamicProblem(file, *header, map, &table).empty() ||
      table.symbols == nullptr) {
    return ElfObjectRead::kNoSymbols;
  }
  for (size_t i = 0; i < table.count; ++i) {
    const ElfW(Sym) & symbol = table.symbols[i];
    if (symbol.st_shndx == SHN_UNDEF || std::strcmp(table.names + symbol.st_name, name) != 0) {
      continue;
    }
    *problem = ElfObjectKindProblem(symbol.st_info, symbol.st_size, size);
    if (problem->empty()) *problem = ConstantDataProblem(map, symbol, size);
    if (!problem->empty()) return ElfObjectRead::kMisdeclared;
    std::memcpy(out, map.FileData<char>(symbol.st_value, size), size);
    return ElfObjectRead::kRead;
  }
  return ElfObjectRead::kAbsent;
}

}  // namespace details
}  // namespace ffi
}  // namespace tvm

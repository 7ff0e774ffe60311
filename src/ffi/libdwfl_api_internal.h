// SPDX-License-Identifier: Apache-2.0
// libdwfl_api_internal.h: the parts of elfutils' libdwfl C API that backtraces use, declared here
// so that the runtime builds without elfutils' headers and opens libdw.so.1 where it runs. The
// types follow libdwfl.h's stable ABI: handles are opaque and addresses are 64-bit.
#ifndef TVM_FFI_SRC_FFI_LIBDWFL_API_INTERNAL_H_
#define TVM_FFI_SRC_FFI_LIBDWFL_API_INTERNAL_H_

#include <elf.h>
#include <sys/types.h>

#include <cstdint>

namespace tvm {
namespace ffi {
namespace details {
namespace libdwfl {

struct Dwfl;        ///< a session: the modules of one address space
struct DwflModule;  ///< one loaded ELF file of a session
struct DwflLine;    ///< one row of a module's line table
struct ElfHandle;   ///< libelf's Elf

using Addr = uint64_t;  ///< Dwarf_Addr, GElf_Addr
using Word = uint64_t;  ///< Dwarf_Word

/// Dwfl_Callbacks: how a session finds the ELF and debug info files of its modules.
struct Callbacks {
  int (*find_elf)(DwflModule* module, void** user_data, const char* name, Addr base,
                  char** file_name, ElfHandle** elf);
  int (*find_debuginfo)(DwflModule* module, void** user_data, const char* name, Addr base,
                        const char* file_name, const char* debuglink_file, uint32_t debuglink_crc,
                        char** debuginfo_file_name);
  int (*section_address)(DwflModule* module, void** user_data, const char* name, Addr base,
                         const char* section_name, uint32_t section_index,
                         const Elf64_Shdr* section_header, Addr* address);
  char** debuginfo_path;  ///< colon-separated folders searched for separate debug info
};

using BeginFn = Dwfl* (*)(const Callbacks* callbacks);
using EndFn = void (*)(Dwfl* dwfl);
using ReportBeginFn = void (*)(Dwfl* dwfl);
using RemovedFn = int (*)(DwflModule* module, void* user_data, const char* name, Addr base,
                          void* arg);
using ReportEndFn = int (*)(Dwfl* dwfl, RemovedFn removed, void* arg);
using LinuxProcReportFn = int (*)(Dwfl* dwfl, pid_t pid);
using FindElfFn = decltype(Callbacks::find_elf);
using FindDebuginfoFn = decltype(Callbacks::find_debuginfo);
using AddrModuleFn = DwflModule* (*)(Dwfl* dwfl, Addr address);
using ModuleInfoFn = const char* (*)(DwflModule* module, void*** user_data, Addr* start, Addr* end,
                                     Addr* dwarf_bias, Addr* symbol_bias, const char** main_file,
                                     const char** debug_file);
using ModuleAddrNameFn = const char* (*)(DwflModule* module, Addr address);
using ModuleGetSrcFn = DwflLine* (*)(DwflModule* module, Addr address);
using LineInfoFn = const char* (*)(DwflLine* line, Addr* address, int* line_number, int* column,
                                   Word* mtime, Word* length);

}  // namespace libdwfl
}  // namespace details
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_SRC_FFI_LIBDWFL_API_INTERNAL_H_

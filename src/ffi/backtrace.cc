// SPDX-License-Identifier: Apache-2.0
// backtrace.cc: TVMFFIBacktrace, the current C++ stack as Python-style "File ..." lines.
#include <cxxabi.h>
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <tvm/ffi/c_api.h>
#include <unwind.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "backtrace_internal.h"
#include "backtrace_symbolizer_internal.h"
#include "demangle_internal.h"
#include "elf_symbols_internal.h"

// TVM_FFI_USE_LIBDW=0 builds without libdw support; it needs no headers to be on.
#if !defined(TVM_FFI_USE_LIBDW) || TVM_FFI_USE_LIBDW
#include <unistd.h>

#include <mutex>

#include "libdwfl_api_internal.h"
#define TVM_FFI_BACKTRACE_HAS_LIBDW 1
#else
#define TVM_FFI_BACKTRACE_HAS_LIBDW 0
#endif

// The build's folder of separate debug info files (TVM_FFI_SPLIT_DEBUGINFO), "" without one.
#ifndef TVM_FFI_BUILD_DEBUGINFO_DIR
#define TVM_FFI_BUILD_DEBUGINFO_DIR ""
#endif

namespace tvm {
namespace ffi {
namespace details {
namespace {

/// One symbolized stack frame; empty strings mean unknown.
struct FrameInfo {
  std::string file;
  int line = 0;
  std::string func;
};

/// Shared state of the _Unwind_Backtrace walk; `pcs` is reserved and never reallocated.
struct CaptureState {
  std::vector<uintptr_t>* pcs;
  size_t max_frames;
};

/// Records one frame as a lookup address (inside the call instruction for return addresses).
_Unwind_Reason_Code CaptureOneFrame(_Unwind_Context* context, void* arg) {
  auto* state = static_cast<CaptureState*>(arg);
  int ip_before_insn = 0;
  uintptr_t pc = _Unwind_GetIPInfo(context, &ip_before_insn);
  if (pc == 0) return _URC_END_OF_STACK;
  state->pcs->push_back(ip_before_insn ? pc : pc - 1);
  return state->pcs->size() >= state->max_frames ? _URC_END_OF_STACK : _URC_NO_REASON;
}

/// Lookup addresses of the current stack, this function's own frame first.
__attribute__((noinline)) std::vector<uintptr_t> CaptureStack(size_t max_frames) {
  std::vector<uintptr_t> pcs;
  pcs.reserve(max_frames);
  CaptureState state{&pcs, max_frames};
  _Unwind_Backtrace(CaptureOneFrame, &state);
  return pcs;
}

/// Fills the object path and, for an enclosing dynamic symbol, the function name.
void ResolveWithDladdr(uintptr_t pc, FrameInfo* info) {
  Dl_info dl{};
  void* extra = nullptr;
  if (dladdr1(reinterpret_cast<void*>(pc), &dl, &extra, RTLD_DL_SYMENT) == 0) return;
  const auto* sym = static_cast<const ElfW(Sym)*>(extra);
  if (dl.dli_fname != nullptr) info->file = dl.dli_fname;
  if (dl.dli_sname == nullptr || dl.dli_saddr == nullptr) return;
  uintptr_t begin = reinterpret_cast<uintptr_t>(dl.dli_saddr);
  bool inside = sym == nullptr || sym->st_size == 0 || pc < begin + sym->st_size;
  if (inside) info->func = Demangle(dl.dli_sname);
}

/// Names the function from the object file's .symtab, which also lists unexported functions.
void ResolveWithSymtab(uintptr_t pc, FrameInfo* info) {
  Dl_info dl{};
  void* extra = nullptr;
  if (dladdr1(reinterpret_cast<void*>(pc), &dl, &extra, RTLD_DL_LINKMAP) == 0) return;
  const auto* object = static_cast<const struct link_map*>(extra);
  if (object == nullptr) return;
  // The main program's link_map has an empty name; dli_fname may then be relative.
  bool is_main_program = object->l_name == nullptr || object->l_name[0] == '\0';
  const char* path = is_main_program ? "/proc/self/exe" : object->l_name;
  if (path[0] != '/') return;
  const char* name = FindSymtabFunctionName(path, object->l_addr, pc);
  if (name != nullptr) info->func = Demangle(name);
}

#if TVM_FFI_BACKTRACE_HAS_LIBDW
/// The libdwfl functions used here, looked up in libdw.so.1 when the first backtrace is built.
/// The library is opened at run time, not linked, so that libtvm_ffi loads where elfutils is
/// not installed (backtraces then show no file:line) and libdw's own dependencies stay out of
/// the global symbol namespace that libtvm_ffi is loaded into.
struct LibdwApi {
  libdwfl::BeginFn begin;
  libdwfl::EndFn end;
  libdwfl::ReportBeginFn report_begin;
  libdwfl::ReportEndFn report_end;
  libdwfl::LinuxProcReportFn linux_proc_report;
  libdwfl::FindElfFn linux_proc_find_elf;
  libdwfl::FindDebuginfoFn standard_find_debuginfo;
  libdwfl::AddrModuleFn addrmodule;
  libdwfl::ModuleInfoFn module_info;
  libdwfl::ModuleAddrNameFn module_addrname;
  libdwfl::ModuleGetSrcFn module_getsrc;
  libdwfl::LineInfoFn lineinfo;

  /// The functions, or nullptr when libdw.so.1 or one of them is missing.
  static const LibdwApi* Get() {
    static const LibdwApi* api = Disabled() ? nullptr : Load();  // leaked, like the library
    return api;
  }

  /// TVM_FFI_BACKTRACE_LIBDW=0 turns libdw off (names then come from the symbol tables).
  static bool Disabled() { return std::string(Setting()) == "0"; }

  /// The library opened: TVM_FFI_BACKTRACE_LIBDW when it names a file, else libdw.so.1.
  static const char* LibraryName() {
    const char* setting = Setting();
    return setting[0] != '\0' && std::string(setting) != "1" ? setting : "libdw.so.1";
  }

 private:
  static const char* Setting() {
    const char* setting = std::getenv("TVM_FFI_BACKTRACE_LIBDW");
    return setting != nullptr ? setting : "";
  }

  template <typename Fn>
  static bool Lookup(void* library, const char* name, Fn* out) {
    *out = reinterpret_cast<Fn>(dlsym(library, name));
    return *out != nullptr;
  }

  static const LibdwApi* Load() {
    void* library = dlopen(LibraryName(), RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) return nullptr;
    auto* api = new LibdwApi();
    bool complete =
        Lookup(library, "dwfl_begin", &api->begin) && Lookup(library, "dwfl_end", &api->end) &&
        Lookup(library, "dwfl_report_begin", &api->report_begin) &&
        Lookup(library, "dwfl_report_end", &api->report_end) &&
        Lookup(library, "dwfl_linux_proc_report", &api->linux_proc_report) &&
        Lookup(library, "dwfl_linux_proc_find_elf", &api->linux_proc_find_elf) &&
        Lookup(library, "dwfl_standard_find_debuginfo", &api->standard_find_debuginfo) &&
        Lookup(library, "dwfl_addrmodule", &api->addrmodule) &&
        Lookup(library, "dwfl_module_info", &api->module_info) &&
        Lookup(library, "dwfl_module_addrname", &api->module_addrname) &&
        Lookup(library, "dwfl_module_getsrc", &api->module_getsrc) &&
        Lookup(library, "dwfl_lineinfo", &api->lineinfo);
    if (complete) return api;
    delete api;
    return nullptr;
  }
};

/// libdw's search path for separate debug info: the folders TVM_FFI_DEBUGINFO_PATH names
/// (colon-separated; set, even empty, it replaces the build's folder), else the build's folder;
/// then libdw's own default (the library's folder, its .debug/ and /usr/lib/debug). libdw
/// looks up .build-id/xx/yyyy.debug and the .gnu_debuglink name in each absolute folder.
std::string DebuginfoSearchPath() {
  const char* setting = std::getenv("TVM_FFI_DEBUGINFO_PATH");
  std::string folders = setting != nullptr ? setting : BuildDebuginfoDir();
  const char* libdw_default = ":.debug:/usr/lib/debug";
  return folders.empty() ? libdw_default : folders + ":" + libdw_default;
}

/// A process-wide libdwfl session, rebuilt when an address falls outside every known module.
class DwflSession {
 public:
  /// The session, or nullptr when libdw cannot be loaded.
  static DwflSession* Global() {
    static DwflSession* session =  // leaked: frames may print during exit
        LibdwApi::Get() != nullptr ? new DwflSession(*LibdwApi::Get()) : nullptr;
    return session;
  }

  /// Overrides `info` with what the debug info knows; `*rebuilt` limits rebuilds per trace.
  void Resolve(uintptr_t pc, bool* rebuilt, FrameInfo* info) {
    std::lock_guard<std::mutex> lock(mutex_);
    libdwfl::DwflModule* module = FindModule(pc, rebuilt);
    if (module == nullptr) return;
    ReadSymbol(module, pc, info);
    ReadSourceLine(module, pc, info);
  }

 private:
  explicit DwflSession(const LibdwApi& dw) : dw_(dw), search_path_(DebuginfoSearchPath()) {
    debuginfo_path_ = &search_path_[0];
    callbacks_.find_elf = dw.linux_proc_find_elf;
    callbacks_.find_debuginfo = dw.standard_find_debuginfo;
    callbacks_.debuginfo_path = &debuginfo_path_;
  }

  libdwfl::DwflModule* FindModule(uintptr_t pc, bool* rebuilt) {
    libdwfl::DwflModule* module = dwfl_ ? dw_.addrmodule(dwfl_, pc) : nullptr;
    if (module != nullptr || *rebuilt) return module;
    *rebuilt = true;
    Rebuild();
    return dwfl_ ? dw_.addrmodule(dwfl_, pc) : nullptr;
  }

  void Rebuild() {
    if (dwfl_ != nullptr) dw_.end(dwfl_);
    dwfl_ = dw_.begin(&callbacks_);
    if (dwfl_ == nullptr) return;
    dw_.report_begin(dwfl_);
    dw_.linux_proc_report(dwfl_, getpid());  // a partial report is still useful
    if (dw_.report_end(dwfl_, nullptr, nullptr) != 0) {
      dw_.end(dwfl_);
      dwfl_ = nullptr;
    }
  }

  void ReadSymbol(libdwfl::DwflModule* module, uintptr_t pc, FrameInfo* info) const {
    const char* path =
        dw_.module_info(module, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr);
    if (path != nullptr && path[0] == '/') info->file = path;
    const char* name = dw_.module_addrname(module, pc);
    if (name != nullptr) info->func = Demangle(name);
  }

  void ReadSourceLine(libdwfl::DwflModule* module, uintptr_t pc, FrameInfo* info) const {
    libdwfl::DwflLine* line = dw_.module_getsrc(module, pc);
    if (line == nullptr) return;
    int lineno = 0;
    const char* file = dw_.lineinfo(line, nullptr, &lineno, nullptr, nullptr, nullptr);
    if (file == nullptr || lineno <= 0) return;
    info->file = file;
    info->line = lineno;
  }

  const LibdwApi& dw_;
  std::string search_path_;
  char* debuginfo_path_ = nullptr;  // points into search_path_
  libdwfl::Callbacks callbacks_{};
  std::mutex mutex_;
  libdwfl::Dwfl* dwfl_ = nullptr;
};
#endif  // TVM_FFI_BACKTRACE_HAS_LIBDW

/// Symbolizes one lookup address with the best available source.
FrameInfo ResolveFrame(uintptr_t pc, bool* rebuilt) {
  FrameInfo info;
  ResolveWithDladdr(pc, &info);
#if TVM_FFI_BACKTRACE_HAS_LIBDW
  if (DwflSession* session = DwflSession::Global()) session->Resolve(pc, rebuilt, &info);
#else
  (void)rebuilt;
#endif
  if (info.func.empty()) ResolveWithSymtab(pc, &info);
  return info;
}

/// The TVM_TRACEBACK_LIMIT setting, read once per process.
int TracebackLimit() {
  static const int limit = ParseTracebackLimit(std::getenv("TVM_TRACEBACK_LIMIT"));
  return limit;
}

/// Index of the frame that returns to `return_address`, or pcs.size() when it is missing.
size_t FindCallerFrame(const std::vector<uintptr_t>& pcs, uintptr_t return_address) {
  for (size_t i = 0; i < pcs.size(); ++i) {
    if (pcs[i] == return_address - 1) return i;
  }
  return pcs.size();
}

/// Prints frames from pcs[start] on, applying the skip/stop rules and at most `limit` lines.
void AppendFrames(const std::vector<uintptr_t>& pcs, size_t start, bool cross_ffi_boundary,
                  int limit, std::string* out) {
  bool rebuilt = false;
  int printed = 0;
  for (size_t i = start; i < pcs.size() && printed < limit; ++i) {
    FrameInfo info = ResolveFrame(pcs[i], &rebuilt);
    FrameAction action = ClassifyFrame(info.func, cross_ffi_boundary);
    if (action == FrameAction::kStop) return;
    if (action == FrameAction::kSkip) continue;
    AppendFrameLine(info.file, info.line, info.func, out);
    ++printed;
    if (action == FrameAction::kPrintAndStop) return;
  }
}

/// Builds the whole text into `out`; may throw (e.g. bad_alloc), leaving a partial text.
void BuildBacktrace(uintptr_t return_address, const char* filename, int lineno, const char* func,
                    bool cross_ffi_boundary, std::string* out) {
  bool has_location = filename != nullptr && func != nullptr;
  // A throw inside the FFI's own helpers (a failed conversion) is named by its message.
  if (has_location && !IsFfiInternalFrame(func)) AppendFrameLine(filename, lineno, func, out);
  int limit = TracebackLimit();
  if (limit <= 0) return;
  std::vector<uintptr_t> pcs = CaptureStack(static_cast<size_t>(limit) * 2 + 64);
  size_t start = FindCallerFrame(pcs, return_address) + (has_location ? 1 : 0);
  AppendFrames(pcs, start, cross_ffi_boundary, limit, out);
}

}  // namespace

const char* BacktraceSymbolizer() {
#if TVM_FFI_BACKTRACE_HAS_LIBDW
  if (LibdwApi::Disabled()) return "symbols-only (TVM_FFI_BACKTRACE_LIBDW=0 is set)";
  if (LibdwApi::Get() == nullptr) {
    static const std::string reason =
        std::string("symbols-only (") + LibdwApi::LibraryName() +
        " cannot be loaded: install elfutils' libdw for file:line, e.g. apt install libdw1, "
        "dnf install elfutils-libs or conda install -c conda-forge elfutils)";
    return reason.c_str();
  }
  return "libdw";
#else
  return "symbols-only (built with TVM_FFI_USE_LIBDW=0)";
#endif
}

const char* BuildDebuginfoDir() { return TVM_FFI_BUILD_DEBUGINFO_DIR; }

std::string Demangle(const char* name) {
  if (name[0] != '_' || name[1] != 'Z') return name;
  int status = 0;
  char* demangled = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  if (demangled == nullptr) return name;
  std::string result(demangled);
  std::free(demangled);
  return result;
}

}  // namespace details
}  // namespace ffi
}  // namespace tvm

extern "C" {

__attribute__((noinline)) TVM_FFI_DLL const TVMFFIByteArray* TVMFFIBacktrace(
    const char* filename, int lineno, const char* func, int cross_ffi_boundary) {
  static thread_local std::string text;
  static thread_local TVMFFIByteArray result;
  uintptr_t return_address = reinterpret_cast<uintptr_t>(__builtin_return_address(0));
  std::string built;
  try {
    tvm::ffi::details::BuildBacktrace(return_address, filename, lineno, func,
                                      cross_ffi_boundary != 0, &built);
    // Never let an exception out; keep whatever was built.
  } catch (...) {  // NOLINT(bugprone-empty-catch)
  }
  text.swap(built);
  result.data = text.data();
  result.size = text.size();
  return &result;
}

}  // extern "C"

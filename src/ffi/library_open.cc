// SPDX-License-Identifier: Apache-2.0
// library_open.cc: OpenLibrary, dlopen behind the checks that turn a library this process cannot
// run (damaged, foreign, built for another ABI, with an unresolved symbol) into a clear error.
#include <dlfcn.h>
#include <link.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/module.h>

#include <sstream>
#include <string>

#include "demangle_internal.h"
#include "elf_load_check_internal.h"
#include "module_internal.h"

namespace tvm {
namespace ffi {
namespace {

std::string VersionText(const TVMFFIVersion& version) {
  return std::to_string(version.major) + "." + std::to_string(version.minor) + "." +
         std::to_string(version.patch);
}

/// The releases sharing the ABI of `version`: "0.1.x" in 0.X, "1.x" from 1.0 on.
std::string AbiSeries(const TVMFFIVersion& version) {
  if (version.major == 0) return "0." + std::to_string(version.minor) + ".x";
  return std::to_string(version.major) + ".x";
}

/// Throws LibraryImportError unless a library built against ABI `built` can run here: the
/// major versions must match, and in 0.X the minor ones too (README, "ABI and versioning").
void CheckAbiVersion(const std::string& path, const TVMFFIVersion& built) {
  TVMFFIVersion runtime{TVM_FFI_VERSION_MAJOR, TVM_FFI_VERSION_MINOR, TVM_FFI_VERSION_PATCH};
  if (built.major == runtime.major && (runtime.major != 0 || built.minor == runtime.minor)) return;
  TVM_FFI_THROW(LibraryImportError)
      << "Module::LoadFromFile: failed to load library '" << path
      << "': it was built against tvm-ffi ABI " << VersionText(built) << ", this runtime is "
      << VersionText(runtime) << " (ABI " << AbiSeries(runtime)
      << "); rebuild the library with tvm-ffi " << AbiSeries(runtime)
      << " headers, or load it with a tvm-ffi " << AbiSeries(built) << " runtime";
}

[[noreturn]] void ThrowLoadError(const std::string& path, const std::string& problem) {
  TVM_FFI_THROW(RuntimeError) << "Module::LoadFromFile: failed to load library '" << path
                              << "': " << problem;
  TVM_FFI_UNREACHABLE();
}

/// The ABI version a library declares is read from the file before its code runs, so it must be
/// the constant the export headers define; anything else could bypass the check.
[[noreturn]] void ThrowMisdeclaredAbiVersion(const std::string& path, const std::string& what) {
  TVM_FFI_THROW(LibraryImportError)
      << "Module::LoadFromFile: failed to load library '" << path << "': its ABI version symbol '"
      << symbol::tvm_ffi_abi_version << "' is " << what << "; it must be a constant TVMFFIVersion ("
      << sizeof(TVMFFIVersion) << " bytes) initialized in read-only data, as the tvm-ffi "
      << "headers define it";
  TVM_FFI_UNREACHABLE();
}

/// Checks the file before dlopen runs any of its code. A bare name is searched for by dlopen
/// on the library path, so only paths are checked; unreadable files are left to dlopen too.
/// Returns whether the file's ABI version (or its absence) was established.
bool CheckLibraryFile(const std::string& path) {
  if (path.find('/') == std::string::npos) return false;
  details::MappedFile file(path.c_str());
  if (file.empty()) return false;
  std::string problem = details::ElfLoadProblem(file.view());
  if (!problem.empty()) ThrowLoadError(path, problem);
  TVMFFIVersion built{};
  std::string misdeclared;
  details::ElfObjectRead read = details::ReadElfDynamicObject(
      file.view(), symbol::tvm_ffi_abi_version, &built, sizeof(built), &misdeclared);
  if (read == details::ElfObjectRead::kMisdeclared) ThrowMisdeclaredAbiVersion(path, misdeclared);
  if (read == details::ElfObjectRead::kRead) CheckAbiVersion(path, built);
  return read != details::ElfObjectRead::kNoSymbols;
}

/// After dlopen, for files whose symbols could not be read: the ABI version the library itself
/// exports (not one found in a library it depends on).
void CheckLoadedAbiVersion(const std::string& path, void* handle) {
  void* address = dlsym(handle, symbol::tvm_ffi_abi_version);
  struct link_map* own = nullptr;
  struct link_map* owner = nullptr;
  ElfW(Sym)* entry = nullptr;
  Dl_info info{};
  if (address == nullptr || dlinfo(handle, RTLD_DI_LINKMAP, &own) != 0 ||
      dladdr1(address, &info, reinterpret_cast<void**>(&owner), RTLD_DL_LINKMAP) == 0 ||
      dladdr1(address, &info, reinterpret_cast<void**>(&entry), RTLD_DL_SYMENT) == 0 ||
      owner != own || entry == nullptr) {
    return;
  }
  std::string misdeclared =
      details::ElfObjectKindProblem(entry->st_info, entry->st_size, sizeof(TVMFFIVersion));
  if (!misdeclared.empty()) ThrowMisdeclaredAbiVersion(path, misdeclared);
  CheckAbiVersion(path, *static_cast<const TVMFFIVersion*>(address));
}

/// dlopen's message, with an unresolved symbol spelled out (and demangled).
std::string DescribeDlopenError(const std::string& message) {
  const std::string marker = ": undefined symbol: ";
  size_t at = message.find(marker);
  if (at == std::string::npos) return message;
  std::string needed_by = message.substr(0, at);
  std::string name = message.substr(at + marker.size());
  std::string version;
  size_t comma = name.find(", version ");
  if (comma != std::string::npos) {
    version = name.substr(comma + 10);
    name = name.substr(0, comma);
  }
  std::string demangled = details::Demangle(name.c_str());
  std::ostringstream os;
  os << "undefined symbol '" << demangled << "'";
  if (demangled != name) os << " (" << name << ")";
  if (!version.empty()) os << " of version " << version;
  os << ", needed by '" << needed_by
     << "': no library loaded in this process defines it; link the library that does";
  return os.str();
}

}  // namespace

void* OpenLibrary(const std::string& path) {
  bool checked = CheckLibraryFile(path);
  // RTLD_NOW: an unresolved symbol fails here, not as a process exit at the first call.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    // Copied first: building the error's backtrace may call dlopen, which frees this text.
    const char* error = dlerror();
    ThrowLoadError(path, error != nullptr ? DescribeDlopenError(error) : "unknown dlopen error");
  }
  // Refused this late, the library stays loaded: its initializers have run.
  if (!checked) CheckLoadedAbiVersion(path, handle);
  return handle;
}

}  // namespace ffi
}  // namespace tvm

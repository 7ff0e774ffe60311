// SPDX-License-Identifier: Apache-2.0
// library_module.cc: modules backed by a dlopen'ed shared library that exports
// `__tvm_ffi_<name>` symbols, context symbols written into loaded libraries, and the embedded
// `__tvm_ffi__library_bin` import tree.
#include <dlfcn.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/extra/module.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/reflection/registry.h>

#include <cstdint>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "module_internal.h"

namespace tvm {
namespace ffi {
namespace {

/// Names and values registered with TVMFFIEnvModRegisterContextSymbol.
struct ContextSymbols {
  std::mutex mutex;
  std::vector<std::pair<std::string, void*>> entries;

  std::vector<std::pair<std::string, void*>> Snapshot() {
    std::lock_guard<std::mutex> lock(mutex);
    return entries;
  }
};

ContextSymbols& GlobalContextSymbols() {
  static ContextSymbols* symbols = new ContextSymbols();
  return *symbols;
}

/// The live library modules, so that error messages can name a module by its file.
struct LiveLibraries {
  std::mutex mutex;
  std::unordered_map<const ModuleObj*, std::string> paths;

  static LiveLibraries& Global() {
    static LiveLibraries* libraries = new LiveLibraries();  // modules may outlive statics
    return *libraries;
  }
};

/// Whether `symbol_name` is one of the data symbols in the `__tvm_ffi_` namespace, which
/// function lookups must never return.
bool IsDataSymbol(const std::string& symbol_name) {
  for (const char* data :
       {symbol::tvm_ffi_library_ctx, symbol::tvm_ffi_library_bin, symbol::tvm_ffi_abi_version}) {
    if (symbol_name == data) return true;
  }
  return false;
}

/// A module over a dlopen handle. The handle is never closed: objects and functions made by
/// the library may outlive every reference to the module, and their code must stay mapped.
class LibraryModuleObj : public ModuleObj {
 public:
  LibraryModuleObj(void* handle, std::string path) : handle_(handle) {
    LiveLibraries& live = LiveLibraries::Global();
    std::lock_guard<std::mutex> lock(live.mutex);
    live.paths[this] = std::move(path);
  }
  ~LibraryModuleObj() {
    // The library must not reach this module through its context once it is gone.
    void** ctx = static_cast<void**>(Symbol(symbol::tvm_ffi_library_ctx));
    if (ctx != nullptr && *ctx == static_cast<ModuleObj*>(this)) *ctx = nullptr;
    LiveLibraries& live = LiveLibraries::Global();
    std::lock_guard<std::mutex> lock(live.mutex);
    live.paths.erase(this);
  }

  const char* kind() const final { return "library"; }
  int GetPropertyMask() const final { return Module::kBinarySerializable | Module::kRunnable; }

  Optional<Function> GetFunction(const String& name) final {
    TVMFFISafeCallType symbol = FindFunction(symbol::tvm_ffi_symbol_prefix, name);
    if (symbol == nullptr) return std::nullopt;
    return MakeSymbolFunction(symbol, GetRef<Module>(this));
  }
  bool ImplementsFunction(const String& name) final {
    return FindFunction(symbol::tvm_ffi_symbol_prefix, name) != nullptr;
  }
  Optional<String> GetFunctionDoc(const String& name) final {
    return CallOptionalStringSymbol(symbol::tvm_ffi_doc_prefix, name);
  }
  Optional<String> GetFunctionMetadata(const String& name) final {
    return CallOptionalStringSymbol(symbol::tvm_ffi_metadata_prefix, name);
  }

  void* Symbol(const char* name) const { return dlsym(handle_, name); }

 private:
  TVMFFISafeCallType FindFunction(const char* prefix, const String& name) const {
    std::string symbol_name = std::string(prefix) + std::string(name);
    if (IsDataSymbol(symbol_name)) return nullptr;
    return reinterpret_cast<TVMFFISafeCallType>(Symbol(symbol_name.c_str()));
  }
  Optional<String> CallOptionalStringSymbol(const char* prefix, const String& name) const {
    TVMFFISafeCallType symbol = FindFunction(prefix, name);
    if (symbol == nullptr) return std::nullopt;
    return CallStringSymbol(symbol);
  }

  void* handle_;
};

void WriteContextSymbols(void* handle) {
  for (const auto& [name, value] : GlobalContextSymbols().Snapshot()) {
    if (void** slot = static_cast<void**>(dlsym(handle, name.c_str()))) *slot = value;
  }
}

/// The module each library (dlopen handle) was loaded as, while something keeps it alive.
/// Loading the library again returns it: its imports and the library's context stay those of
/// the one module, and pinning it again pins nothing new.
class LoadedModules {
 public:
  static LoadedModules& Global() {
    static LoadedModules* modules = new LoadedModules();  // modules may outlive statics
    return *modules;
  }

  std::optional<Module> Find(void* handle) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = modules_.find(handle);
    if (found == modules_.end()) return std::nullopt;
    ObjectPtr<ModuleObj> module = found->second.lock();
    if (module == nullptr) return std::nullopt;
    return Module(module);
  }

  /// Records `module` for `handle`; returns the live module another thread recorded
  /// meanwhile instead, if any.
  Module Add(void* handle, const Module& module) {
    std::lock_guard<std::mutex> lock(mutex_);
    WeakObjectPtr<ModuleObj>& slot = modules_[handle];
    if (ObjectPtr<ModuleObj> existing = slot.lock()) return Module(existing);
    slot = GetObjectPtr<ModuleObj>(module.get());
    return module;
  }

 private:
  std::mutex mutex_;
  std::unordered_map<void*, WeakObjectPtr<ModuleObj>> modules_;
};

/// Reader of the little-endian u64 fields of `__tvm_ffi__library_bin`.
class BinReader {
 public:
  BinReader(const char* data, uint64_t size) : data_(data), size_(size) {}

  uint64_t U64() {
    Require(8);
    uint64_t value = 0;
    for (size_t i = 8; i-- > 0;) value = (value << 8) | static_cast<unsigned char>(data_[pos_ + i]);
    pos_ += 8;
    return value;
  }
  std::vector<uint64_t> U64Vector() {
    uint64_t count = U64();
    Require(count * 8);
    std::vector<uint64_t> values(count);
    for (uint64_t& value : values) value = U64();
    return values;
  }
  std::string Text() {
    uint64_t length = U64();
    Require(length);
    std::string text(data_ + pos_, length);
    pos_ += length;
    return text;
  }

 private:
  void Require(uint64_t n) const {
    if (n > size_ - pos_) {
      TVM_FFI_THROW(ValueError) << "Module::LoadFromFile: malformed " << symbol::tvm_ffi_library_bin
                                << ": truncated at byte " << pos_;
    }
  }

  const char* data_;
  uint64_t size_;
  uint64_t pos_ = 0;
};

Module ModuleFromBytes(const std::string& kind, const std::string& payload) {
  std::string loader_name = "ffi.Module.load_from_bytes." + kind;
  std::optional<Function> loader = Function::GetGlobal(loader_name);
  if (!loader.has_value()) {
    TVM_FFI_THROW(RuntimeError) << "Module::LoadFromFile: the library embeds a module of kind '"
                                << kind << "' but no loader is registered as " << loader_name;
  }
  return (*loader)(Bytes(payload)).cast<Module>();
}

/// Rebuilds the import tree of `__tvm_ffi__library_bin`; returns the root module.
Module ModuleFromLibraryBin(const char* bin, const Module& library) {
  uint64_t nbytes = 0;
  std::memcpy(&nbytes, bin, sizeof(nbytes));
  BinReader reader(bin + sizeof(nbytes), nbytes);
  std::vector<uint64_t> indptr = reader.U64Vector();
  std::vector<uint64_t> children = reader.U64Vector();
  if (indptr.empty()) return library;
  std::vector<Module> modules;
  for (size_t i = 0; i + 1 < indptr.size(); ++i) {
    std::string kind = reader.Text();
    modules.push_back(kind == "_lib" ? library : ModuleFromBytes(kind, reader.Text()));
  }
  for (size_t i = 0; i < modules.size(); ++i) {
    if (indptr[i] > indptr[i + 1] || indptr[i + 1] > children.size()) {
      TVM_FFI_THROW(ValueError) << "Module::LoadFromFile: malformed " << symbol::tvm_ffi_library_bin
                                << ": bad indptr";
    }
    for (uint64_t k = indptr[i]; k < indptr[i + 1]; ++k) {
      if (children[k] >= modules.size()) {
        TVM_FFI_THROW(ValueError) << "Module::LoadFromFile: malformed "
                                  << symbol::tvm_ffi_library_bin << ": import index " << children[k]
                                  << " out of range";
      }
      modules[i]->ImportModule(modules[children[k]]);
    }
  }
  if (modules.empty()) return library;
  return modules[0];
}

Module LoadLibraryModule(const String& path) {
  void* handle = OpenLibrary(std::string(path));
  WriteContextSymbols(handle);
  if (std::optional<Module> loaded = LoadedModules::Global().Find(handle)) return *loaded;
  ObjectPtr<LibraryModuleObj> library = make_object<LibraryModuleObj>(handle, std::string(path));
  Module library_module(library);
  const char* bin = static_cast<const char*>(library->Symbol(symbol::tvm_ffi_library_bin));
  Module root = bin != nullptr ? ModuleFromLibraryBin(bin, library_module) : library_module;
  Module loaded = LoadedModules::Global().Add(handle, root);
  if (!loaded.same_as(root)) return loaded;
  if (void** ctx = static_cast<void**>(library->Symbol(symbol::tvm_ffi_library_ctx))) {
    *ctx = static_cast<ModuleObj*>(library.get());
  }
  return root;
}

}  // namespace

std::string DescribeModule(const ModuleObj* module) {
  LiveLibraries& live = LiveLibraries::Global();
  {
    std::lock_guard<std::mutex> lock(live.mutex);
    auto found = live.paths.find(module);
    if (found != live.paths.end()) return "library '" + found->second + "'";
  }
  return "'" + std::string(module->kind()) + "' module";
}

void Module::VisitContextSymbols(const TypedFunction<void(String, void*)>& callback) {
  for (const auto& [name, value] : GlobalContextSymbols().Snapshot()) callback(name, value);
}

TVM_FFI_STATIC_INIT_BLOCK() {
  reflection::GlobalDef().def("ffi.Module.load_from_file.so", [](String path, String format) {
    (void)format;
    return LoadLibraryModule(path);
  });
}

}  // namespace ffi
}  // namespace tvm

extern "C" int TVMFFIEnvModRegisterContextSymbol(const char* name, void* symbol) {
  using namespace tvm::ffi;  // NOLINT(build/namespaces)
  TVM_FFI_SAFE_CALL_BEGIN();
  if (name == nullptr)
    TVM_FFI_THROW(ValueError) << "TVMFFIEnvModRegisterContextSymbol(): the name is NULL";
  ContextSymbols& symbols = GlobalContextSymbols();
  std::lock_guard<std::mutex> lock(symbols.mutex);
  for (auto& entry : symbols.entries) {
    if (entry.first == name) {
      entry.second = symbol;
      return 0;
    }
  }
  symbols.entries.emplace_back(name, symbol);
  TVM_FFI_SAFE_CALL_END();
}

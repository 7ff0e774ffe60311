// SPDX-License-Identifier: Apache-2.0
// system_lib.cc: the system library, a module over `__tvm_ffi_*` symbols that statically
// linked code registers with TVMFFIEnvModRegisterSystemLibSymbol.
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/extra/module.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/reflection/registry.h>

#include <cstdio>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

#include "module_internal.h"

namespace tvm {
namespace ffi {
namespace {

/// Process-wide symbol table; never destroyed, as static initializers of any library use it.
struct SystemLibSymbols {
  std::mutex mutex;
  std::unordered_map<std::string, void*> symbols;

  void Register(const std::string& name, void* address) {
    std::lock_guard<std::mutex> lock(mutex);
    auto [it, inserted] = symbols.emplace(name, address);
    if (!inserted && it->second != address) {
      std::fprintf(stderr,
                   "tvm_ffi: warning: system library symbol %s registered twice with "
                   "different addresses; keeping the latest\n",
                   name.c_str());
      it->second = address;
    }
  }
  void* Find(const std::string& name) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = symbols.find(name);
    return it == symbols.end() ? nullptr : it->second;
  }
};

SystemLibSymbols& GlobalSystemLibSymbols() {
  static SystemLibSymbols* table = new SystemLibSymbols();
  return *table;
}

class SystemLibModuleObj : public ModuleObj {
 public:
  explicit SystemLibModuleObj(std::string prefix) : prefix_(std::move(prefix)) {}

  const char* kind() const final { return "library"; }
  int GetPropertyMask() const final { return Module::kRunnable; }

  Optional<Function> GetFunction(const String& name) final {
    TVMFFISafeCallType symbol = Find(symbol::tvm_ffi_symbol_prefix, name);
    if (symbol == nullptr) return std::nullopt;
    return MakeSymbolFunction(symbol, GetRef<Module>(this));
  }
  bool ImplementsFunction(const String& name) final {
    return Find(symbol::tvm_ffi_symbol_prefix, name) != nullptr;
  }
  Optional<String> GetFunctionDoc(const String& name) final {
    TVMFFISafeCallType symbol = Find(symbol::tvm_ffi_doc_prefix, name);
    return symbol != nullptr ? CallStringSymbol(symbol) : Optional<String>();
  }
  Optional<String> GetFunctionMetadata(const String& name) final {
    TVMFFISafeCallType symbol = Find(symbol::tvm_ffi_metadata_prefix, name);
    return symbol != nullptr ? CallStringSymbol(symbol) : Optional<String>();
  }

 private:
  /// `<kind prefix><module prefix><name>` first, then `<kind prefix><name>`.
  TVMFFISafeCallType Find(const char* kind_prefix, const String& name) const {
    SystemLibSymbols& table = GlobalSystemLibSymbols();
    void* address = table.Find(kind_prefix + prefix_ + std::string(name));
    if (address == nullptr) address = table.Find(kind_prefix + std::string(name));
    return reinterpret_cast<TVMFFISafeCallType>(address);
  }

  std::string prefix_;
};

Module SystemLib(const std::string& prefix) {
  static std::mutex* mutex = new std::mutex();
  static auto* modules = new std::unordered_map<std::string, Module>();
  std::lock_guard<std::mutex> lock(*mutex);
  auto it = modules->find(prefix);
  if (it == modules->end()) {
    it = modules->emplace(prefix, Module(make_object<SystemLibModuleObj>(prefix))).first;
  }
  return it->second;
}

}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  reflection::GlobalDef().def_packed("ffi.SystemLib", [](PackedArgs args, Any* rv) {
    if (args.size() > 1) {
      TVM_FFI_THROW(TypeError) << "ffi.SystemLib(): expected at most 1 argument (the prefix), got "
                               << args.size();
    }
    *rv = SystemLib(args.size() == 0 ? std::string() : std::string(args[0].cast<String>()));
  });
}

}  // namespace ffi
}  // namespace tvm

extern "C" int TVMFFIEnvModRegisterSystemLibSymbol(const char* name, void* symbol) {
  if (name != nullptr) tvm::ffi::GlobalSystemLibSymbols().Register(name, symbol);
  return 0;
}

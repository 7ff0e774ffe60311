// SPDX-License-Identifier: Apache-2.0
// module.cc: ModuleObj lookups through imports, Module::LoadFromFile, the process-wide list of
// pinned modules, TVMFFIEnvModLookupFromImports and the ffi.Module* global functions.
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/extra/module.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>

#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {

void ModuleObj::ImportModule(const Module& other) {
  imports_.push_back(other);
  import_lookup_cache_ = Map<String, Function>();
}

void ModuleObj::ClearImports() {
  imports_ = Array<Any>();
  import_lookup_cache_ = Map<String, Function>();
}

namespace {

/// Depth-first search of `visit` through `module` (optional) and its imports.
template <typename T, typename Visit>
Optional<T> SearchImports(ModuleObj* module, bool include_self, const Visit& visit) {
  if (include_self) {
    if (Optional<T> found = visit(module)) return found;
  }
  for (const Any& item : module->imports()) {
    Module imported = item.cast<Module>();
    if (Optional<T> found = SearchImports<T>(imported.get(), true, visit)) return found;
  }
  return std::nullopt;
}

}  // namespace

Optional<Function> ModuleObj::GetFunction(const String& name, bool query_imports) {
  if (!query_imports) return GetFunction(name);
  return SearchImports<Function>(this, true,
                                 [&](ModuleObj* module) { return module->GetFunction(name); });
}

bool ModuleObj::ImplementsFunction(const String& name, bool query_imports) {
  if (ImplementsFunction(name)) return true;
  if (!query_imports) return false;
  for (const Any& item : imports_) {
    if (item.cast<Module>()->ImplementsFunction(name, true)) return true;
  }
  return false;
}

Optional<String> ModuleObj::GetFunctionDoc(const String& name, bool query_imports) {
  if (!query_imports) return GetFunctionDoc(name);
  return SearchImports<String>(this, true,
                               [&](ModuleObj* module) { return module->GetFunctionDoc(name); });
}

Optional<String> ModuleObj::GetFunctionMetadata(const String& name, bool query_imports) {
  if (!query_imports) return GetFunctionMetadata(name);
  return SearchImports<String>(
      this, true, [&](ModuleObj* module) { return module->GetFunctionMetadata(name); });
}

/// The runtime's access to a module's import lookup cache.
struct ModuleObj::InternalUnsafe {
  /// Lookup through the imports, then the global registry, cached in the module.
  static Optional<Function> LookupInImportsCached(ModuleObj* module, const String& name) {
    auto cached = module->import_lookup_cache_.find(name);
    if (cached != module->import_lookup_cache_.end()) return (*cached).second;
    Optional<Function> found = SearchImports<Function>(
        module, false, [&](ModuleObj* item) { return item->GetFunction(name); });
    if (!found.has_value()) {
      if (std::optional<Function> global = Function::GetGlobal(std::string(name))) found = *global;
    }
    if (found.has_value()) module->import_lookup_cache_.Set(name, *found);
    return found;
  }
};

Module Module::LoadFromFile(const String& file_name) {
  std::string path = file_name;
  size_t dot = path.rfind('.');
  size_t slash = path.rfind('/');
  std::string ext = dot == std::string::npos || (slash != std::string::npos && dot < slash)
                        ? std::string("so")
                        : path.substr(dot + 1);
  if (ext == "dll" || ext == "dylib" || ext == "dso") ext = "so";
  std::string loader_name = "ffi.Module.load_from_file." + ext;
  std::optional<Function> loader = Function::GetGlobal(loader_name);
  if (!loader.has_value()) {
    TVM_FFI_THROW(RuntimeError) << "Cannot load '" << file_name << "': no loader registered as "
                                << loader_name;
  }
  return (*loader)(file_name, ext).cast<Module>();
}

namespace {

/// Modules pinned for the life of the process by ffi.ModuleGlobalsAdd.
struct PinnedModules {
  std::mutex mutex;
  std::vector<Module> modules;

  void Add(Module module) {
    std::lock_guard<std::mutex> lock(mutex);
    modules.push_back(std::move(module));
  }
  void Remove(const Module& module) {
    std::optional<Module> removed;  // declared before the lock: destroyed after it
    std::lock_guard<std::mutex> lock(mutex);
    for (auto it = modules.begin(); it != modules.end(); ++it) {
      if (it->same_as(module)) {
        removed = std::move(*it);
        modules.erase(it);
        return;
      }
    }
  }
};

PinnedModules& Pinned() {
  // Never destroyed: modules may still be in use while other statics are torn down.
  static PinnedModules* pinned = new PinnedModules();
  return *pinned;
}

}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = reflection;
  refl::ObjectDef<ModuleObj>().def_ro("imports_", &ModuleObj::imports_);
  refl::GlobalDef()
      .def("ffi.ModuleLoadFromFile", &Module::LoadFromFile)
      .def("ffi.ModuleGetFunction",
           [](Module mod, String name, bool query_imports) {
             return mod->GetFunction(name, query_imports);
           })
      .def("ffi.ModuleImplementsFunction",
           [](Module mod, String name, bool query_imports) {
             return mod->ImplementsFunction(name, query_imports);
           })
      .def("ffi.ModuleGetFunctionDoc",
           [](Module mod, String name, bool query_imports) {
             return mod->GetFunctionDoc(name, query_imports);
           })
      .def("ffi.ModuleGetFunctionMetadata",
           [](Module mod, String name, bool query_imports) {
             return mod->GetFunctionMetadata(name, query_imports);
           })
      .def("ffi.ModuleGetKind", [](Module mod) { return String(mod->kind()); })
      .def("ffi.ModuleGetPropertyMask", [](Module mod) { return mod->GetPropertyMask(); })
      .def("ffi.ModuleGetWriteFormats", [](Module mod) { return mod->GetWriteFormats(); })
      .def("ffi.ModuleInspectSource",
           [](Module mod, String format) { return mod->InspectSource(format); })
      .def("ffi.ModuleWriteToFile",
           [](Module mod, String file_name, String format) { mod->WriteToFile(file_name, format); })
      .def("ffi.ModuleImportModule", [](Module mod, Module other) { mod->ImportModule(other); })
      .def("ffi.ModuleClearImports", [](Module mod) { mod->ClearImports(); })
      .def("ffi.ModuleGlobalsAdd", [](Module mod) { Pinned().Add(std::move(mod)); })
      .def("ffi.ModuleGlobalsRemove", [](Module mod) { Pinned().Remove(mod); });
}

}  // namespace ffi
}  // namespace tvm

extern "C" int TVMFFIEnvModLookupFromImports(TVMFFIObjectHandle library_ctx, const char* func_name,
                                             TVMFFIObjectHandle* out) {
  using namespace tvm::ffi;  // NOLINT(build/namespaces)
  TVM_FFI_SAFE_CALL_BEGIN();
  if (library_ctx == nullptr || func_name == nullptr) {
    TVM_FFI_THROW(ValueError) << "TVMFFIEnvModLookupFromImports: NULL library context or name";
  }
  // The loader writes the ModuleObj address (not a handle) into __tvm_ffi__library_ctx.
  ModuleObj* module = static_cast<ModuleObj*>(library_ctx);
  Optional<Function> found =
      ModuleObj::InternalUnsafe::LookupInImportsCached(module, String(func_name));
  if (!found.has_value()) {
    TVM_FFI_THROW(RuntimeError) << "Cannot find function '" << func_name
                                << "' in the imports of the module or the global registry";
  }
  // Borrowed: the module's lookup cache keeps the function alive.
  *out = details::ObjectUnsafe::GetHeader(*found);
  TVM_FFI_SAFE_CALL_END();
}

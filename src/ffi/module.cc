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
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "module_internal.h"

namespace tvm {
namespace ffi {

namespace {

/// Depth-first, preorder search of `visit` through `module` (optional) and its imports, each
/// module visited once: a module imported along several paths, or a cycle in the imports, costs
/// nothing more. Iterative, so a long chain of imports cannot exhaust the stack. `visit` returns
/// an optional value; the first one set is the result.
template <typename Visit>
auto SearchImports(ModuleObj* module, bool include_self, const Visit& visit)
    -> decltype(visit(module)) {
  std::vector<Module> pending{GetRef<Module>(module)};
  std::unordered_set<const ModuleObj*> seen{module};
  while (!pending.empty()) {
    Module current = std::move(pending.back());
    pending.pop_back();
    if (current.get() != module || include_self) {
      if (auto found = visit(current.get())) return found;
    }
    const Array<Any>& imports = current->imports();
    for (auto it = imports.rbegin(); it != imports.rend(); ++it) {
      Module imported = (*it).cast<Module>();
      if (seen.insert(imported.get()).second) pending.push_back(std::move(imported));
    }
  }
  return std::nullopt;
}

/// The import chain from `from` down to `to` ("a -> b -> c"), or "" when `to` is not
/// reachable through the imports of `from`.
std::string ImportPath(const ModuleObj* from, const ModuleObj* to) {
  std::unordered_map<const ModuleObj*, const ModuleObj*> parent{{from, nullptr}};
  std::vector<const ModuleObj*> pending{from};
  while (!pending.empty() && parent.count(to) == 0) {
    const ModuleObj* current = pending.back();
    pending.pop_back();
    for (const Any& item : current->imports()) {
      const ModuleObj* imported = item.cast<Module>().get();  // kept alive by `imports`
      if (parent.emplace(imported, current).second) pending.push_back(imported);
    }
  }
  if (parent.count(to) == 0) return "";
  std::vector<const ModuleObj*> chain;
  for (const ModuleObj* at = to; at != nullptr; at = parent[at]) chain.push_back(at);
  std::string text;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    text += (text.empty() ? "" : " -> ") + DescribeModule(*it);
  }
  return text;
}

}  // namespace

void ModuleObj::ImportModule(const Module& other) {
  if (other.get() == this) {
    TVM_FFI_THROW(RuntimeError) << "Cyclic dependency detected during import: cannot import "
                                << DescribeModule(this) << " into itself";
  }
  std::string path_back = ImportPath(other.get(), this);
  if (!path_back.empty()) {
    TVM_FFI_THROW(RuntimeError) << "Cyclic dependency detected during import: importing "
                                << DescribeModule(other.get()) << " into " << DescribeModule(this)
                                << " would make the cycle " << DescribeModule(this) << " -> "
                                << path_back;
  }
  imports_.push_back(other);
  import_lookup_cache_ = Map<String, Function>();
}

void ModuleObj::ClearImports() {
  imports_ = Array<Any>();
  import_lookup_cache_ = Map<String, Function>();
}

Optional<Function> ModuleObj::GetFunction(const String& name, bool query_imports) {
  if (!query_imports) return GetFunction(name);
  return SearchImports(this, true, [&](ModuleObj* module) { return module->GetFunction(name); });
}

bool ModuleObj::ImplementsFunction(const String& name, bool query_imports) {
  if (!query_imports) return ImplementsFunction(name);
  auto implements = [&](ModuleObj* module) -> std::optional<bool> {
    if (module->ImplementsFunction(name)) return true;
    return std::nullopt;
  };
  return SearchImports(this, true, implements).has_value();
}

Optional<String> ModuleObj::GetFunctionDoc(const String& name, bool query_imports) {
  if (!query_imports) return GetFunctionDoc(name);
  return SearchImports(this, true, [&](ModuleObj* module) { return module->GetFunctionDoc(name); });
}

Optional<String> ModuleObj::GetFunctionMetadata(const String& name, bool query_imports) {
  if (!query_imports) return GetFunctionMetadata(name);
  return SearchImports(this, true,
                       [&](ModuleObj* module) { return module->GetFunctionMetadata(name); });
}

/// The runtime's access to a module's import lookup cache.
struct ModuleObj::InternalUnsafe {
  /// Lookup through the imports, then the global registry, cached in the module.
  static Optional<Function> LookupInImportsCached(ModuleObj* module, const String& name) {
    auto cached = module->import_lookup_cache_.find(name);
    if (cached != module->import_lookup_cache_.end()) return (*cached).second;
    Optional<Function> found =
        SearchImports(module, false, [&](ModuleObj* item) { return item->GetFunction(name); });
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
    TVM_FFI_THROW(RuntimeError) << "Module::LoadFromFile: cannot load '" << file_name
                                << "': no loader registered as " << loader_name;
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
    for (const Module& pinned : modules) {
      if (pinned.same_as(module)) return;  // loading a library again returns its module
    }
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
    TVM_FFI_THROW(ValueError)
        << "TVMFFIEnvModLookupFromImports(): the library context or the name is NULL";
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

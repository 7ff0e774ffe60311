// SPDX-License-Identifier: Apache-2.0
// extra/module.h: Module (index 73), a named collection of functions such as a loaded shared
// library, with imports searched for functions the module itself lacks.
#ifndef TVM_FFI_EXTRA_MODULE_H_
#define TVM_FFI_EXTRA_MODULE_H_

#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/extra/base.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>

#include <cstdint>

namespace tvm {
namespace ffi {

class Module;

/// Base of every module. Layout (fixed by the C++ hosts that subclass it): the vtable pointer,
/// then the object header (handle = this + 8), imports at handle + 24 and the import lookup cache
/// at handle + 32. There is no virtual destructor: an object is freed through its header's
/// deleter, which knows the concrete class. The order of the virtual functions is part of the
/// ABI; never add, remove or reorder one.
class TVM_FFI_EXTRA_CXX_API ModuleObj : public Object {
 public:
  /// A short name of the module kind, e.g. "library".
  virtual const char* kind() const = 0;
  /// Bit set of Module::ModulePropertyMask.
  virtual int GetPropertyMask() const { return 0; }
  /// The function `name` of this module itself, or nullopt.
  virtual Optional<Function> GetFunction(const String& name) = 0;
  /// Whether this module itself defines `name`.
  virtual bool ImplementsFunction(const String& name) { return GetFunction(name).has_value(); }
  /// The docstring exported with `name`, if any.
  virtual Optional<String> GetFunctionDoc(const String& name) {
    (void)name;
    return std::nullopt;
  }
  /// The JSON metadata exported with `name`, if any.
  virtual Optional<String> GetFunctionMetadata(const String& name) {
    (void)name;
    return std::nullopt;
  }
  /// Writes the module to a file (unsupported by default).
  virtual void WriteToFile(const String& file_name, const String& format) const {
    TVM_FFI_THROW(RuntimeError) << "Module[" << kind() << "] does not support WriteToFile (file '"
                                << file_name << "', format '" << format << "')";
  }
  /// Formats WriteToFile accepts.
  virtual Array<String> GetWriteFormats() const { return Array<String>(); }
  /// Serializes the module (unsupported by default).
  virtual Bytes SaveToBytes() const {
    TVM_FFI_THROW(RuntimeError) << "Module[" << kind() << "] does not support SaveToBytes";
    TVM_FFI_UNREACHABLE();
  }
  /// Source text kept by the module ("" when there is none).
  virtual String InspectSource(const String& format) const {
    (void)format;
    return String();
  }
  /// Adds `other` to the imports searched by the query_imports lookups.
  virtual void ImportModule(const Module& other);
  /// Removes every import.
  virtual void ClearImports();

  /// Lookup in this module, then (when query_imports) depth-first through the imports.
  Optional<Function> GetFunction(const String& name, bool query_imports);
  /// Whether this module (or, when query_imports, one of its imports) defines `name`.
  bool ImplementsFunction(const String& name, bool query_imports);
  /// The docstring of `name`, searched like GetFunction(name, query_imports).
  Optional<String> GetFunctionDoc(const String& name, bool query_imports);
  /// The metadata of `name`, searched like GetFunction(name, query_imports).
  Optional<String> GetFunctionMetadata(const String& name, bool query_imports);

  /// The imported modules.
  const Array<Any>& imports() const { return imports_; }

  /// Runtime-private access (the cached import lookup behind TVMFFIEnvModLookupFromImports).
  struct InternalUnsafe;

  static constexpr const int32_t _type_index = TypeIndex::kTVMFFIModule;
  static constexpr bool _type_mutable = true;
  static constexpr bool _type_final = true;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFIModule, ModuleObj, Object);

  /// The imported modules. Public for reflection (field "imports_"); change only through
  /// ImportModule/ClearImports.
  Array<Any> imports_;

 private:
  friend struct InternalUnsafe;
  Map<String, Function> import_lookup_cache_;
};

/// Reference to a module (not nullable).
class Module : public ObjectRef {
 public:
  /// Property bits reported by ModuleObj::GetPropertyMask.
  enum ModulePropertyMask : int {
    /// The module can be saved to bytes and loaded back.
    kBinarySerializable = 0b001,
    /// The module's functions can be called.
    kRunnable = 0b010,
    /// The module can be exported into a library by compiling it (e.g. as generated source).
    kCompilationExportable = 0b100,
  };
  /// The module of ptr.
  explicit Module(const ObjectPtr<ModuleObj>& ptr) : ObjectRef(ptr) {}
  /// Loads a shared library (or another format registered as `ffi.Module.load_from_file.<ext>`).
  TVM_FFI_EXTRA_CXX_API static Module LoadFromFile(const String& file_name);
  /// Calls `callback(name, value)` for every registered context symbol.
  TVM_FFI_EXTRA_CXX_API static void VisitContextSymbols(
      const TypedFunction<void(String, void*)>& callback);
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(Module, ObjectRef, ModuleObj);
};

/// Names of the symbols of the library-module convention.
namespace symbol {
/// Prefix of exported functions: `__tvm_ffi_<name>`.
constexpr const char* tvm_ffi_symbol_prefix = "__tvm_ffi_";
/// The default entry point.
constexpr const char* tvm_ffi_main = "__tvm_ffi_main";
/// Variable the loader fills with an opaque module pointer.
constexpr const char* tvm_ffi_library_ctx = "__tvm_ffi__library_ctx";
/// Embedded description of a composite module.
constexpr const char* tvm_ffi_library_bin = "__tvm_ffi__library_bin";
/// The TVMFFIVersion of the headers a library was built with (see function_export.h).
constexpr const char* tvm_ffi_abi_version = "__tvm_ffi__abi_version";
/// Prefix of the metadata functions: `__tvm_ffi__metadata_<name>`.
constexpr const char* tvm_ffi_metadata_prefix = "__tvm_ffi__metadata_";
/// Prefix of the docstring functions: `__tvm_ffi__doc_<name>`.
constexpr const char* tvm_ffi_doc_prefix = "__tvm_ffi__doc_";
}  // namespace symbol

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_EXTRA_MODULE_H_

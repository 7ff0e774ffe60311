// SPDX-License-Identifier: Apache-2.0
// function_export.h: macros exporting typed C++ functions as __tvm_ffi_<name> C symbols.
#ifndef TVM_FFI_FUNCTION_EXPORT_H_
#define TVM_FFI_FUNCTION_EXPORT_H_

#include <tvm/ffi/function.h>

#include <string>
#include <string_view>

/// When nonzero (the default), each export also gets a metadata symbol (its type schema, which
/// gives Python its signature) and TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC a doc symbol. Define it to
/// 0 before the first include to export the bare functions only (Apache TVM FFI's default).
#ifndef TVM_FFI_DLL_EXPORT_INCLUDE_METADATA
#define TVM_FFI_DLL_EXPORT_INCLUDE_METADATA 1
#endif

#ifndef _WIN32
/// The ABI version of the headers a library was compiled with, read by the loader
/// (Module::LoadFromFile, tvm_ffi.load_module) before it runs any of the library's code: it
/// refuses a library whose version the runtime cannot serve. Weak, so that one definition
/// remains however many files of the library include this header.
// NOLINTNEXTLINE(misc-definitions-in-headers): weak, one definition per library as said above
extern "C" TVM_FFI_DLL_EXPORT TVM_FFI_WEAK const TVMFFIVersion __tvm_ffi__abi_version = {
    TVM_FFI_VERSION_MAJOR, TVM_FFI_VERSION_MINOR, TVM_FFI_VERSION_PATCH};
#endif

namespace tvm {
namespace ffi {
namespace details {

/// Writes text as an owning string cell into result (through the C API).
inline int ReturnStringCell(std::string_view text, TVMFFIAny* result) {
  TVMFFIByteArray arr{text.data(), text.size()};
  return TVMFFIStringFromByteArray(&arr, result);
}

/// The metadata JSON of an exported typed function: {"type_schema":"<escaped schema>"}.
template <typename F>
inline std::string ExportMetadataJSON() {
  String schema(FunctionInfo<F>::TypeSchema());
  return "{\"type_schema\":" + std::string(EscapeStringJSON(schema)) + "}";
}

}  // namespace details
}  // namespace ffi
}  // namespace tvm

#define TVM_FFI_DLL_EXPORT_TYPED_FUNC_IMPL_(ExportName, Function)                      \
  extern "C" {                                                                         \
  TVM_FFI_DLL_EXPORT int __tvm_ffi_##ExportName(void* self, const TVMFFIAny* args,     \
                                                int32_t num_args, TVMFFIAny* result) { \
    (void)self;                                                                        \
    TVM_FFI_SAFE_CALL_BEGIN();                                                         \
    using FuncInfo = ::tvm::ffi::details::FunctionInfo<decltype(Function)>;            \
    static const std::string name = #ExportName;                                       \
    ::tvm::ffi::details::unpack_call<typename FuncInfo::RetType>(                      \
        std::make_index_sequence<FuncInfo::num_args>{}, &name, Function,               \
        reinterpret_cast<const ::tvm::ffi::AnyView*>(args), num_args,                  \
        reinterpret_cast<::tvm::ffi::Any*>(result));                                   \
    TVM_FFI_SAFE_CALL_END();                                                           \
  }                                                                                    \
  }

#if TVM_FFI_DLL_EXPORT_INCLUDE_METADATA
#define TVM_FFI_DLL_EXPORT_TYPED_FUNC_METADATA_(ExportName, Function)                              \
  extern "C" {                                                                                     \
  TVM_FFI_DLL_EXPORT int __tvm_ffi__metadata_##ExportName(void* self, const TVMFFIAny* args,       \
                                                          int32_t num_args, TVMFFIAny* result) {   \
    (void)self;                                                                                    \
    (void)args;                                                                                    \
    (void)num_args;                                                                                \
    TVM_FFI_SAFE_CALL_BEGIN();                                                                     \
    static const std::string json = ::tvm::ffi::details::ExportMetadataJSON<decltype(Function)>(); \
    return ::tvm::ffi::details::ReturnStringCell(json, result);                                    \
    TVM_FFI_SAFE_CALL_END();                                                                       \
  }                                                                                                \
  }
/// Exports a docstring for ExportName as __tvm_ffi__doc_<ExportName>.
#define TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC(ExportName, DocString)                            \
  extern "C" {                                                                              \
  TVM_FFI_DLL_EXPORT int __tvm_ffi__doc_##ExportName(void* self, const TVMFFIAny* args,     \
                                                     int32_t num_args, TVMFFIAny* result) { \
    (void)self;                                                                             \
    (void)args;                                                                             \
    (void)num_args;                                                                         \
    return ::tvm::ffi::details::ReturnStringCell(std::string_view(DocString), result);      \
  }                                                                                         \
  }
#else
#define TVM_FFI_DLL_EXPORT_TYPED_FUNC_METADATA_(ExportName, Function)
#define TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC(ExportName, DocString)
#endif

/// Exports the typed callable Function as the C safe-call symbol __tvm_ffi_<ExportName>.
#define TVM_FFI_DLL_EXPORT_TYPED_FUNC(ExportName, Function) \
  TVM_FFI_DLL_EXPORT_TYPED_FUNC_IMPL_(ExportName, Function) \
  TVM_FFI_DLL_EXPORT_TYPED_FUNC_METADATA_(ExportName, Function)

#endif  // TVM_FFI_FUNCTION_EXPORT_H_

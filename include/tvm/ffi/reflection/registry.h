// SPDX-License-Identifier: Apache-2.0
// reflection/registry.h: registration of global functions (GlobalDef) with docs and metadata;
// includes ObjectDef/TypeAttrDef (object_def.h) and the accessors (accessor.h) at its end.
#ifndef TVM_FFI_REFLECTION_REGISTRY_H_
#define TVM_FFI_REFLECTION_REGISTRY_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/info_trait.h>
#include <tvm/ffi/string.h>

#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {
namespace reflection {

/// Extra metadata entries (values must be int, bool or string).
class Metadata : public InfoTrait {
 public:
  Metadata(std::initializer_list<std::pair<String, Any>> entries) : entries_(entries) {}
  /// Appends the entries as ,"key":value JSON members.
  void AppendJSON(std::string* out) const {
    for (const auto& [key, value] : entries_) {
      *out += "," + std::string(EscapeStringJSON(key)) + ":" + ValueJSON(key, value);
    }
  }

 private:
  static std::string ValueJSON(const String& key, const Any& value) {
    if (auto as_bool = value.as<bool>()) return *as_bool ? "true" : "false";
    if (auto as_int = value.as<int64_t>()) return std::to_string(*as_int);
    if (auto as_str = value.as<String>()) return std::string(EscapeStringJSON(*as_str));
    TVM_FFI_THROW(TypeError) << "Metadata can be only int, bool or string, but on key `" << key
                             << "`, the type is " << value.GetTypeKey();
    TVM_FFI_UNREACHABLE();
  }
  std::vector<std::pair<String, Any>> entries_;
};

namespace details {

/// The docstring and metadata collected from the extra arguments of a def() call.
struct DefExtras {
  std::string doc;
  std::string metadata_json;

  template <typename T>
  void Apply(const T& extra) {
    using D = std::decay_t<T>;
    if constexpr (std::is_same_v<D, char*> || std::is_same_v<D, const char*>) {
      doc = extra;
    } else if constexpr (std::is_base_of_v<Metadata, D>) {
      extra.AppendJSON(&metadata_json);
    }
  }
};

/// Registers func as a global function through TVMFFIFunctionSetGlobalFromMethodInfo.
inline void RegisterGlobalFunction(const char* name, const Function& func,
                                   const std::string& type_schema, const DefExtras& extras) {
  std::string metadata =
      "{\"type_schema\":" + std::string(EscapeStringJSON(type_schema)) + extras.metadata_json + "}";
  TVMFFIMethodInfo info;
  info.name = TVMFFIByteArray{name, std::char_traits<char>::length(name)};
  info.doc = TVMFFIByteArray{extras.doc.data(), extras.doc.size()};
  info.metadata = TVMFFIByteArray{metadata.data(), metadata.size()};
  info.flags = kTVMFFIFieldFlagBitMaskIsStaticMethod;
  info.method = AnyView(func).CopyToTVMFFIAny();
  TVM_FFI_CHECK_SAFE_CALL(TVMFFIFunctionSetGlobalFromMethodInfo(&info, 0));
}

}  // namespace details

/// Builder registering global functions: GlobalDef().def("name", f, "doc", Metadata{...}).
class GlobalDef {
 public:
  /// Registers a typed function; arguments are checked against its signature.
  template <typename Func, typename... Extra>
  GlobalDef& def(const char* name, Func&& func, Extra&&... extra) {
    using Info = ffi::details::FunctionInfo<std::decay_t<Func>>;
    Register(name, Function::FromTyped(std::forward<Func>(func), std::string(name)),
             Info::TypeSchema(), std::forward<Extra>(extra)...);
    return *this;
  }
  /// Registers a packed function (const AnyView*, int32_t, Any*) or (PackedArgs, Any*).
  template <typename Func, typename... Extra>
  GlobalDef& def_packed(const char* name, Func&& func, Extra&&... extra) {
    Register(name, Function::FromPacked(std::forward<Func>(func)), "{\"type\":\"ffi.Function\"}",
             std::forward<Extra>(extra)...);
    return *this;
  }

 private:
  template <typename... Extra>
  static void Register(const char* name, const Function& func, const std::string& schema,
                       Extra&&... extra) {
    details::DefExtras extras;
    (extras.Apply(extra), ...);
    details::RegisterGlobalFunction(name, func, schema, extras);
  }
};

}  // namespace reflection
}  // namespace ffi
}  // namespace tvm

#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/field_traits.h>
#include <tvm/ffi/reflection/object_def.h>

#endif  // TVM_FFI_REFLECTION_REGISTRY_H_

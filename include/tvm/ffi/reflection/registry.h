// SPDX-License-Identifier: Apache-2.0
// reflection/registry.h: registration of global functions (GlobalDef) with docs and metadata;
// includes ObjectDef (object_def.h), TypeAttrDef (type_attr_def.h), overload_cast and the
// accessors (accessor.h) at its end.
#ifndef TVM_FFI_REFLECTION_REGISTRY_H_
#define TVM_FFI_REFLECTION_REGISTRY_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/def_base.h>
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

/// Extra metadata entries of a field, method or global function (values must be int, bool or
/// string): `def_ro("x", &Obj::x, Metadata{{"unit", "cm"}})`.
class Metadata : public InfoTrait {
 public:
  /// The (key, value) entries, in order.
  Metadata(std::initializer_list<std::pair<String, Any>> entries) : entries_(entries) {}
  /// Appends the entries to a field's metadata.
  void Apply(FieldInfoBuilder* info) const { Append(&info->metadata_); }
  /// Appends the entries to a method's metadata.
  void Apply(MethodInfoBuilder* info) const { Append(&info->metadata_); }
  /// Appends the entries as ,"key":value JSON members.
  void AppendJSON(std::string* out) const {
    for (const auto& [key, value] : entries_) {
      *out +=
          "," + std::string(EscapeStringJSON(key)) + ":" + details::MetadataValueJSON(key, value);
    }
  }

 private:
  void Append(_MetadataType* out) const {
    out->insert(out->end(), entries_.begin(), entries_.end());
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

/// Whether Class has a member type ContainerType (an ObjectRef class).
template <typename T, typename = void>
struct HasContainerType : public std::false_type {};
template <typename T>
struct HasContainerType<T, std::void_t<typename T::ContainerType>> : public std::true_type {};

}  // namespace details

/// Builder registering global functions: GlobalDef().def("name", f, "doc", Metadata{...}).
class GlobalDef : public ReflectionDefBase {
 public:
  /// Registers a typed function; arguments are checked against its signature.
  template <typename Func, typename... Extra>
  GlobalDef& def(const char* name, Func&& func, Extra&&... extra) {
    using Info = ffi::details::FunctionInfo<std::decay_t<Func>>;
    RegisterFunc(name, Function::FromTyped(std::forward<Func>(func), std::string(name)),
                 Info::TypeSchema(), extra...);
    return *this;
  }
  /// Registers a packed function (const AnyView*, int32_t, Any*) or (PackedArgs, Any*).
  template <typename Func, typename... Extra>
  GlobalDef& def_packed(const char* name, Func&& func, Extra&&... extra) {
    RegisterFunc(name, Function::FromPacked(std::forward<Func>(func)),
                 "{\"type\":\"ffi.Function\"}", extra...);
    return *this;
  }
  /// Registers a method (or any callable) as a global function; a method takes self first
  /// (`const Obj*` / `Obj*` for an object class, the reference for an ObjectRef class).
  template <typename Func, typename... Extra>
  GlobalDef& def_method(const char* name, Func&& func, Extra&&... extra) {
    using Info = ffi::details::FunctionInfo<std::decay_t<Func>>;
    RegisterFunc(name, GetMethod(std::string(name), std::forward<Func>(func)), Info::TypeSchema(),
                 extra...);
    return *this;
  }

 private:
  template <typename... Extra>
  static void RegisterFunc(const char* name, const Function& func, const std::string& schema,
                           const Extra&... extra) {
    MethodInfoBuilder info;
    details::StartMethodInfo(&info, name, 0, func, schema);
    (ApplyMethodInfoTrait(&info, extra), ...);
    std::string metadata;
    details::FinishMetadata(&info, &metadata);
    TVM_FFI_CHECK_SAFE_CALL(TVMFFIFunctionSetGlobalFromMethodInfo(&info, 0));
  }
};

}  // namespace reflection
}  // namespace ffi
}  // namespace tvm

#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/field_traits.h>
#include <tvm/ffi/reflection/object_def.h>
#include <tvm/ffi/reflection/overload_cast.h>
#include <tvm/ffi/reflection/type_attr_def.h>

#endif  // TVM_FFI_REFLECTION_REGISTRY_H_

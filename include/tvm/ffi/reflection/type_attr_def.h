// SPDX-License-Identifier: Apache-2.0
// reflection/type_attr_def.h: TypeAttrDef, the registration of per-type attributes (values or
// functions stored in type attribute columns), and EnsureTypeAttrColumn.
//
//   TypeAttrDef<MyObj>()
//       .def("__ffi_repr__", &MyObj::Repr)           // a method: self (`const MyObj*`) first
//       .attr(ffi::type_attr::kTypeFinal, true);     // a value, converted to the key's type
#ifndef TVM_FFI_REFLECTION_TYPE_ATTR_DEF_H_
#define TVM_FFI_REFLECTION_TYPE_ATTR_DEF_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/creator.h>
#include <tvm/ffi/reflection/def_base.h>
#include <tvm/ffi/reflection/field_traits.h>
#include <tvm/ffi/reflection/registry.h>

#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {
namespace reflection {

/// Creates the type attribute column `name` (empty) if it does not exist yet.
inline void EnsureTypeAttrColumn(std::string_view name) {
  details::RegisterTypeAttr(kTVMFFINone, name, Any());
}

/// Creates the column of a typed key (empty) if it does not exist yet.
template <typename T>
void EnsureTypeAttrColumn(AttrKey<T> key) {
  EnsureTypeAttrColumn(key.name);
}

/// Registers type attributes of Class: TypeAttrDef<C>().def("__ffi_repr__", f).attr("k", 1).
template <typename Class, typename>
class TypeAttrDef : public ReflectionDefBase {
 public:
  /// A definer for Class (the arguments are accepted and ignored).
  template <typename... Extra>
  explicit TypeAttrDef(Extra&&...)
      : type_index_(Class::_GetOrAllocRuntimeTypeIndex()), type_key_(Class::_type_key) {}

  /// Stores a value that converts to AnyView as is.
  template <typename Value, std::enable_if_t<details::is_attr_value_v<Value>, int> = 0>
  TypeAttrDef& def(const char* name, Value&& value) {
    RegisterTypeAttrValue(type_index_, name, std::forward<Value>(value));
    return *this;
  }
  /// Stores a callable (a method included: self first) as Function `<type_key>.<name>`.
  template <typename Func, std::enable_if_t<!details::is_attr_value_v<Func>, int> = 0>
  TypeAttrDef& def(const char* name, Func&& func) {
    std::string qualified = std::string(type_key_) + "." + name;
    RegisterTypeAttrValue(type_index_, name, GetMethod(qualified, std::forward<Func>(func)));
    return *this;
  }
  /// Stores a value.
  template <typename T>
  TypeAttrDef& attr(const char* name, T value) {
    RegisterTypeAttrValue(type_index_, name, std::move(value));
    return *this;
  }
  /// Stores a value converted to the key's value type.
  template <typename T, typename Value>
  TypeAttrDef& attr(AttrKey<T> key, Value&& value) {
    T typed(std::forward<Value>(value));
    RegisterTypeAttrValue(type_index_, key.name, std::move(typed));
    return *this;
  }
  /// `__ffi_convert__`: (value) -> TSelf, with the conversions TSelf's TypeTraits allow.
  template <typename TSelf>
  TypeAttrDef& def_convert() {
    if constexpr (details::HasContainerType<TSelf>::value) {
      static_assert(std::is_same_v<typename TSelf::ContainerType, Class>,
                    "TSelf::ContainerType must be the class of the TypeAttrDef");
    }
    return def(type_attr::kConvert, &details::FFIConvertFromAnyViewToObjectRef<TSelf>);
  }
  /// Stores the native hook Fn through the key's hook type: `native_fn_attr<&F>(kKey)`.
  template <auto Fn, typename T>
  TypeAttrDef& native_fn_attr(AttrKey<T> key) {
    return attr(key, T::template FromNative<Fn>());
  }

 private:
  int32_t type_index_;
  const char* type_key_;
};

}  // namespace reflection
}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_REFLECTION_TYPE_ATTR_DEF_H_

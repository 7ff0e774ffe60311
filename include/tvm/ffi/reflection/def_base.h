// SPDX-License-Identifier: Apache-2.0
// reflection/def_base.h: ReflectionDefBase, the building blocks shared by the registration
// helpers (GlobalDef, ObjectDef, TypeAttrDef): field accessors and creators in the C ABI shape,
// the application of the extra def() arguments to info builders, the metadata JSON, and the
// wrapping of member function pointers into callables.
#ifndef TVM_FFI_REFLECTION_DEF_BASE_H_
#define TVM_FFI_REFLECTION_DEF_BASE_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/info_trait.h>
#include <tvm/ffi/string.h>

#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {
namespace reflection {
namespace details {

/// A TVMFFIByteArray viewing text (which must outlive the array).
inline TVMFFIByteArray ByteArrayOf(std::string_view text) {
  return TVMFFIByteArray{text.data(), text.size()};
}

/// Whether T is a docstring argument of a def() call.
template <typename T>
inline constexpr bool is_doc_arg_v =
    std::is_same_v<std::decay_t<T>, char*> || std::is_same_v<std::decay_t<T>, const char*>;

/// Whether trait T has `Apply(Info*) const`.
template <typename T, typename Info, typename = void>
inline constexpr bool has_apply_v = false;
template <typename T, typename Info>
inline constexpr bool has_apply_v<
    T, Info, std::void_t<decltype(std::declval<const T&>().Apply(std::declval<Info*>()))>> = true;

/// Whether a type attribute definition stores V as is (it converts to AnyView) rather than
/// wrapping it into a Function.
template <typename V>
inline constexpr bool is_attr_value_v =
    std::is_convertible_v<V&&, AnyView> || std::is_convertible_v<std::decay_t<V>, AnyView>;

/// The JSON text of a metadata value: an int, a bool or a string (TypeError otherwise).
inline std::string MetadataValueJSON(const String& key, const Any& value) {
  if (auto as_bool = value.as<bool>()) return *as_bool ? "true" : "false";
  if (auto as_int = value.as<int64_t>()) return std::to_string(*as_int);
  if (auto as_str = value.as<String>()) return std::string(EscapeStringJSON(*as_str));
  TVM_FFI_THROW(TypeError) << "Metadata can be only int, bool or string, but on key `" << key
                           << "`, the type is " << value.GetTypeKey();
  TVM_FFI_UNREACHABLE();
}

/// The metadata JSON object of entries, members in order: {"k0":v0,"k1":v1}.
inline std::string MetadataJSONOf(const _MetadataType& entries) {
  std::string out = "{";
  for (const auto& [key, value] : entries) {
    if (out.size() > 1) out += ',';
    out += std::string(EscapeStringJSON(key)) + ":" + MetadataValueJSON(key, value);
  }
  return out + "}";
}

/// TVMFFIFieldGetter of a field of type T: copies the field into an owning cell.
template <typename T>
int FieldGetterOf(void* field_addr, TVMFFIAny* result) {
  TVM_FFI_SAFE_CALL_BEGIN();
  *result = ffi::details::AnyUnsafe::MoveAnyToTVMFFIAny(Any(*static_cast<const T*>(field_addr)));
  TVM_FFI_SAFE_CALL_END();
}

/// TVMFFIFieldSetter of a field of type T: converts the view (TypeError on mismatch).
template <typename T>
int FieldSetterOf(void* field_addr, const TVMFFIAny* value) {
  TVM_FFI_SAFE_CALL_BEGIN();
  if constexpr (std::is_same_v<T, Any>) {
    *static_cast<Any*>(field_addr) = AnyView::CopyFromTVMFFIAny(*value);
  } else {
    *static_cast<T*>(field_addr) = AnyView::CopyFromTVMFFIAny(*value).cast<T>();
  }
  TVM_FFI_SAFE_CALL_END();
}

/// TVMFFIObjectCreator making a default-constructed Class.
template <typename Class>
int ObjectCreatorDefaultOf(TVMFFIObjectHandle* result) {
  TVM_FFI_SAFE_CALL_BEGIN();
  *result = ffi::details::ObjectUnsafe::MoveObjectPtrToHandle(make_object<Class>());
  TVM_FFI_SAFE_CALL_END();
}

/// TVMFFIObjectCreator making a Class through its UnsafeInit constructor.
template <typename Class>
int ObjectCreatorUnsafeInitOf(TVMFFIObjectHandle* result) {
  TVM_FFI_SAFE_CALL_BEGIN();
  *result = ffi::details::ObjectUnsafe::MoveObjectPtrToHandle(make_object<Class>(UnsafeInit{}));
  TVM_FFI_SAFE_CALL_END();
}

/// TVMFFIObjectCreator of Class: default-constructed, else UnsafeInit-constructed.
template <typename Class>
int ObjectCreatorOf(TVMFFIObjectHandle* result) {
  if constexpr (std::is_default_constructible_v<Class>) {
    return ObjectCreatorDefaultOf<Class>(result);
  } else {
    return ObjectCreatorUnsafeInitOf<Class>(result);
  }
}

/// Registers a type attribute value for a type index.
inline void RegisterTypeAttr(int32_t type_index, std::string_view name, const Any& value) {
  TVMFFIByteArray name_arr = ByteArrayOf(name);
  TVMFFIAny cell = AnyView(value).CopyToTVMFFIAny();
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterAttr(type_index, &name_arr, &cell));
}

/// value as an owning Any (through AnyView for types that only convert to a view).
template <typename Value>
Any OwnedAnyOf(Value&& value) {
  if constexpr (std::is_constructible_v<Any, Value&&>) {
    return Any(std::forward<Value>(value));
  } else {
    return Any(AnyView(std::forward<Value>(value)));
  }
}

}  // namespace details

/// Registers type attributes of Class (defined in type_attr_def.h).
template <typename Class, typename = std::enable_if_t<std::is_base_of_v<Object, Class>>>
class TypeAttrDef;

/// Byte offset of a field from the object header (the handle), as TVMFFIFieldInfo records it.
/// Class defaults to the class the member belongs to: `GetFieldByteOffsetToObject(&Obj::x)`;
/// name a derived class for an inherited member: `GetFieldByteOffsetToObject<Derived>(&Base::x)`.
template <typename Class = void, typename T, typename Base>
int64_t GetFieldByteOffsetToObject(T Base::* field) {
  using Owner = std::conditional_t<std::is_void_v<Class>, Base, Class>;
  static_assert(std::is_base_of_v<Base, Owner>, "the field must belong to Class or a base");
  static_assert(std::is_base_of_v<Object, Owner>, "Class must derive from Object");
  alignas(Owner) unsigned char storage[sizeof(Owner)] = {};
  const Owner* obj = reinterpret_cast<const Owner*>(storage);
  const char* field_addr = reinterpret_cast<const char*>(&(obj->*field));
  const char* header = reinterpret_cast<const char*>(static_cast<const Object*>(obj));
  return static_cast<int64_t>(field_addr - header);
}

/// The shared helpers of the registration classes (their protected base).
class ReflectionDefBase {
 protected:
  /// TVMFFIFieldGetter of a field of type T.
  template <typename T>
  static int FieldGetter(void* field, TVMFFIAny* result) {
    return details::FieldGetterOf<T>(field, result);
  }
  /// TVMFFIFieldSetter of a field of type T.
  template <typename T>
  static int FieldSetter(void* field, const TVMFFIAny* value) {
    return details::FieldSetterOf<T>(field, value);
  }
  /// TVMFFIObjectCreator making a default-constructed T.
  template <typename T>
  static int ObjectCreatorDefault(TVMFFIObjectHandle* result) {
    return details::ObjectCreatorDefaultOf<T>(result);
  }
  /// TVMFFIObjectCreator making a T through its UnsafeInit constructor.
  template <typename T>
  static int ObjectCreatorUnsafeInit(TVMFFIObjectHandle* result) {
    return details::ObjectCreatorUnsafeInitOf<T>(result);
  }

  /// Applies one extra argument of a field definition: a trait or a docstring.
  template <typename T>
  static void ApplyFieldInfoTrait(FieldInfoBuilder* info, const T& value) {
    ApplyInfoTrait(info, value);
  }
  /// Applies one extra argument of a method definition: a trait or a docstring.
  template <typename T>
  static void ApplyMethodInfoTrait(MethodInfoBuilder* info, const T& value) {
    ApplyInfoTrait(info, value);
  }
  /// Applies one extra argument of a type definition: a docstring (other arguments are ignored).
  template <typename T>
  static void ApplyExtraInfoTrait(TVMFFITypeMetadata* info, const T& value) {
    if constexpr (details::is_doc_arg_v<T>) {
      info->doc = details::ByteArrayOf(value);
    }
  }

  /// func (a callable or a member function pointer) as a Function named name.
  template <typename Func>
  static Function GetMethod(std::string name, Func&& func) {
    return Function::FromTyped(WrapFunction(std::forward<Func>(func)), std::move(name));
  }

  /// Stores value in the type attribute column name for type_index.
  template <typename Value>
  static void RegisterTypeAttrValue(int32_t type_index, const char* name, Value&& value) {
    details::RegisterTypeAttr(type_index, name, details::OwnedAnyOf(std::forward<Value>(value)));
  }

  /// A callable as is.
  template <typename Func>
  static Func&& WrapFunction(Func&& func) {
    return std::forward<Func>(func);
  }
  /// A method as a callable taking self first: `Class` for an ObjectRef, else `const Class*`
  /// (the method is called on a mutable view of the object).
  template <typename Class, typename R, typename... Args>
  static auto WrapFunction(R (Class::*func)(Args...)) {
    static_assert(std::is_base_of_v<ObjectRef, Class> || std::is_base_of_v<Object, Class>,
                  "Class must be derived from ObjectRef or Object");
    if constexpr (std::is_base_of_v<ObjectRef, Class>) {
      return [func](Class self, Args... args) -> R {
        return (self.*func)(std::forward<Args>(args)...);
      };
    } else {
      return [func](const Class* self, Args... args) -> R {
        return (const_cast<Class*>(self)->*func)(std::forward<Args>(args)...);
      };
    }
  }
  /// A const method as a callable taking self first: `const Class&` or `const Class*`.
  template <typename Class, typename R, typename... Args>
  static auto WrapFunction(R (Class::*func)(Args...) const) {
    static_assert(std::is_base_of_v<ObjectRef, Class> || std::is_base_of_v<Object, Class>,
                  "Class must be derived from ObjectRef or Object");
    if constexpr (std::is_base_of_v<ObjectRef, Class>) {
      return [func](const Class& self, Args... args) -> R {
        return (self.*func)(std::forward<Args>(args)...);
      };
    } else {
      return [func](const Class* self, Args... args) -> R {
        return (self->*func)(std::forward<Args>(args)...);
      };
    }
  }

 private:
  /// A docstring sets info->doc; a trait applicable to Info is applied; anything else is
  /// ignored.
  template <typename Info, typename T>
  static void ApplyInfoTrait(Info* info, const T& value) {
    if constexpr (details::is_doc_arg_v<T>) {
      info->doc = details::ByteArrayOf(value);
    } else if constexpr (std::is_base_of_v<InfoTrait, T> && details::has_apply_v<T, Info>) {
      value.Apply(info);
    }
  }
};

namespace details {
/// Fills the metadata JSON of info (kept alive by *storage) from its metadata entries.
template <typename Info>
void FinishMetadata(Info* info, std::string* storage) {
  *storage = MetadataJSONOf(info->metadata_);
  info->metadata = ByteArrayOf(*storage);
}
/// Fills the parts of a method's info that do not depend on its extra arguments.
TVM_FFI_NO_INLINE inline void StartMethodInfo(MethodInfoBuilder* info, const char* name,
                                              int64_t flags, const Function& method,
                                              const std::string& type_schema) {
  info->name = ByteArrayOf(name);
  info->doc = TVMFFIByteArray{nullptr, 0};
  info->flags = flags;
  info->method = AnyView(method).CopyToTVMFFIAny();
  info->metadata_.emplace_back("type_schema", String(type_schema));
}

}  // namespace details

}  // namespace reflection
}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_REFLECTION_DEF_BASE_H_

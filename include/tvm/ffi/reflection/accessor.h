// SPDX-License-Identifier: Apache-2.0
// reflection/accessor.h: looking up and using reflected fields, methods and type attributes.
#ifndef TVM_FFI_REFLECTION_ACCESSOR_H_
#define TVM_FFI_REFLECTION_ACCESSOR_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/info_trait.h>
#include <tvm/ffi/reflection/native_function.h>

#include <optional>
#include <string>
#include <string_view>

namespace tvm {
namespace ffi {
namespace reflection {

/// The TypeInfo of a registered type key (throws for unknown keys).
inline const TVMFFITypeInfo* GetTypeInfoByKey(std::string_view type_key) {
  return TVMFFIGetTypeInfo(TypeKeyToIndex(type_key));
}

/// Calls cb(const TVMFFIFieldInfo*) on every field, ancestors' fields first; stops early and
/// returns true when cb returns true.
template <typename Callback>
bool ForEachFieldInfoWithEarlyStop(const TVMFFITypeInfo* info, Callback cb) {
  for (int32_t depth = 0; depth <= info->type_depth; ++depth) {
    const TVMFFITypeInfo* cur = depth < info->type_depth ? info->type_ancestors[depth] : info;
    for (int32_t i = 0; i < cur->num_fields; ++i) {
      if (cb(cur->fields + i)) return true;
    }
  }
  return false;
}

/// Calls cb(const TVMFFIFieldInfo*) on every field, ancestors' fields first.
template <typename Callback>
void ForEachFieldInfo(const TVMFFITypeInfo* info, Callback cb) {
  ForEachFieldInfoWithEarlyStop(info, [&](const TVMFFIFieldInfo* field) {
    cb(field);
    return false;
  });
}

/// The field `field_name` of type_key (its own or inherited); RuntimeError when absent.
inline const TVMFFIFieldInfo* GetFieldInfo(std::string_view type_key, std::string_view field_name) {
  const TVMFFIFieldInfo* found = nullptr;
  ForEachFieldInfo(GetTypeInfoByKey(type_key), [&](const TVMFFIFieldInfo* field) {
    if (std::string_view(field->name.data, field->name.size) == field_name) found = field;
  });
  if (found == nullptr) {
    TVM_FFI_THROW(RuntimeError) << "Cannot find field  `" << field_name << "` in " << type_key;
  }
  return found;
}

/// The method `method_name` registered on type_key itself; RuntimeError when absent.
inline const TVMFFIMethodInfo* GetMethodInfo(std::string_view type_key,
                                             std::string_view method_name) {
  const TVMFFITypeInfo* info = GetTypeInfoByKey(type_key);
  for (int32_t i = 0; i < info->num_methods; ++i) {
    const TVMFFIByteArray& name = info->methods[i].name;
    if (std::string_view(name.data, name.size) == method_name) return info->methods + i;
  }
  TVM_FFI_THROW(RuntimeError) << "Cannot find method " << method_name << " in " << type_key;
  TVM_FFI_UNREACHABLE();
}

/// The Function of method `method_name` of type_key.
inline Function GetMethod(std::string_view type_key, std::string_view method_name) {
  return AnyView::CopyFromTVMFFIAny(GetMethodInfo(type_key, method_name)->method).cast<Function>();
}

/// The address of a field inside obj.
inline void* FieldAddress(const Object* obj, const TVMFFIFieldInfo* field) {
  return reinterpret_cast<char*>(const_cast<Object*>(obj)) + field->offset;
}

/// Writes value into the field at field_addr through the field's setter (throws on errors).
inline void CallFieldSetter(const TVMFFIFieldInfo* field, void* field_addr, AnyView value) {
  if (field->flags & kTVMFFIFieldFlagBitSetterIsFunctionObj) {
    TVMFFIObjectHandle handle = field->setter;
    Function setter = ffi::details::ObjectUnsafe::ObjectRefFromObjectPtr<Function>(
        ffi::details::ObjectUnsafe::ObjectPtrFromUnowned<Object>(handle));
    setter(field_addr, value);
    return;
  }
  auto setter = reinterpret_cast<TVMFFIFieldSetter>(field->setter);
  TVMFFIAny cell = value.CopyToTVMFFIAny();
  TVM_FFI_CHECK_SAFE_CALL(setter(field_addr, &cell));
}

/// Writes *value into the field at field_addr through the field's setter; returns the safe-call
/// code (0 on success, else the error is left in the thread's raised slot).
inline int CallFieldSetter(const TVMFFIFieldInfo* field, void* field_addr,
                           const TVMFFIAny* value) noexcept {
  if (field->flags & kTVMFFIFieldFlagBitSetterIsFunctionObj) {
    TVMFFIAny args[2];
    args[0] = AnyView(field_addr).CopyToTVMFFIAny();
    args[1] = *value;
    TVMFFIAny result;
    result.type_index = TypeIndex::kTVMFFINone;
    result.zero_padding = 0;
    result.v_int64 = 0;
    int code = TVMFFIFunctionCall(field->setter, args, 2, &result);
    if (code == 0) (void)ffi::details::AnyUnsafe::MoveTVMFFIAnyToAny(&result);  // released
    return code;
  }
  return reinterpret_cast<TVMFFIFieldSetter>(field->setter)(field_addr, value);
}

/// Writes the field's default into the field at field_addr (calling the factory when
/// DefaultFromFactory is set); returns the safe-call code (0 on success, else the error is left
/// in the thread's raised slot).
inline int CallFieldSetterToDefault(const TVMFFIFieldInfo* field, void* field_addr) noexcept {
  if (!(field->flags & kTVMFFIFieldFlagBitMaskDefaultFromFactory)) {
    return CallFieldSetter(field, field_addr, &field->default_value_or_factory);
  }
  TVM_FFI_SAFE_CALL_BEGIN();
  Any made = AnyView::CopyFromTVMFFIAny(field->default_value_or_factory).cast<Function>()();
  CallFieldSetter(field, field_addr, AnyView(made));
  TVM_FFI_SAFE_CALL_END();
}

/// Sets a field to its default (calling the factory when DefaultFromFactory is set).
inline void SetFieldToDefault(const TVMFFIFieldInfo* field, void* field_addr) {
  TVM_FFI_CHECK_SAFE_CALL(CallFieldSetterToDefault(field, field_addr));
}

/// Reads one reflected field of objects.
class FieldGetter {
 public:
  /// A getter of field.
  explicit FieldGetter(const TVMFFIFieldInfo* field) : field_(field) {}
  /// A getter of the field field_name of type type_key (RuntimeError when there is none).
  FieldGetter(std::string_view type_key, std::string_view field_name)
      : FieldGetter(GetFieldInfo(type_key, field_name)) {}
  /// The value of the field of obj (an owning copy).
  Any operator()(const Object* obj) const {
    TVMFFIAny result;
    ffi::details::ResetPODCell(&result, kTVMFFINone);
    TVM_FFI_CHECK_SAFE_CALL(field_->getter(FieldAddress(obj, field_), &result));
    return ffi::details::AnyUnsafe::MoveTVMFFIAnyToAny(&result);
  }
  /// The value of the field of obj (an owning copy).
  Any operator()(const ObjectPtr<Object>& obj) const { return (*this)(obj.get()); }
  /// The value of the field of obj (an owning copy).
  Any operator()(const ObjectRef& obj) const { return (*this)(obj.get()); }

 private:
  const TVMFFIFieldInfo* field_;
};

/// Writes one reflected field of objects (TypeError when the value does not convert).
class FieldSetter {
 public:
  /// A setter of field.
  explicit FieldSetter(const TVMFFIFieldInfo* field) : field_(field) {}
  /// A setter of the field field_name of type type_key (RuntimeError when there is none).
  FieldSetter(std::string_view type_key, std::string_view field_name)
      : FieldSetter(GetFieldInfo(type_key, field_name)) {}
  /// Sets the field of obj to value.
  void operator()(const Object* obj, AnyView value) const {
    CallFieldSetter(field_, FieldAddress(obj, field_), value);
  }
  /// Sets the field of obj to value.
  void operator()(const ObjectPtr<Object>& obj, AnyView value) const { (*this)(obj.get(), value); }
  /// Sets the field of obj to value.
  void operator()(const ObjectRef& obj, AnyView value) const { (*this)(obj.get(), value); }

 private:
  const TVMFFIFieldInfo* field_;
};

template <typename T>
struct AttrKey;

/// A type attribute column; rows of types without a value read as None.
class TypeAttrColumn {
 public:
  /// The column attr_name; RuntimeError when no such column exists.
  explicit TypeAttrColumn(std::string_view attr_name) {
    TVMFFIByteArray name{attr_name.data(), attr_name.size()};
    column_ = TVMFFIGetTypeAttrColumn(&name);
    if (column_ == nullptr) {
      TVM_FFI_THROW(RuntimeError) << "Cannot find type attribute " << attr_name;
    }
  }
  /// The column of a typed key (rows still read as AnyView).
  template <typename T>
  explicit TypeAttrColumn(AttrKey<T> key) : TypeAttrColumn(key.name) {}
  /// The value for type_index (None when unset).
  AnyView operator[](int32_t type_index) const {
    int32_t row = type_index - column_->begin_index;
    if (row < 0 || row >= column_->size) return AnyView();
    return AnyView::CopyFromTVMFFIAny(column_->data[row]);
  }

 private:
  const TVMFFITypeAttrColumn* column_;
};

/// s (a NUL-terminated string that outlives the result) as a TVMFFIByteArray.
inline constexpr TVMFFIByteArray AsByteArray(const char* s) {
  return TVMFFIByteArray{s, std::char_traits<char>::length(s)};
}

/// A typed name of a type attribute column, e.g. `AttrKey<Function>{"__ffi_repr__"}`.
template <typename T>
struct AttrKey {
  /// The type of the values of the column.
  using ValueType = T;
  /// The column name; a string literal (the key only borrows it).
  const char* name;

  /// The value stored in a row as T; nullopt for None (no value). TypeError when a value of
  /// another type is stored there (strictly: no conversion, an int is not a bool).
  std::optional<ValueType> ValueFrom(AnyView value) const {
    if (value == nullptr) return std::nullopt;
    return value.as_or_throw<ValueType>();
  }
};

}  // namespace reflection

namespace type_attr {
/// `__ffi_new__`: () -> Object, a new object of the type with default field values.
inline constexpr reflection::AttrKey<TypedFunction<ObjectRef()>> kNew{"__ffi_new__"};
/// `__ffi_init__`: the constructor called by the languages' bindings.
inline constexpr reflection::AttrKey<Function> kInit{"__ffi_init__"};
/// `__ffi_convert__`: (value) -> the type, the conversion applied to arguments of the type.
inline constexpr reflection::AttrKey<TypedFunction<Any(AnyView)>> kConvert{"__ffi_convert__"};
/// `__ffi_convert_type_schema__`: the type schema the conversion accepts.
inline constexpr reflection::AttrKey<Any> kConvertTypeSchema{"__ffi_convert_type_schema__"};
/// `__ffi_shallow_copy__`: (self) -> a new object with the same field values.
inline constexpr reflection::AttrKey<TypedFunction<ObjectRef(const Object*)>> kShallowCopy{
    "__ffi_shallow_copy__"};
/// `__ffi_type_final__`: whether the type admits no subtypes.
inline constexpr reflection::AttrKey<bool> kTypeFinal{"__ffi_type_final__"};
/// `__any_hash__`: the hash of a value of the type used as a Map/Dict key.
inline constexpr reflection::AttrKey<reflection::NativeFunctionView<int64_t(const Any&)>> kAnyHash{
    "__any_hash__"};
/// `__any_equal__`: the equality of two values of the type used as Map/Dict keys.
inline constexpr reflection::AttrKey<reflection::NativeFunctionView<bool(const Any&, const Any&)>>
    kAnyEqual{"__any_equal__"};
}  // namespace type_attr

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_REFLECTION_ACCESSOR_H_

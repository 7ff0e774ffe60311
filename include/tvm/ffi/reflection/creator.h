// SPDX-License-Identifier: Apache-2.0
// reflection/creator.h: creating objects through reflection: an empty object from the creator in
// the type metadata (or, for types defined in a frontend, their `__ffi_new__` type attribute),
// and ObjectCreator, which also fills the fields from a name -> value map.
#ifndef TVM_FFI_REFLECTION_CREATOR_H_
#define TVM_FFI_REFLECTION_CREATOR_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/string.h>

#include <string>
#include <string_view>
#include <utility>

namespace tvm {
namespace ffi {

namespace details {
/// The `__ffi_new__` Function of a type, or nullopt (no column, no row, or not a Function).
inline std::optional<Function> FfiNewOf(const TVMFFITypeInfo* info) {
  TVMFFIByteArray name{type_attr::kNew.name, std::char_traits<char>::length(type_attr::kNew.name)};
  const TVMFFITypeAttrColumn* column = TVMFFIGetTypeAttrColumn(&name);
  if (column == nullptr) return std::nullopt;
  int32_t row = info->type_index - column->begin_index;
  if (row < 0 || row >= column->size) return std::nullopt;
  if (column->data[row].type_index != TypeIndex::kTVMFFIFunction) return std::nullopt;
  return AnyView::CopyFromTVMFFIAny(column->data[row]).cast<Function>();
}

/// The type key of info as a std::string.
inline std::string TypeKeyOf(const TVMFFITypeInfo* info) {
  return std::string(info->type_key.data, info->type_key.size);
}
}  // namespace details

/// Whether objects of the type can be created empty: it has a native creator or an
/// `__ffi_new__` Function.
inline bool HasCreator(const TVMFFITypeInfo* info) {
  if (info->metadata != nullptr && info->metadata->creator != nullptr) return true;
  return details::FfiNewOf(info).has_value();
}

/// A new object of the type (fields hold their C++ defaults, or zero for a frontend type):
/// made by the native creator, else by `__ffi_new__`. RuntimeError when it has neither.
inline ObjectPtr<Object> CreateEmptyObject(const TVMFFITypeInfo* info) {
  if (info->metadata != nullptr && info->metadata->creator != nullptr) {
    TVMFFIObjectHandle handle = nullptr;
    TVM_FFI_CHECK_SAFE_CALL(info->metadata->creator(&handle));
    return details::ObjectUnsafe::ObjectPtrFromOwned<Object>(static_cast<TVMFFIObject*>(handle));
  }
  if (std::optional<Function> ffi_new = details::FfiNewOf(info)) {
    ObjectRef made = (*ffi_new)().cast<ObjectRef>();
    return details::ObjectUnsafe::GetObjectPtr(made);
  }
  TVM_FFI_THROW(RuntimeError) << "Type `" << details::TypeKeyOf(info)
                              << "` does not support reflection creation (no native creator or "
                                 "__ffi_new__ type attr)";
  TVM_FFI_UNREACHABLE();
}

namespace reflection {

/// Whether objects of the type can be created empty (see ffi::HasCreator).
inline bool HasCreator(const TVMFFITypeInfo* info) { return ffi::HasCreator(info); }

/// A new empty object of the type, as an ObjectRef (see ffi::CreateEmptyObject).
inline ObjectRef CreateEmptyObject(const TVMFFITypeInfo* info) {
  return ffi::details::ObjectUnsafe::ObjectRefFromObjectPtr<ObjectRef>(
      ffi::CreateEmptyObject(info));
}

namespace details {
/// input as a TObjectRef (with the conversions TypeTraits allow); TypeError otherwise.
template <typename TObjectRef>
TObjectRef FFIConvertFromAnyViewToObjectRef(AnyView input) {
  if (std::optional<TObjectRef> converted = input.try_cast<TObjectRef>()) {
    return *std::move(converted);
  }
  TVM_FFI_THROW(TypeError) << "Cannot cast from `" << input.GetTypeKey() << "` to `"
                           << TypeTraits<TObjectRef>::TypeStr() << "`";
  TVM_FFI_UNREACHABLE();
}
}  // namespace details

/// Creates objects of one type from a map of field values: the given fields are set, the
/// others take their defaults; a missing required field or an unknown name is a TypeError.
class ObjectCreator {
 public:
  /// A creator for the type registered as type_key (RuntimeError when it cannot be created).
  explicit ObjectCreator(std::string_view type_key)
      : ObjectCreator(TVMFFIGetTypeInfo(TypeKeyToIndex(type_key))) {}
  /// A creator for the type of info (RuntimeError when it cannot be created).
  explicit ObjectCreator(const TVMFFITypeInfo* info) : info_(info) {
    if (!HasCreator(info)) {
      TVM_FFI_THROW(RuntimeError) << "Type `" << ffi::details::TypeKeyOf(info)
                                  << "` does not support default constructor, as a result "
                                     "cannot be created via reflection";
    }
  }

  /// A new object with the fields set from fields.
  Any operator()(const Map<String, Any>& fields) const {
    ObjectPtr<Object> made = ffi::CreateEmptyObject(info_);
    size_t used = 0;
    ForEachFieldInfo(info_, [&](const TVMFFIFieldInfo* field) {
      String name(field->name.data, field->name.size);
      void* address = FieldAddress(made.get(), field);
      if (std::optional<Any> value = fields.Get(name)) {
        CallFieldSetter(field, address, AnyView(*value));
        ++used;
      } else if (field->flags & kTVMFFIFieldFlagBitMaskHasDefault) {
        SetFieldToDefault(field, address);
      } else {
        TVM_FFI_THROW(TypeError) << "Required field `" << name << "` not set in type `"
                                 << ffi::details::TypeKeyOf(info_) << "`";
      }
    });
    if (used != fields.size()) ThrowUnknownField(fields);
    return ObjectRef(std::move(made));
  }

 private:
  [[noreturn]] void ThrowUnknownField(const Map<String, Any>& fields) const {
    for (const auto& item : fields) {
      // A lambda cannot capture a structured binding before C++20.
      const String& name = item.first;
      bool known = false;
      ForEachFieldInfo(info_, [&](const TVMFFIFieldInfo* field) {
        known = known || std::string_view(field->name.data, field->name.size) ==
                             std::string_view(name.data(), name.size());
      });
      if (!known) {
        TVM_FFI_THROW(TypeError) << "Type `" << ffi::details::TypeKeyOf(info_)
                                 << "` does not have field `" << name << "`";
      }
    }
    TVM_FFI_UNREACHABLE();
  }

  const TVMFFITypeInfo* info_;
};

}  // namespace reflection
}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_REFLECTION_CREATOR_H_

// SPDX-License-Identifier: Apache-2.0
// reflection.cc: runtime global functions built on the reflection tables.
//
//   ffi.MakeObjectFromPackedArgs(type_key: str | type_index: int, "field", value, ...) -> Object
//     The object is made by the creator in the type's metadata. Each named reflected field
//     (ancestors' fields included) is set from its value through its setter; a field not named
//     takes its default, and one without a default raises TypeError, as do an unknown or
//     repeated field name and an odd number of arguments after the type key. A value that does
//     not convert to the field type raises the setter's TypeError; an unknown type key raises
//     ValueError; a type without a creator raises RuntimeError.
//     The older positional form (type_key, *field_values), one value per field in field order,
//     is still accepted when the arguments are not name/value pairs naming fields.
#include <tvm/ffi/any.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/creator.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime_internal.h"

namespace tvm {
namespace ffi {
namespace {

constexpr const char* kMakeObject = "ffi.MakeObjectFromPackedArgs()";

std::string TypeKeyOf(const TVMFFITypeInfo* info) {
  return std::string(info->type_key.data, info->type_key.size);
}

std::string_view FieldNameOf(const TVMFFIFieldInfo* field) {
  return std::string_view(field->name.data, field->name.size);
}

/// The reflected fields of a type, ancestors' fields first.
std::vector<const TVMFFIFieldInfo*> AllFields(const TVMFFITypeInfo* info) {
  std::vector<const TVMFFIFieldInfo*> fields;
  reflection::ForEachFieldInfo(info, [&](const TVMFFIFieldInfo* f) { fields.push_back(f); });
  return fields;
}

/// The position of the field named `name` in fields, or fields.size() when there is none.
size_t FindField(const std::vector<const TVMFFIFieldInfo*>& fields, std::string_view name) {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (FieldNameOf(fields[i]) == name) return i;
  }
  return fields.size();
}

/// The field names of a name/value argument list (args[1], args[3], ...), or nullopt when an
/// odd number of arguments follows the type key or a name slot does not hold a string.
std::optional<std::vector<String>> PairNames(PackedArgs args) {
  if ((args.size() - 1) % 2 != 0) return std::nullopt;
  std::vector<String> names;
  for (int32_t i = 1; i < args.size(); i += 2) {
    std::optional<String> name = args[i].try_cast<String>();
    if (!name.has_value()) return std::nullopt;
    names.push_back(*std::move(name));
  }
  return names;
}

/// Whether the call uses name/value pairs rather than the positional form. Pairs win unless
/// the positional form also fits and some name does not name a field.
bool UsesNamedFields(const std::optional<std::vector<String>>& names, size_t num_values,
                     const std::vector<const TVMFFIFieldInfo*>& fields) {
  if (!names.has_value()) return false;
  if (num_values != fields.size()) return true;
  for (const String& name : *names) {
    if (FindField(fields, name.view()) == fields.size()) return false;
  }
  return true;
}

/// Sets every field from the name/value pairs, defaults for the rest.
void SetNamedFields(const TVMFFITypeInfo* info, const std::vector<const TVMFFIFieldInfo*>& fields,
                    PackedArgs args, const Object* obj) {
  std::vector<bool> given(fields.size(), false);
  for (int32_t i = 1; i < args.size(); i += 2) {
    String name = args[i].cast<String>();
    size_t index = FindField(fields, name.view());
    if (index == fields.size()) {
      TVM_FFI_THROW(TypeError) << "Type `" << TypeKeyOf(info) << "` does not have field `" << name
                               << "`";
    }
    if (given[index]) {
      TVM_FFI_THROW(TypeError) << kMakeObject << ": field `" << name << "` of type `"
                               << TypeKeyOf(info) << "` is given more than once";
    }
    reflection::CallFieldSetter(fields[index], reflection::FieldAddress(obj, fields[index]),
                                args[i + 1]);
    given[index] = true;
  }
  for (size_t i = 0; i < fields.size(); ++i) {
    if (given[i]) continue;
    if ((fields[i]->flags & kTVMFFIFieldFlagBitMaskHasDefault) == 0) {
      TVM_FFI_THROW(TypeError) << "Required field `" << FieldNameOf(fields[i])
                               << "` not set in type `" << TypeKeyOf(info) << "`";
    }
    reflection::SetFieldToDefault(fields[i], reflection::FieldAddress(obj, fields[i]));
  }
}

/// Sets the fields in order from args[1:], one value per field.
void SetPositionalFields(const std::vector<const TVMFFIFieldInfo*>& fields, PackedArgs args,
                         const Object* obj) {
  for (size_t i = 0; i < fields.size(); ++i) {
    reflection::CallFieldSetter(fields[i], reflection::FieldAddress(obj, fields[i]),
                                args[static_cast<int32_t>(i) + 1]);
  }
}

/// The type named by the first argument: a type key or a type index.
const TVMFFITypeInfo* TargetTypeInfo(AnyView target) {
  if (std::optional<int32_t> index = target.try_cast<int32_t>()) {
    const TVMFFITypeInfo* info = FindTypeInfo(*index);
    if (info == nullptr) {
      TVM_FFI_THROW(ValueError) << kMakeObject << ": unknown type index " << *index;
    }
    if (*index < kTVMFFIStaticObjectBegin) {
      TVM_FFI_THROW(TypeError) << kMakeObject << ": type index " << *index << " (`"
                               << TypeKeyOf(info) << "`) is not an object type";
    }
    return info;
  }
  std::optional<String> key = target.try_cast<String>();
  if (!key.has_value()) {
    TVM_FFI_THROW(TypeError) << kMakeObject << ": the first argument must be a type key (str) "
                             << "or a type index (int), got `" << target.GetTypeKey() << "`";
  }
  return reflection::GetTypeInfoByKey(key->view());
}

void MakeObjectFromPackedArgs(PackedArgs args, Any* ret) {
  if (args.size() < 1) {
    TVM_FFI_THROW(TypeError) << kMakeObject << ": expected a type key argument";
  }
  const TVMFFITypeInfo* info = TargetTypeInfo(args[0]);
  ObjectRef obj = reflection::CreateEmptyObject(info);
  std::vector<const TVMFFIFieldInfo*> fields = AllFields(info);
  size_t num_values = static_cast<size_t>(args.size() - 1);
  std::optional<std::vector<String>> names = PairNames(args);
  bool named = UsesNamedFields(names, num_values, fields);
  if (!named && num_values != fields.size()) {
    TVM_FFI_THROW(TypeError) << kMakeObject << ": expected (type_key, \"field\", value, ...) "
                             << "name/value pairs after the type key, or one value for each of the "
                             << fields.size() << " fields of `" << TypeKeyOf(info) << "`, but got "
                             << num_values << " argument(s) after the type key";
  }
  if (named) {
    SetNamedFields(info, fields, args, obj.get());
  } else {
    SetPositionalFields(fields, args, obj.get());
  }
  *ret = std::move(obj);
}

}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  reflection::GlobalDef()
      .def_packed("ffi.MakeObjectFromPackedArgs", MakeObjectFromPackedArgs);
}

}  // namespace ffi
}  // namespace tvm

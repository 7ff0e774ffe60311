// SPDX-License-Identifier: Apache-2.0
// reflection.cc: runtime global functions built on the reflection tables.
//
//   ffi.MakeObjectFromPackedArgs(type_key: str, *field_values) -> Object
//     The object is made by the creator in the
//     type's metadata, then every reflected field, ancestors' fields first and each type's fields
//     in registration order, is set from the next value through its setter. The number of values
//     must equal the number of fields (TypeError otherwise); a value that does not convert to the
//     field type raises the setter's TypeError; a type without a creator raises RuntimeError.
//   ffi.MakeFieldGetter(type_key, field) -> Function(obj) -> Any
//   ffi.MakeFieldSetter(type_key, field) -> Function(obj, value) -> None
#include <tvm/ffi/any.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/creator.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <string>
#include <vector>

namespace tvm {
namespace ffi {
namespace {

void MakeObjectFromPackedArgs(PackedArgs args, Any* ret) {
  if (args.size() < 1) {
    TVM_FFI_THROW(TypeError) << "ffi.MakeObjectFromPackedArgs(): expected a type key argument";
  }
  const TVMFFITypeInfo* info = reflection::GetTypeInfoByKey(args[0].cast<String>().view());
  std::vector<const TVMFFIFieldInfo*> fields;
  reflection::ForEachFieldInfo(info, [&](const TVMFFIFieldInfo* f) { fields.push_back(f); });
  if (static_cast<size_t>(args.size() - 1) != fields.size()) {
    TVM_FFI_THROW(TypeError) << "ffi.MakeObjectFromPackedArgs(): type `"
                             << std::string(info->type_key.data, info->type_key.size) << "` has "
                             << fields.size() << " fields but " << (args.size() - 1)
                             << " values were given";
  }
  ObjectRef obj = reflection::CreateEmptyObject(info);
  for (size_t i = 0; i < fields.size(); ++i) {
    reflection::FieldSetter setter(fields[i]);
    setter(obj, args[static_cast<int>(i) + 1]);
  }
  *ret = std::move(obj);
}

}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  reflection::GlobalDef()
      .def_packed("ffi.MakeObjectFromPackedArgs", MakeObjectFromPackedArgs)
      .def("ffi.MakeFieldGetter",
           [](const String& type_key, const String& name) {
             reflection::FieldGetter getter(type_key.view(), name.view());
             return Function::FromTyped([getter](const ObjectRef& obj) { return getter(obj); });
           })
      .def("ffi.MakeFieldSetter", [](const String& type_key, const String& name) {
        reflection::FieldSetter setter(type_key.view(), name.view());
        return Function::FromTyped(
            [setter](const ObjectRef& obj, AnyView value) { setter(obj, value); });
      });
}

}  // namespace ffi
}  // namespace tvm

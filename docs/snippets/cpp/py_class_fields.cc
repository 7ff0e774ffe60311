// SPDX-License-Identifier: Apache-2.0
// py_class_fields.cc: C++ code that reads objects through reflection alone, without their C++
// class; it works on objects whose type Python defined with @py_class (see
// docs/guide/dataclasses.md).
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <string>

namespace cpp_guide {
namespace ffi = tvm::ffi;
namespace refl = ffi::reflection;

// [field-names-begin]
// The names of obj's fields, inherited ones first, as its type's reflection lists them.
ffi::Array<ffi::String> FieldNames(const ffi::ObjectRef& obj) {
  ffi::Array<ffi::String> names;
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(obj->type_index());
  refl::ForEachFieldInfo(info, [&](const TVMFFIFieldInfo* field) {
    names.push_back(ffi::String(field->name.data, field->name.size));
  });
  return names;
}

TVM_FFI_DLL_EXPORT_TYPED_FUNC(field_names, FieldNames);
// [field-names-end]

// [read-field-begin]
// Reads two fields by name. FieldGetter looks the field up in the type's reflection
// (RuntimeError when the type has no such field) and returns the value as an Any;
// cast<double>() converts it (TypeError when it is not a number).
double Area(const ffi::ObjectRef& shape) {
  std::string type_key = shape->GetTypeKey();
  double width = refl::FieldGetter(type_key, "width")(shape).cast<double>();
  double height = refl::FieldGetter(type_key, "height")(shape).cast<double>();
  return width * height;
}

// Writes a field by name; the field's own setter checks and converts the value.
void Stretch(const ffi::ObjectRef& shape, double factor) {
  refl::FieldGetter get(shape->GetTypeKey(), "width");
  refl::FieldSetter set(shape->GetTypeKey(), "width");
  set(shape, get(shape).cast<double>() * factor);
}

TVM_FFI_DLL_EXPORT_TYPED_FUNC(area, Area);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(stretch, Stretch);
// [read-field-end]

// [any-begin]
// Takes any value: for an object, the sum of its int fields; anything else is a TypeError.
int64_t SumIntFields(const ffi::Any& value) {
  const ffi::Object* obj = value.as<ffi::Object>();
  if (obj == nullptr) {
    TVM_FFI_THROW(TypeError) << "sum_int_fields: expected an object, got " << value.GetTypeKey();
  }
  int64_t sum = 0;
  refl::ForEachFieldInfo(TVMFFIGetTypeInfo(obj->type_index()), [&](const TVMFFIFieldInfo* f) {
    if (auto number = refl::FieldGetter(f)(obj).as<int64_t>()) sum += *number;
  });
  return sum;
}

TVM_FFI_DLL_EXPORT_TYPED_FUNC(sum_int_fields, SumIntFields);
// [any-end]

}  // namespace cpp_guide

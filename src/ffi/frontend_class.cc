// SPDX-License-Identifier: Apache-2.0
// frontend_class.cc: native storage of object types defined by a frontend language (Python's
// `@py_class`), whose fields the frontend lays out itself:
//   ffi.MakeFieldGetter(field_static_type_index) -> address of the TVMFFIFieldGetter
//   ffi.MakeFieldSetter(field_static_type_index, converter, convert_fn) -> setter Function
//   ffi._PyClassRegisterTypeAttrColumns(type_index, total_size)
//       registers __ffi_new__ (a zeroed object), __ffi_shallow_copy__ and __ffi_init__.
//
// A field is stored by its static type index: int64, double, bool, void*, DLDataType and
// DLDevice inline; an object type (>= kTVMFFIStaticObjectBegin) as an ObjectRef (8 bytes, null
// reads as None); anything else (kTVMFFIAny = -1) as a 16-byte Any. Zeroed storage is a valid
// value of every kind, so a new object is zeroed memory and its deleter destroys field by field.
#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/object_def.h>
#include <tvm/ffi/reflection/registry.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

#include "runtime_internal.h"

namespace tvm {
namespace ffi {
namespace {

enum class FieldStorage { kInline, kObjectRef, kAny };

/// How a field is stored. Fields of native (C++) ancestors are classified the same way, by size:
/// 16 bytes is an Any cell (Any, String, Bytes, Optional of a value, Variant), 8 bytes of an
/// object type or of Any (Optional of an object) a nullable ObjectRef, the rest plain data.
FieldStorage StorageOf(int32_t static_type_index, int64_t size) {
  if (size == static_cast<int64_t>(sizeof(Any))) return FieldStorage::kAny;
  bool object_or_any = static_type_index >= TypeIndex::kTVMFFIStaticObjectBegin ||
                       static_type_index == TypeIndex::kTVMFFIAny;
  if (size == static_cast<int64_t>(sizeof(ObjectRef)) && object_or_any) {
    return FieldStorage::kObjectRef;
  }
  return FieldStorage::kInline;
}

template <typename T>
int ReadField(void* field, TVMFFIAny* result) {
  TVM_FFI_SAFE_CALL_BEGIN();
  Any value = *static_cast<const T*>(field);
  *result = details::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(value));
  TVM_FFI_SAFE_CALL_END();
}

TVMFFIFieldGetter GetterFor(int32_t static_type_index) {
  switch (static_type_index) {
    case TypeIndex::kTVMFFIInt:
      return &ReadField<int64_t>;
    case TypeIndex::kTVMFFIFloat:
      return &ReadField<double>;
    case TypeIndex::kTVMFFIBool:
      return &ReadField<bool>;
    case TypeIndex::kTVMFFIOpaquePtr:
      return &ReadField<void*>;
    case TypeIndex::kTVMFFIDataType:
      return &ReadField<DLDataType>;
    case TypeIndex::kTVMFFIDevice:
      return &ReadField<DLDevice>;
    default:
      return static_type_index >= TypeIndex::kTVMFFIStaticObjectBegin ? &ReadField<ObjectRef>
                                                                      : &ReadField<Any>;
  }
}

/// Stores an already converted value into a field of the given static type index.
void StoreField(int32_t static_type_index, void* field, Any value) {
  switch (static_type_index) {
    case TypeIndex::kTVMFFIInt:
      *static_cast<int64_t*>(field) = value.cast<int64_t>();
      return;
    case TypeIndex::kTVMFFIFloat:
      *static_cast<double*>(field) = value.cast<double>();
      return;
    case TypeIndex::kTVMFFIBool:
      *static_cast<bool*>(field) = value.cast<bool>();
      return;
    case TypeIndex::kTVMFFIOpaquePtr:
      *static_cast<void**>(field) = value.cast<void*>();
      return;
    case TypeIndex::kTVMFFIDataType:
      *static_cast<DLDataType*>(field) = value.cast<DLDataType>();
      return;
    case TypeIndex::kTVMFFIDevice:
      *static_cast<DLDevice*>(field) = value.cast<DLDevice>();
      return;
    default:
      if (static_type_index >= TypeIndex::kTVMFFIStaticObjectBegin) {
        *static_cast<ObjectRef*>(field) = value.cast<Optional<ObjectRef>>().value_or(ObjectRef());
      } else {
        *static_cast<Any*>(field) = std::move(value);
      }
  }
}

/// The frontend's conversion of a value to a field's declared type: returns 0, or -1 with the
/// error raised; `converter` is the frontend's (borrowed) description of the type.
using ConvertFn = int (*)(void* converter, const TVMFFIAny* value, TVMFFIAny* result);

Function MakeSetter(int32_t static_type_index, int64_t converter_address, int64_t convert_address) {
  // NOLINTNEXTLINE(performance-no-int-to-ptr)
  void* converter = reinterpret_cast<void*>(converter_address);
  // NOLINTNEXTLINE(performance-no-int-to-ptr)
  auto convert = reinterpret_cast<ConvertFn>(convert_address);
  return Function::FromPacked([=](PackedArgs args, Any*) {
    void* field = args[0].cast<void*>();
    if (convert == nullptr) {
      StoreField(static_type_index, field, Any(args[1]));
      return;
    }
    TVMFFIAny input = args[1].CopyToTVMFFIAny();
    TVMFFIAny converted;
    converted.type_index = TypeIndex::kTVMFFINone;
    converted.zero_padding = 0;
    converted.v_int64 = 0;
    TVM_FFI_CHECK_SAFE_CALL(convert(converter, &input, &converted));
    StoreField(static_type_index, field, details::AnyUnsafe::MoveTVMFFIAnyToAny(&converted));
  });
}

/// Destroys the non-inline fields of an object, its ancestors' fields included.
void DestroyFields(TVMFFIObject* header) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(header->type_index);
  reflection::ForEachFieldInfo(info, [&](const TVMFFIFieldInfo* field) {
    void* address = reinterpret_cast<char*>(header) + field->offset;
    switch (StorageOf(field->field_static_type_index, field->size)) {
      case FieldStorage::kObjectRef:
        static_cast<ObjectRef*>(address)->~ObjectRef();
        break;
      case FieldStorage::kAny:
        static_cast<Any*>(address)->~Any();
        break;
      case FieldStorage::kInline:
        break;
    }
  });
}

void DeleteFrontendObject(void* self, int flags) {
  auto* header = static_cast<TVMFFIObject*>(self);
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) DestroyFields(header);
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) std::free(self);
}

/// A new object of the type: zeroed fields, one strong and one weak reference.
ObjectRef NewFrontendObject(int32_t type_index, int64_t total_size) {
  void* memory = std::calloc(1, static_cast<size_t>(total_size));
  if (memory == nullptr)
    TVM_FFI_THROW(RuntimeError) << "NewFrontendObject: out of memory allocating an object";
  auto* header = static_cast<TVMFFIObject*>(memory);
  header->combined_ref_count = (uint64_t{1} << 32) | 1;
  header->type_index = type_index;
  header->deleter = &DeleteFrontendObject;
  return details::ObjectUnsafe::ObjectRefFromObjectPtr<ObjectRef>(
      details::ObjectUnsafe::ObjectPtrFromOwned<Object>(header));
}

/// A new object holding the same field values as `source` (sub-objects shared).
ObjectRef ShallowCopy(const ObjectRef& source, int64_t total_size) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(source->type_index());
  ObjectRef copy = NewFrontendObject(source->type_index(), total_size);
  reflection::ForEachFieldInfo(info, [&](const TVMFFIFieldInfo* field) {
    const char* from = reinterpret_cast<const char*>(source.get()) + field->offset;
    char* to = reinterpret_cast<char*>(const_cast<Object*>(copy.get())) + field->offset;
    switch (StorageOf(field->field_static_type_index, field->size)) {
      case FieldStorage::kObjectRef:
        *reinterpret_cast<ObjectRef*>(to) = *reinterpret_cast<const ObjectRef*>(from);
        break;
      case FieldStorage::kAny:
        *reinterpret_cast<Any*>(to) = *reinterpret_cast<const Any*>(from);
        break;
      case FieldStorage::kInline:
        std::memcpy(to, from, static_cast<size_t>(field->size));
        break;
    }
  });
  return copy;
}

void RegisterAttr(int32_t type_index, const char* name, const Function& value) {
  TVMFFIByteArray key{name, std::char_traits<char>::length(name)};
  reflection::EnsureTypeAttrColumn(name);
  TVMFFIAny cell = AnyView(value).CopyToTVMFFIAny();
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterAttr(type_index, &key, &cell));
}

void RegisterFrontendClass(int32_t type_index, int64_t total_size) {
  const TVMFFITypeInfo* info = FindTypeInfo(type_index);
  if (info == nullptr) {
    TVM_FFI_THROW(ValueError) << "ffi._PyClassRegisterTypeAttrColumns: unknown type index "
                              << type_index;
  }
  int64_t fields_end = static_cast<int64_t>(sizeof(TVMFFIObject));
  reflection::ForEachFieldInfo(info, [&](const TVMFFIFieldInfo* field) {
    fields_end = std::max(fields_end, field->offset + field->size);
  });
  if (total_size < fields_end) {
    TVM_FFI_THROW(ValueError) << "ffi._PyClassRegisterTypeAttrColumns: total_size " << total_size
                              << " is smaller than the " << fields_end
                              << " bytes the header and fields take";
  }
  RegisterAttr(type_index, reflection::type_attr::kNew,
               Function::FromTyped([=]() { return NewFrontendObject(type_index, total_size); }));
  RegisterAttr(
      type_index, reflection::type_attr::kShallowCopy,
      Function::FromTyped([=](const ObjectRef& obj) { return ShallowCopy(obj, total_size); }));
  Function::GetGlobalRequired("ffi._RegisterFFIInit")(type_index);
}

}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  reflection::GlobalDef()
      .def(
          "ffi.MakeFieldGetter",
          [](int32_t static_type_index) {
            return reinterpret_cast<int64_t>(GetterFor(static_type_index));
          },
          "Address of the native getter of a frontend-laid-out field of a static type index")
      .def("ffi.MakeFieldSetter", MakeSetter,
           "Setter Function of a frontend-laid-out field, converting through the frontend")
      .def("ffi._PyClassRegisterTypeAttrColumns", RegisterFrontendClass,
           "Registers __ffi_new__, __ffi_shallow_copy__ and __ffi_init__ of a frontend type");
}

}  // namespace ffi
}  // namespace tvm

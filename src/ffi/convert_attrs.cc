// SPDX-License-Identifier: Apache-2.0
// convert_attrs.cc: the `__ffi_convert__` type attribute of the built-in object types, which
// frontends call to turn a value into an object of the type (or get a TypeError saying why not).
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/enum.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

namespace tvm {
namespace ffi {

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = reflection;
  refl::TypeAttrDef<Object>().def_convert<ObjectRef>();
  refl::TypeAttrDef<StringObj>().def_convert<String>();
  refl::TypeAttrDef<BytesObj>().def_convert<Bytes>();
  refl::TypeAttrDef<ErrorObj>().def_convert<Error>();
  refl::TypeAttrDef<FunctionObj>().def_convert<Function>();
  refl::TypeAttrDef<ShapeObj>().def_convert<Shape>();
  refl::TypeAttrDef<TensorObj>().def_convert<Tensor>();
  refl::TypeAttrDef<ArrayObj>().def_convert<Array<Any>>();
  refl::TypeAttrDef<MapObj>().def_convert<Map<Any, Any>>();
  refl::TypeAttrDef<ListObj>().def_convert<List<Any>>();
  refl::TypeAttrDef<DictObj>().def_convert<Dict<Any, Any>>();
  refl::TypeAttrDef<IntEnumObj>().def_convert<IntEnum>();
  refl::TypeAttrDef<StrEnumObj>().def_convert<StrEnum>();
}

}  // namespace ffi
}  // namespace tvm

// SPDX-License-Identifier: Apache-2.0
// string.cc: creating string and bytes cells from raw bytes.
#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/string.h>

#include <string>
#include <utility>

#include "runtime_internal.h"

namespace tvm {
namespace ffi {

Any MakeHeapString(std::string text) {
  ObjectPtr<StringObj> obj = make_object<details::BytesObjFromStd<StringObj>>(std::move(text));
  TVMFFIAny cell;
  cell.type_index = kTVMFFIStr;
  cell.zero_padding = 0;
  cell.v_obj =
      static_cast<TVMFFIObject*>(details::ObjectUnsafe::MoveObjectPtrToHandle(std::move(obj)));
  return details::AnyUnsafe::MoveTVMFFIAnyToAny(&cell);
}

}  // namespace ffi
}  // namespace tvm

using namespace tvm::ffi;  // NOLINT(build/namespaces)

extern "C" {

int TVMFFIStringFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  TypeTraits<String>::MoveToAny(String(input->data, input->size), out);
  TVM_FFI_SAFE_CALL_END();
}

int TVMFFIBytesFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  TypeTraits<Bytes>::MoveToAny(Bytes(input->data, input->size), out);
  TVM_FFI_SAFE_CALL_END();
}

}  // extern "C"

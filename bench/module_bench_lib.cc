// SPDX-License-Identifier: Apache-2.0
// module_bench_lib.cc: the library bench_module.py loads: a no-op and a one-tensor function
// exported as __tvm_ffi_<name>, and a plain C no-op for ctypes.
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/function.h>

#include <cstdint>

namespace {
void Nop() {}
int64_t DataPtr(tvm::ffi::TensorView x) { return reinterpret_cast<int64_t>(x.data_ptr()); }
}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(nop, Nop);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(data_ptr, DataPtr);

extern "C" TVM_FFI_DLL_EXPORT void plain_c_nop(void) {}

// SPDX-License-Identifier: Apache-2.0
// env_tensor_alloc.cc: the DLPack tensor allocator (per thread, then process-wide) and
// TVMFFIEnvTensorAlloc, which kernels use to allocate outputs in the caller's framework.
#include <dlpack/dlpack.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/tensor_details.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/extra/c_env_slot_api.h>

#include <algorithm>
#include <atomic>

namespace {

std::atomic<DLPackManagedTensorAllocator> global_allocator{nullptr};
thread_local DLPackManagedTensorAllocator thread_allocator = nullptr;

void SetAllocatorError(void* /*error_ctx*/, const char* kind, const char* message) {
  TVMFFIErrorSetRaisedFromCStr(kind != nullptr ? kind : "RuntimeError",
                               message != nullptr ? message : "tensor allocation failed");
}

}  // namespace

extern "C" {

int TVMFFIEnvSetDLPackManagedTensorAllocator(
    DLPackManagedTensorAllocator allocator, int write_to_global_context,
    DLPackManagedTensorAllocator* opt_out_original_allocator) {
  // Read and written next to each other: one look-up of the thread's slot, as each access to a
  // thread_local of a shared library calls __tls_get_addr, and every call with a framework
  // tensor sets and restores the allocator.
  DLPackManagedTensorAllocator previous = thread_allocator;
  thread_allocator = allocator;
  if (opt_out_original_allocator != nullptr) *opt_out_original_allocator = previous;
  if (write_to_global_context != 0) global_allocator.store(allocator, std::memory_order_release);
  return 0;
}

DLPackManagedTensorAllocator* TVMFFIEnvThreadAllocatorSlot(void) { return &thread_allocator; }

DLPackManagedTensorAllocator TVMFFIEnvGetDLPackManagedTensorAllocator(void) {
  DLPackManagedTensorAllocator local = thread_allocator;
  if (local != nullptr) return local;
  return global_allocator.load(std::memory_order_acquire);
}

int TVMFFIEnvTensorAlloc(DLTensor* prototype, TVMFFIObjectHandle* out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  DLPackManagedTensorAllocator allocator = TVMFFIEnvGetDLPackManagedTensorAllocator();
  if (allocator == nullptr) {
    TVM_FFI_THROW(RuntimeError)
        << "TVMFFIEnvTensorAlloc: allocator is nullptr, install one with "
           "TVMFFIEnvSetDLPackManagedTensorAllocator (Python sets it from the framework of the "
           "tensors passed to a call)";
  }
  if (prototype == nullptr) TVM_FFI_THROW(ValueError) << "TVMFFIEnvTensorAlloc: prototype is NULL";
  tvm::ffi::details::CheckAllocatableShape(
      tvm::ffi::ShapeView(prototype->shape, static_cast<size_t>(std::max(prototype->ndim, 0))),
      prototype->dtype);
  DLTensor request{};
  request.device = prototype->device;
  request.ndim = prototype->ndim;
  request.dtype = prototype->dtype;
  request.shape = prototype->shape;
  DLManagedTensorVersioned* managed = nullptr;
  if (allocator(&request, &managed, nullptr, SetAllocatorError) != 0) return -1;
  if (managed == nullptr) {
    TVM_FFI_THROW(RuntimeError) << "TVMFFIEnvTensorAlloc: the allocator returned no tensor";
  }
  if (TVMFFITensorFromDLPackVersioned(managed, 0, 0, out) != 0) {
    if (managed->deleter != nullptr) managed->deleter(managed);
    return -1;
  }
  TVM_FFI_SAFE_CALL_END();
}

}  // extern "C"

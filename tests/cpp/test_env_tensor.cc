// SPDX-License-Identifier: Apache-2.0
// test_env_tensor.cc: per-thread streams, the DLPack tensor allocator (thread-local and global)
// the thread's allocator slot (c_env_slot_api.h) and Tensor::FromEnvAlloc.
#include <gtest/gtest.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/extra/c_env_slot_api.h>

#include <cstdint>
#include <cstdlib>
#include <thread>
#include <vector>

#include "test_utils.h"

namespace {

using tvm::ffi::Tensor;
using tvm_ffi_test::ErrorText;

constexpr DLDataType kFloat32{kDLFloat, 32, 1};
constexpr DLDevice kCPU{kDLCPU, 0};

TVMFFIStreamHandle StreamOnNewThread(int32_t device_type, int32_t device_id) {
  TVMFFIStreamHandle seen = reinterpret_cast<TVMFFIStreamHandle>(uintptr_t{1});
  std::thread([&] { seen = TVMFFIEnvGetStream(device_type, device_id); }).join();
  return seen;
}

TEST(EnvStream, StreamsArePerThreadAndPerDevice) {
  auto* stream = reinterpret_cast<TVMFFIStreamHandle>(uintptr_t{0x1234});
  auto* other = reinterpret_cast<TVMFFIStreamHandle>(uintptr_t{0x5678});
  TVMFFIStreamHandle previous = other;
  ASSERT_EQ(TVMFFIEnvSetStream(kDLCUDA, 0, stream, &previous), 0);
  EXPECT_EQ(previous, nullptr);
  EXPECT_EQ(TVMFFIEnvGetStream(kDLCUDA, 0), stream);
  EXPECT_EQ(TVMFFIEnvGetStream(kDLCUDA, 1), nullptr);
  EXPECT_EQ(TVMFFIEnvGetStream(kDLROCM, 0), nullptr);
  EXPECT_EQ(StreamOnNewThread(kDLCUDA, 0), nullptr);
  ASSERT_EQ(TVMFFIEnvSetStream(kDLCUDA, 0, other, &previous), 0);
  EXPECT_EQ(previous, stream);
  ASSERT_EQ(TVMFFIEnvSetStream(kDLCUDA, 0, nullptr, nullptr), 0);
  EXPECT_EQ(TVMFFIEnvGetStream(kDLCUDA, 0), nullptr);
}

/// A DLPackManagedTensorAllocator producing malloc'ed CPU tensors and counting deletions.
struct EnvCapsule {
  DLManagedTensorVersioned managed{};
  std::vector<int64_t> shape;
};
int env_deleted = 0;

int EnvAllocator(DLTensor* prototype, DLManagedTensorVersioned** out, void* error_ctx,
                 void (*set_error)(void*, const char*, const char*)) {
  if (prototype->ndim > 0 && prototype->shape[0] < 0) {
    set_error(error_ctx, "ValueError", "negative dimension");
    return -1;
  }
  auto* capsule = new EnvCapsule();
  capsule->shape.assign(prototype->shape, prototype->shape + prototype->ndim);
  DLTensor& tensor = capsule->managed.dl_tensor;
  tensor = *prototype;
  tensor.shape = capsule->shape.data();
  tensor.strides = nullptr;
  tensor.data = std::malloc(tvm::ffi::GetDataSize(*prototype) + 1);
  capsule->managed.version = {DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
  capsule->managed.manager_ctx = capsule;
  capsule->managed.deleter = [](DLManagedTensorVersioned* self) {
    auto* owner = static_cast<EnvCapsule*>(self->manager_ctx);
    std::free(owner->managed.dl_tensor.data);
    delete owner;
    ++env_deleted;
  };
  *out = &capsule->managed;
  return 0;
}

int OtherAllocator(DLTensor*, DLManagedTensorVersioned**, void*,
                   void (*)(void*, const char*, const char*)) {
  return -1;
}

/// Clears the thread-local and global allocators when a test ends.
struct AllocatorReset {
  ~AllocatorReset() { EXPECT_EQ(TVMFFIEnvSetDLPackManagedTensorAllocator(nullptr, 1, nullptr), 0); }
};

TEST(EnvTensorAlloc, FromEnvAllocWithoutAllocatorFails) {
  AllocatorReset reset;
  ASSERT_EQ(TVMFFIEnvSetDLPackManagedTensorAllocator(nullptr, 1, nullptr), 0);
  std::string text =
      ErrorText([] { Tensor::FromEnvAlloc(TVMFFIEnvTensorAlloc, {2}, kFloat32, kCPU); });
  EXPECT_EQ(text.rfind("RuntimeError: TVMFFIEnvTensorAlloc: allocator is nullptr", 0), 0u) << text;
}

TEST(EnvTensorAlloc, FromEnvAllocWrapsTheAllocatorResult) {
  AllocatorReset reset;
  ASSERT_EQ(TVMFFIEnvSetDLPackManagedTensorAllocator(EnvAllocator, 0, nullptr), 0);
  env_deleted = 0;
  {
    Tensor tensor = Tensor::FromEnvAlloc(TVMFFIEnvTensorAlloc, {2, 3}, kFloat32, kCPU);
    EXPECT_EQ(tensor.numel(), 6);
    EXPECT_EQ(tensor.stride(0), 3);
    EXPECT_EQ(tensor.stride(1), 1);
    EXPECT_EQ(env_deleted, 0);
  }
  EXPECT_EQ(env_deleted, 1);
  EXPECT_EQ(ErrorText([] { Tensor::FromEnvAlloc(TVMFFIEnvTensorAlloc, {-1}, kFloat32, kCPU); }),
            "ValueError: Tensor: negative dimension -1 in tensor shape");
  // 2^31 * 2^31 * 2^2 float32 elements: 2^69 bytes, which would wrap around a size_t.
  EXPECT_EQ(ErrorText([] {
              Tensor::FromEnvAlloc(TVMFFIEnvTensorAlloc, {int64_t{1} << 31, int64_t{1} << 31, 4},
                                   kFloat32, kCPU);
            }),
            "ValueError: Tensor: tensor shape too big; its size in bytes overflows int64");
}

TEST(EnvTensorAlloc, ThreadLocalOverridesGlobal) {
  AllocatorReset reset;
  DLPackManagedTensorAllocator previous = OtherAllocator;
  ASSERT_EQ(TVMFFIEnvSetDLPackManagedTensorAllocator(EnvAllocator, 1, &previous), 0);
  EXPECT_EQ(previous, nullptr);
  EXPECT_EQ(TVMFFIEnvGetDLPackManagedTensorAllocator(), EnvAllocator);
  ASSERT_EQ(TVMFFIEnvSetDLPackManagedTensorAllocator(OtherAllocator, 0, &previous), 0);
  EXPECT_EQ(previous, EnvAllocator);
  EXPECT_EQ(TVMFFIEnvGetDLPackManagedTensorAllocator(), OtherAllocator);
  DLPackManagedTensorAllocator seen = nullptr;
  std::thread([&] { seen = TVMFFIEnvGetDLPackManagedTensorAllocator(); }).join();
  EXPECT_EQ(seen, EnvAllocator);
  int rc = -1;
  std::thread([&] {
    DLPackManagedTensorAllocator thread_previous = OtherAllocator;
    rc = TVMFFIEnvSetDLPackManagedTensorAllocator(nullptr, 0, &thread_previous);
    seen = thread_previous;
  }).join();
  EXPECT_EQ(rc, 0);
  EXPECT_EQ(seen, nullptr);
}

TEST(EnvTensorAlloc, ThreadSlotIsWhatSetWritesAndGetReads) {
  AllocatorReset reset;
  DLPackManagedTensorAllocator* slot = TVMFFIEnvThreadAllocatorSlot();
  ASSERT_NE(slot, nullptr);
  EXPECT_EQ(TVMFFIEnvThreadAllocatorSlot(), slot);
  ASSERT_EQ(TVMFFIEnvSetDLPackManagedTensorAllocator(EnvAllocator, 0, nullptr), 0);
  EXPECT_EQ(*slot, EnvAllocator);
  *slot = OtherAllocator;
  EXPECT_EQ(TVMFFIEnvGetDLPackManagedTensorAllocator(), OtherAllocator);
  DLPackManagedTensorAllocator previous = nullptr;
  ASSERT_EQ(TVMFFIEnvSetDLPackManagedTensorAllocator(nullptr, 0, &previous), 0);
  EXPECT_EQ(previous, OtherAllocator);
  EXPECT_EQ(*slot, nullptr);
}

TEST(EnvTensorAlloc, ThreadSlotsArePerThread) {
  AllocatorReset reset;
  DLPackManagedTensorAllocator* slot = TVMFFIEnvThreadAllocatorSlot();
  *slot = EnvAllocator;
  DLPackManagedTensorAllocator* other_slot = nullptr;
  DLPackManagedTensorAllocator other_value = EnvAllocator;
  DLPackManagedTensorAllocator other_seen = nullptr;
  std::thread([&] {
    other_slot = TVMFFIEnvThreadAllocatorSlot();
    other_value = *other_slot;
    *other_slot = OtherAllocator;
    other_seen = TVMFFIEnvGetDLPackManagedTensorAllocator();
  }).join();
  EXPECT_NE(other_slot, slot);
  EXPECT_EQ(other_value, nullptr);
  EXPECT_EQ(other_seen, OtherAllocator);
  EXPECT_EQ(*slot, EnvAllocator);
  EXPECT_EQ(TVMFFIEnvGetDLPackManagedTensorAllocator(), EnvAllocator);
}

}  // namespace

// SPDX-License-Identifier: Apache-2.0
// test_memory.cc: make_object and make_inplace_array_object (alignment, header, deleters).
#include <gtest/gtest.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>

#include <cstdint>
#include <new>
#include <stdexcept>
#include <vector>

#include "test_utils.h"

namespace {

using tvm::ffi::make_inplace_array_object;
using tvm::ffi::make_object;
using tvm::ffi::Object;
using tvm::ffi::ObjectPtr;
using tvm_ffi_test::RefCountWord;

/// Over-aligned objects.
class alignas(64) Aligned64Obj : public Object {
 public:
  char payload[8] = {0};
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test_memory.Aligned64", Aligned64Obj, Object);
};
class alignas(256) Aligned256Obj : public Object {
 public:
  char payload[8] = {0};
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test_memory.Aligned256", Aligned256Obj, Object);
};

/// An in-place array: `size` int64 values stored right after the object.
class IntArrayObj : public Object {
 public:
  explicit IntArrayObj(size_t size, int* destroyed) : size(size), destroyed_(destroyed) {}
  ~IntArrayObj() { ++*destroyed_; }
  int64_t* data() { return reinterpret_cast<int64_t*>(this + 1); }
  size_t size;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test_memory.IntArray", IntArrayObj, Object);

 private:
  int* destroyed_;
};

/// An object whose constructor always throws.
class ThrowingObj : public Object {
 public:
  ThrowingObj() { throw std::runtime_error("constructor failed"); }
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test_memory.Throwing", ThrowingObj, Object);
};

TEST(MakeObject, HonoursOverAlignment) {
  std::vector<ObjectPtr<Aligned64Obj>> objs64;
  std::vector<ObjectPtr<Aligned256Obj>> objs256;
  for (int i = 0; i < 8; ++i) {
    objs64.push_back(make_object<Aligned64Obj>());
    objs256.push_back(make_object<Aligned256Obj>());
  }
  for (const auto& obj : objs64) EXPECT_EQ(reinterpret_cast<uintptr_t>(obj.get()) % 64, 0u);
  for (const auto& obj : objs256) EXPECT_EQ(reinterpret_cast<uintptr_t>(obj.get()) % 256, 0u);
  EXPECT_EQ(RefCountWord(objs256[0].get()), 0x100000001ULL);
}

TEST(MakeInplaceArrayObject, ElementsLiveAfterTheObject) {
  int destroyed = 0;
  constexpr size_t kSize = 1000;
  ObjectPtr<IntArrayObj> arr =
      make_inplace_array_object<IntArrayObj, int64_t>(kSize, kSize, &destroyed);
  for (size_t i = 0; i < kSize; ++i) arr->data()[i] = static_cast<int64_t>(i * 3);
  int64_t sum = 0;
  for (size_t i = 0; i < arr->size; ++i) sum += arr->data()[i];
  EXPECT_EQ(sum, 3 * static_cast<int64_t>(kSize * (kSize - 1) / 2));
  EXPECT_EQ(RefCountWord(arr.get()), 0x100000001ULL);
  EXPECT_EQ(arr->type_index(), IntArrayObj::RuntimeTypeIndex());
  arr.reset();
  EXPECT_EQ(destroyed, 1);
}

TEST(CheckedAllocationSize, RefusesSizesThatDoNotFit) {
  using tvm::ffi::details::CheckedAllocationSize;
  EXPECT_EQ(CheckedAllocationSize(3, 16, 8), 56u);
  EXPECT_EQ(CheckedAllocationSize(0, 16), 0u);
  EXPECT_THROW(CheckedAllocationSize(-1, 16), std::bad_alloc);
  EXPECT_THROW(CheckedAllocationSize(int64_t{1} << 60, 16), std::bad_alloc);  // wraps to 0
  const auto largest = static_cast<int64_t>((SIZE_MAX - 16) / 8);  // the header still fits
  EXPECT_EQ(CheckedAllocationSize(largest, 8, 16), 16 + static_cast<size_t>(largest) * 8);
  EXPECT_THROW(CheckedAllocationSize(largest + 1, 8, 16), std::bad_alloc);
}

TEST(MakeInplaceArrayObject, RefusesACountWhoseSizeWrapsAround) {
  int destroyed = 0;
  EXPECT_THROW(
      (make_inplace_array_object<IntArrayObj, int64_t>(size_t{1} << 61, size_t{0}, &destroyed)),
      std::bad_alloc);
  EXPECT_EQ(destroyed, 0);
}

TEST(MakeObject, ConstructorExceptionPropagatesAndFreesStorage) {
  // Under ASan's leak checker a storage block kept after the throw is reported.
  EXPECT_THROW(make_object<ThrowingObj>(), std::runtime_error);
}

}  // namespace

// SPDX-License-Identifier: Apache-2.0
// test_tensor.cc: Tensor and TensorView, DLPack import/export, unsafe views, layout rules and
// NDAlloc/env allocation.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/function.h>

#include <cstdint>
#include <cstdlib>
#include <type_traits>
#include <vector>

#include "test_utils.h"

namespace {

using tvm::ffi::Any;
using tvm::ffi::AnyView;
using tvm::ffi::Shape;
using tvm::ffi::ShapeView;
using tvm::ffi::Tensor;
using tvm::ffi::TensorView;
using tvm_ffi_test::ErrorText;

constexpr DLDataType kFloat32{kDLFloat, 32, 1};
constexpr DLDevice kCPU{kDLCPU, 0};

/// A producer's capsule: a 2x3 float32 tensor whose deleter counts its calls.
template <typename Managed>
struct Capsule {
  int64_t shape[2]{2, 3};
  int64_t strides[2]{3, 1};
  alignas(64) float data[8]{};
  Managed managed{};
  int* deleted{nullptr};
};

template <typename Managed>
void DeleteCapsule(Managed* self) {
  auto* capsule = static_cast<Capsule<Managed>*>(self->manager_ctx);
  ++*capsule->deleted;
  delete capsule;
}

template <typename Managed>
Capsule<Managed>* NewCapsule(int* deleted) {
  auto* capsule = new Capsule<Managed>();
  capsule->deleted = deleted;
  DLTensor& tensor = capsule->managed.dl_tensor;
  tensor.data = capsule->data;
  tensor.device = kCPU;
  tensor.ndim = 2;
  tensor.dtype = kFloat32;
  tensor.shape = capsule->shape;
  tensor.strides = capsule->strides;
  capsule->managed.manager_ctx = capsule;
  capsule->managed.deleter = DeleteCapsule<Managed>;
  if constexpr (std::is_same_v<Managed, DLManagedTensorVersioned>) {
    capsule->managed.version = {DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
  }
  return capsule;
}

/// NDAlloc allocator counting AllocData/FreeData calls; AllocData adds `extra` to a sum.
struct CountingAlloc {
  int* allocated;
  int* freed;
  void AllocData(DLTensor* tensor, int extra = 0) {
    *allocated += 1 + extra;
    tensor->data = std::malloc(tvm::ffi::GetDataSize(*tensor) + 1);
  }
  void FreeData(DLTensor* tensor) {
    ++*freed;
    std::free(tensor->data);
  }
};

Tensor MakeCPUTensor(ShapeView shape, int* allocated, int* freed) {
  return Tensor::FromNDAlloc(CountingAlloc{allocated, freed}, shape, kFloat32, kCPU);
}

std::vector<int64_t> ToVector(ShapeView view) { return {view.begin(), view.end()}; }

TEST(TensorDLPack, DeleterRunsOnceWhenTheLastReferenceDies) {
  int deleted = 0;
  auto* capsule = NewCapsule<DLManagedTensor>(&deleted);
  {
    Tensor tensor = Tensor::FromDLPack(&capsule->managed);
    Tensor copy = tensor;
    EXPECT_EQ(tensor.data_ptr(), capsule->data);
    EXPECT_EQ(tensor.shape().data(), capsule->shape);
    EXPECT_EQ(tensor.numel(), 6);
    EXPECT_EQ(deleted, 0);
  }
  EXPECT_EQ(deleted, 1);
}

TEST(TensorDLPack, FailedChecksLeaveOwnershipWithTheCaller) {
  int deleted = 0;
  auto* capsule = NewCapsule<DLManagedTensor>(&deleted);
  capsule->managed.dl_tensor.data = capsule->data + 1;
  EXPECT_EQ(ErrorText([&] { Tensor::FromDLPack(&capsule->managed, 64); }),
            "RuntimeError: FromDLPack: Data is not aligned to 64 bytes.");
  capsule->managed.dl_tensor.data = capsule->data;
  capsule->strides[0] = 1;
  capsule->strides[1] = 2;
  EXPECT_EQ(ErrorText([&] { Tensor::FromDLPack(&capsule->managed, 64, true); }),
            "RuntimeError: FromDLPack: Tensor is not contiguous.");
  EXPECT_EQ(deleted, 0);
  capsule->managed.deleter(&capsule->managed);
  EXPECT_EQ(deleted, 1);
}

TEST(TensorDLPack, NullStridesAreFilledWithCompactStrides) {
  int deleted = 0;
  auto* capsule = NewCapsule<DLManagedTensor>(&deleted);
  capsule->managed.dl_tensor.strides = nullptr;
  Tensor tensor = Tensor::FromDLPack(&capsule->managed, 0, true);
  EXPECT_EQ(ToVector(tensor.strides()), (std::vector<int64_t>{3, 1}));
  EXPECT_TRUE(tensor.IsContiguous());
}

TEST(TensorDLPack, VersionedRejectsPaddedSubbyteAndOwnsOtherwise) {
  int deleted = 0;
  auto* capsule = NewCapsule<DLManagedTensorVersioned>(&deleted);
  capsule->managed.flags = DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED;
  EXPECT_EQ(ErrorText([&] { Tensor::FromDLPackVersioned(&capsule->managed); }),
            "RuntimeError: Subbyte type padded is not yet supported");
  EXPECT_EQ(deleted, 0);
  capsule->managed.flags = DLPACK_FLAG_BITMASK_READ_ONLY;
  Tensor tensor = Tensor::FromDLPackVersioned(&capsule->managed, 16, true);
  EXPECT_EQ(tensor.ndim(), 2);
  tensor = Tensor();
  EXPECT_EQ(deleted, 1);
}

TEST(TensorDLPack, ReadOnlyFlagSurvivesAVersionedRoundTrip) {
  int deleted = 0;
  auto* capsule = NewCapsule<DLManagedTensorVersioned>(&deleted);
  capsule->managed.flags = DLPACK_FLAG_BITMASK_READ_ONLY;
  Tensor tensor = Tensor::FromDLPackVersioned(&capsule->managed);
  DLManagedTensorVersioned* exported = tensor.ToDLPackVersioned();
  EXPECT_EQ(exported->flags, DLPACK_FLAG_BITMASK_READ_ONLY);
  Tensor again = Tensor::FromDLPackVersioned(exported);
  DLManagedTensorVersioned* twice = again.ToDLPackVersioned();
  EXPECT_EQ(twice->flags, DLPACK_FLAG_BITMASK_READ_ONLY);
  twice->deleter(twice);
  EXPECT_EQ(ErrorText([&] { again.ToDLPack(); }),
            "BufferError: ToDLPack: the tensor is read-only, which a legacy DLManagedTensor "
            "cannot say; export a versioned one instead");
  tensor = Tensor();
  again = Tensor();
  EXPECT_EQ(deleted, 1);
}

TEST(TensorDLPack, WritableVersionedImportExportsWritable) {
  int deleted = 0;
  auto* capsule = NewCapsule<DLManagedTensorVersioned>(&deleted);
  capsule->managed.flags = DLPACK_FLAG_BITMASK_IS_COPIED;
  Tensor tensor = Tensor::FromDLPackVersioned(&capsule->managed);
  DLManagedTensorVersioned* exported = tensor.ToDLPackVersioned();
  EXPECT_EQ(exported->flags, 0u);
  exported->deleter(exported);
  DLManagedTensor* legacy = tensor.ToDLPack();
  legacy->deleter(legacy);
}

TEST(TensorDLPack, ToDLPackCapsuleHoldsOneReference) {
  int allocated = 0, freed = 0;
  Tensor tensor = MakeCPUTensor({2, 3}, &allocated, &freed);
  DLManagedTensor* managed = tensor.ToDLPack();
  EXPECT_EQ(tensor.use_count(), 2);
  EXPECT_EQ(managed->dl_tensor.data, tensor.data_ptr());
  EXPECT_EQ(managed->dl_tensor.shape, tensor.shape().data());
  Tensor imported = Tensor::FromDLPack(managed);
  EXPECT_EQ(imported.data_ptr(), tensor.data_ptr());
  EXPECT_EQ(tensor.use_count(), 2);
  imported = Tensor();
  EXPECT_EQ(tensor.use_count(), 1);
  tensor = Tensor();
  EXPECT_EQ(freed, 1);
}

TEST(TensorDLPack, ToDLPackVersionedSetsVersionAndFlags) {
  int allocated = 0, freed = 0;
  Tensor tensor = MakeCPUTensor({4}, &allocated, &freed);
  DLManagedTensorVersioned* managed = tensor.ToDLPackVersioned();
  EXPECT_EQ(managed->version.major, DLPACK_MAJOR_VERSION);
  EXPECT_EQ(managed->version.minor, DLPACK_MINOR_VERSION);
  EXPECT_EQ(managed->flags, 0u);
  EXPECT_EQ(tensor.use_count(), 2);
  managed->deleter(managed);
  EXPECT_EQ(tensor.use_count(), 1);
}

TEST(TensorView, AsStridedKeepsTheSourceAliveAndCopiesShape) {
  int allocated = 0, freed = 0;
  Tensor source = MakeCPUTensor({2, 3}, &allocated, &freed);
  std::vector<int64_t> shape{3, 2}, strides{1, 3};
  Tensor view = source.as_strided(ShapeView(shape.data(), 2), ShapeView(strides.data(), 2), 2);
  shape.assign({9, 9});
  strides.assign({9, 9});
  EXPECT_EQ(source.use_count(), 2);
  // On the CPU the data pointer takes the offset of 2 floats.
  EXPECT_EQ(view.data_ptr(), static_cast<char*>(source.data_ptr()) + 8);
  EXPECT_EQ(view.byte_offset(), 0u);
  EXPECT_EQ(ToVector(view.shape()), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(ToVector(view.strides()), (std::vector<int64_t>{1, 3}));
  EXPECT_FALSE(view.IsContiguous());
  EXPECT_EQ(source.as_strided({6}, {1}).byte_offset(), 0u);
  // Offsets add up.
  Tensor further = view.as_strided({1}, {1}, 1);
  EXPECT_EQ(further.data_ptr(), static_cast<char*>(source.data_ptr()) + 12);
  further = Tensor();
  source = Tensor();
  EXPECT_EQ(freed, 0);
  view = Tensor();
  EXPECT_EQ(freed, 1);
}

TEST(TensorCApi, RejectsBadInput) {
  int allocated = 0, freed = 0;
  Tensor source = MakeCPUTensor({6}, &allocated, &freed);
  DLTensor prototype = *source.GetDLTensorPtr();
  prototype.strides = nullptr;
  TVMFFIObjectHandle out = nullptr;
  TVMFFIObject* handle = tvm::ffi::details::ObjectUnsafe::GetHeader(source);
  EXPECT_EQ(TVMFFITensorCreateUnsafeView(handle, &prototype, &out), -1);
  tvm_ffi_test::ExpectRaised("ValueError", "explicit strides");
  Shape shape{1, 2};
  DLManagedTensor* managed = nullptr;
  EXPECT_EQ(TVMFFITensorToDLPack(tvm::ffi::details::ObjectUnsafe::GetHeader(shape), &managed), -1);
  tvm_ffi_test::ExpectRaised("TypeError", "expected a Tensor");
  int deleted = 0;
  auto* capsule = NewCapsule<DLManagedTensorVersioned>(&deleted);
  capsule->managed.version.major = DLPACK_MAJOR_VERSION + 1;
  EXPECT_EQ(TVMFFITensorFromDLPackVersioned(&capsule->managed, 0, 0, &out), -1);
  tvm_ffi_test::ExpectRaised("RuntimeError", "major version");
  capsule->managed.deleter(&capsule->managed);
  EXPECT_EQ(deleted, 1);
}

TEST(TensorCApi, RejectsImpossibleShapes) {
  int deleted = 0;
  auto* capsule = NewCapsule<DLManagedTensorVersioned>(&deleted);
  DLTensor& tensor = capsule->managed.dl_tensor;
  TVMFFIObjectHandle out = nullptr;
  auto expect_refused = [&](const char* message) {
    EXPECT_EQ(TVMFFITensorFromDLPackVersioned(&capsule->managed, 0, 0, &out), -1);
    tvm_ffi_test::ExpectRaised("ValueError", message);
  };
  tensor.ndim = 1 << 20;  // far more entries than the shape array has
  expect_refused("ndim must be in [0, 64], got 1048576");
  tensor.ndim = -1;
  expect_refused("ndim must be in [0, 64], got -1");
  tensor.ndim = 2;
  capsule->shape[0] = -3;
  expect_refused("dimension 0 is negative (-3)");
  capsule->shape[0] = int64_t{1} << 62;
  capsule->shape[1] = int64_t{1} << 62;
  expect_refused("size in bytes overflows int64");
  capsule->shape[1] = 0;  // no element: nothing overflows
  tensor.strides = nullptr;
  ASSERT_EQ(TVMFFITensorFromDLPackVersioned(&capsule->managed, 0, 0, &out), 0);
  EXPECT_EQ(Tensor(tvm::ffi::details::ObjectUnsafe::ObjectPtrFromOwned<tvm::ffi::TensorObj>(
                       static_cast<TVMFFIObject*>(out)))
                .numel(),
            0);
  EXPECT_EQ(deleted, 1);
}

TEST(TensorView, AsStridedRejectsMismatchedSizes) {
  int allocated = 0, freed = 0;
  Tensor source = MakeCPUTensor({6}, &allocated, &freed);
  EXPECT_EQ(ErrorText([&] { source.as_strided({2, 3}, {1}); }),
            "ValueError: shape and strides must have the same size.");
  EXPECT_EQ(ErrorText([&] { source.as_strided({2}, {1}, -1); }),
            "ValueError: as_strided: the element offset must not be negative, got -1");
}

DLTensor MakeDLTensor(int64_t* shape, int64_t* strides, int32_t ndim) {
  DLTensor tensor{};
  tensor.device = kCPU;
  tensor.dtype = kFloat32;
  tensor.ndim = ndim;
  tensor.shape = shape;
  tensor.strides = strides;
  return tensor;
}

TEST(TensorLayout, IsContiguous) {
  int64_t shape[3] = {2, 1, 3};
  int64_t compact[3] = {3, 3, 1};
  int64_t odd_unit[3] = {3, 100, 1};
  int64_t transposed[3] = {1, 3, 2};
  EXPECT_TRUE(tvm::ffi::IsContiguous(MakeDLTensor(shape, nullptr, 3)));
  EXPECT_TRUE(tvm::ffi::IsContiguous(MakeDLTensor(shape, compact, 3)));
  EXPECT_TRUE(tvm::ffi::IsContiguous(MakeDLTensor(shape, odd_unit, 3)));
  EXPECT_FALSE(tvm::ffi::IsContiguous(MakeDLTensor(shape, transposed, 3)));
  int64_t empty_shape[2] = {0, 4};
  int64_t weird[2] = {7, 7};
  EXPECT_TRUE(tvm::ffi::IsContiguous(MakeDLTensor(empty_shape, weird, 2)));
  EXPECT_TRUE(tvm::ffi::IsContiguous(MakeDLTensor(nullptr, nullptr, 0)));
}

TEST(TensorLayout, IsAlignedChecksAddressOnlyOnDirectDevices) {
  DLTensor tensor = MakeDLTensor(nullptr, nullptr, 0);
  tensor.data = reinterpret_cast<void*>(uintptr_t{0x1004});
  tensor.byte_offset = 12;
  EXPECT_TRUE(tvm::ffi::IsAligned(tensor, 16));
  EXPECT_FALSE(tvm::ffi::IsAligned(tensor, 32));
  tensor.device = DLDevice{kDLVulkan, 0};
  EXPECT_FALSE(tvm::ffi::IsAligned(tensor, 16));
  tensor.byte_offset = 32;
  EXPECT_TRUE(tvm::ffi::IsAligned(tensor, 16));
  EXPECT_TRUE(tvm::ffi::IsAligned(tensor, 0));
  EXPECT_TRUE(tvm::ffi::IsDirectAddressDevice(DLDevice{kDLCUDAManaged, 0}));
  EXPECT_FALSE(tvm::ffi::IsDirectAddressDevice(DLDevice{kDLOpenCL, 0}));
}

TEST(TensorLayout, GetDataSizePacksSubbyteTypes) {
  EXPECT_EQ(tvm::ffi::GetDataSize(6, kFloat32), 24u);
  EXPECT_EQ(tvm::ffi::GetDataSize(3, DLDataType{kDLInt, 4, 1}), 2u);
  EXPECT_EQ(tvm::ffi::GetDataSize(9, DLDataType{kDLUInt, 1, 1}), 2u);
  EXPECT_EQ(tvm::ffi::GetDataSize(2, DLDataType{kDLFloat, 16, 4}), 16u);
  int allocated = 0, freed = 0;
  Tensor tensor = MakeCPUTensor({2, 5}, &allocated, &freed);
  EXPECT_EQ(tvm::ffi::GetDataSize(tensor), 40u);
  EXPECT_EQ(tvm::ffi::GetDataSize(TensorView(tensor)), 40u);
}

TEST(TensorNDAlloc, AllocatesAtConstructionAndFreesAtDestruction) {
  int allocated = 0, freed = 0;
  {
    Tensor tensor =
        Tensor::FromNDAlloc(CountingAlloc{&allocated, &freed}, {2, 3, 4}, kFloat32, kCPU, 10);
    EXPECT_EQ(allocated, 11);
    EXPECT_EQ(tensor.GetTypeKey(), "ffi.Tensor");
    EXPECT_EQ(ToVector(tensor.shape()), (std::vector<int64_t>{2, 3, 4}));
    EXPECT_EQ(ToVector(tensor.strides()), (std::vector<int64_t>{12, 4, 1}));
    EXPECT_TRUE(tensor.IsContiguous());
    EXPECT_EQ(tensor.byte_offset(), 0u);
    EXPECT_EQ(tensor.dtype(), kFloat32);
    EXPECT_EQ(tensor.device().device_type, kDLCPU);
  }
  EXPECT_EQ(freed, 1);
}

TEST(TensorNDAlloc, StridedKeepsGivenStrides) {
  int allocated = 0, freed = 0;
  Tensor tensor =
      Tensor::FromNDAllocStrided(CountingAlloc{&allocated, &freed}, {2, 3}, {1, 2}, kFloat32, kCPU);
  EXPECT_EQ(ToVector(tensor.strides()), (std::vector<int64_t>{1, 2}));
  EXPECT_FALSE(tensor.is_contiguous());
  EXPECT_EQ(ErrorText([&] {
              Tensor::FromNDAllocStrided(CountingAlloc{&allocated, &freed}, {2, 3}, {1}, kFloat32,
                                         kCPU);
            }),
            "ValueError: shape and strides must have the same size.");
  EXPECT_EQ(allocated, 1);
}

TEST(TensorNDAlloc, RefusesShapesWhoseSizeCannotBeAllocated) {
  int allocated = 0, freed = 0;
  auto make = [&](std::vector<int64_t> shape, DLDataType dtype) {
    return ErrorText([&] {
      Tensor::FromNDAlloc(CountingAlloc{&allocated, &freed}, ShapeView(shape.data(), shape.size()),
                          dtype, kCPU);
    });
  };
  const std::string too_big =
      "ValueError: Tensor: tensor shape too big; its size in bytes overflows int64";
  EXPECT_EQ(make({int64_t{1} << 40, int64_t{1} << 40}, kFloat32), too_big);
  EXPECT_EQ(make({int64_t{1} << 60}, kFloat32), too_big);                     // 2^65 bits
  EXPECT_EQ(make({int64_t{1} << 58}, DLDataType{kDLFloat, 32, 4}), too_big);  // via lanes
  EXPECT_EQ(make({3, -2}, kFloat32), "ValueError: Tensor: negative dimension -2 in tensor shape");
  EXPECT_EQ(ErrorText([&] {
              Tensor::FromNDAllocStrided(CountingAlloc{&allocated, &freed},
                                         {int64_t{1} << 40, int64_t{1} << 40}, {1, 1}, kFloat32,
                                         kCPU);
            }),
            too_big);
  EXPECT_EQ(allocated, 0);
  // A zero dimension holds no data, however large the others are.
  Tensor empty = Tensor::FromNDAlloc(CountingAlloc{&allocated, &freed},
                                     {int64_t{1} << 40, 0, int64_t{1} << 40}, kFloat32, kCPU);
  EXPECT_EQ(empty.numel(), 0);
  // One element more than the bits of int64 can count is refused.
  EXPECT_EQ(make({(INT64_MAX / 32) + 1}, kFloat32), too_big);
}

TEST(TensorNDAlloc, ZeroDimTensor) {
  int allocated = 0, freed = 0;
  Tensor tensor = MakeCPUTensor({}, &allocated, &freed);
  EXPECT_EQ(tensor.ndim(), 0);
  EXPECT_EQ(tensor.numel(), 1);
  EXPECT_TRUE(tensor.strides().empty());
  EXPECT_EQ(ErrorText([&] { tensor.size(0); }),
            "IndexError: Index 0 out of bounds for tensor with 0 dimensions");
}

TEST(TensorAccessors, SizeAndStrideCountFromTheEnd) {
  int allocated = 0, freed = 0;
  Tensor tensor = MakeCPUTensor({2, 3, 4}, &allocated, &freed);
  EXPECT_EQ(tensor.size(-1), 4);
  EXPECT_EQ(tensor.size(-3), 2);
  EXPECT_EQ(tensor.stride(-2), 4);
  EXPECT_EQ(tensor.dim(), 3);
  EXPECT_EQ(ErrorText([&] { tensor.size(3); }),
            "IndexError: Index 3 out of bounds for tensor with 3 dimensions");
  EXPECT_EQ(ErrorText([&] { tensor.stride(-4); }),
            "IndexError: Index -4 out of bounds for tensor with 3 dimensions");
  TensorView view = tensor;
  EXPECT_EQ(view.size(-2), 3);
  EXPECT_EQ(ErrorText([&] { view.stride(5); }),
            "IndexError: Index 5 out of bounds for tensor with 3 dimensions");
}

TEST(TensorView, FromTensorAndDLTensorPointer) {
  static_assert(sizeof(TensorView) == 48, "TensorView is a DLTensor copy");
  static_assert(!std::is_constructible_v<TensorView, Tensor&&>, "no view of a temporary");
  int allocated = 0, freed = 0;
  Tensor tensor = MakeCPUTensor({2, 3}, &allocated, &freed);
  TensorView view = tensor;
  EXPECT_EQ(view.data_ptr(), tensor.data_ptr());
  EXPECT_EQ(view.numel(), 6);
  EXPECT_EQ(view.dim(), 2);
  EXPECT_EQ(ToVector(view.sizes()), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(tensor.use_count(), 1);
  int64_t shape[1] = {5};
  int64_t strides[1] = {1};
  DLTensor raw = MakeDLTensor(shape, strides, 1);
  TensorView raw_view = &raw;
  EXPECT_EQ(raw_view.size(0), 5);
  EXPECT_NE(raw_view.GetDLTensorPtr(), &raw);
  int64_t new_shape[1] = {2};
  int64_t new_strides[1] = {2};
  TensorView strided = raw_view.as_strided(ShapeView(new_shape, 1), ShapeView(new_strides, 1), 1);
  EXPECT_EQ(strided.stride(0), 2);
  // No data: nothing to move, the offset stays.
  EXPECT_EQ(strided.byte_offset(), 4u);
  float data[5] = {};
  raw.data = data;
  TensorView with_data =
      TensorView(&raw).as_strided(ShapeView(new_shape, 1), ShapeView(new_strides, 1), 1);
  EXPECT_EQ(with_data.byte_offset(), 0u);
  EXPECT_EQ(with_data.data_ptr(), static_cast<void*>(data + 1));
  view = tensor;
  EXPECT_EQ(view.ndim(), 2);
  EXPECT_EQ(ErrorText([] {
              TensorView null_view(static_cast<const DLTensor*>(nullptr));
              (void)null_view;
            }),
            "InternalError: Check failed: (tensor != nullptr) is false: TensorView: the DLTensor "
            "pointer is null");
}

TEST(TensorAny, TensorIsAnObjectAndViewsArePointers) {
  int allocated = 0, freed = 0;
  Tensor tensor = MakeCPUTensor({2}, &allocated, &freed);
  Any any = tensor;
  EXPECT_EQ(any.type_index(), kTVMFFITensor);
  EXPECT_TRUE(any.cast<Tensor>().same_as(tensor));
  TensorView view = tensor;
  AnyView any_view = view;
  EXPECT_EQ(any_view.type_index(), kTVMFFIDLTensorPtr);
  EXPECT_EQ(any_view.cast<DLTensor*>(), view.GetDLTensorPtr());
  EXPECT_EQ(any_view.cast<TensorView>().data_ptr(), tensor.data_ptr());
  EXPECT_EQ(AnyView(tensor).cast<TensorView>().size(0), 2);
  EXPECT_FALSE(AnyView(int64_t{1}).try_cast<TensorView>().has_value());
  EXPECT_FALSE(AnyView().try_cast<TensorView>().has_value());
  EXPECT_FALSE(any_view.try_cast<Tensor>().has_value());
  EXPECT_FALSE(AnyView().cast<Tensor>().defined());
}

}  // namespace

// SPDX-License-Identifier: Apache-2.0
// container/tensor_layout.h: layout rules of DLTensor (contiguity, alignment, byte size) and
// TensorObj, the object (index 70) that is an Object header followed by a whole DLTensor.
#ifndef TVM_FFI_CONTAINER_TENSOR_LAYOUT_H_
#define TVM_FFI_CONTAINER_TENSOR_LAYOUT_H_

#include <dlpack/dlpack.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/object.h>

#include <cstddef>
#include <cstdint>

namespace tvm {
namespace ffi {

/// True for devices whose data pointer is a plain address (CPU, CUDA, ROCm and their host and
/// managed variants); other devices may use opaque handles as data pointers.
inline bool IsDirectAddressDevice(const DLDevice& device) {
  switch (device.device_type) {
    case kDLCPU:
    case kDLCUDA:
    case kDLCUDAHost:
    case kDLROCM:
    case kDLROCMHost:
    case kDLCUDAManaged:
      return true;
    default:
      return false;
  }
}

/// Row-major contiguity: NULL strides, any zero-size dimension, or every dimension of size
/// other than 1 having the compact stride.
inline bool IsContiguous(const DLTensor& tensor) {
  if (tensor.strides == nullptr) return true;
  for (int32_t i = 0; i < tensor.ndim; ++i) {
    if (tensor.shape[i] == 0) return true;
  }
  int64_t expected = 1;
  for (int32_t i = tensor.ndim - 1; i >= 0; --i) {
    if (tensor.shape[i] != 1 && tensor.strides[i] != expected) return false;
    expected *= tensor.shape[i];
  }
  return true;
}

/// Whether the first element is aligned to `alignment` bytes; for devices that do not use
/// plain addresses only the byte offset is checked.
inline bool IsAligned(const DLTensor& tensor, size_t alignment) {
  if (alignment == 0) return true;
  if (IsDirectAddressDevice(tensor.device)) {
    uintptr_t address = reinterpret_cast<uintptr_t>(tensor.data) + tensor.byte_offset;
    return address % alignment == 0;
  }
  return tensor.byte_offset % alignment == 0;
}

/// Bytes needed by `numel` elements of `dtype`, sub-byte types packed.
inline size_t GetDataSize(size_t numel, DLDataType dtype) {
  return (numel * dtype.bits * static_cast<size_t>(dtype.lanes) + 7) / 8;
}

/// Number of elements of a DLTensor (1 for a 0-d tensor).
inline int64_t NumElements(const DLTensor& tensor) {
  int64_t numel = 1;
  for (int32_t i = 0; i < tensor.ndim; ++i) numel *= tensor.shape[i];
  return numel;
}

/// Bytes of data of a DLTensor.
inline size_t GetDataSize(const DLTensor& tensor) {
  return GetDataSize(static_cast<size_t>(NumElements(tensor)), tensor.dtype);
}

namespace details {
/// The int64 values (shape, strides) stored right after an object of the concrete type
/// ObjType, subclass members included, by make_inplace_array_object.
template <typename ObjType>
int64_t* InlineTensorValues(ObjType* obj) {
  return reinterpret_cast<int64_t*>(reinterpret_cast<char*>(obj) + sizeof(ObjType));
}

/// Writes the compact row-major strides of `shape` into `strides`.
inline void FillCompactStrides(const int64_t* shape, int32_t ndim, int64_t* strides) {
  int64_t stride = 1;
  for (int32_t i = ndim - 1; i >= 0; --i) {
    strides[i] = stride;
    stride *= shape[i];
  }
}
}  // namespace details

/// Tensor object: the object header followed by a whole DLTensor (data at handle + 24).
/// Subclasses decide who owns the data, shape and strides.
class TensorObj : public Object, public DLTensor {
 public:
  /// A tensor with every DLTensor field zero.
  TensorObj() : DLTensor{} {}

  /// A new legacy DLPack capsule sharing the data and holding one reference to this tensor.
  DLManagedTensor* ToDLPack() const {
    DLManagedTensor* out = nullptr;
    TVM_FFI_CHECK_SAFE_CALL(TVMFFITensorToDLPack(details::ObjectUnsafe::GetHeader(this), &out));
    return out;
  }
  /// A new versioned DLPack capsule sharing the data and holding one reference to this tensor.
  DLManagedTensorVersioned* ToDLPackVersioned() const {
    DLManagedTensorVersioned* out = nullptr;
    TVM_FFI_CHECK_SAFE_CALL(
        TVMFFITensorToDLPackVersioned(details::ObjectUnsafe::GetHeader(this), &out));
    return out;
  }

  static constexpr const int32_t _type_index = TypeIndex::kTVMFFITensor;
  static constexpr bool _type_final = true;
  static constexpr uint32_t _type_child_slots = 0;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFITensor, TensorObj, Object);

 protected:
  /// Deleter of a capsule (allocated with new) whose manager_ctx holds one reference to a
  /// TensorObj: releases the reference, then the capsule.
  template <typename TDLManagedTensor>
  static void DLManagedTensorDeleter(TDLManagedTensor* tensor) {
    details::ObjectUnsafe::DecRefObjectHandle(static_cast<TensorObj*>(tensor->manager_ctx));
    delete tensor;
  }

  friend class Tensor;
};

static_assert(sizeof(TensorObj) == 72, "TensorObj must be the header plus a DLTensor");

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_CONTAINER_TENSOR_LAYOUT_H_

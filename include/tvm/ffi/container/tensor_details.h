// SPDX-License-Identifier: Apache-2.0
// container/tensor_details.h: helpers shared by Tensor and TensorView.
#ifndef TVM_FFI_CONTAINER_TENSOR_DETAILS_H_
#define TVM_FFI_CONTAINER_TENSOR_DETAILS_H_

#include <dlpack/dlpack.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/container/tensor_layout.h>
#include <tvm/ffi/error.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>

namespace tvm {
namespace ffi {
namespace details {

[[noreturn]] TVM_FFI_COLD_CODE inline void ThrowTensorIndex(int64_t index, int32_t ndim) {
  TVM_FFI_THROW(IndexError) << "Index " << index << " out of bounds for tensor with " << ndim
                            << " dimensions";
  TVM_FFI_UNREACHABLE();
}

/// Dimension `index` of a tensor with `ndim` dimensions, counting from the end when negative.
TVM_FFI_INLINE int32_t NormalizeTensorIndex(int64_t index, int32_t ndim) {
  int64_t normalized = index < 0 ? index + ndim : index;
  if (normalized < 0 || normalized >= ndim) ThrowTensorIndex(index, ndim);
  return static_cast<int32_t>(normalized);
}

/// The strides of a tensor as a ShapeView; NULL strides are allowed only for 0-d tensors.
inline ShapeView StridesOf(const DLTensor& tensor) {
  TVM_FFI_ICHECK(tensor.strides != nullptr || tensor.ndim == 0);
  return ShapeView(tensor.strides, static_cast<size_t>(tensor.ndim));
}

/// Throws ValueError unless every dimension is >= 0 and the data of `shape` elements of `dtype`
/// has a size in bits that fits in int64_t, so that an allocator computing its byte size with
/// GetDataSize cannot wrap around to a small buffer.
inline void CheckAllocatableShape(ShapeView shape, DLDataType dtype) {
  for (int64_t dim : shape) {
    if (dim < 0)
      TVM_FFI_THROW(ValueError) << "Tensor: negative dimension " << dim << " in tensor shape";
  }
  if (std::find(shape.begin(), shape.end(), 0) != shape.end()) return;  // holds no data
  int64_t max_elements = INT64_MAX / std::max<int64_t>(int64_t{dtype.bits} * dtype.lanes, 1);
  int64_t elements = 1;
  for (int64_t dim : shape) {
    if (elements > max_elements / dim) {
      TVM_FFI_THROW(ValueError)
          << "Tensor: tensor shape too big; its size in bytes overflows int64";
    }
    elements *= dim;
  }
}

/// A copy of `tensor` with new shape and strides (borrowed), `elem_offset` elements further
/// (ValueError when negative); on a device of plain addresses the data pointer takes the whole
/// byte offset.
inline DLTensor StridedPrototype(const DLTensor& tensor, ShapeView shape, ShapeView strides,
                                 std::optional<int64_t> elem_offset) {
  if (shape.size() != strides.size()) {
    TVM_FFI_THROW(ValueError) << "shape and strides must have the same size.";
  }
  DLTensor prototype = tensor;
  prototype.ndim = static_cast<int32_t>(shape.size());
  prototype.shape = const_cast<int64_t*>(shape.data());
  prototype.strides = const_cast<int64_t*>(strides.data());
  int64_t offset = elem_offset.value_or(0);
  if (offset < 0) {
    TVM_FFI_THROW(ValueError) << "as_strided: the element offset must not be negative, got "
                              << offset;
  }
  prototype.byte_offset += GetDataSize(static_cast<size_t>(offset), tensor.dtype);
  if (prototype.byte_offset != 0 && prototype.data != nullptr &&
      IsDirectAddressDevice(prototype.device)) {
    // A plain address takes the offset itself, as Apache's as_strided gives it.
    prototype.data = static_cast<char*>(prototype.data) + prototype.byte_offset;
    prototype.byte_offset = 0;
  }
  return prototype;
}

/// A tensor whose data comes from an NDAlloc-style allocator object kept inside it:
/// `AllocData(DLTensor*, extra...)` runs at construction, `FreeData(DLTensor*)` at destruction.
/// Shape and strides are stored inline after the object, which make_inplace_array_object
/// must allocate with room for 2 * ndim int64 values.
template <typename TNDAlloc>
class TensorObjFromNDAlloc : public TensorObj {
 public:
  using Self = TensorObjFromNDAlloc<TNDAlloc>;

  /// A compact tensor of the given shape.
  template <typename... Extra>
  TensorObjFromNDAlloc(TNDAlloc alloc, ShapeView shape, DLDataType dtype, DLDevice device,
                       Extra&&... extra)
      : TensorObjFromNDAlloc(std::move(alloc), shape, std::optional<ShapeView>(), dtype, device,
                             std::forward<Extra>(extra)...) {}
  /// A tensor with the fields of prototype, whose shape and strides (which must not be NULL
  /// when it has dimensions) are copied.
  template <typename... Extra>
  TensorObjFromNDAlloc(TNDAlloc alloc, const DLTensor& prototype, Extra&&... extra)
      : alloc_(std::move(alloc)) {
    *static_cast<DLTensor*>(this) = prototype;
    this->shape = InlineTensorValues(this);
    this->strides = this->shape + prototype.ndim;
    TVM_FFI_ICHECK(prototype.strides != nullptr || prototype.ndim == 0)
        << "TensorObjFromNDAlloc: the prototype has no strides";
    std::copy(prototype.shape, prototype.shape + prototype.ndim, this->shape);
    std::copy(prototype.strides, prototype.strides + prototype.ndim, this->strides);
    alloc_.AllocData(static_cast<DLTensor*>(this), std::forward<Extra>(extra)...);
  }
  /// A tensor of the given shape, with the given strides or (nullopt) compact ones.
  template <typename... Extra>
  TensorObjFromNDAlloc(TNDAlloc alloc, ShapeView shape, std::optional<ShapeView> strides,
                       DLDataType dtype, DLDevice device, Extra&&... extra)
      : alloc_(std::move(alloc)) {
    this->ndim = static_cast<int32_t>(shape.size());
    this->dtype = dtype;
    this->device = device;
    if (this->ndim > 0) {
      this->shape = InlineTensorValues(this);
      this->strides = this->shape + this->ndim;
      std::copy(shape.begin(), shape.end(), this->shape);
      if (strides.has_value()) {
        std::copy(strides->begin(), strides->end(), this->strides);
      } else {
        FillCompactStrides(this->shape, this->ndim, this->strides);
      }
    }
    alloc_.AllocData(static_cast<DLTensor*>(this), std::forward<Extra>(extra)...);
  }
  ~TensorObjFromNDAlloc() { alloc_.FreeData(static_cast<DLTensor*>(this)); }

 private:
  TNDAlloc alloc_;
};

/// A tensor viewing the data of a DLPack capsule (DLManagedTensor or DLManagedTensorVersioned),
/// whose deleter runs when the tensor dies. With extra_strides_at_tail the capsule's strides are
/// ignored and compact ones are stored inline after the object (make_inplace_array_object with
/// room for ndim int64 values).
template <typename TDLPackManagedTensor>
class TensorObjFromDLPack : public TensorObj {
 public:
  using Self = TensorObjFromDLPack<TDLPackManagedTensor>;

  explicit TensorObjFromDLPack(TDLPackManagedTensor* tensor, bool extra_strides_at_tail)
      : tensor_(tensor) {
    *static_cast<DLTensor*>(this) = tensor_->dl_tensor;
    if (extra_strides_at_tail) {
      this->strides = InlineTensorValues(this);
      FillCompactStrides(this->shape, this->ndim, this->strides);
    }
  }
  ~TensorObjFromDLPack() {
    if (tensor_->deleter != nullptr) tensor_->deleter(tensor_);
  }

 private:
  TDLPackManagedTensor* tensor_;
};

}  // namespace details
}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_CONTAINER_TENSOR_DETAILS_H_

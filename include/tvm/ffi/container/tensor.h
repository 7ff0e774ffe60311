// SPDX-License-Identifier: Apache-2.0
// container/tensor.h: Tensor (owning reference to a TensorObj) and TensorView (a borrowed
// DLTensor copy), with DLPack import/export and allocation helpers.
#ifndef TVM_FFI_CONTAINER_TENSOR_H_
#define TVM_FFI_CONTAINER_TENSOR_H_

#include <dlpack/dlpack.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/container_details.h>
#include <tvm/ffi/container/seq_base.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/container/tensor_details.h>
#include <tvm/ffi/container/tensor_layout.h>
#include <tvm/ffi/device.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/type_traits.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace tvm {
namespace ffi {

/// Owning, nullable reference to a TensorObj. Accessors do not check for null.
class Tensor : public ObjectRef {
 public:
  /// A null tensor.
  Tensor() = default;
  /// The tensor of n.
  explicit Tensor(ObjectPtr<TensorObj> n) : ObjectRef(std::move(n)) {}
  /// A null tensor, to be filled by the caller.
  explicit Tensor(UnsafeInit tag) : ObjectRef(tag) {}
  /// Copying shares the tensor object.
  TVM_FFI_DEFINE_DEFAULT_COPY_MOVE_AND_ASSIGN(Tensor);

  /// The data pointer (the start of the allocation; see byte_offset).
  void* data_ptr() const { return get()->data; }
  /// The device of the data.
  DLDevice device() const { return get()->device; }
  /// The number of dimensions.
  int32_t ndim() const { return get()->ndim; }
  /// The element type.
  DLDataType dtype() const { return get()->dtype; }
  /// The offset in bytes of the first element from data_ptr().
  uint64_t byte_offset() const { return get()->byte_offset; }
  /// The shape.
  ShapeView shape() const { return ShapeView(get()->shape, static_cast<size_t>(get()->ndim)); }
  /// The strides (InternalError when NULL on a tensor with dimensions).
  ShapeView strides() const { return details::StridesOf(*get()); }
  /// Size of dimension i; negative i counts from the end.
  int64_t size(int64_t i) const { return get()->shape[details::NormalizeTensorIndex(i, ndim())]; }
  /// Stride of dimension i; negative i counts from the end.
  int64_t stride(int64_t i) const {
    return strides()[static_cast<size_t>(details::NormalizeTensorIndex(i, ndim()))];
  }
  /// The number of elements (the product of the shape).
  int64_t numel() const { return shape().Product(); }
  /// Whether the strides are the compact row-major ones (NULL strides included).
  bool IsContiguous() const { return ffi::IsContiguous(*get()); }
  /// Whether the first element is aligned to alignment (its byte_offset where the device has no
  /// plain addresses).
  bool IsAligned(size_t alignment) const { return ffi::IsAligned(*get(), alignment); }
  /// Same as ndim().
  int64_t dim() { return ndim(); }
  /// Same as shape().
  ShapeView sizes() const { return shape(); }
  /// Same as IsContiguous().
  bool is_contiguous() const { return IsContiguous(); }
  /// The DLTensor of the object.
  const DLTensor* GetDLTensorPtr() const { return get(); }

  /// A tensor sharing this one's data with new shape and strides, `elem_offset` elements further
  /// (on a device of plain addresses, the data pointer takes the byte offset).
  Tensor as_strided(ShapeView shape, ShapeView strides,
                    std::optional<int64_t> elem_offset = std::nullopt) const {
    DLTensor prototype = details::StridedPrototype(*get(), shape, strides, elem_offset);
    TVMFFIObjectHandle out = nullptr;
    TVM_FFI_CHECK_SAFE_CALL(
        TVMFFITensorCreateUnsafeView(details::ObjectUnsafe::GetHeader(*this), &prototype, &out));
    return FromHandle(out);
  }

  /// A tensor whose data `alloc.AllocData(DLTensor*, extra...)` provides and
  /// `alloc.FreeData(DLTensor*)` releases; strides are compact.
  template <typename TNDAlloc, typename... Extra>
  static Tensor FromNDAlloc(TNDAlloc alloc, ShapeView shape, DLDataType dtype, DLDevice device,
                            Extra&&... extra) {
    details::CheckAllocatableShape(shape, dtype);
    return Tensor(make_inplace_array_object<details::TensorObjFromNDAlloc<TNDAlloc>, int64_t>(
        2 * shape.size(), std::move(alloc), shape, std::optional<ShapeView>(), dtype, device,
        std::forward<Extra>(extra)...));
  }

  /// Like FromNDAlloc with explicit strides (ValueError when their count differs).
  template <typename TNDAlloc, typename... Extra>
  static Tensor FromNDAllocStrided(TNDAlloc alloc, ShapeView shape, ShapeView strides,
                                   DLDataType dtype, DLDevice device, Extra&&... extra) {
    if (shape.size() != strides.size()) {
      TVM_FFI_THROW(ValueError) << "shape and strides must have the same size.";
    }
    details::CheckAllocatableShape(shape, dtype);
    return Tensor(make_inplace_array_object<details::TensorObjFromNDAlloc<TNDAlloc>, int64_t>(
        2 * shape.size(), std::move(alloc), shape, std::optional<ShapeView>(strides), dtype, device,
        std::forward<Extra>(extra)...));
  }

  /// Allocates through an env allocator such as TVMFFIEnvTensorAlloc; its error is rethrown.
  static Tensor FromEnvAlloc(int (*env_alloc)(DLTensor*, TVMFFIObjectHandle*), ShapeView shape,
                             DLDataType dtype, DLDevice device) {
    DLTensor prototype{};
    prototype.device = device;
    prototype.ndim = static_cast<int32_t>(shape.size());
    prototype.dtype = dtype;
    prototype.shape = const_cast<int64_t*>(shape.data());
    TVMFFIObjectHandle out = nullptr;
    TVM_FFI_CHECK_SAFE_CALL(env_alloc(&prototype, &out));
    return FromHandle(out);
  }

  /// Takes ownership of a legacy DLPack capsule (left with the caller when a check fails).
  static Tensor FromDLPack(DLManagedTensor* from, size_t require_alignment = 0,
                           bool require_contiguous = false) {
    TVMFFIObjectHandle out = nullptr;
    TVM_FFI_CHECK_SAFE_CALL(TVMFFITensorFromDLPack(from, static_cast<int32_t>(require_alignment),
                                                   require_contiguous ? 1 : 0, &out));
    return FromHandle(out);
  }

  /// Takes ownership of a versioned DLPack capsule (left with the caller when a check fails).
  static Tensor FromDLPackVersioned(DLManagedTensorVersioned* from, size_t require_alignment = 0,
                                    bool require_contiguous = false) {
    TVMFFIObjectHandle out = nullptr;
    TVM_FFI_CHECK_SAFE_CALL(TVMFFITensorFromDLPackVersioned(
        from, static_cast<int32_t>(require_alignment), require_contiguous ? 1 : 0, &out));
    return FromHandle(out);
  }

  /// A new legacy capsule holding one reference to this tensor.
  DLManagedTensor* ToDLPack() const {
    DLManagedTensor* out = nullptr;
    TVM_FFI_CHECK_SAFE_CALL(TVMFFITensorToDLPack(details::ObjectUnsafe::GetHeader(*this), &out));
    return out;
  }

  /// A new versioned capsule holding one reference to this tensor.
  DLManagedTensorVersioned* ToDLPackVersioned() const {
    DLManagedTensorVersioned* out = nullptr;
    TVM_FFI_CHECK_SAFE_CALL(
        TVMFFITensorToDLPackVersioned(details::ObjectUnsafe::GetHeader(*this), &out));
    return out;
  }

  /// The object type.
  using ContainerType = TensorObj;
  /// Nullable.
  static constexpr bool _type_is_nullable = true;

 protected:
  /// The object (nullptr for a null tensor).
  const TensorObj* get() const { return static_cast<const TensorObj*>(data_.get()); }
  /// The object, mutable (for subclasses that edit it in place).
  TensorObj* get_mutable() const { return static_cast<TensorObj*>(data_.get()); }

 private:
  static Tensor FromHandle(TVMFFIObjectHandle handle) {
    return Tensor(details::ObjectUnsafe::ObjectPtrFromOwned<TensorObj>(handle));
  }
};

namespace details {
/// Throws the error of a TensorView made from a null DLTensor pointer.
[[noreturn]] TVM_FFI_NO_INLINE TVM_FFI_COLD_CODE inline void ThrowNullDLTensorView() {
  TVM_FFI_THROW(InternalError)
      << "Check failed: (tensor != nullptr) is false: TensorView: the DLTensor pointer is null";
  TVM_FFI_UNREACHABLE();
}
}  // namespace details

/// A borrowed tensor: a 48-byte copy of a DLTensor whose data, shape and strides belong to
/// someone else. Kernels take it by value.
class TensorView {
 public:
  /// A view of tensor, which must not be null and must outlive the view.
  TensorView(const Tensor& tensor) {  // NOLINT(*)
    TVM_FFI_ICHECK(tensor.defined()) << "TensorView: the tensor is null";
    tensor_ = *tensor.GetDLTensorPtr();
  }
  /// A view of a copy of *tensor (whose data, shape and strides must outlive the view);
  /// InternalError for nullptr.
  TensorView(const DLTensor* tensor) {  // NOLINT(*)
    // The check's message is built out of line, so that this constructor inlines into the
    // argument conversion of every kernel.
    if (TVM_FFI_PREDICT_FALSE(tensor == nullptr)) details::ThrowNullDLTensorView();
    tensor_ = *tensor;
  }
  /// A temporary Tensor would leave the view dangling.
  TensorView(Tensor&& tensor) = delete;  // NOLINT(*)
  /// Copies the view (not the data).
  TensorView(const TensorView&) = default;
  /// Copies the view (not the data).
  TensorView(TensorView&&) = default;
  /// Copy-assigns the view.
  TensorView& operator=(const TensorView&) = default;
  /// Copy-assigns the view.
  TensorView& operator=(TensorView&&) = default;
  /// Views tensor instead, which must not be null.
  TensorView& operator=(const Tensor& tensor) {
    *this = TensorView(tensor);
    return *this;
  }
  /// A temporary Tensor would leave the view dangling.
  TensorView& operator=(Tensor&& tensor) = delete;

  /// The data pointer (the start of the allocation; see byte_offset).
  void* data_ptr() const { return tensor_.data; }
  /// The device of the data.
  DLDevice device() const { return tensor_.device; }
  /// The number of dimensions.
  int32_t ndim() const { return tensor_.ndim; }
  /// The element type.
  DLDataType dtype() const { return tensor_.dtype; }
  /// The offset in bytes of the first element from data_ptr().
  uint64_t byte_offset() const { return tensor_.byte_offset; }
  /// The shape.
  ShapeView shape() const { return ShapeView(tensor_.shape, static_cast<size_t>(tensor_.ndim)); }
  /// The strides (InternalError when NULL on a tensor with dimensions).
  ShapeView strides() const { return details::StridesOf(tensor_); }
  /// Size of dimension i; negative i counts from the end.
  int64_t size(int64_t i) const { return tensor_.shape[details::NormalizeTensorIndex(i, ndim())]; }
  /// Stride of dimension i; negative i counts from the end.
  int64_t stride(int64_t i) const {
    return strides()[static_cast<size_t>(details::NormalizeTensorIndex(i, ndim()))];
  }
  /// The number of elements (the product of the shape).
  int64_t numel() const { return shape().Product(); }
  /// Whether the strides are the compact row-major ones (NULL strides included).
  bool IsContiguous() const { return ffi::IsContiguous(tensor_); }
  /// Same as ndim().
  int64_t dim() const { return ndim(); }
  /// Same as shape().
  ShapeView sizes() const { return shape(); }
  /// Same as IsContiguous().
  bool is_contiguous() const { return IsContiguous(); }
  /// The view's DLTensor.
  const DLTensor* GetDLTensorPtr() const { return &tensor_; }

  /// A view with new shape and strides, which must outlive the result, `elem_offset` elements
  /// further (on a device of plain addresses, the data pointer takes the byte offset).
  TensorView as_strided(ShapeView shape, ShapeView strides,
                        std::optional<int64_t> elem_offset = std::nullopt) const {
    DLTensor prototype = details::StridedPrototype(tensor_, shape, strides, elem_offset);
    return TensorView(&prototype);
  }

 private:
  DLTensor tensor_;
};

static_assert(sizeof(TensorView) == sizeof(DLTensor), "TensorView is a plain DLTensor copy");

/// Bytes of data of a tensor, sub-byte types packed.
inline size_t GetDataSize(const Tensor& tensor) { return GetDataSize(*tensor.GetDLTensorPtr()); }
/// Bytes of data of a tensor view, sub-byte types packed.
inline size_t GetDataSize(const TensorView& tensor) {
  return GetDataSize(*tensor.GetDLTensorPtr());
}

/// TensorView in cells: a DLTensorPtr to the view's own copy; accepts DLTensorPtr and Tensor
/// (not None). Not storable in Any.
template <>
struct TypeTraits<TensorView> : public TypeTraitsBase {
  /// Not storable in Any or containers.
  static constexpr bool storage_enabled = false;
  /// A field of this type holds a DLTensor pointer.
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIDLTensorPtr;
  /// Stores a DLTensorPtr to the view's DLTensor in result.
  static void CopyToAnyView(const TensorView& src, TVMFFIAny* result) {
    details::ResetPODCell(result, TypeIndex::kTVMFFIDLTensorPtr);
    result->v_ptr = const_cast<DLTensor*>(src.GetDLTensorPtr());
  }
  /// Whether src is a non-null DLTensorPtr.
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == TypeIndex::kTVMFFIDLTensorPtr && src->v_ptr != nullptr;
  }
  /// The view of the DLTensor of src (which passed the check).
  static TensorView CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return TensorView(static_cast<const DLTensor*>(src->v_ptr));
  }
  /// The view of a DLTensorPtr or of a Tensor's DLTensor, else nullopt.
  static std::optional<TensorView> TryCastFromAnyView(const TVMFFIAny* src) {
    // Built in place: each copy of the 48-byte view is paid by every kernel argument.
    if (CheckAnyStrict(src)) {
      return std::optional<TensorView>(std::in_place, static_cast<const DLTensor*>(src->v_ptr));
    }
    if (src->type_index == TypeIndex::kTVMFFITensor) {
      return std::optional<TensorView>(
          std::in_place, reinterpret_cast<const DLTensor*>(static_cast<const char*>(src->v_ptr) +
                                                           sizeof(TVMFFIObject)));
    }
    return std::nullopt;
  }
  /// The type key of DLTensor pointers.
  static std::string TypeStr() { return StaticTypeKey::kTVMFFIDLTensorPtr; }
  /// The type schema of DLTensor pointers.
  static std::string TypeSchema() { return details::SimpleTypeSchema(TypeStr()); }
};

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_CONTAINER_TENSOR_H_

// SPDX-License-Identifier: Apache-2.0
// tensor.cc: Tensor objects made from DLPack capsules and views, and exported as capsules.
// A tensor imported from a versioned capsule flagged read-only stays read-only when exported.
#include <dlpack/dlpack.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/tensor_layout.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {
namespace {

/// A tensor that owns a DLPack capsule (legacy or versioned) and runs its deleter once.
/// The Python core reads managed_ of versioned ones (at handle + 72, checked there once) to
/// refuse read-only tensors as call arguments.
template <typename Managed>
class DLPackTensorObj : public TensorObj {
 public:
  explicit DLPackTensorObj(Managed* managed) : managed_(managed) {
    static_cast<DLTensor&>(*this) = managed->dl_tensor;
  }
  ~DLPackTensorObj() {
    if (managed_->deleter != nullptr) managed_->deleter(managed_);
  }

  const Managed* managed() const { return managed_; }

 private:
  Managed* managed_;
};

using VersionedTensorObj = DLPackTensorObj<DLManagedTensorVersioned>;

/// Whether a tensor was imported from a versioned capsule flagged read-only. Only that class
/// has the deleter compared here: the object header has no room for flags.
bool IsReadOnly(const TensorObj* tensor) {
  using Handler = details::SimpleObjAllocator::ArrayHandler<VersionedTensorObj, int64_t>;
  if (details::ObjectUnsafe::GetHeader(tensor)->deleter != Handler::Deleter()) return false;
  const auto* versioned = static_cast<const VersionedTensorObj*>(tensor);
  return (versioned->managed()->flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0;
}

/// A tensor sharing the data of another object, with its own copy of shape and strides.
class ViewTensorObj : public TensorObj {
 public:
  explicit ViewTensorObj(ObjectRef source) : source_(std::move(source)) {}

 private:
  ObjectRef source_;
};

/// The most dimensions an imported tensor may have (NumPy's limit): a capsule's shape array
/// has no length of its own, so an absurd ndim would make the import read past it.
constexpr int32_t kMaxImportedDims = 64;

/// ValueError unless ndim is in [0, kMaxImportedDims], the shape is there, no dimension is
/// negative and the size in bytes fits in int64.
void CheckImportedShape(const DLTensor& tensor) {
  if (tensor.ndim < 0 || tensor.ndim > kMaxImportedDims) {
    TVM_FFI_THROW(ValueError) << "FromDLPack: ndim must be in [0, " << kMaxImportedDims << "], got "
                              << tensor.ndim;
  }
  if (tensor.ndim > 0 && tensor.shape == nullptr) {
    TVM_FFI_THROW(ValueError) << "FromDLPack: a tensor of " << tensor.ndim
                              << " dimensions has no shape";
  }
  bool empty = false;
  for (int32_t i = 0; i < tensor.ndim; ++i) {
    if (tensor.shape[i] < 0) {
      TVM_FFI_THROW(ValueError) << "FromDLPack: dimension " << i << " is negative ("
                                << tensor.shape[i] << ")";
    }
    empty = empty || tensor.shape[i] == 0;
  }
  if (empty) return;
  int64_t size = (static_cast<int64_t>(tensor.dtype.bits) * tensor.dtype.lanes + 7) / 8;
  for (int32_t i = 0; i < tensor.ndim; ++i) {
    if (__builtin_mul_overflow(size, tensor.shape[i], &size)) {
      TVM_FFI_THROW(ValueError) << "FromDLPack: the tensor's size in bytes overflows int64";
    }
  }
}

void CheckImportable(const DLTensor& tensor, int32_t require_alignment,
                     int32_t require_contiguous) {
  CheckImportedShape(tensor);
  if (require_alignment < 0) {
    TVM_FFI_THROW(ValueError) << "FromDLPack: require_alignment must not be negative, got "
                              << require_alignment;
  }
  if (!IsAligned(tensor, static_cast<size_t>(require_alignment))) {
    TVM_FFI_THROW(RuntimeError) << "FromDLPack: Data is not aligned to " << require_alignment
                                << " bytes.";
  }
  if (require_contiguous != 0 && !IsContiguous(tensor)) {
    TVM_FFI_THROW(RuntimeError) << "FromDLPack: Tensor is not contiguous.";
  }
}

/// Wraps a capsule; NULL strides of a tensor with dimensions are replaced by compact ones.
template <typename Managed>
TVMFFIObjectHandle TensorFromManaged(Managed* managed, int32_t require_alignment,
                                     int32_t require_contiguous) {
  if (managed == nullptr) TVM_FFI_THROW(ValueError) << "FromDLPack: the capsule is NULL";
  const DLTensor& source = managed->dl_tensor;
  CheckImportable(source, require_alignment, require_contiguous);
  bool fill_strides = source.strides == nullptr && source.ndim > 0;
  size_t extra = fill_strides ? static_cast<size_t>(source.ndim) : 0;
  ObjectPtr<DLPackTensorObj<Managed>> obj =
      make_inplace_array_object<DLPackTensorObj<Managed>, int64_t>(extra, managed);
  if (fill_strides) {
    obj->strides = details::InlineTensorValues(obj.get());
    details::FillCompactStrides(obj->shape, obj->ndim, obj->strides);
  }
  return details::ObjectUnsafe::MoveObjectPtrToHandle(std::move(obj));
}

TensorObj* TensorFromHandle(TVMFFIObjectHandle handle) {
  if (handle == nullptr) TVM_FFI_THROW(ValueError) << "ToDLPack: the tensor handle is NULL";
  int32_t type_index = static_cast<TVMFFIObject*>(handle)->type_index;
  if (type_index != TypeIndex::kTVMFFITensor) {
    TVM_FFI_THROW(TypeError) << "ToDLPack: expected a Tensor (type index "
                             << TypeIndex::kTVMFFITensor << "), got type index " << type_index;
  }
  return static_cast<TensorObj*>(details::ObjectUnsafe::FromHandle(handle));
}

/// Capsules whose manager_ctx is the tensor handle, holding one strong reference.
template <typename Managed>
void DeleteExportedCapsule(Managed* managed) {
  TVMFFIObjectDecRef(managed->manager_ctx);
  delete managed;
}

template <typename Managed>
Managed* ExportCapsule(TVMFFIObjectHandle handle) {
  TensorObj* tensor = TensorFromHandle(handle);
  if (std::is_same_v<Managed, DLManagedTensor> && IsReadOnly(tensor)) {
    TVM_FFI_THROW(BufferError) << "ToDLPack: the tensor is read-only, which a legacy "
                                  "DLManagedTensor cannot say; export a versioned one instead";
  }
  Managed* managed = new Managed{};
  managed->dl_tensor = static_cast<const DLTensor&>(*tensor);
  managed->manager_ctx = handle;
  managed->deleter = DeleteExportedCapsule<Managed>;
  TVMFFIObjectIncRef(handle);
  return managed;
}

TVMFFIObjectHandle CreateView(TVMFFIObjectHandle source, const DLTensor* prototype) {
  if (source == nullptr || prototype == nullptr) {
    TVM_FFI_THROW(ValueError) << "TensorCreateUnsafeView: source and prototype must not be NULL";
  }
  if (prototype->ndim < 0 || (prototype->ndim > 0 && prototype->strides == nullptr)) {
    TVM_FFI_THROW(ValueError) << "TensorCreateUnsafeView: the prototype needs ndim >= 0 and "
                                 "explicit strides";
  }
  ObjectRef owner(details::ObjectUnsafe::ObjectPtrFromUnowned<Object>(source));
  size_t ndim = static_cast<size_t>(prototype->ndim);
  ObjectPtr<ViewTensorObj> obj =
      make_inplace_array_object<ViewTensorObj, int64_t>(2 * ndim, std::move(owner));
  static_cast<DLTensor&>(*obj) = *prototype;
  obj->shape = details::InlineTensorValues(obj.get());
  obj->strides = obj->shape + ndim;
  std::copy(prototype->shape, prototype->shape + ndim, obj->shape);
  std::copy(prototype->strides, prototype->strides + ndim, obj->strides);
  if (ndim == 0) obj->shape = obj->strides = nullptr;
  return details::ObjectUnsafe::MoveObjectPtrToHandle(std::move(obj));
}

}  // namespace
}  // namespace ffi
}  // namespace tvm

using namespace tvm::ffi;  // NOLINT(build/namespaces)

extern "C" {

int TVMFFITensorFromDLPack(DLManagedTensor* from, int32_t require_alignment,
                           int32_t require_contiguous, TVMFFIObjectHandle* out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  *out = TensorFromManaged(from, require_alignment, require_contiguous);
  TVM_FFI_SAFE_CALL_END();
}

int TVMFFITensorFromDLPackVersioned(DLManagedTensorVersioned* from, int32_t require_alignment,
                                    int32_t require_contiguous, TVMFFIObjectHandle* out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  if (from != nullptr && (from->flags & DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED) != 0) {
    TVM_FFI_THROW(RuntimeError) << "Subbyte type padded is not yet supported";
  }
  if (from != nullptr && from->version.major != DLPACK_MAJOR_VERSION) {
    TVM_FFI_THROW(RuntimeError) << "FromDLPackVersioned: unsupported DLPack major version "
                                << from->version.major << " (expected " << DLPACK_MAJOR_VERSION
                                << ")";
  }
  *out = TensorFromManaged(from, require_alignment, require_contiguous);
  TVM_FFI_SAFE_CALL_END();
}

int TVMFFITensorToDLPack(TVMFFIObjectHandle from, DLManagedTensor** out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  *out = ExportCapsule<DLManagedTensor>(from);
  TVM_FFI_SAFE_CALL_END();
}

int TVMFFITensorToDLPackVersioned(TVMFFIObjectHandle from, DLManagedTensorVersioned** out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  DLManagedTensorVersioned* managed = ExportCapsule<DLManagedTensorVersioned>(from);
  managed->version.major = DLPACK_MAJOR_VERSION;
  managed->version.minor = DLPACK_MINOR_VERSION;
  const auto* tensor = static_cast<const TensorObj*>(details::ObjectUnsafe::FromHandle(from));
  managed->flags = IsReadOnly(tensor) ? DLPACK_FLAG_BITMASK_READ_ONLY : 0;
  *out = managed;
  TVM_FFI_SAFE_CALL_END();
}

int TVMFFITensorCreateUnsafeView(TVMFFIObjectHandle source, const DLTensor* prototype,
                                 TVMFFIObjectHandle* out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  *out = CreateView(source, prototype);
  TVM_FFI_SAFE_CALL_END();
}

}  // extern "C"

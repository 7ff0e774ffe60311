// SPDX-License-Identifier: Apache-2.0
// structural_internal.h: what structural equality and hashing share: the structural kind of a
// type, def-region rules for fields and hooks, and tensor content.
#ifndef TVM_FFI_SRC_FFI_STRUCTURAL_INTERNAL_H_
#define TVM_FFI_SRC_FFI_STRUCTURAL_INTERNAL_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/string.h>

#include <cstdint>

#include "runtime_internal.h"

namespace tvm {
namespace ffi {
namespace structural {

/// Def region where a value's free variables (and all in its type) bind on first sight.
constexpr TVMFFIDefRegionKind kRegionPattern = kTVMFFIDefRegionKindRecursive;
/// Def region where only the variable itself binds; its fields are uses.
constexpr TVMFFIDefRegionKind kRegionSimple = kTVMFFIDefRegionKindNonRecursive;
constexpr int64_t kFieldDefPattern = kTVMFFIFieldFlagBitMaskSEqHashDefRecursive;
constexpr int64_t kFieldDefSimple = kTVMFFIFieldFlagBitMaskSEqHashDefNonRecursive;

/// The structural kind of a reflected object type; TypeError naming the type when the type has
/// no metadata or declares itself unsupported. `op` names the caller ("StructuralEqual").
/// The value as a T object; TypeError naming `hook` when a hook receives something else.
template <typename T>
const T* HookReceiver(AnyView value, const char* hook) {
  const T* self = value.as<T>();
  if (self == nullptr) {
    TVM_FFI_THROW(TypeError) << T::_type_key << "." << hook << ": expected a " << T::_type_key
                             << ", got `" << value.GetTypeKey() << "`";
  }
  return self;
}

inline TVMFFISEqHashKind StructuralKindOf(const TVMFFITypeInfo* info, const char* op) {
  const TVMFFITypeMetadata* metadata = info->metadata;
  if (metadata == nullptr || metadata->structural_eq_hash_kind == kTVMFFISEqHashKindUnsupported) {
    std::string type_key(info->type_key.data, info->type_key.size);
    TVM_FFI_THROW(TypeError) << op << ": not supported for type `" << type_key << "`; "
                             << (metadata == nullptr
                                     ? "the type has no reflection metadata"
                                     : "its structural kind (_type_s_eq_hash_kind) is unsupported");
  }
  return metadata->structural_eq_hash_kind;
}

/// The region in which a child is visited: a pattern region persists, otherwise the requested
/// kind applies (kTVMFFIDefRegionKindNone requests keep the current region).
inline TVMFFIDefRegionKind ChildRegion(TVMFFIDefRegionKind current, int requested) {
  if (current == kRegionPattern || requested == kTVMFFIDefRegionKindNone) return current;
  return static_cast<TVMFFIDefRegionKind>(requested);
}

/// The region kind a field's def flags request (None when the field has none).
inline int FieldRegionRequest(int64_t flags) {
  if (flags & kFieldDefSimple) return kRegionSimple;
  if (flags & kFieldDefPattern) return kRegionPattern;
  return kTVMFFIDefRegionKindNone;
}

/// Sets a region slot for a scope and restores it on exit (also when an error unwinds).
class RegionScope {
 public:
  RegionScope(TVMFFIDefRegionKind* slot, TVMFFIDefRegionKind kind) : slot_(slot), saved_(*slot) {
    *slot = kind;
  }
  ~RegionScope() { *slot_ = saved_; }
  RegionScope(const RegionScope&) = delete;
  RegionScope& operator=(const RegionScope&) = delete;

 private:
  TVMFFIDefRegionKind* slot_;
  TVMFFIDefRegionKind saved_;
};

/// The bytes of a tensor's elements; ValueError unless it is a contiguous CPU tensor.
inline TVMFFIByteArray TensorContent(const Tensor& tensor, const char* op) {
  const DLTensor* dl = tensor.GetDLTensorPtr();
  if (dl->device.device_type != kDLCPU && dl->device.device_type != kDLCUDAHost) {
    TVM_FFI_THROW(ValueError) << op << ": can read tensor content only on CPU, but the tensor is "
                              << "on device type " << static_cast<int>(dl->device.device_type)
                              << "; pass skip_tensor_content=True to compare metadata only";
  }
  if (!tensor.IsContiguous()) {
    TVM_FFI_THROW(ValueError) << op << ": can read the content of contiguous tensors only";
  }
  const char* data = static_cast<const char*>(dl->data);
  if (data != nullptr) data += dl->byte_offset;
  return TVMFFIByteArray{data, GetDataSize(*dl)};
}

}  // namespace structural
}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_SRC_FFI_STRUCTURAL_INTERNAL_H_

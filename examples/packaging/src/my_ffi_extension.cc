// SPDX-License-Identifier: Apache-2.0
// my_ffi_extension.cc: the native half of the packaging example. It defines the object type
// my_ffi_extension.LinearMap (fields, methods and a constructor reflected to Python) and the
// global functions my_ffi_extension.compose and my_ffi_extension.apply_inplace (a tensor
// kernel). Everything is registered when the library is loaded; nothing is exported by name.
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/registry.h>

#include <cstdint>

namespace my_ffi_extension {

namespace ffi = tvm::ffi;
namespace refl = tvm::ffi::reflection;

class LinearMap;

// [object-begin]
/// The object: an affine map x -> scale * x + shift whose fields Python reads and writes.
class LinearMapObj : public ffi::Object {
 public:
  double scale;
  double shift;

  LinearMapObj(double scale, double shift) : scale(scale), shift(shift) {}
  double Apply(double x) const { return scale * x + shift; }
  LinearMap Inverse() const;

  // Writable fields (def_rw) need a mutable type.
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("my_ffi_extension.LinearMap", LinearMapObj, ffi::Object);
};

/// The reference C++ code passes around, as Python passes the object.
class LinearMap : public ffi::ObjectRef {
 public:
  LinearMap(double scale, double shift)
      : ffi::ObjectRef(ffi::make_object<LinearMapObj>(scale, shift)) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(LinearMap, ffi::ObjectRef, LinearMapObj);
};
// [object-end]

// [error-begin]
LinearMap LinearMapObj::Inverse() const {
  if (scale == 0.0) {
    TVM_FFI_THROW(ValueError) << "LinearMap.inverse: scale is 0, so the map has no inverse";
  }
  return LinearMap(1.0 / scale, -shift / scale);
}
// [error-end]

// [functions-begin]
/// The map x -> outer(inner(x)).
LinearMap Compose(const LinearMap& outer, const LinearMap& inner) {
  return LinearMap(outer->scale * inner->scale, outer->scale * inner->shift + outer->shift);
}

/// The kernel: x[i] = map(x[i]) for a 1-D float32 tensor on the CPU, in place.
void ApplyInplace(const LinearMap& map, ffi::TensorView x) {
  if (x.dtype() != DLDataType{kDLFloat, 32, 1}) {
    TVM_FFI_THROW(TypeError) << "apply_inplace: x must be float32, got " << x.dtype();
  }
  if (x.device().device_type != kDLCPU || x.ndim() != 1) {
    TVM_FFI_THROW(ValueError) << "apply_inplace: x must be a 1-D tensor on the CPU, got "
                              << x.ndim() << " dimensions on device type "
                              << x.device().device_type;
  }
  float* data = reinterpret_cast<float*>(static_cast<char*>(x.data_ptr()) + x.byte_offset());
  for (int64_t i = 0; i < x.size(0); ++i) {
    float& item = data[i * x.stride(0)];
    item = static_cast<float>(map->Apply(item));
  }
}
// [functions-end]

// [register-begin]
TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<LinearMapObj>("An affine map x -> scale * x + shift.")
      .def(refl::init<double, double>(), "LinearMap(scale, shift)")
      .def_rw("scale", &LinearMapObj::scale, "The factor x is multiplied by.")
      .def_rw("shift", &LinearMapObj::shift, "The term added after scaling.")
      .def("apply", &LinearMapObj::Apply, "Map one number: scale * x + shift.")
      .def("inverse", &LinearMapObj::Inverse, "The inverse map; ValueError if scale is 0.");
  refl::GlobalDef()
      .def("my_ffi_extension.compose", Compose, "The map x -> outer(inner(x)).")
      .def("my_ffi_extension.apply_inplace", ApplyInplace, "x[i] = map(x[i]) for float32 x.");
}
// [register-end]

}  // namespace my_ffi_extension

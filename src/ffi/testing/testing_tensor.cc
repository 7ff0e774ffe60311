// SPDX-License-Identifier: Apache-2.0
// testing_tensor.cc: testing.* functions for tensors, devices and dtypes, including small CPU
// kernels and allocation helpers used by the Python tensor tests and benchmarks.
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace tvm {
namespace ffi {
namespace testing {
namespace {

/// CPU allocator for Tensor::FromNDAlloc: 64-byte aligned, zero-filled.
struct AlignedCPUAlloc {
  static constexpr size_t kAlignment = 64;
  void AllocData(DLTensor* tensor) {
    size_t bytes = GetDataSize(*tensor);
    size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
    tensor->data = std::aligned_alloc(kAlignment, rounded == 0 ? kAlignment : rounded);
    if (tensor->data == nullptr) {
      TVM_FFI_THROW(MemoryError) << "testing.tensor_empty_cpu(): cannot allocate " << rounded
                                 << " bytes";
    }
    std::memset(tensor->data, 0, bytes);
  }
  void FreeData(DLTensor* tensor) { std::free(tensor->data); }
};

/// Address of the first element.
int64_t DataAddress(const TensorView& tensor) {
  return reinterpret_cast<int64_t>(static_cast<char*>(tensor.data_ptr()) + tensor.byte_offset());
}

float* CheckedFloat32Data(const TensorView& tensor, const char* who) {
  DLDataType dtype = tensor.dtype();
  if (dtype.code != kDLFloat || dtype.bits != 32 || dtype.lanes != 1) {
    TVM_FFI_THROW(ValueError) << who << ": expected a float32 tensor, got " << dtype;
  }
  if (tensor.device().device_type != kDLCPU) {
    TVM_FFI_THROW(ValueError) << who << ": expected a CPU tensor";
  }
  return reinterpret_cast<float*>(DataAddress(tensor));
}

/// Calls visit(element offset) for every element, honouring strides.
template <typename F>
void ForEachElement(const TensorView& tensor, F visit, int32_t dim = 0, int64_t offset = 0) {
  if (dim == tensor.ndim()) {
    visit(offset);
    return;
  }
  for (int64_t i = 0; i < tensor.size(dim); ++i) {
    ForEachElement(tensor, visit, dim + 1, offset + i * tensor.stride(dim));
  }
}

void FillFloat32(TensorView tensor, double value) {
  float* data = CheckedFloat32Data(tensor, "testing.tensor_fill_f32");
  ForEachElement(tensor, [&](int64_t i) { data[i] = static_cast<float>(value); });
}

double SumFloat32(TensorView tensor) {
  const float* data = CheckedFloat32Data(tensor, "testing.tensor_sum_f32");
  double sum = 0;
  ForEachElement(tensor, [&](int64_t i) { sum += data[i]; });
  return sum;
}

void RegisterTensorSchemaFunctions() {
  namespace refl = reflection;
  refl::GlobalDef()
      .def("testing.schema_id_tensor", [](Tensor x) { return x; })
      .def("testing.schema_id_dltensor", [](DLTensor* x) { return x; })
      .def("testing.schema_tensor_view_input", [](TensorView) {})
      .def("testing.schema_id_device", [](DLDevice x) { return x; })
      .def("testing.schema_id_dtype", [](DLDataType x) { return x; })
      .def("testing.optional_tensor_view_has_value",
           [](Optional<TensorView> x) { return x.has_value(); });
}

void RegisterTensorContainerFunctions() {
  namespace refl = reflection;
  refl::GlobalDef()
      .def("testing.make_array_with_tensor", [](Tensor t) { return Array<Any>{t}; })
      .def("testing.make_array_with_mixed",
           [](Tensor t, int64_t x) { return Array<Any>{t, x, String("hello")}; })
      .def("testing.make_nested_array_with_tensor",
           [](Tensor t) { return Array<Any>{Array<Any>{t, 42}, t}; })
      .def("testing.make_list_with_tensor", [](Tensor t, int64_t x) { return List<Any>{t, x}; })
      .def("testing.make_map_with_tensor",
           [](Tensor t) {
             return Map<String, Any>{{"tensor", t}, {"value", 42}, {"name", String("test")}};
           })
      .def("testing.make_dict_with_tensor",
           [](Tensor t) { return Dict<String, Any>{{"tensor", t}, {"value", 42}}; })
      .def("testing.make_empty_array_with_tensor_input", [](Tensor) { return Array<Any>(); })
      .def("testing.make_nested_map_with_tensor", [](Tensor t1, Tensor t2) {
        return Map<String, Any>{
            {"array", Array<Any>{t1, t2}}, {"map", Map<String, Any>{{"t", t1}}}, {"scalar", 99}};
      });
}

void RegisterTensorKernelFunctions() {
  namespace refl = reflection;
  refl::GlobalDef()
      .def("testing.tensor_data_ptr", DataAddress)
      .def("testing.tensor_data_ptr3",
           [](TensorView a, TensorView b, TensorView c) {
             return DataAddress(a) + DataAddress(b) + DataAddress(c);
           })
      .def("testing.tensor_fill_f32", FillFloat32)
      .def("testing.tensor_sum_f32", SumFloat32)
      // A kernel that runs `callback` between taking its argument and reading it.
      .def("testing.tensor_sum_f32_after",
           [](TensorView tensor, Function callback) {
             callback();
             return SumFloat32(tensor);
           })
      .def("testing.tensor_alloc_env",
           [](Shape shape, DLDataType dtype, DLDevice device) {
             return Tensor::FromEnvAlloc(TVMFFIEnvTensorAlloc, shape, dtype, device);
           })
      .def("testing.tensor_empty_cpu",
           [](Shape shape, DLDataType dtype) {
             return Tensor::FromNDAlloc(AlignedCPUAlloc(), shape, dtype, DLDevice{kDLCPU, 0});
           })
      .def("testing.tensor_as_strided",
           [](Tensor t, Shape shape, Shape strides, int64_t offset) {
             return t.as_strided(shape, strides, offset);
           })
      .def("testing.env_get_stream", [](int32_t device_type, int32_t device_id) {
        return reinterpret_cast<int64_t>(TVMFFIEnvGetStream(device_type, device_id));
      });
}

}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  RegisterTensorSchemaFunctions();
  RegisterTensorContainerFunctions();
  RegisterTensorKernelFunctions();
}

}  // namespace testing
}  // namespace ffi
}  // namespace tvm

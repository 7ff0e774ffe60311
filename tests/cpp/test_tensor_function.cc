// SPDX-License-Identifier: Apache-2.0
// test_tensor_function.cc: typed functions taking tensors, devices and dtypes; DTypeAbbrev; the
// testing.* tensor functions.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <string>

#include "test_utils.h"

namespace {

using tvm::ffi::Any;
using tvm::ffi::Array;
using tvm::ffi::Function;
using tvm::ffi::Map;
using tvm::ffi::Optional;
using tvm::ffi::Shape;
using tvm::ffi::String;
using tvm::ffi::Tensor;
using tvm::ffi::TensorView;
using tvm_ffi_test::ErrorText;

constexpr DLDataType kFloat32DType{kDLFloat, 32, 1};

Tensor EmptyCPU(Shape shape) {
  return Function::GetGlobalRequired("testing.tensor_empty_cpu")(shape, kFloat32DType)
      .cast<Tensor>();
}

TEST(TensorFunction, TensorViewParameterAcceptsTensorsAndPointers) {
  Function ndim = Function::FromTyped([](TensorView view) { return view.ndim(); });
  Tensor tensor = EmptyCPU({2, 3});
  EXPECT_EQ(ndim(tensor).cast<int>(), 2);
  DLTensor raw = *TensorView(tensor).GetDLTensorPtr();
  EXPECT_EQ(ndim(&raw).cast<int>(), 2);
  EXPECT_EQ(ErrorText([&] { ndim(1); }),
            "TypeError: Mismatched type on argument #0 when calling: `(0: DLTensor*) -> int`. "
            "Expected `DLTensor*` but got `int`");
  EXPECT_EQ(ErrorText([&] { ndim(nullptr); }),
            "TypeError: Mismatched type on argument #0 when calling: `(0: DLTensor*) -> int`. "
            "Expected `DLTensor*` but got `None`");
}

TEST(TensorFunction, TensorParameterAcceptsNone) {
  Function defined = Function::FromTyped([](Tensor tensor) { return tensor.defined(); }, "f");
  EXPECT_TRUE(defined(EmptyCPU({1})).cast<bool>());
  EXPECT_FALSE(defined(nullptr).cast<bool>());
  EXPECT_EQ(ErrorText([&] { defined(String("x")); }),
            "TypeError: Mismatched type on argument #0 when calling: `f(0: ffi.Tensor) -> bool`. "
            "Expected `ffi.Tensor` but got `ffi.SmallStr`");
}

TEST(TensorFunction, OptionalTensorView) {
  Function has_value = Function::GetGlobalRequired("testing.optional_tensor_view_has_value");
  EXPECT_TRUE(has_value(EmptyCPU({1})).cast<bool>());
  EXPECT_FALSE(has_value(nullptr).cast<bool>());
  Function opt_tensor =
      Function::FromTyped([](Optional<Tensor> tensor) { return tensor.has_value(); });
  EXPECT_TRUE(opt_tensor(EmptyCPU({1})).cast<bool>());
  EXPECT_FALSE(opt_tensor(nullptr).cast<bool>());
  Function opt = Function::FromTyped([](Optional<TensorView> view) { return view.has_value(); });
  EXPECT_EQ(ErrorText([&] { opt(2.5); }),
            "TypeError: Mismatched type on argument #0 when calling: "
            "`(0: Optional<DLTensor*>) -> bool`. Expected `Optional<DLTensor*>` but got `float`");
}

TEST(TensorFunction, DeviceFromString) {
  Function id = Function::GetGlobalRequired("testing.schema_id_device");
  DLDevice cuda1 = id("cuda:1").cast<DLDevice>();
  EXPECT_EQ(cuda1.device_type, kDLCUDA);
  EXPECT_EQ(cuda1.device_id, 1);
  EXPECT_EQ(id("cpu").cast<DLDevice>().device_type, kDLCPU);
  EXPECT_EQ(id("mps:2 ignored:tail").cast<DLDevice>().device_type, kDLMetal);
  EXPECT_EQ(id(String("webgpu")).cast<DLDevice>().device_type, kDLWebGPU);
  EXPECT_EQ(id("trn:2147483647").cast<DLDevice>().device_id, 2147483647);
  for (const char* bad : {"cuda:1:2", "gpu", "cuda:", "cuda:-1", "cuda:2147483648", ""}) {
    EXPECT_EQ(ErrorText([&] { id(bad); }),
              "TypeError: Mismatched type on argument #0 when calling: "
              "`testing.schema_id_device(0: Device) -> Device`. Expected `Device` but got "
              "`const char*`")
        << bad;
  }
}

TEST(TensorFunction, DataTypeFromString) {
  Function id = Function::GetGlobalRequired("testing.schema_id_dtype");
  EXPECT_EQ(id("float32").cast<DLDataType>(), kFloat32DType);
  EXPECT_EQ(id("bf16").cast<DLDataType>(), (DLDataType{kDLBfloat, 16, 1}));
  EXPECT_EQ(ErrorText([&] { id(1); }),
            "TypeError: Mismatched type on argument #0 when calling: "
            "`testing.schema_id_dtype(0: DataType) -> DataType`. Expected `DataType` but got "
            "`int`");
  EXPECT_NE(ErrorText([&] { id("notadtype"); }).find("ValueError"), std::string::npos);
}

TEST(TensorFunction, DTypeAbbrev) {
  using tvm::ffi::DTypeAbbrev;
  EXPECT_EQ(DTypeAbbrev(kFloat32DType), "f32");
  EXPECT_EQ(DTypeAbbrev(DLDataType{kDLInt, 8, 1}), "i8");
  EXPECT_EQ(DTypeAbbrev(DLDataType{kDLUInt, 16, 1}), "u16");
  EXPECT_EQ(DTypeAbbrev(DLDataType{kDLBfloat, 16, 1}), "bf16");
  EXPECT_EQ(DTypeAbbrev(DLDataType{kDLBool, 8, 1}), "bool");
  EXPECT_EQ(DTypeAbbrev(DLDataType{kDLOpaqueHandle, 0, 0}), "void");
  EXPECT_EQ(DTypeAbbrev(DLDataType{kDLFloat, 16, 4}), "f16x4");
  EXPECT_EQ(DTypeAbbrev(DLDataType{kDLFloat8_e4m3fn, 8, 1}), "f8_e4m3fn");
  EXPECT_STREQ(tvm::ffi::details::DLDataTypeCodeAsCStr(kDLBfloat), "bfloat");
}

TEST(TensorFunction, DLTensorPointerCannotBeReturned) {
  Function id = Function::GetGlobalRequired("testing.schema_id_dltensor");
  Tensor tensor = EmptyCPU({1});
  EXPECT_EQ(ErrorText([&] { id(tensor); }),
            "RuntimeError: DLTensor* cannot be held in Any as it does not retain ownership, use "
            "Tensor instead");
  Function::GetGlobalRequired("testing.schema_tensor_view_input")(tensor);
  EXPECT_TRUE(
      Function::GetGlobalRequired("testing.schema_id_tensor")(tensor).cast<Tensor>().same_as(
          tensor));
}

TEST(TensorFunction, TestingKernels) {
  Tensor tensor = EmptyCPU({2, 3});
  EXPECT_TRUE(tensor.IsAligned(64));
  EXPECT_DOUBLE_EQ(Function::GetGlobalRequired("testing.tensor_sum_f32")(tensor).cast<double>(),
                   0.0);
  Function::GetGlobalRequired("testing.tensor_fill_f32")(tensor, 1.5);
  Tensor column =
      Function::GetGlobalRequired("testing.tensor_as_strided")(tensor, Shape({2}), Shape({3}), 1)
          .cast<Tensor>();
  Function::GetGlobalRequired("testing.tensor_fill_f32")(column, 10);
  EXPECT_DOUBLE_EQ(Function::GetGlobalRequired("testing.tensor_sum_f32")(tensor).cast<double>(),
                   4 * 1.5 + 2 * 10);
  int64_t address = reinterpret_cast<int64_t>(tensor.data_ptr());
  EXPECT_EQ(Function::GetGlobalRequired("testing.tensor_data_ptr")(column).cast<int64_t>(),
            address + 4);
  EXPECT_EQ(Function::GetGlobalRequired("testing.tensor_data_ptr3")(tensor, column, tensor)
                .cast<int64_t>(),
            3 * address + 4);
  Tensor ints =
      Function::GetGlobalRequired("testing.tensor_empty_cpu")(Shape({2}), "int32").cast<Tensor>();
  EXPECT_NE(ErrorText([&] {
              Function::GetGlobalRequired("testing.tensor_sum_f32")(ints);
            }).find("ValueError: testing.tensor_sum_f32: expected a float32 tensor"),
            std::string::npos);
}

TEST(TensorFunction, ContainersWithTensors) {
  Tensor t1 = EmptyCPU({1});
  Tensor t2 = EmptyCPU({2});
  Array<Any> nested =
      Function::GetGlobalRequired("testing.make_nested_array_with_tensor")(t1).cast<Array<Any>>();
  ASSERT_EQ(nested.size(), 2u);
  EXPECT_EQ(nested[0].cast<Array<Any>>()[1].cast<int>(), 42);
  EXPECT_TRUE(nested[1].cast<Tensor>().same_as(t1));
  Map<String, Any> map = Function::GetGlobalRequired("testing.make_nested_map_with_tensor")(t1, t2)
                             .cast<Map<String, Any>>();
  EXPECT_EQ(map.size(), 3u);
  EXPECT_TRUE(map["array"].cast<Array<Any>>()[1].cast<Tensor>().same_as(t2));
  EXPECT_EQ(map["scalar"].cast<int>(), 99);
  Array<Any> mixed =
      Function::GetGlobalRequired("testing.make_array_with_mixed")(t1, 7).cast<Array<Any>>();
  EXPECT_EQ(mixed[2].cast<String>(), "hello");
  EXPECT_EQ(Function::GetGlobalRequired("testing.make_empty_array_with_tensor_input")(t1)
                .cast<Array<Any>>()
                .size(),
            0u);
}

}  // namespace

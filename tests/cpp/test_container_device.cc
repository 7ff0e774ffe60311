// SPDX-License-Identifier: Apache-2.0
// test_container_device.cc: ffi.ContainerFindFirstNonCPUDevice over nested containers.
#include <gtest/gtest.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/function.h>

namespace {

using tvm::ffi::Any;
using tvm::ffi::Array;
using tvm::ffi::Dict;
using tvm::ffi::Function;
using tvm::ffi::List;
using tvm::ffi::Map;
using tvm::ffi::String;
using tvm::ffi::Tensor;

/// Pretends to allocate device memory: the kernels under test never touch the data.
struct NoMemory {
  void AllocData(DLTensor* tensor) { tensor->data = nullptr; }
  void FreeData(DLTensor*) {}
};

Tensor OnDevice(DLDeviceType type, int32_t id) {
  return Tensor::FromNDAlloc(NoMemory(), {2}, DLDataType{kDLFloat, 32, 1}, DLDevice{type, id});
}

Any FindFirst(const Any& value) {
  return Function::GetGlobalRequired("ffi.ContainerFindFirstNonCPUDevice")(value);
}

TEST(ContainerDevice, NoneWithoutNonCPUTensors) {
  EXPECT_EQ(FindFirst(Array<Any>{1, OnDevice(kDLCPU, 0), String("x")}), nullptr);
  EXPECT_EQ(FindFirst(Map<String, Any>{{"a", OnDevice(kDLCPU, 0)}}), nullptr);
  EXPECT_EQ(FindFirst(Any(3)), nullptr);
}

TEST(ContainerDevice, FindsTheFirstInDepthFirstOrder) {
  Map<String, Any> inner{{"t", OnDevice(kDLCUDA, 1)}};
  Array<Any> outer{OnDevice(kDLCPU, 0), List<Any>{inner}, OnDevice(kDLCUDA, 3)};
  DLDevice device = FindFirst(outer).cast<DLDevice>();
  EXPECT_EQ(device.device_type, kDLCUDA);
  EXPECT_EQ(device.device_id, 1);
}

TEST(ContainerDevice, LooksIntoDictsAndBareTensors) {
  Dict<String, Any> dict;
  dict.Set("k", OnDevice(kDLROCM, 2));
  DLDevice device = FindFirst(dict).cast<DLDevice>();
  EXPECT_EQ(device.device_type, kDLROCM);
  EXPECT_EQ(device.device_id, 2);
  EXPECT_EQ(FindFirst(OnDevice(kDLCUDA, 0)).cast<DLDevice>().device_type, kDLCUDA);
}

TEST(ContainerDevice, DeepNestingAndCyclesEndTheSearch) {
  Any chain = Array<Any>{OnDevice(kDLCUDA, 5)};
  for (int i = 0; i < 1000000; ++i) {
    chain = i % 2 == 0 ? Any(Array<Any>{1, std::move(chain)}) : Any(Map<Any, Any>{{2, chain}});
  }
  EXPECT_EQ(FindFirst(chain).cast<DLDevice>().device_id, 5);

  List<Any> cycle{1};
  cycle.push_back(cycle);  // holds itself
  Dict<Any, Any> dict{{String("self"), cycle}};
  cycle.push_back(dict);
  EXPECT_EQ(FindFirst(cycle), nullptr);
  cycle.push_back(OnDevice(kDLCUDA, 7));
  EXPECT_EQ(FindFirst(dict).cast<DLDevice>().device_id, 7);
  cycle.clear();  // breaks the cycles so that nothing leaks
}

}  // namespace

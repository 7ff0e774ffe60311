// SPDX-License-Identifier: Apache-2.0
// container_device.cc: ffi.ContainerFindFirstNonCPUDevice, which frontends use to pick the
// stream of a call whose tensors sit inside container arguments.
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/reflection/registry.h>

#include <optional>

namespace tvm {
namespace ffi {
namespace {

std::optional<DLDevice> FirstNonCPUDevice(const AnyView& value);

template <typename Container>
std::optional<DLDevice> FirstInSequence(const Container& items) {
  for (const Any& item : items) {
    if (std::optional<DLDevice> device = FirstNonCPUDevice(item)) return device;
  }
  return std::nullopt;
}

template <typename Container>
std::optional<DLDevice> FirstInMapping(const Container& items) {
  for (const auto& [key, item] : items) {
    if (std::optional<DLDevice> device = FirstNonCPUDevice(key)) return device;
    if (std::optional<DLDevice> device = FirstNonCPUDevice(item)) return device;
  }
  return std::nullopt;
}

/// The device of the first tensor, in depth-first order, that is not on the CPU.
std::optional<DLDevice> FirstNonCPUDevice(const AnyView& value) {
  switch (value.type_index()) {
    case TypeIndex::kTVMFFITensor:
    case TypeIndex::kTVMFFIDLTensorPtr: {
      DLDevice device = value.cast<TensorView>().device();
      if (device.device_type != kDLCPU) return device;
      return std::nullopt;
    }
    case TypeIndex::kTVMFFIArray:
      return FirstInSequence(value.cast<Array<Any>>());
    case TypeIndex::kTVMFFIList:
      return FirstInSequence(value.cast<List<Any>>());
    case TypeIndex::kTVMFFIMap:
      return FirstInMapping(value.cast<Map<Any, Any>>());
    case TypeIndex::kTVMFFIDict:
      return FirstInMapping(value.cast<Dict<Any, Any>>());
    default:
      return std::nullopt;
  }
}

}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  reflection::GlobalDef().def_packed(
      "ffi.ContainerFindFirstNonCPUDevice", [](PackedArgs args, Any* rv) {
        if (args.size() != 1) {
          TVM_FFI_THROW(TypeError) << "ffi.ContainerFindFirstNonCPUDevice takes 1 argument";
        }
        std::optional<DLDevice> device = FirstNonCPUDevice(args[0]);
        if (device.has_value()) {
          *rv = *device;
        } else {
          *rv = nullptr;
        }
      });
}

}  // namespace ffi
}  // namespace tvm

// SPDX-License-Identifier: Apache-2.0
// container_device.cc: ffi.ContainerFindFirstNonCPUDevice, which frontends use to pick the
// stream of a call whose tensors sit inside container arguments.
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/reflection/registry.h>

#include <iterator>
#include <optional>
#include <unordered_set>
#include <utility>
#include <vector>

#include "runtime_internal.h"

namespace tvm {
namespace ffi {
namespace {

/// Appends the elements (maps: key then value of each entry) of a container to `out`.
void AppendChildren(const Any& container, std::vector<Any>* out) {
  const Object* object = container.as<Object>();
  if (details::IsSeqTypeIndex(container.type_index())) {
    for (const Any& item : *static_cast<const SeqBaseObj*>(object)) out->push_back(item);
    return;
  }
  const MapBaseObj* map = static_cast<const MapBaseObj*>(object);
  for (uint64_t i = map->IterBegin(); i != map->IterEnd(); i = map->IterNext(i)) {
    out->push_back(map->KeyAt(i));
    out->push_back(map->ValueAt(i));
  }
}

/// The device of the first tensor, in depth-first order, that is not on the CPU. A loop over
/// an explicit stack, so deep nesting cannot overflow the native one; each container is
/// visited once, so a List or Dict that holds itself ends the search instead of looping.
std::optional<DLDevice> FirstNonCPUDevice(const AnyView& root) {
  std::vector<Any> pending{Any(root)};
  std::vector<Any> children;
  std::unordered_set<const Object*> visited;
  while (!pending.empty()) {
    Any value = std::move(pending.back());
    pending.pop_back();
    int32_t index = value.type_index();
    if (index == TypeIndex::kTVMFFITensor || index == TypeIndex::kTVMFFIDLTensorPtr) {
      DLDevice device = value.cast<TensorView>().device();
      if (device.device_type != kDLCPU) return device;
    } else if (IsContainerTypeIndex(index) && visited.insert(value.as<Object>()).second) {
      children.clear();
      AppendChildren(value, &children);
      pending.insert(pending.end(), std::make_move_iterator(children.rbegin()),
                     std::make_move_iterator(children.rend()));
    }
  }
  return std::nullopt;
}

}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  reflection::GlobalDef().def_packed(
      "ffi.ContainerFindFirstNonCPUDevice", [](PackedArgs args, Any* rv) {
        if (args.size() != 1) {
          TVM_FFI_THROW(TypeError)
              << "ffi.ContainerFindFirstNonCPUDevice(): expected 1 argument, got " << args.size();
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

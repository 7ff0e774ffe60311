// SPDX-License-Identifier: Apache-2.0
// device.h: TypeTraits<DLDevice>: Device cells, and strings such as "cpu" or "cuda:1".
#ifndef TVM_FFI_DEVICE_H_
#define TVM_FFI_DEVICE_H_

#include <dlpack/dlpack.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/type_traits.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace tvm {
namespace ffi {
namespace details {

/// The device type of a device name, or nullopt for an unknown name.
inline std::optional<DLDeviceType> TryParseDLDeviceType(std::string_view name) {
  struct Entry {
    std::string_view name;
    DLDeviceType type;
  };
  static constexpr Entry kNames[] = {
      {"cpu", kDLCPU},        {"cuda", kDLCUDA},       {"opencl", kDLOpenCL}, {"vulkan", kDLVulkan},
      {"metal", kDLMetal},    {"mps", kDLMetal},       {"vpi", kDLVPI},       {"rocm", kDLROCM},
      {"ext_dev", kDLExtDev}, {"hexagon", kDLHexagon}, {"wgpu", kDLWebGPU},   {"webgpu", kDLWebGPU},
      {"maia", kDLMAIA},      {"trn", kDLTrn},
  };
  for (const Entry& entry : kNames) {
    if (entry.name == name) return entry.type;
  }
  return std::nullopt;
}

/// A decimal device index no larger than INT32_MAX, or nullopt.
inline std::optional<int32_t> TryParseDLDeviceIndex(std::string_view digits) {
  if (digits.empty()) return std::nullopt;
  int64_t value = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
    if (value > std::numeric_limits<int32_t>::max()) return std::nullopt;
  }
  return static_cast<int32_t>(value);
}

/// Parses `name[:index]`; everything from the first space on is ignored.
inline std::optional<DLDevice> TryStringViewToDLDevice(std::string_view text) {
  text = text.substr(0, text.find(' '));
  size_t colon = text.find(':');
  std::optional<DLDeviceType> type = TryParseDLDeviceType(text.substr(0, colon));
  if (!type.has_value()) return std::nullopt;
  if (colon == std::string_view::npos) return DLDevice{*type, 0};
  std::optional<int32_t> index = TryParseDLDeviceIndex(text.substr(colon + 1));
  if (!index.has_value()) return std::nullopt;
  return DLDevice{*type, *index};
}

}  // namespace details

/// DLDevice: Device cells; also accepts strings such as "cpu" and "cuda:1".
template <>
struct TypeTraits<DLDevice> : public PODTypeTraitsBase<DLDevice, TypeTraits<DLDevice>> {
  static constexpr int32_t kIndex = TypeIndex::kTVMFFIDevice;
  static void Store(DLDevice src, TVMFFIAny* result) {
    details::ResetPODCell(result, kIndex);
    result->v_device = src;
  }
  static DLDevice Load(const TVMFFIAny* src) { return src->v_device; }
  static std::optional<DLDevice> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == kIndex) return src->v_device;
    std::optional<TVMFFIByteArray> text = details::StringLikeView(src, false);
    if (!text.has_value()) return std::nullopt;
    return details::TryStringViewToDLDevice(std::string_view(text->data, text->size));
  }
  static std::string TypeStr() { return StaticTypeKey::kTVMFFIDevice; }
};

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_DEVICE_H_

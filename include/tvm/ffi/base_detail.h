// SPDX-License-Identifier: Apache-2.0
// base_detail.h: the wheel's spelling of base_details.h, plus its small-string hash helper.
#ifndef TVM_FFI_BASE_DETAIL_H_
#define TVM_FFI_BASE_DETAIL_H_

#include <tvm/ffi/base_details.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/endian.h>

#include <cstdint>

namespace tvm {
namespace ffi {
namespace details {

/// StableHashBytes of the 8 payload bytes of a SmallStr or SmallBytes cell.
TVM_FFI_INLINE uint64_t StableHashSmallStrBytes(const TVMFFIAny* data) {
  if constexpr (TVM_FFI_IO_NO_ENDIAN_SWAP) {
    // One little-endian chunk: the hash reduces to the payload modulo 2^31 - 1.
    return data->v_uint64 % 2147483647ULL;
  } else {
    return StableHashBytes(data->v_bytes, sizeof(data->v_uint64));
  }
}

}  // namespace details
}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_BASE_DETAIL_H_

// SPDX-License-Identifier: Apache-2.0
// container/container_detail.h: the wheel's spelling of container_details.h.
#ifndef TVM_FFI_CONTAINER_CONTAINER_DETAIL_H_
#define TVM_FFI_CONTAINER_CONTAINER_DETAIL_H_

#include <tvm/ffi/container/container_details.h>

#endif  // TVM_FFI_CONTAINER_CONTAINER_DETAIL_H_

// SPDX-License-Identifier: Apache-2.0
// function_details.h: the name Apache TVM FFI 0.1.13 gives function_detail.h, kept so that code
// written for that release compiles unchanged.
#ifndef TVM_FFI_FUNCTION_DETAILS_H_
#define TVM_FFI_FUNCTION_DETAILS_H_

#include <tvm/ffi/function_detail.h>

#endif  // TVM_FFI_FUNCTION_DETAILS_H_

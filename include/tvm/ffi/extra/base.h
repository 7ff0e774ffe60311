// SPDX-License-Identifier: Apache-2.0
// extra/base.h: the export macro of the C++ entry points (outside the C ABI) that libtvm_ffi.so
// gives C++ hosts. Their signatures depend on the C++ ABI of the classes they take, so only a
// host built with a matching compiler and header version may call them.
#ifndef TVM_FFI_EXTRA_BASE_H_
#define TVM_FFI_EXTRA_BASE_H_

#include <tvm/ffi/c_api.h>

#ifndef TVM_FFI_EXTRA_CXX_API
/// Visibility of the C++ entry points the runtime exports for C++ hosts.
#define TVM_FFI_EXTRA_CXX_API TVM_FFI_DLL
#endif

#endif  // TVM_FFI_EXTRA_BASE_H_

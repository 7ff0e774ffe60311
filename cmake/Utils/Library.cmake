# SPDX-License-Identifier: Apache-2.0
# Utils/Library.cmake: the path under which Apache TVM FFI keeps tvm_ffi_configure_target,
# tvm_ffi_install and the per-target helpers, for projects that include the file by that path.
include("${CMAKE_CURRENT_LIST_DIR}/../TvmFfiConfigureTarget.cmake")

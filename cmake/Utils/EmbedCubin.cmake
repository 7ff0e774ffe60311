# SPDX-License-Identifier: Apache-2.0
# Utils/EmbedCubin.cmake: the path under which Apache TVM FFI keeps add_tvm_ffi_cubin,
# add_tvm_ffi_fatbin and tvm_ffi_embed_bin_into, for projects that include the file by that path.
include("${CMAKE_CURRENT_LIST_DIR}/../TvmFfiEmbedCubin.cmake")

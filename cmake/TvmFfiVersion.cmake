# SPDX-License-Identifier: Apache-2.0
# TvmFfiVersion.cmake: read the ABI version from include/tvm/ffi/c_api.h, its single source.

# tvm_ffi_read_version(<header> <out_var>): set <out_var> to "MAJOR.MINOR.PATCH".
function(tvm_ffi_read_version header out_var)
  file(READ "${header}" _content)
  set(_parts "")
  foreach(_part MAJOR MINOR PATCH)
    if(NOT _content MATCHES "#define[ \t]+TVM_FFI_VERSION_${_part}[ \t]+([0-9]+)")
      message(FATAL_ERROR "tvm_ffi: cannot find TVM_FFI_VERSION_${_part} in ${header}")
    endif()
    list(APPEND _parts "${CMAKE_MATCH_1}")
  endforeach()
  list(JOIN _parts "." _version)
  set(${out_var} "${_version}" PARENT_SCOPE)
endfunction()

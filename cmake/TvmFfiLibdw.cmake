# SPDX-License-Identifier: Apache-2.0
# TvmFfiLibdw.cmake: find elfutils' libdw headers (optional) for symbolised backtraces.
# Only the headers are needed: libtvm_ffi opens libdw.so.1 at run time (src/ffi/backtrace.cc),
# so the built library does not depend on elfutils being installed where it runs.

# tvm_ffi_find_libdw(<out_var>): set <out_var> to a header-only target for libdw, or "".
function(tvm_ffi_find_libdw out_var)
  set(${out_var} "" PARENT_SCOPE)
  find_package(PkgConfig QUIET)
  if(PKG_CONFIG_FOUND)
    pkg_check_modules(TVM_FFI_LIBDW QUIET libdw)
  endif()
  find_path(TVM_FFI_LIBDW_INCLUDE_DIR NAMES elfutils/libdwfl.h HINTS ${TVM_FFI_LIBDW_INCLUDE_DIRS})
  if(TVM_FFI_LIBDW_INCLUDE_DIR)
    message(STATUS "tvm_ffi: libdw headers found in ${TVM_FFI_LIBDW_INCLUDE_DIR}; libdw.so.1 "
                   "is opened at run time")
    add_library(tvm_ffi_libdw INTERFACE IMPORTED)
    target_include_directories(tvm_ffi_libdw INTERFACE "${TVM_FFI_LIBDW_INCLUDE_DIR}")
    set(${out_var} tvm_ffi_libdw PARENT_SCOPE)
  else()
    message(STATUS "tvm_ffi: libdw headers not found; backtraces will not show file:line")
  endif()
endfunction()

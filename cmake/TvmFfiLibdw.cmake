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
    string(CONCAT _fix "install them (Debian/Ubuntu: apt install libdw-dev; Fedora/RHEL: "
      "dnf install elfutils-devel; conda: conda install -c conda-forge elfutils)")
    tvm_ffi_warn_without_libdw("the libdw headers (elfutils/libdwfl.h) were not found" "${_fix}")
  endif()
endfunction()

# tvm_ffi_warn_without_libdw(<reason> <fix>): the warning of a build whose backtraces lack
# file:line (shown by `pip install -v`; `tvm-ffi-config --backtrace` tells the same afterwards).
function(tvm_ffi_warn_without_libdw reason fix)
  message(WARNING "tvm_ffi: building without libdw because ${reason}. C++ frames in tracebacks "
    "will show function names but no file:line. To get file:line, ${fix}, then build and install "
    "tvm_ffi again (e.g. pip install -v --force-reinstall --no-cache-dir .).")
endfunction()

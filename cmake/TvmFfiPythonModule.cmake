# SPDX-License-Identifier: Apache-2.0
# TvmFfiPythonModule.cmake: hook for the Cython extension tvm_ffi.core (TVM_FFI_BUILD_PYTHON_MODULE).

# tvm_ffi_add_python_module(): build and install the `core` extension next to the package.
# Placeholder until python/tvm_ffi/cython/core.pyx exists. The intended recipe:
#   find_package(Python COMPONENTS Interpreter Development.SABIModule REQUIRED)
#   cython_transpile(core.pyx ...) (cython-cmake), then
#   Python_add_library(tvm_ffi_cython MODULE USE_SABI 3.12 WITH_SOABI <generated .c/.cpp>),
#   OUTPUT_NAME core, link tvm_ffi_shared (and tvm_ffi_testing with --no-as-needed, as upstream),
#   INSTALL_RPATH "$ORIGIN/lib", install(TARGETS ... DESTINATION .).
# The Python helper header python/tvm_ffi/cython/tvm_ffi_python_helpers.h is installed into
# include/ so that libinfo.find_python_helper_include_path() finds it in the wheel.
function(tvm_ffi_add_python_module)
  set(_cython_dir "${PROJECT_SOURCE_DIR}/python/tvm_ffi/cython")
  if(EXISTS "${_cython_dir}/tvm_ffi_python_helpers.h")
    install(FILES "${_cython_dir}/tvm_ffi_python_helpers.h" DESTINATION include)
  endif()
  if(NOT EXISTS "${_cython_dir}/core.pyx")
    message(STATUS "tvm_ffi: no python/tvm_ffi/cython/core.pyx yet; Python module not built")
    return()
  endif()
  message(FATAL_ERROR "tvm_ffi: TVM_FFI_BUILD_PYTHON_MODULE: core.pyx exists but the build "
    "recipe in cmake/TvmFfiPythonModule.cmake is not written yet")
endfunction()

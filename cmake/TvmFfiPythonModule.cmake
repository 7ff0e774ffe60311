# SPDX-License-Identifier: Apache-2.0
# TvmFfiPythonModule.cmake: the Cython extension tvm_ffi.core (TVM_FFI_BUILD_PYTHON_MODULE).

# tvm_ffi_add_python_module(): transpile core.pyx with cython-cmake and build `core` next to
# the package: an abi3 extension when scikit-build-core asks for the stable ABI (Python >=
# 3.12), a version-specific one otherwise.
function(tvm_ffi_add_python_module)
  set(_cython_dir "${PROJECT_SOURCE_DIR}/python/tvm_ffi/cython")
  install(FILES "${_cython_dir}/tvm_ffi_python_helpers.h" DESTINATION include)

  find_package(Python COMPONENTS Interpreter Development.Module ${SKBUILD_SABI_COMPONENT}
    REQUIRED)
  find_package(Cython MODULE REQUIRED VERSION 3.0)
  include(UseCython)
  # cython_transpile has Cython write a depfile, which lists the included .pxi files.
  cython_transpile("${_cython_dir}/core.pyx" LANGUAGE C OUTPUT_VARIABLE _core_c
    CYTHON_ARGS -X language_level=3 --module-name tvm_ffi.core)

  if(SKBUILD_SABI_VERSION)
    # The 3.12 limited API, not an older one: older ones lack vectorcall, which made calls of
    # the module's def functions 10-70% slower (measured), more than the inline reference
    # counting they would bring back saves on Function calls.
    python_add_library(tvm_ffi_cython MODULE WITH_SOABI USE_SABI ${SKBUILD_SABI_VERSION}
      "${_core_c}")
    target_compile_definitions(tvm_ffi_cython PRIVATE CYTHON_LIMITED_API=1)
  else()
    python_add_library(tvm_ffi_cython MODULE WITH_SOABI "${_core_c}")
  endif()
  set_target_properties(tvm_ffi_cython PROPERTIES OUTPUT_NAME core
    INSTALL_RPATH "$ORIGIN/lib" BUILD_RPATH "$ORIGIN/lib")
  target_include_directories(tvm_ffi_cython PRIVATE "${_cython_dir}")
  tvm_ffi_compile_quickly(tvm_ffi_cython)
  # A C API call missing from the targeted (limited) API must fail the build, not crash.
  target_compile_options(tvm_ffi_cython PRIVATE
    $<$<C_COMPILER_ID:GNU,Clang>:-Werror=implicit-function-declaration>)
  target_link_libraries(tvm_ffi_cython PRIVATE tvm_ffi_shared)
  install(TARGETS tvm_ffi_cython LIBRARY DESTINATION .)
endfunction()

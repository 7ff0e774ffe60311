# SPDX-License-Identifier: Apache-2.0
# TvmFfiCheckSources.cmake: `cmake -DTVM_FFI_ROOT=<project root> -P` exits with an error naming
# each source file of src/ffi, src/ffi/testing and tests/cpp that TvmFfiSources.cmake leaves out.

include("${TVM_FFI_ROOT}/cmake/TvmFfiSources.cmake")
# Listing the folders is what this check is for; no target is built from this list.
file(GLOB _present RELATIVE "${TVM_FFI_ROOT}" "${TVM_FFI_ROOT}/src/ffi/*.cc"
  "${TVM_FFI_ROOT}/src/ffi/testing/*.cc" "${TVM_FFI_ROOT}/tests/cpp/*.cc"
  "${TVM_FFI_ROOT}/tests/cpp/*.c")
list(REMOVE_ITEM _present ${TVM_FFI_RUNTIME_SOURCES} ${TVM_FFI_TESTING_SOURCES}
  ${TVM_FFI_CPP_TEST_SOURCES} ${TVM_FFI_C_TEST_SOURCES})
if(_present)
  list(JOIN _present ", " _unlisted)
  message(FATAL_ERROR "in no list of cmake/TvmFfiSources.cmake, so never built: ${_unlisted}")
endif()
message(STATUS "every source file is listed in cmake/TvmFfiSources.cmake")

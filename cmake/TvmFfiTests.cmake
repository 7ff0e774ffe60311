# SPDX-License-Identifier: Apache-2.0
# TvmFfiTests.cmake: the GoogleTest suite and the pure-C ABI test under tests/cpp.

# tvm_ffi_link_runtime_for_test(<target>): link libtvm_ffi and libtvm_ffi_testing, keeping the
# testing library even though nothing references it (its static initialisers register functions).
function(tvm_ffi_link_runtime_for_test target)
  target_link_options(${target} PRIVATE "LINKER:--no-as-needed")
  target_link_libraries(${target} PRIVATE tvm_ffi_shared tvm_ffi_testing)
endfunction()

function(tvm_ffi_add_cpp_tests)
  set(_sources ${TVM_FFI_CPP_TEST_SOURCES})
  if(TVM_FFI_SANITIZE_THREAD)
    # A race needs threads: under ThreadSanitizer only the test files that start threads are
    # built, which is most of the time of that build.
    set(_threaded_sources "")
    foreach(_source IN LISTS _sources)
      file(STRINGS "${PROJECT_SOURCE_DIR}/${_source}" _starts_threads REGEX "#include <thread>")
      if(_starts_threads)
        list(APPEND _threaded_sources "${_source}")
      endif()
    endforeach()
    set(_sources ${_threaded_sources})
  endif()
  find_package(GTest REQUIRED)
  add_executable(tvm_ffi_cpp_tests ${_sources})
  if(TVM_FFI_UNITY_TESTS)
    set_target_properties(tvm_ffi_cpp_tests PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
    # Compiled alone: test_export.cc sets a macro before its includes; test_dtype_format.cc and
    # test_backtrace.cc include sources of src/, written for a translation unit of their own.
    set_source_files_properties(tests/cpp/test_export.cc tests/cpp/test_dtype_format.cc
      tests/cpp/test_backtrace.cc PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
  endif()
  # The tests include every public header: their warnings are those users' code would get.
  tvm_ffi_add_warning_flags(tvm_ffi_cpp_tests)
  # GCC reports false maybe-uninitialized positives through std::optional under ASan.
  # -g1 (line tables and function names, enough for backtraces and sanitizer reports) instead
  # of full debug info nearly halves the suite's compile time.
  target_compile_options(tvm_ffi_cpp_tests PRIVATE
    $<$<CXX_COMPILER_ID:GNU>:-Wno-maybe-uninitialized> $<$<CONFIG:Debug,RelWithDebInfo>:-g1>)
  tvm_ffi_link_runtime_for_test(tvm_ffi_cpp_tests)
  # Module tests load the testing library again by path, as a user library.
  target_compile_definitions(tvm_ffi_cpp_tests PRIVATE
    TVM_FFI_TESTING_LIBRARY_PATH="$<TARGET_FILE:tvm_ffi_testing>")
  target_link_libraries(tvm_ffi_cpp_tests PRIVATE GTest::gtest GTest::gtest_main)
  # Two shards, each one process running its half of the tests: a process per test spent most
  # of the suite's time (under the sanitizers) starting up and loading the libraries.
  foreach(_shard RANGE 1)
    add_test(NAME tvm_ffi_cpp_tests_shard${_shard} COMMAND tvm_ffi_cpp_tests)
    set_tests_properties(tvm_ffi_cpp_tests_shard${_shard} PROPERTIES
      ENVIRONMENT "GTEST_TOTAL_SHARDS=2;GTEST_SHARD_INDEX=${_shard}" TIMEOUT 1200)
  endforeach()
  # The backtrace tests again with libdw turned off: names then come from ELF symbol tables.
  add_test(NAME tvm_ffi_backtrace_without_libdw
    COMMAND tvm_ffi_cpp_tests "--gtest_filter=Backtrace*:ErrorAcrossLibraries*")
  set_tests_properties(tvm_ffi_backtrace_without_libdw PROPERTIES
    ENVIRONMENT "TVM_FFI_BACKTRACE_LIBDW=0" TIMEOUT 300)
endfunction()

function(tvm_ffi_add_c_tests)
  add_executable(tvm_ffi_c_api_test ${TVM_FFI_C_TEST_SOURCES})
  set_target_properties(tvm_ffi_c_api_test PROPERTIES C_STANDARD 99 C_STANDARD_REQUIRED ON
    C_EXTENSIONS OFF)
  tvm_ffi_add_warning_flags(tvm_ffi_c_api_test)
  tvm_ffi_link_runtime_for_test(tvm_ffi_c_api_test)
  add_test(NAME tvm_ffi_c_api_test COMMAND tvm_ffi_c_api_test)
endfunction()

# tvm_ffi_add_source_list_check(): a test that fails when a source file of src/ffi,
# src/ffi/testing or tests/cpp is in no list of TvmFfiSources.cmake (and so is not built).
function(tvm_ffi_add_source_list_check)
  add_test(NAME tvm_ffi_sources_listed COMMAND "${CMAKE_COMMAND}"
    "-DTVM_FFI_ROOT=${PROJECT_SOURCE_DIR}"
    -P "${PROJECT_SOURCE_DIR}/cmake/TvmFfiCheckSources.cmake")
endfunction()

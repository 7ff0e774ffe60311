# SPDX-License-Identifier: Apache-2.0
# TvmFfiUtils.cmake: small per-target settings shared by every library of the project.

# tvm_ffi_configure_library(<target>): hidden visibility and an $ORIGIN rpath.
function(tvm_ffi_configure_library target)
  set_target_properties(${target} PROPERTIES
    CXX_VISIBILITY_PRESET hidden
    C_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    POSITION_INDEPENDENT_CODE ON
    BUILD_RPATH "$ORIGIN"
    INSTALL_RPATH "$ORIGIN")
  target_compile_options(${target} PRIVATE -fvisibility=hidden
    $<$<COMPILE_LANGUAGE:CXX>:-fvisibility-inlines-hidden>)
endfunction()

# tvm_ffi_compile_quickly(<target> [<batch_size>]): compile <target>'s sources in batches of
# <batch_size> files, 0 for all in one (a CMake unity build, TVM_FFI_UNITY_BUILD; none without
# it), so that the templates of the shared headers are compiled once per batch rather than once
# per file, and in RelWithDebInfo with line tables only (-g1): backtraces need file:line, not
# variables, and full debug info costs a third of the compile time.
function(tvm_ffi_compile_quickly target)
  if(TVM_FFI_UNITY_BUILD AND ARGC GREATER 1)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${ARGV1})
  endif()
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE $<$<CONFIG:RelWithDebInfo>:-g1>)
  endif()
endfunction()

# tvm_ffi_add_sanitizer_flags(<flag>...): the flags on the compile and link line of every
# target defined after this call in the current directory and below.
function(tvm_ffi_add_sanitizer_flags)
  message(STATUS "tvm_ffi: building with ${ARGN}")
  add_compile_options(${ARGN})
  add_link_options(${ARGN})
endfunction()

# tvm_ffi_add_warning_flags(<target>): the project's warnings on <target>, errors when
# TVM_FFI_WERROR is on. -Wconversion holds for all of the project's code with GCC and Clang.
function(tvm_ffi_add_warning_flags target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wconversion
    $<$<BOOL:${TVM_FFI_WERROR}>:-Werror>)
endfunction()

# tvm_ffi_use_ccache_when_found(): compile C and C++ through ccache (TVM_FFI_USE_CCACHE) unless a
# launcher was chosen already (CMAKE_<LANG>_COMPILER_LAUNCHER from the cache or the environment).
function(tvm_ffi_use_ccache_when_found)
  if(NOT TVM_FFI_USE_CCACHE)
    return()
  endif()
  find_program(TVM_FFI_CCACHE_PROGRAM ccache)
  if(NOT TVM_FFI_CCACHE_PROGRAM)
    return()
  endif()
  foreach(lang C CXX)
    if(NOT DEFINED CMAKE_${lang}_COMPILER_LAUNCHER AND NOT DEFINED ENV{CMAKE_${lang}_COMPILER_LAUNCHER})
      set(CMAKE_${lang}_COMPILER_LAUNCHER "${TVM_FFI_CCACHE_PROGRAM}" CACHE STRING
          "Compiler launcher for ${lang} (TVM_FFI_USE_CCACHE)")
    endif()
  endforeach()
  message(STATUS "tvm_ffi: compiling through ${TVM_FFI_CCACHE_PROGRAM}")
endfunction()

# tvm_ffi_show_build_progress(): in a build under pip (scikit-build-core sets SKBUILD), compile
# through cmake/tvm_ffi_build_progress.sh, which writes each compile step and its time to the
# terminal: pip shows the build's own output only with -v. TVM_FFI_BUILD_PROGRESS=OFF turns it
# off. Any launcher chosen before (ccache) still runs, after it.
function(tvm_ffi_show_build_progress)
  if(NOT SKBUILD OR NOT TVM_FFI_BUILD_PROGRESS OR NOT CMAKE_HOST_UNIX)
    return()
  endif()
  set(script "${PROJECT_SOURCE_DIR}/cmake/tvm_ffi_build_progress.sh")
  foreach(lang C CXX)
    set(CMAKE_${lang}_COMPILER_LAUNCHER sh "${script}" ${CMAKE_${lang}_COMPILER_LAUNCHER}
        PARENT_SCOPE)
  endforeach()
endfunction()

# SPDX-License-Identifier: Apache-2.0
# TvmFfiEmbedCubin.cmake: compile CUDA sources to CUBIN/fatbin images and embed an image into a
# library that reads it with TVM_FFI_EMBED_CUBIN(<name>) (tvm/ffi/extra/cuda/cubin_launcher.h).
# Installed with the CMake package (find_package(tvm_ffi) includes it); the names and arguments
# are those of Apache TVM FFI's CMake package.

include("${CMAKE_CURRENT_LIST_DIR}/TvmFfiTargetHelpers.cmake")

# Like Apache TVM FFI's package, link the CUDA runtime shared unless the project chose: a static
# cudart requires a driver of exactly its version. Set it to None to use the driver API only.
if(NOT DEFINED CMAKE_CUDA_RUNTIME_LIBRARY)
  set(CMAKE_CUDA_RUNTIME_LIBRARY Shared)
  message(STATUS "tvm_ffi: CMAKE_CUDA_RUNTIME_LIBRARY defaults to Shared; set it to None to use "
    "the CUDA driver API only")
endif()

# The script that copies <source>.o files to <source>.<EXT> (cmake -DOBJECTS=<list>
# -DEXT=<extension> [-DOUT_DIR=<dir>] -P ...); the variable name is Apache TVM FFI's.
set(OBJECT_COPY_UTIL "${CMAKE_CURRENT_LIST_DIR}/TvmFfiCopyObjectsStep.cmake")

# add_tvm_ffi_cubin(<target> CUDA <source>): an object library <target> whose one CUDA source is
# compiled to a CUBIN image (nvcc --cubin, which takes a single real architecture such as
# 80-real), plus a target <target>_bin, built by default, that copies the object <source>.o to
# <source>.cubin next to it. For CMake >= 3.27 the CUDA_CUBIN_COMPILATION property does the same.
function(add_tvm_ffi_cubin target)
  _tvm_ffi_add_cuda_image(${target} cubin ${ARGN})
endfunction()

# add_tvm_ffi_fatbin(<target> CUDA <source>): as add_tvm_ffi_cubin, with a fatbin image
# (nvcc --fatbin) copied to <source>.fatbin. CUDA_FATBIN_COMPILATION in CMake >= 3.27.
function(add_tvm_ffi_fatbin target)
  _tvm_ffi_add_cuda_image(${target} fatbin ${ARGN})
endfunction()

# tvm_ffi_embed_bin_into(<target> SYMBOL <name> BIN <image file>): before each link of <target>,
# merge the image into <target>'s object file (it must have exactly one), as the data that
# TVM_FFI_EMBED_CUBIN(<name>) in that file refers to. <image file> may be a generator
# expression such as $<TARGET_OBJECTS:kernel_fatbin>; a change of it relinks <target>. Runs
# `python -m tvm_ffi.utils.embed_cubin` (GNU ld and objcopy).
function(tvm_ffi_embed_bin_into target)
  set(_usage "tvm_ffi_embed_bin_into(<target> SYMBOL <name> BIN <image file>)")
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "SYMBOL;BIN" "")
  if(NOT TARGET "${target}")
    message(FATAL_ERROR
      "tvm_ffi_embed_bin_into: '${target}' is not an existing CMake target. Usage: ${_usage}")
  endif()
  if(arg_UNPARSED_ARGUMENTS)  # ignored, as by Apache TVM FFI's command
    message(WARNING "tvm_ffi_embed_bin_into: ignoring unknown arguments "
      "'${arg_UNPARSED_ARGUMENTS}'. Usage: ${_usage}")
  endif()
  foreach(_keyword BIN SYMBOL)
    if(NOT arg_${_keyword})
      message(FATAL_ERROR "tvm_ffi_embed_bin_into: ${_keyword} is required. Usage: ${_usage}")
    endif()
  endforeach()
  if(NOT arg_SYMBOL MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR
      "tvm_ffi_embed_bin_into: SYMBOL '${arg_SYMBOL}' is not a C identifier. Usage: ${_usage}")
  endif()
  _tvm_ffi_find_python(_python)
  add_custom_command(TARGET ${target} PRE_LINK
    COMMAND "${CMAKE_COMMAND}" "-DPYTHON=${_python}" "-DOBJECTS=$<TARGET_OBJECTS:${target}>"
            "-DBIN=${arg_BIN}" "-DSYMBOL=${arg_SYMBOL}"
            "-DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/tvm_ffi_embed/${target}"
            -P "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/TvmFfiEmbedBinStep.cmake"
    COMMENT "Embedding ${arg_BIN} into $<TARGET_FILE_NAME:${target}> as ${arg_SYMBOL}"
    VERBATIM)
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS "${arg_BIN}")
endfunction()

# _tvm_ffi_add_cuda_image(<target> <cubin|fatbin> CUDA <source>): add_tvm_ffi_cubin/fatbin.
function(_tvm_ffi_add_cuda_image target kind)
  set(_usage "add_tvm_ffi_${kind}(<target> CUDA <source>)")
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "CUDA" "")
  if(NOT arg_CUDA OR arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR
      "add_tvm_ffi_${kind}: one CUDA source is required (CUDA <source>). Usage: ${_usage}")
  endif()
  add_library(${target} OBJECT "${arg_CUDA}")
  target_compile_options(${target} PRIVATE "$<$<COMPILE_LANGUAGE:CUDA>:--${kind}>")
  add_custom_target(${target}_bin ALL
    COMMAND "${CMAKE_COMMAND}" "-DOBJECTS=$<TARGET_OBJECTS:${target}>" "-DEXT=${kind}"
            -P "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/TvmFfiCopyObjectsStep.cmake"
    DEPENDS ${target}
    COMMENT "Copying the ${kind} images of ${target}"
    VERBATIM)
endfunction()

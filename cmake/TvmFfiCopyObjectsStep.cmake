# SPDX-License-Identifier: Apache-2.0
# TvmFfiCopyObjectsStep.cmake: the build step of add_tvm_ffi_cubin/fatbin (TvmFfiEmbedCubin.cmake),
# which gives an image compiled as an object its usual name, run as
#   cmake -DOBJECTS=<object>[;<object>...] -DEXT=<extension> [-DOUT_DIR=<dir>] -P <this>
# Each <dir>/<source>.<source ext>.o is copied to <OUT_DIR, else dir>/<source>.<EXT> when it
# differs from what is there.
cmake_minimum_required(VERSION 3.18)

# Quotes around a value are dropped: callers may pass -DOBJECTS="..." through a VERBATIM command.
foreach(_var OBJECTS EXT OUT_DIR)
  string(REPLACE "\"" "" ${_var} "${${_var}}")
endforeach()
if(NOT OBJECTS OR NOT EXT)
  message(FATAL_ERROR "TvmFfiCopyObjectsStep.cmake: -DOBJECTS=... and -DEXT=... are required")
endif()

foreach(_object IN LISTS OBJECTS)
  # kernel.cu.o -> kernel: the source's extension and the object's.
  get_filename_component(_stem "${_object}" NAME_WE)
  if(OUT_DIR)
    set(_dir "${OUT_DIR}")
  else()
    get_filename_component(_dir "${_object}" DIRECTORY)
  endif()
  message(STATUS "${_object} -> ${_dir}/${_stem}.${EXT}")
  file(MAKE_DIRECTORY "${_dir}")
  execute_process(
    COMMAND "${CMAKE_COMMAND}" -E copy_if_different "${_object}" "${_dir}/${_stem}.${EXT}"
    RESULT_VARIABLE _status)
  if(NOT _status EQUAL 0)
    message(FATAL_ERROR "TvmFfiCopyObjectsStep.cmake: copying ${_object} failed (${_status})")
  endif()
endforeach()

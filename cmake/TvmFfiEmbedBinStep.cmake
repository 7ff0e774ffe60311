# SPDX-License-Identifier: Apache-2.0
# TvmFfiEmbedBinStep.cmake: the pre-link step of tvm_ffi_embed_bin_into (TvmFfiEmbedCubin.cmake),
# run as
#   cmake -DPYTHON=<python> -DOBJECTS=<the target's object> -DBIN=<image> -DSYMBOL=<name>
#         -DWORK_DIR=<dir> -P <this>
# It rewrites the object in place with the image merged in. The object as compiled is kept in
# WORK_DIR: when the target is relinked without recompiling (after a change of the image, with a
# Makefile generator), the object holds the previous image already, and the image is merged into
# the kept copy instead. (Ninja sees the rewritten object as changed and recompiles it anyway.)
cmake_minimum_required(VERSION 3.18)

foreach(_var PYTHON OBJECTS BIN SYMBOL WORK_DIR)
  if(NOT ${_var})
    message(FATAL_ERROR "TvmFfiEmbedBinStep.cmake: -D${_var}=... is required")
  endif()
endforeach()

# run_checked(<what> <command>...): run the command; fail the build with <what> when it fails.
function(run_checked what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE _status)
  if(NOT _status EQUAL 0)
    message(FATAL_ERROR "tvm_ffi_embed_bin_into: ${what} failed (${_status})")
  endif()
endfunction()

# keep_compiled_object(<object> <copy>): copy the object to <copy> unless it is the one this step
# wrote last (recorded by its hash in <copy>.written.sha256).
function(keep_compiled_object object copy)
  file(SHA256 "${object}" _hash)
  if(EXISTS "${copy}" AND EXISTS "${copy}.written.sha256")
    file(READ "${copy}.written.sha256" _written)
    if(_hash STREQUAL _written)
      return()
    endif()
  endif()
  file(MAKE_DIRECTORY "${WORK_DIR}")
  run_checked("copying ${object}" "${CMAKE_COMMAND}" -E copy "${object}" "${copy}")
endfunction()

list(LENGTH OBJECTS _count)
if(NOT _count EQUAL 1)
  message(FATAL_ERROR "tvm_ffi_embed_bin_into: the target must be built from exactly one source "
    "file (the one that uses TVM_FFI_EMBED_CUBIN(${SYMBOL})); it has ${_count} objects: ${OBJECTS}")
endif()
set(_compiled "${WORK_DIR}/${SYMBOL}.compiled.o")
keep_compiled_object("${OBJECTS}" "${_compiled}")
run_checked("embedding ${BIN} as ${SYMBOL}" "${PYTHON}" -m tvm_ffi.utils.embed_cubin
  --output-obj "${OBJECTS}" --input-obj "${_compiled}" --cubin "${BIN}" --name "${SYMBOL}")
file(SHA256 "${OBJECTS}" _hash)
file(WRITE "${_compiled}.written.sha256" "${_hash}")

# SPDX-License-Identifier: Apache-2.0
# TvmFfiSplitDebugInfoStep.cmake: the post-link step of TvmFfiDebugInfo.cmake, run as
#   cmake -DOBJCOPY=<objcopy> -DLIBRARY=<freshly linked library> -DDEBUGINFO_DIR=<dir> -P <this>
cmake_minimum_required(VERSION 3.18)

foreach(_var OBJCOPY LIBRARY DEBUGINFO_DIR)
  if(NOT ${_var})
    message(FATAL_ERROR "TvmFfiSplitDebugInfoStep.cmake: -D${_var}=... is required")
  endif()
endforeach()

function(run_objcopy)
  execute_process(COMMAND "${OBJCOPY}" ${ARGN} RESULT_VARIABLE _status)
  if(NOT _status EQUAL 0)
    message(FATAL_ERROR "objcopy ${ARGN} failed (${_status})")
  endif()
endfunction()

# read_build_id(<library> <out_var>): the GNU build id in lower-case hex, or "" when there is none.
function(read_build_id library out_var)
  get_filename_component(_name "${library}" NAME)
  # Named after the library: the steps of two libraries may run at the same time.
  set(_note "${DEBUGINFO_DIR}/${_name}.build-id.tmp")
  file(REMOVE "${_note}")
  run_objcopy(-O binary --only-section=.note.gnu.build-id "${library}" "${_note}")
  set(_hex "")
  if(EXISTS "${_note}")
    file(READ "${_note}" _hex HEX)
    file(REMOVE "${_note}")
  endif()
  # The note: namesz, descsz, type (4 bytes each), "GNU\0", then the id (descsz bytes).
  string(LENGTH "${_hex}" _length)
  if(_length GREATER 32)
    string(SUBSTRING "${_hex}" 32 -1 _hex)
  else()
    set(_hex "")
  endif()
  string(TOLOWER "${_hex}" _hex)
  set(${out_var} "${_hex}" PARENT_SCOPE)
endfunction()

# link_by_build_id(<debug file name> <build id>): .build-id/xx/yyyy.debug -> ../../<name>, after
# removing the links of earlier builds to the same name.
function(link_by_build_id debug_name build_id)
  set(_target "../../${debug_name}")
  file(GLOB _links LIST_DIRECTORIES false "${DEBUGINFO_DIR}/.build-id/*/*.debug")
  foreach(_link ${_links})
    if(IS_SYMLINK "${_link}")
      file(READ_SYMLINK "${_link}" _points_to)
      if(_points_to STREQUAL _target)
        file(REMOVE "${_link}")
      endif()
    endif()
  endforeach()
  string(SUBSTRING "${build_id}" 0 2 _head)
  string(SUBSTRING "${build_id}" 2 -1 _tail)
  file(MAKE_DIRECTORY "${DEBUGINFO_DIR}/.build-id/${_head}")
  file(CREATE_LINK "${_target}" "${DEBUGINFO_DIR}/.build-id/${_head}/${_tail}.debug"
    COPY_ON_ERROR SYMBOLIC)
endfunction()

get_filename_component(_name "${LIBRARY}" NAME)
set(_debug_file "${DEBUGINFO_DIR}/${_name}.debug")
file(MAKE_DIRECTORY "${DEBUGINFO_DIR}")
# Not compressed (--compress-debug-sections): zlib made this step 10-40x slower (3-12 s for
# libtvm_ffi.so) on every relink, while an archive of the folder compresses it better anyway.
run_objcopy(--only-keep-debug "${LIBRARY}" "${_debug_file}")
# The debuglink records the debug file's name and CRC; the file must exist by now.
run_objcopy(--strip-debug "--add-gnu-debuglink=${_debug_file}" "${LIBRARY}")
read_build_id("${LIBRARY}" _build_id)
if(_build_id)
  link_by_build_id("${_name}.debug" "${_build_id}")
endif()

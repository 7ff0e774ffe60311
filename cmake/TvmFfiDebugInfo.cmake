# SPDX-License-Identifier: Apache-2.0
# TvmFfiDebugInfo.cmake: move the libraries' debug info to separate files (TVM_FFI_SPLIT_DEBUGINFO),
# so that the wheel ships stripped libraries and file:line in backtraces still works.
#
# Each library, right after it is linked (so only when it is relinked), gets:
#   <build>/debuginfo/<library file name>.debug       its DWARF (objcopy --only-keep-debug);
#   <build>/debuginfo/.build-id/xx/yyyy.debug         a link to it named by the GNU build id;
# and itself loses its .debug_* sections (it keeps .symtab) and gains a .gnu_debuglink.
# libdw finds the file by build id, or by the debuglink name at the top of the folder, in the
# folders of its search path: libtvm_ffi's symbolizer puts this build's folder there
# (src/ffi/backtrace.cc), or what TVM_FFI_DEBUGINFO_PATH names instead.

# tvm_ffi_split_debuginfo(<runtime target> <target>...): split each target's debug info into
# the build's debuginfo folder and compile that folder into <runtime target>'s symbolizer.
# Without objcopy it warns and leaves the libraries as they are.
function(tvm_ffi_split_debuginfo runtime_target)
  if(NOT CMAKE_OBJCOPY)
    message(WARNING "tvm_ffi: TVM_FFI_SPLIT_DEBUGINFO is ON but objcopy was not found; the "
      "libraries keep their debug info (installed packages are then much larger).")
    return()
  endif()
  set(_dir "${PROJECT_BINARY_DIR}/debuginfo")
  message(STATUS "tvm_ffi: debug info goes to ${_dir} (objcopy: ${CMAKE_OBJCOPY})")
  # On the one source file that reads it: changing the build folder recompiles only that one.
  set_property(SOURCE "${PROJECT_SOURCE_DIR}/src/ffi/backtrace.cc" APPEND PROPERTY
    COMPILE_DEFINITIONS "TVM_FFI_BUILD_DEBUGINFO_DIR=\"${_dir}\"")
  set(_step "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/TvmFfiSplitDebugInfoStep.cmake")
  # POST_BUILD: the step runs as part of the link, so an unchanged library is not processed again.
  foreach(_target ${runtime_target} ${ARGN})
    add_custom_command(TARGET ${_target} POST_BUILD
      COMMAND "${CMAKE_COMMAND}" "-DOBJCOPY=${CMAKE_OBJCOPY}" "-DLIBRARY=$<TARGET_FILE:${_target}>"
              "-DDEBUGINFO_DIR=${_dir}" -P "${_step}"
      COMMENT "Splitting the debug info of $<TARGET_FILE_NAME:${_target}>"
      VERBATIM)
  endforeach()
endfunction()

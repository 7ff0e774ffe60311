# SPDX-License-Identifier: Apache-2.0
# TvmFfiConfigureTarget.cmake: tvm_ffi_configure_target and tvm_ffi_install, the two commands a
# project that builds a library on tvm_ffi calls. Installed with the CMake package
# (find_package(tvm_ffi) includes it); the names, keywords and defaults are those of Apache TVM
# FFI's CMake package, so a CMakeLists.txt written for it builds unchanged.

include_guard(GLOBAL)
include("${CMAKE_CURRENT_LIST_DIR}/TvmFfiTargetHelpers.cmake")

# tvm_ffi_configure_target(<target> [<keyword> <value>]...): set up the existing library target
# <target> to use tvm_ffi. Always compiles it with paths relative to the current source directory
# (tvm_ffi_add_prefix_map). The keywords, each followed by a value:
#   LINK_HEADER  ON|OFF (ON)   link tvm_ffi::header (include directories, C++17), privately;
#   LINK_SHARED  ON|OFF (ON)   link tvm_ffi::shared (libtvm_ffi), privately;
#   DEBUG_SYMBOL ON|OFF (ON)   on Apple platforms, write a .dSYM after each link (see
#                              tvm_ffi_install); nothing elsewhere;
#   MSVC_FLAGS   ON|OFF (ON)   with MSVC, tvm_ffi_add_msvc_flags;
#   STUB_DIR     <dir>         after each build, run tvm_ffi.stub.cli on <dir> (relative to the
#                              current source directory) with the built library loaded: it fills
#                              the tvm-ffi-stubgen blocks of the Python files there;
#   STUB_INIT    ON|OFF (OFF)  let it also create files and blocks for what the library registers
#                              (--init-lib <target> --init-pypkg <STUB_PKG> --init-prefix
#                              <STUB_PREFIX>); needs STUB_DIR;
#   STUB_PKG     <pkg>         the Python package of those files (default: SKBUILD_PROJECT_NAME
#                              when set, else <target>); needs STUB_INIT ON;
#   STUB_PREFIX  <prefix>      the registry prefix to generate for (default: "<STUB_PKG>.");
#                              needs STUB_INIT ON;
#   STUB_TARGET  python|rust   what the stub generator writes (its --target; default python).
function(tvm_ffi_configure_target target)
  string(CONCAT _usage "tvm_ffi_configure_target(<target> [LINK_SHARED ON|OFF] "
    "[LINK_HEADER ON|OFF] [DEBUG_SYMBOL ON|OFF] [MSVC_FLAGS ON|OFF] [STUB_INIT ON|OFF] "
    "[STUB_DIR <dir>] [STUB_PKG <pkg>] [STUB_PREFIX <prefix>] [STUB_TARGET python|rust])")
  if(NOT TARGET "${target}")
    message(FATAL_ERROR
      "tvm_ffi_configure_target: '${target}' is not an existing CMake target. Usage: ${_usage}")
  endif()
  set(_on_by_default LINK_SHARED LINK_HEADER DEBUG_SYMBOL MSVC_FLAGS)
  cmake_parse_arguments(PARSE_ARGV 1 arg ""
    "${_on_by_default};STUB_INIT;STUB_DIR;STUB_PKG;STUB_PREFIX;STUB_TARGET" "")
  _tvm_ffi_check_arguments(tvm_ffi_configure_target "${_usage}")
  foreach(_switch IN LISTS _on_by_default)
    if(NOT DEFINED arg_${_switch})
      set(arg_${_switch} ON)
    endif()
  endforeach()
  _tvm_ffi_resolve_stub_arguments(${target})

  tvm_ffi_add_prefix_map(${target} "${CMAKE_CURRENT_SOURCE_DIR}")
  foreach(_part HEADER SHARED)
    if(arg_LINK_${_part})
      string(TOLOWER ${_part} _name)
      if(NOT TARGET tvm_ffi::${_name})
        message(FATAL_ERROR "tvm_ffi_configure_target(${target}): LINK_${_part} is ON but there "
          "is no target tvm_ffi::${_name}; call find_package(tvm_ffi CONFIG REQUIRED) first.")
      endif()
      target_link_libraries(${target} PRIVATE tvm_ffi::${_name})
    endif()
  endforeach()
  if(arg_DEBUG_SYMBOL)
    tvm_ffi_add_apple_dsymutil(${target})
  endif()
  if(arg_MSVC_FLAGS)
    tvm_ffi_add_msvc_flags(${target})
  endif()
  if(arg_STUB_DIR)
    _tvm_ffi_add_stub_generation(${target})
  endif()
endfunction()

# tvm_ffi_install(<target> [DESTINATION <dir>]): install what tvm_ffi_configure_target added next
# to <target>'s library: on Apple platforms its .dSYM bundle when there is one, into <dir>
# (relative to the install prefix; default "."). Nothing elsewhere. <target> itself is
# installed with install(TARGETS).
function(tvm_ffi_install target)
  set(_usage "tvm_ffi_install(<target> [DESTINATION <dir>])")
  if(NOT TARGET "${target}")
    message(FATAL_ERROR
      "tvm_ffi_install: '${target}' is not an existing CMake target. Usage: ${_usage}")
  endif()
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "DESTINATION" "")
  _tvm_ffi_check_arguments(tvm_ffi_install "${_usage}")
  if(NOT arg_DESTINATION)
    set(arg_DESTINATION ".")
  endif()
  if(APPLE)
    install(DIRECTORY "$<TARGET_FILE:${target}>.dSYM" DESTINATION "${arg_DESTINATION}" OPTIONAL)
  endif()
endfunction()

# _tvm_ffi_check_arguments(<command> <usage>): warn of what cmake_parse_arguments (prefix arg)
# could not place, an unknown argument or a keyword without its value, which are then ignored
# (Apache TVM FFI's commands ignore them silently, so projects written for them configure here).
macro(_tvm_ffi_check_arguments command usage)
  if(arg_UNPARSED_ARGUMENTS)
    message(WARNING
      "${command}: ignoring unknown arguments '${arg_UNPARSED_ARGUMENTS}'. Usage: ${usage}")
  endif()
  if(arg_KEYWORDS_MISSING_VALUES)
    message(WARNING "${command}: ignoring '${arg_KEYWORDS_MISSING_VALUES}', which has no value. "
      "Usage: ${usage}")
  endif()
endmacro()

# _tvm_ffi_resolve_stub_arguments(<target>): check the STUB_* arguments of
# tvm_ffi_configure_target against each other and fill in STUB_PKG and STUB_PREFIX.
macro(_tvm_ffi_resolve_stub_arguments target)
  if(DEFINED arg_STUB_PKG OR DEFINED arg_STUB_PREFIX)
    if(NOT arg_STUB_DIR)
      message(FATAL_ERROR
        "tvm_ffi_configure_target(${target}): STUB_PKG/STUB_PREFIX require STUB_DIR to be set.")
    endif()
    if(NOT arg_STUB_INIT)
      message(FATAL_ERROR "tvm_ffi_configure_target(${target}): STUB_PKG/STUB_PREFIX cannot be "
        "set when STUB_INIT is OFF.")
    endif()
  endif()
  if(arg_STUB_INIT AND NOT arg_STUB_DIR)
    message(FATAL_ERROR
      "tvm_ffi_configure_target(${target}): STUB_INIT=ON requires STUB_DIR to be set.")
  endif()
  if(DEFINED arg_STUB_TARGET AND NOT arg_STUB_TARGET MATCHES "^(python|rust)?$")
    message(FATAL_ERROR "tvm_ffi_configure_target(${target}): STUB_TARGET is "
      "'${arg_STUB_TARGET}'; it must be python or rust.")
  endif()
  if(arg_STUB_INIT)
    if(NOT DEFINED arg_STUB_PKG)
      if(SKBUILD_PROJECT_NAME)
        set(arg_STUB_PKG "${SKBUILD_PROJECT_NAME}")
      else()
        set(arg_STUB_PKG "${target}")
      endif()
    endif()
    if(NOT DEFINED arg_STUB_PREFIX)
      set(arg_STUB_PREFIX "${arg_STUB_PKG}.")
    endif()
  endif()
endmacro()

# _tvm_ffi_add_stub_generation(<target>): the post-build step of STUB_DIR, from the arg_STUB_*
# variables of tvm_ffi_configure_target.
function(_tvm_ffi_add_stub_generation target)
  get_filename_component(_dir "${arg_STUB_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  _tvm_ffi_find_python(_python)
  set(_args "${_dir}" --dlls "$<TARGET_FILE:${target}>")
  if(arg_STUB_TARGET)
    list(APPEND _args --target "${arg_STUB_TARGET}")
  endif()
  if(arg_STUB_INIT)
    list(APPEND _args --init-lib "${target}" --init-pypkg "${arg_STUB_PKG}"
      --init-prefix "${arg_STUB_PREFIX}")
  endif()
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND "${_python}" -m tvm_ffi.stub.cli ${_args}
    COMMENT "Generating the stubs in ${_dir} from $<TARGET_FILE_NAME:${target}>"
    VERBATIM)
endfunction()

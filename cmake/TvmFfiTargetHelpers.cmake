# SPDX-License-Identifier: Apache-2.0
# TvmFfiTargetHelpers.cmake: per-target build settings for libraries built on tvm_ffi. Installed
# with the CMake package (find_package(tvm_ffi) includes it) and used by tvm_ffi_configure_target.
# The names and arguments are those of Apache TVM FFI's CMake package.

include_guard(GLOBAL)

# tvm_ffi_add_prefix_map(<target> <prefix>): compile <target> with paths under <prefix> written
# relative to it (in __FILE__, debug info and messages), so that the output does not depend on
# where the sources were checked out. GCC and Clang only; other compilers are left as they are.
function(tvm_ffi_add_prefix_map target prefix)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE "-ffile-prefix-map=${prefix}/=")
  endif()
endfunction()

# tvm_ffi_add_apple_dsymutil(<target>): on Apple platforms, run dsymutil after each link of
# <target>, which writes <file>.dSYM next to it (the debug info backtraces read). Elsewhere nothing.
function(tvm_ffi_add_apple_dsymutil target)
  if(NOT APPLE)
    return()
  endif()
  find_program(DSYMUTIL dsymutil)
  mark_as_advanced(DSYMUTIL)
  if(NOT DSYMUTIL)
    message(WARNING "tvm_ffi: dsymutil was not found; ${target} gets no .dSYM bundle")
    return()
  endif()
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND "${DSYMUTIL}" "$<TARGET_FILE:${target}>"
    COMMENT "Writing the debug symbols of $<TARGET_FILE_NAME:${target}> (dsymutil)"
    VERBATIM)
endfunction()

# tvm_ffi_add_msvc_flags(<target>): with MSVC, the definitions the tvm_ffi headers expect
# (public, so dependents get them too), debug info (/Zi), big object files (/bigobj: the
# reflection templates exceed the default section count) and /Zc:inline. Elsewhere nothing.
function(tvm_ffi_add_msvc_flags target)
  if(NOT MSVC)
    return()
  endif()
  target_compile_definitions(${target} PUBLIC WIN32_LEAN_AND_MEAN NOMINMAX _CRT_SECURE_NO_WARNINGS
    _SCL_SECURE_NO_WARNINGS _ENABLE_EXTENDED_ALIGNED_STORAGE)
  target_compile_options(${target} PRIVATE /Zi /bigobj "$<$<COMPILE_LANGUAGE:C,CXX>:/Zc:inline>")
endfunction()

# tvm_ffi_hide_static_linked_lib_symbols(<target>): keep the symbols of static archives linked
# into the shared library <target> out of its dynamic symbol table, where they could interpose
# on another library's copies. GNU-style linkers: --exclude-libs,ALL. Apple: the archives among
# <target>'s link libraries are linked with -load_hidden, so call this after
# target_link_libraries. Other platforms: nothing.
function(tvm_ffi_hide_static_linked_lib_symbols target)
  if(CMAKE_SYSTEM_NAME MATCHES "Linux|Android|FreeBSD|NetBSD|OpenBSD"
     AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_link_options(${target} PRIVATE "LINKER:--exclude-libs,ALL")
  elseif(APPLE)
    _tvm_ffi_link_archives_hidden(${target})
    # The link feature is looked up in the directory scope of the target, at generation time.
    set(CMAKE_LINK_LIBRARY_USING_tvm_ffi_hidden "LINKER:-load_hidden,<LIBRARY>" PARENT_SCOPE)
    set(CMAKE_LINK_LIBRARY_USING_tvm_ffi_hidden_SUPPORTED TRUE PARENT_SCOPE)
  endif()
endfunction()

# _tvm_ffi_link_archives_hidden(<target>): link each static archive among <target>'s link
# libraries through the tvm_ffi_hidden link feature (an imported target of unknown type only
# when its file turns out to end in .a).
function(_tvm_ffi_link_archives_hidden target)
  get_target_property(_libraries ${target} LINK_LIBRARIES)
  if(NOT _libraries)
    return()
  endif()
  foreach(_library IN LISTS _libraries)
    if(TARGET ${_library})
      get_target_property(_type ${_library} TYPE)
      if(_type STREQUAL "STATIC_LIBRARY")
        set(_feature tvm_ffi_hidden)
      elseif(_type STREQUAL "UNKNOWN_LIBRARY")
        set(_is_archive "$<STREQUAL:$<PATH:GET_EXTENSION,LAST_ONLY,$<TARGET_FILE:${_library}>>,.a>")
        set(_feature "$<IF:${_is_archive},tvm_ffi_hidden,DEFAULT>")
      else()
        continue()
      endif()
    elseif(_library MATCHES "\\.a$")
      set(_feature tvm_ffi_hidden)
    else()
      continue()
    endif()
    set_property(TARGET ${target} PROPERTY LINK_LIBRARY_OVERRIDE_${_library} "${_feature}")
  endforeach()
endfunction()

# tvm_ffi_add_target_from_obj(<name> <object library>): from the objects of <object library>,
# the targets <name>_static (lib<name>_static.a, alias <name>::static) and <name>_shared
# (lib<name>.so, alias <name>::shared), plus an empty shared library <name>_testing
# (lib<name>_testing.so) to add sources to. All three are written to ${CMAKE_BINARY_DIR}/lib
# (also a Release build of a multi-configuration generator); on Windows the objects are
# compiled with TVM_FFI_EXPORTS.
function(tvm_ffi_add_target_from_obj name object_target)
  add_library(${name}_static STATIC $<TARGET_OBJECTS:${object_target}>)
  add_library(${name}::static ALIAS ${name}_static)
  add_library(${name}_shared SHARED $<TARGET_OBJECTS:${object_target}>)
  add_library(${name}::shared ALIAS ${name}_shared)
  add_library(${name}_testing SHARED)
  set_target_properties(${name}_static PROPERTIES OUTPUT_NAME "${name}_static")
  set_target_properties(${name}_shared PROPERTIES OUTPUT_NAME "${name}")
  set_target_properties(${name}_testing PROPERTIES OUTPUT_NAME "${name}_testing")

  set(_out "${CMAKE_BINARY_DIR}/lib")
  # A multi-configuration generator would put a Release build in lib/Release without _RELEASE.
  foreach(_target ${name}_static ${name}_shared ${name}_testing)
    foreach(_suffix "" _RELEASE)
      set_target_properties(${_target} PROPERTIES ARCHIVE_OUTPUT_DIRECTORY${_suffix} "${_out}"
        LIBRARY_OUTPUT_DIRECTORY${_suffix} "${_out}" RUNTIME_OUTPUT_DIRECTORY${_suffix} "${_out}")
    endforeach()
  endforeach()
  if(WIN32)
    target_compile_definitions(${object_target} PRIVATE TVM_FFI_EXPORTS)
  endif()
  tvm_ffi_add_apple_dsymutil(${name}_shared)
  tvm_ffi_add_apple_dsymutil(${name}_testing)
endfunction()

# _tvm_ffi_find_python(<out_var>): the Python interpreter the build runs tvm_ffi's tools with:
# the one find_package(Python) or find_package(Python3) chose (scikit-build-core sets both to
# the interpreter that builds the wheel), else the first Python 3 found now.
function(_tvm_ffi_find_python out_var)
  if(Python_EXECUTABLE)
    set(${out_var} "${Python_EXECUTABLE}" PARENT_SCOPE)
  elseif(Python3_EXECUTABLE)
    set(${out_var} "${Python3_EXECUTABLE}" PARENT_SCOPE)
  else()
    find_package(Python3 COMPONENTS Interpreter REQUIRED)
    set(${out_var} "${Python3_EXECUTABLE}" PARENT_SCOPE)
  endif()
endfunction()

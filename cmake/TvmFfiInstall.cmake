# SPDX-License-Identifier: Apache-2.0
# TvmFfiInstall.cmake: install layout shared by `cmake --install` and the wheel.
# Under scikit-build-core CMAKE_INSTALL_PREFIX is the package directory site-packages/tvm_ffi.

include(CMakePackageConfigHelpers)

# The CMake files find_package(tvm_ffi) reads besides the generated config and version files.
set(_TVM_FFI_PACKAGE_CMAKE_FILES TvmFfiConfigureTarget.cmake TvmFfiTargetHelpers.cmake
  TvmFfiEmbedCubin.cmake TvmFfiEmbedBinStep.cmake TvmFfiCopyObjectsStep.cmake)

# tvm_ffi_install_package(): the install rules of the libraries, headers, runtime sources and
# the CMake package. (tvm_ffi_install, Apache TVM FFI's name, is the command for dependent
# targets, from TvmFfiConfigureTarget.cmake.)
function(tvm_ffi_install_package)
  set(_cmake_dir "share/cmake/tvm_ffi")
  install(TARGETS tvm_ffi_shared tvm_ffi_testing LIBRARY DESTINATION lib RUNTIME DESTINATION lib)
  install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/" DESTINATION include
    FILES_MATCHING PATTERN "*.h")
  install(DIRECTORY "${PROJECT_SOURCE_DIR}/src/ffi/" DESTINATION src/ffi
    FILES_MATCHING PATTERN "*.h" PATTERN "*.cc")
  configure_package_config_file(
    "${PROJECT_SOURCE_DIR}/cmake/tvm_ffi-config.cmake.in"
    "${PROJECT_BINARY_DIR}/tvm_ffi-config.cmake"
    INSTALL_DESTINATION "${_cmake_dir}"
    NO_SET_AND_CHECK_MACRO NO_CHECK_REQUIRED_COMPONENTS_MACRO)
  # 0.X.Y: a change of X breaks the C ABI, so only the same minor version is compatible.
  write_basic_package_version_file("${PROJECT_BINARY_DIR}/tvm_ffi-config-version.cmake"
    VERSION "${PROJECT_VERSION}" COMPATIBILITY SameMinorVersion)
  install(FILES "${PROJECT_BINARY_DIR}/tvm_ffi-config.cmake"
    "${PROJECT_BINARY_DIR}/tvm_ffi-config-version.cmake" DESTINATION "${_cmake_dir}")
  list(TRANSFORM _TVM_FFI_PACKAGE_CMAKE_FILES PREPEND "${PROJECT_SOURCE_DIR}/cmake/"
    OUTPUT_VARIABLE _files)
  install(FILES ${_files} DESTINATION "${_cmake_dir}")
  install(DIRECTORY "${PROJECT_SOURCE_DIR}/cmake/Utils/" DESTINATION "${_cmake_dir}/Utils"
    FILES_MATCHING PATTERN "*.cmake")
endfunction()

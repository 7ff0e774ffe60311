#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# clang_tidy.sh: clang-tidy (.clang-tidy) on every translation unit of the tree, JOBS (default 2)
# at a time; any finding fails. lint.sh runs it among the other linters; run_tests.sh runs it
# apart, in the background, where it takes the CPU the other steps leave idle.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

JOBS="${JOBS:-2}"
# run-clang-tidy.py and clang-tidy are pip console scripts (install_deps.sh), next to python3.
PATH="$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))'):${PATH}"
BUILD="${CLANG_TIDY_BUILD_DIR:-build/lint}"

# Every source and every Cython helper header, tracked or new; the headers of include/ and src/
# are analysed through the sources that include them. .cu files need a CUDA toolkit, which lint
# does not have: clang-format alone checks them, as it does the CUDA test project's sources,
# which include CUDA's headers.
mapfile -t checked < <(git ls-files -co --exclude-standard -- '*.c' '*.cc' '*.cpp' \
  'python/tvm_ffi/cython/*.h' ':!tests/python/cmake_package/cuda/*')

# CMake's compilation database (configured, not built), with the files it does not build added.
mkdir -p "${BUILD}"
cmake -B "${BUILD}/cmake" -DTVM_FFI_BUILD_TESTS=ON -DTVM_FFI_UNITY_BUILD=OFF \
  -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >"${BUILD}/cmake.log"
python3 scripts/lint_compile_db.py "${BUILD}/cmake/compile_commands.json" "${BUILD}/tidy" \
  "${checked[@]}"

# GCC-only warning flags of CMake's commands are unknown to clang; and this clang flags
# libstdc++ 12's own use of std::get_temporary_buffer (deprecated in C++17) inside
# std::stable_partition, which is not our code.
run-clang-tidy.py -quiet -hide-progress -j "${JOBS}" -p "${BUILD}/tidy" \
  -extra-arg=-Wno-unknown-warning-option -extra-arg=-Wno-deprecated-declarations

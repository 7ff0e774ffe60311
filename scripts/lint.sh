#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# lint.sh: every linter and formatter check, using tools installed by install_deps.sh.
# Each tool's time is printed; JOBS (default 2) is the parallelism of the slow ones.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

JOBS="${JOBS:-2}"
# pip puts console scripts (clang-format, shellcheck, ...) next to the interpreter; a pyenv
# shim for a freshly installed one may not exist yet.
PATH="$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))'):${PATH}"

# timed NAME CMD...: run CMD, then print how long it took.
timed() {
  local name="$1" start="${SECONDS}"
  shift
  echo "lint: ${name}"
  "$@"
  echo "lint: ${name} took $((SECONDS - start)) s"
}

# Every C/C++ file of the tree, tracked or new (git leaves out build trees and .cache).
mapfile -t cxx_files < <(git ls-files -co --exclude-standard -- \
  '*.h' '*.hpp' '*.c' '*.cc' '*.cpp' '*.cu' '*.cuh')

# Every shell script: scripts/, examples/*/run.sh, tests' scripts, and the CI entry point.
mapfile -t shell_files < <(git ls-files -co --exclude-standard -- '*.sh' .ci/run)

# clang-tidy analyses every source and every Cython helper header; the headers of include/ and
# src/ through the sources that include them. .cu files need a CUDA toolkit, which lint does
# not have: clang-format alone checks them.
tidy_checked=()
for file in "${cxx_files[@]}"; do
  case "${file}" in
    tests/python/cmake_package/cuda/*) ;; # includes CUDA's headers, as a .cu file would
    *.c | *.cc | *.cpp | python/tvm_ffi/cython/*.h) tidy_checked+=("${file}") ;;
  esac
done

py_dirs=(python tests scripts)
[ -d bench ] && py_dirs+=(bench)
[ -d docs ] && py_dirs+=(docs)

clang_format() {
  clang-format --dry-run -Werror "${cxx_files[@]}"
}

LINT_BUILD=build/lint

# clang_tidy: configure CMake (no build) for its compilation database, add the files it does
# not build, and run clang-tidy (.clang-tidy) on each translation unit, JOBS at a time.
clang_tidy() {
  cmake -B "${LINT_BUILD}/cmake" -DTVM_FFI_BUILD_TESTS=ON -DTVM_FFI_UNITY_BUILD=OFF \
    -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
    >"${LINT_BUILD}/cmake.log"
  python3 scripts/lint_compile_db.py "${LINT_BUILD}/cmake/compile_commands.json" \
    "${LINT_BUILD}/tidy" "${tidy_checked[@]}"
  # GCC-only warning flags of CMake's commands are unknown to clang; and this clang flags
  # libstdc++ 12's own use of std::get_temporary_buffer (deprecated in C++17) inside
  # std::stable_partition, which is not our code.
  local tidy=(run-clang-tidy.py -quiet -hide-progress -j "${JOBS}"
    -extra-arg=-Wno-unknown-warning-option -extra-arg=-Wno-deprecated-declarations)
  "${tidy[@]}" -p "${LINT_BUILD}/tidy"
}

# doxygen_check: doxygen over the public headers with the settings the C++ reference uses
# (docs/doxygen.cfg; dlpack.h is DLPack's contract, not ours); any warning fails.
doxygen_check() {
  mkdir -p "${LINT_BUILD}/doxygen"
  {
    cat docs/doxygen.cfg
    echo "OUTPUT_DIRECTORY = ${LINT_BUILD}/doxygen"
    echo "WARN_AS_ERROR = FAIL_ON_WARNINGS"
  } | doxygen -
}

# The C ABI headers, every public declaration of which must have a doc comment.
C_ABI_HEADERS=(include/tvm/ffi/c_api.h include/tvm/ffi/extra/c_env_api.h
  include/tvm/ffi/extra/c_env_slot_api.h include/tvm/ffi/extra/c_map_api.h)

# doxygen_c_abi_check: the same doxygen settings over the C ABI headers alone, read as C++ so
# that the inline accessors count too, with undocumented declarations reported; any warning
# fails. doxygen before 1.9.8 never reports enumerators, so check_c_abi_docs.py then reads the
# XML for every kind of declaration.
doxygen_c_abi_check() {
  local out="${LINT_BUILD}/doxygen-c-abi"
  rm -rf "${out}"
  mkdir -p "${out}"
  {
    cat docs/doxygen.cfg
    echo "INPUT = ${C_ABI_HEADERS[*]}"
    echo "PREDEFINED += __cplusplus=201703L"
    echo "WARN_IF_UNDOCUMENTED = YES"
    echo "OUTPUT_DIRECTORY = ${out}"
    echo "WARN_AS_ERROR = FAIL_ON_WARNINGS"
  } | doxygen -
  python3 scripts/check_c_abi_docs.py "${out}/xml"
}

mkdir -p "${LINT_BUILD}"
timed "ruff check" python3 -m ruff check "${py_dirs[@]}"
timed "ruff format --check" python3 -m ruff format --check "${py_dirs[@]}"
timed "mypy (config in pyproject.toml)" python3 -m mypy
timed "shellcheck" shellcheck "${shell_files[@]}"
timed "clang-format" clang_format
if [ -d python/tvm_ffi/cython ]; then
  timed "cython-lint" cython-lint --max-line-length 100 python/tvm_ffi/cython
fi
timed "doxygen" doxygen_check
timed "doxygen (C ABI, undocumented declarations)" doxygen_c_abi_check
timed "clang-tidy" clang_tidy
echo "lint: ok in ${SECONDS} s"

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# check_python_asan.sh: builds the package (libtvm_ffi.so and the Cython extension) with ASan
# and UBSan into a venv that sees the system's packages, and runs the Python tests with the
# sanitizer runtimes preloaded into Python. Any sanitizer report aborts the test run.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

WORK="${PYTHON_ASAN_WORK_DIR:-build-python-asan}"

# Deselected under the preloaded runtimes, each for a reason unrelated to our code:
# - the sanitized library links libasan and libubsan, which the dependency check refuses;
# - the binary-compatibility drivers are separate programs that load the sanitized library
#   without the sanitizer runtime first, which ASan refuses at start-up;
# - nvcc, run by the CUDA JIT test, crashes with the runtimes preloaded.
deselect=(
  --deselect tests/python/test_abi_symbols.py::test_needs_only_system_libraries
  --deselect tests/python/test_binary_compat.py
  --deselect tests/python/test_cpp_jit.py::test_cuda_sources_compile_with_nvcc
)

rm -rf "${WORK}"
python3 -m venv --system-site-packages "${WORK}/venv"
"${WORK}/venv/bin/python" -m pip install -q --no-build-isolation \
  -C cmake.define.TVM_FFI_SANITIZE=ON -C build-dir="${WORK}/build" .

preload="$(gcc -print-file-name=libasan.so):$(gcc -print-file-name=libubsan.so)"
# Leak checking stays off: CPython itself keeps allocations alive until exit. Impossible sizes
# make malloc fail (allocator_may_return_null), as they do without ASan.
LD_PRELOAD="${preload}" \
  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:allocator_may_return_null=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  "${WORK}/venv/bin/python" -m pytest -q -p no:cacheprovider "${deselect[@]}" tests/python
echo "check_python_asan.sh: the Python tests passed under ASan and UBSan"

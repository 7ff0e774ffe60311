#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# check_python_sanitized.sh address|thread: builds the package (libtvm_ffi.so and the Cython
# extension) with ASan and UBSan ("address") or with TSan ("thread") into a venv that sees the
# system's packages, and runs the Python tests (under TSan, the files that start threads) with the
# sanitizer runtimes preloaded into Python.
# Any sanitizer report fails the run.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

MODE="${1:-address}"

# The tests that compile C++ (marker `compiles`) run once, in the main test run: what they build
# is the same here. Many could not run here anyway: the compatibility drivers and hosts are
# separate programs that load the sanitized library without the sanitizer runtime first, which
# the sanitizers refuse; nvcc crashes with the runtimes preloaded; under TSan so do ninja, bash
# and CMake.
# Deselected besides, each for a reason unrelated to our code:
# - the sanitized library links the sanitizer runtime, which the dependency check refuses;
# - the downstream TVM test loads the uninstrumented 260 MB TVM compiler (the plain run has it);
# - the module-surface test only imports modules and lists their names (the plain run has it);
# - the docs layout test renders pages in Chromium, which does not start with the sanitizer's
#   runtime preloaded (the plain run has it).
deselect=(
  -m "not compiles"
  --deselect tests/python/test_downstream_tvm.py
  --deselect tests/python/test_docs_layout.py
  --deselect tests/python/test_module_surface.py
  --deselect tests/python/test_abi_symbols.py::test_needs_only_system_libraries
)

# ASan runs every test; TSan only the files that start threads (Python or native ones: their
# source mentions threads), since a data race needs two threads. That keeps TSan's run to a
# quarter of the suite's time.
selected=(tests/python)

case "${MODE}" in
  address)
    cmake_option=TVM_FFI_SANITIZE
    # The build type of the C++ suite's ASan build, so that ccache (run_tests.sh) reuses its objects.
    build_type=Debug
    preload="$(gcc -print-file-name=libasan.so):$(gcc -print-file-name=libubsan.so)"
    # Leak checking stays off: CPython itself keeps allocations alive until exit. Impossible
    # sizes make malloc fail (allocator_may_return_null), as they do without ASan.
    export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:allocator_may_return_null=1
    export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    ;;
  thread)
    cmake_option=TVM_FFI_SANITIZE_THREAD
    build_type=RelWithDebInfo
    preload="$(gcc -print-file-name=libtsan.so)"
    # Under the TSan runtime ninja (here running copy rules) and sh crash before doing anything.
    deselect+=(
      --deselect tests/python/test_cpp_modules.py::test_build_ninja_runs_the_build_file
      --deselect tests/python/test_cpp_modules.py::test_build_ninja_failure_carries_output
      --deselect tests/python/test_cpp_modules.py::test_build_log_setting
      --deselect tests/python/test_cuda_arch.py::test_present_gpus_are_detected_once
    )
    # glibc frees a finished thread's thread-local block, and recycles its cached stack, from
    # whichever thread creates the next one: a hand-over TSan cannot see for Python's detached
    # threads (it reports the thread-local destructors' reads against that free).
    suppressions="$(mktemp)"
    trap 'rm -f "${suppressions}"' EXIT
    printf 'race:_dl_deallocate_tls\nrace:get_cached_stack\n' >"${suppressions}"
    export TSAN_OPTIONS="halt_on_error=1:allocator_may_return_null=1:suppressions=${suppressions}"
    mapfile -t selected < <(grep -il thread tests/python/test_*.py)
    ;;
  *)
    echo "usage: $0 address|thread" >&2
    exit 2
    ;;
esac

work="${PYTHON_SANITIZED_WORK_DIR:-build-python-${MODE}}"
rm -rf "${work}"
python3 -m venv --system-site-packages "${work}/venv"
# TVM_FFI_WERROR as in the C++ suite's sanitized build, whose objects ccache then serves here.
# The libraries keep their debug info (no TVM_FFI_SPLIT_DEBUGINFO): the sanitizers' own
# symbolizer would not find it in the build's debuginfo folder, and its reports need file:line.
"${work}/venv/bin/python" -m pip install -q --no-build-isolation \
  -C "cmake.define.${cmake_option}=ON" -C "cmake.build-type=${build_type}" \
  -C cmake.define.TVM_FFI_SPLIT_DEBUGINFO=OFF -C cmake.define.TVM_FFI_WERROR=ON \
  -C build-dir="${work}/build" .

LD_PRELOAD="${preload}" \
  "${work}/venv/bin/python" -m pytest -q -p no:cacheprovider -n "${JOBS:-2}" "${deselect[@]}" \
  "${selected[@]}"
echo "check_python_sanitized.sh: the Python tests passed under the ${MODE} sanitizer"

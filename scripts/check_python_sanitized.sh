#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# check_python_sanitized.sh [--build-only|--tests-only] MODE...: for each MODE, address or
# thread, builds the package (libtvm_ffi.so and the Cython extension) with ASan and UBSan
# ("address") or with TSan ("thread") into a venv that sees the system's packages, and runs the
# Python tests (under TSan, the files that start threads) with the sanitizer runtimes preloaded
# into Python. The builds of several modes run at the same time; --build-only stops after them,
# --tests-only runs the tests of an earlier build. Any sanitizer report fails the run.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

usage() {
  echo "usage: $0 [--build-only|--tests-only] address|thread..." >&2
  exit 2
}

phases="build tests"
case "${1:-}" in
  --build-only) phases="build" && shift ;;
  --tests-only) phases="tests" && shift ;;
esac
[ "$#" -gt 0 ] || set -- address
modes=("$@")
for mode in "${modes[@]}"; do
  case "${mode}" in
    address | thread) ;;
    *) usage ;;
  esac
done

# The tests that compile C++ (marker `compiles`) run once, in the main test run: what they build
# is the same here. Many could not run here anyway: the compatibility drivers and hosts are
# separate programs that load the sanitized library without the sanitizer runtime first, which
# the sanitizers refuse; nvcc crashes with the runtimes preloaded; under TSan so do ninja, bash
# and CMake.
# Deselected besides, each for a reason unrelated to our code or run by the plain run alone:
# - the sanitized library links the sanitizer runtime, which the dependency check refuses;
# - the downstream TVM test loads the uninstrumented 260 MB TVM compiler (the plain run has it);
# - the module-surface test only imports modules and lists their names (the plain run has it);
# - the docs layout test renders pages in Chromium, which does not start with the sanitizer's
#   runtime preloaded (the plain run has it);
# - the leak tests run once, in the plain run: they count references and traced Python memory
#   over many thousands of repeated calls (ASan's leak check is off for Python, see below),
#   which counts the same here, while each path they repeat runs here in the other tests;
# - the checks of the repository's files (citations, the architecture page, the project files,
#   the pinned versions, the per-version tier list) call no native code.
deselect=(
  -m "not compiles"
  --deselect tests/python/test_downstream_tvm.py
  --deselect tests/python/test_docs_layout.py
  --deselect tests/python/test_module_surface.py
  --deselect tests/python/test_abi_symbols.py::test_needs_only_system_libraries
  --deselect tests/python/test_leaks.py
  --deselect tests/python/test_leaks_call_kinds.py
  --deselect tests/python/test_tensor.py::test_numpy_import_does_not_leak
  --deselect tests/python/test_tensor.py::test_torch_import_does_not_leak
  --deselect tests/python/test_tensor_args.py::test_arguments_do_not_leak
  --deselect tests/python/test_tensor_args.py::test_torch_arguments_do_not_leak
  --deselect tests/python/test_source_citations.py
  --deselect tests/python/test_architecture_doc.py
  --deselect tests/python/test_project_files.py
  --deselect tests/python/test_pinned_versions.py
  --deselect tests/python/test_ci_tiers.py
)

# ASan runs every other test; TSan only the files that start threads (Python or native ones:
# their source mentions threads), since a data race needs two threads. That keeps TSan's run to
# a quarter of the suite's time. TSan's own deselections: under its runtime ninja (here running
# copy rules) and sh crash before doing anything.
thread_deselect=(
  --deselect tests/python/test_cpp_modules.py::test_build_ninja_runs_the_build_file
  --deselect tests/python/test_cpp_modules.py::test_build_ninja_failure_carries_output
  --deselect tests/python/test_cpp_modules.py::test_build_log_setting
  --deselect tests/python/test_cuda_arch.py::test_present_gpus_are_detected_once
)

# work_dir MODE: the scratch folder of MODE.
work_dir() {
  if [ -n "${PYTHON_SANITIZED_WORK_DIR:-}" ]; then
    echo "${PYTHON_SANITIZED_WORK_DIR}/$1"
  else
    echo "build-python-$1"
  fi
}

# build MODE: the sanitized package, installed into a fresh venv of MODE's scratch folder.
build() {
  local mode="$1" work cmake_option build_type
  work="$(work_dir "${mode}")"
  case "${mode}" in
    address)
      cmake_option=TVM_FFI_SANITIZE
      # The build type of the C++ suite's ASan build, so that ccache (run_tests.sh) reuses its
      # objects.
      build_type=Debug
      ;;
    thread)
      cmake_option=TVM_FFI_SANITIZE_THREAD
      build_type=RelWithDebInfo
      ;;
  esac
  rm -rf "${work}"
  python3 -m venv --system-site-packages "${work}/venv"
  # TVM_FFI_WERROR as in the C++ suite's sanitized build, whose objects ccache then serves here.
  # The libraries keep their debug info (no TVM_FFI_SPLIT_DEBUGINFO): the sanitizers' own
  # symbolizer would not find it in the build's debuginfo folder, and its reports need file:line.
  "${work}/venv/bin/python" -m pip install -q --no-build-isolation \
    -C "cmake.define.${cmake_option}=ON" -C "cmake.build-type=${build_type}" \
    -C cmake.define.TVM_FFI_SPLIT_DEBUGINFO=OFF -C cmake.define.TVM_FFI_WERROR=ON \
    -C build-dir="${work}/build" .
}

# build_all MODE...: the builds of every MODE at the same time (each keeps one core busy for the
# most part: pip, Cython, the extension's one large C file), each printing its output once done.
build_all() {
  local built=("$@") mode pids=() failed=0 i status
  for mode in "${built[@]}"; do
    echo "check_python_sanitized.sh: building the package under the ${mode} sanitizer"
    mkdir -p "$(work_dir "${mode}")"
    build "${mode}" >"$(work_dir "${mode}").log" 2>&1 &
    pids+=("$!")
  done
  for i in "${!pids[@]}"; do
    status=0
    wait "${pids[i]}" || status=$?
    cat "$(work_dir "${built[i]}").log"
    if [ "${status}" -ne 0 ]; then
      echo "check_python_sanitized.sh: the ${built[i]} build failed (status ${status})"
      failed=1
    fi
  done
  return "${failed}"
}

# run_tests MODE: the Python tests with MODE's runtime preloaded into the venv's Python.
run_tests() {
  local mode="$1" work environment suppressions selected=(tests/python) extra=()
  work="$(work_dir "${mode}")"
  case "${mode}" in
    address)
      # Leak checking stays off: CPython itself keeps allocations alive until exit. Impossible
      # sizes make malloc fail (allocator_may_return_null), as they do without ASan.
      environment=(
        "LD_PRELOAD=$(gcc -print-file-name=libasan.so):$(gcc -print-file-name=libubsan.so)"
        ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:allocator_may_return_null=1
        UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
      )
      ;;
    thread)
      # glibc frees a finished thread's thread-local block, and recycles its cached stack, from
      # whichever thread creates the next one: a hand-over TSan cannot see for Python's detached
      # threads (it reports the thread-local destructors' reads against that free).
      # An absolute path: tests start Pythons in other folders, which read it too.
      suppressions="$(realpath "${work}")/tsan.supp"
      printf 'race:_dl_deallocate_tls\nrace:get_cached_stack\n' >"${suppressions}"
      environment=(
        "LD_PRELOAD=$(gcc -print-file-name=libtsan.so)"
        "TSAN_OPTIONS=halt_on_error=1:allocator_may_return_null=1:suppressions=${suppressions}"
      )
      extra=("${thread_deselect[@]}")
      mapfile -t selected < <(grep -il thread tests/python/test_*.py)
      ;;
  esac
  env "${environment[@]}" \
    "${work}/venv/bin/python" -m pytest -q -p no:cacheprovider -n "${JOBS:-2}" "${deselect[@]}" \
    "${extra[@]}" "${selected[@]}"
  echo "check_python_sanitized.sh: the Python tests passed under the ${mode} sanitizer"
}

case "${phases}" in
  *build*) build_all "${modes[@]}" ;;
esac
case "${phases}" in
  *tests*)
    for mode in "${modes[@]}"; do
      run_tests "${mode}"
    done
    ;;
esac

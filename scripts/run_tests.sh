#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# run_tests.sh: the full test command (README): deps, lint, C++ tests (plain, ASan+UBSan
# and TSan), pip install, docs, pytest (plain, with the examples and the tests that compile C++; then
# ASan+UBSan and TSan), and the per-version tier of the Python tests
# (tests/python/version_tier.txt) with the abi3 wheel and regular wheels on the Pythons of
# versions.sh; clang-tidy runs in the background meanwhile. Ends with the time of each step and
# the list of the steps that were skipped. Aimed at under 35 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

JOBS="${JOBS:-2}"
stage_names=()
stage_starts=()
step() {
  stage_names+=("$*")
  stage_starts+=("${SECONDS}")
  echo
  echo "=== run_tests.sh: $* (at ${SECONDS} s) ==="
}

# stage_times: how long each step took (the last one until now), then the background step's
# span, printed at the end of every run, failed ones included.
stage_times() {
  local i end
  echo "run_tests.sh: time per step:"
  for i in "${!stage_names[@]}"; do
    end="${stage_starts[$((i + 1))]:-${SECONDS}}"
    printf '  %5d s  %s\n' "$((end - stage_starts[i]))" "${stage_names[i]}"
  done
  if [ -s "${bg_log}.end" ]; then
    end="$(cat "${bg_log}.end")"
    printf '  %5d s  %s (in the background, from %d s to %d s)\n' "$((end - bg_start))" \
      "${bg_name}" "${bg_start}" "${end}"
  elif [ -n "${bg_name}" ]; then
    printf '  %5d s  %s (in the background from %d s, unfinished)\n' \
      "$((SECONDS - bg_start))" "${bg_name}" "${bg_start}"
  fi
}

# One step runs in the background: background_start NAME CMD... runs CMD at the lowest CPU
# priority (nice 19), in a process group of its own, its output in a log, while the next steps
# run; it takes the CPU they leave idle (downloads, pip, one-file compiles, the docs, the tails
# of test runs) and little else. background_wait prints that log and fails with CMD's status.
bg_name=""
bg_pid=""
bg_log=""
bg_start=0
background_start() {
  bg_name="$1"
  shift
  bg_log="$(mktemp)"
  bg_start="${SECONDS}"
  echo
  echo "=== run_tests.sh: ${bg_name} starts in the background (at ${SECONDS} s) ==="
  set -m
  (
    status=0
    nice -n 19 "$@" >"${bg_log}" 2>&1 || status=$?
    echo "${SECONDS}" >"${bg_log}.end"
    exit "${status}"
  ) &
  bg_pid=$!
  set +m
}

background_wait() {
  local status=0
  wait "${bg_pid}" || status=$?
  bg_pid=""
  cat "${bg_log}"
  if [ "${status}" -ne 0 ]; then
    echo "run_tests.sh: ${bg_name} failed (status ${status}); its output is above"
    return "${status}"
  fi
  echo "run_tests.sh: ${bg_name} passed"
}

# background_cleanup: on an early exit, ends the background step's process group.
background_cleanup() {
  if [ -n "${bg_pid}" ]; then
    kill -- "-${bg_pid}" 2>/dev/null || true
  fi
  if [ -n "${bg_log}" ]; then
    rm -f "${bg_log}" "${bg_log}.end"
  fi
}

# Checks that cannot run on this machine append a "SKIPPED: <step>: <reason>" line here.
TVM_FFI_SKIPPED_LOG="$(mktemp)"
export TVM_FFI_SKIPPED_LOG
trap 'stage_times; background_cleanup; rm -f "${TVM_FFI_SKIPPED_LOG}"' EXIT

step "install dependencies"
bash scripts/install_deps.sh

# The C++ suite and every wheel below compile the same runtime sources with the same flags;
# ccache compiles each of them once. The build directories differ, so they are not hashed, and
# every build names the compiler as the wheel builds do (scikit-build-core takes Python's
# gcc/g++), since ccache tells c++ and g++ apart.
if command -v ccache >/dev/null 2>&1; then
  export CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache CCACHE_NOHASHDIR=1
  export CCACHE_DIR="${CCACHE_DIR:-${PWD}/.cache/ccache}"
  export CC="${CC:-gcc}" CXX="${CXX:-g++}"
fi

# clang-tidy: minutes of both cores, and independent of every step below, whose idle CPU it
# takes; awaited at the end.
background_start "clang-tidy" bash scripts/clang_tidy.sh

step "lint (clang-tidy apart)"
CLANG_TIDY_APART=1 bash scripts/lint.sh

generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)

cpp_build_and_test() {
  local build_dir="$1"
  shift
  cmake -B "${build_dir}" "${generator[@]}" -DTVM_FFI_BUILD_TESTS=ON -DTVM_FFI_UNITY_TESTS=ON "$@"
  cmake --build "${build_dir}" -j "${JOBS}"
  (cd "${build_dir}" && ctest --output-on-failure -j "${JOBS}")
}

step "C++ build and tests"
cpp_build_and_test build -DCMAKE_BUILD_TYPE=RelWithDebInfo

step "C++ build and tests under ASan+UBSan"
# allocator_may_return_null: tests of impossible sizes expect malloc to fail, as it does without
# ASan, instead of ASan aborting on the request.
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allocator_may_return_null=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  cpp_build_and_test build-asan -DTVM_FFI_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug

step "C++ build and tests under TSan"
TSAN_OPTIONS=halt_on_error=1:allocator_may_return_null=1 \
  cpp_build_and_test build-tsan -DTVM_FFI_SANITIZE_THREAD=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo

step "pip install ."
# TVM_FFI_WERROR: the flags of the C++ suite's build above (which builds with it), so that ccache
# serves the runtime's objects. Every wheel built below sets it for the same reason.
python3 -m pip install -C cmake.define.TVM_FFI_WERROR=ON .

step "installable wheel of python3 (auditwheel repair, checks, smoke test in a fresh venv)"
bash scripts/build_wheels.sh --python python3 -o build-wheels/dist

step "docs"
# After the install: the Python reference documents the installed package.
bash scripts/build_docs.sh

step "Python tests (with the examples and the tests that compile C++)"
# --max-worker-restart=0: a worker that crashes ends the run with the crash reported; with a
# replacement worker, xdist's loadgroup scheduling can wait forever for the lost group.
python3 -m pytest tests/python -n "${JOBS}" --dist loadgroup --max-worker-restart=0 --durations=25

step "sanitized builds of the package (ASan+UBSan and TSan at once)"
bash scripts/check_python_sanitized.sh --build-only address thread

step "Python tests under ASan+UBSan"
bash scripts/check_python_sanitized.sh --tests-only address

step "Python tests under TSan"
bash scripts/check_python_sanitized.sh --tests-only thread

step "abi3 wheel on newer Pythons (per-version tier)"
bash scripts/check_abi3.sh

step "regular wheels on older Pythons (per-version tier)"
bash scripts/check_old_pythons.sh

step "waiting for clang-tidy"
background_wait

command -v ccache >/dev/null 2>&1 && ccache --show-stats
if [ -s "${TVM_FFI_SKIPPED_LOG}" ]; then
  echo "run_tests.sh: skipped steps:"
  sed 's/^/  /' "${TVM_FFI_SKIPPED_LOG}"
else
  echo "run_tests.sh: no step was skipped"
fi
echo "run_tests.sh: all steps passed in ${SECONDS} s"

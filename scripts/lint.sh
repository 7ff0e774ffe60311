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

py_dirs=(python tests scripts)
[ -d bench ] && py_dirs+=(bench)
[ -d docs ] && py_dirs+=(docs)

clang_format() {
  clang-format --dry-run -Werror "${cxx_files[@]}"
}

LINT_BUILD=build/lint

# clang_tidy: clang-tidy on every translation unit (scripts/clang_tidy.sh). run_tests.sh runs
# that script apart, in the background, and sets CLANG_TIDY_APART=1 for lint to leave it out.
clang_tidy() {
  if [ -n "${CLANG_TIDY_APART:-}" ]; then
    echo "lint: clang-tidy runs apart (CLANG_TIDY_APART is set): scripts/clang_tidy.sh"
    return 0
  fi
  JOBS="${JOBS}" bash scripts/clang_tidy.sh
}

# doxygen_check: one doxygen run over the public headers (docs/doxygen.cfg; dlpack.h is
# DLPack's contract, not ours), from which check_header_docs.py fails on any doxygen warning,
# on any undocumented declaration of the C ABI headers (c_api.h, extra/c_*_api.h), and on
# under 90% of the other headers' public declarations documented; it prints the counts.
doxygen_check() {
  rm -rf "${LINT_BUILD}/doxygen"
  python3 scripts/check_header_docs.py --doxygen --out "${LINT_BUILD}/doxygen"
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
timed "doxygen (header doc comments)" doxygen_check
timed "clang-tidy" clang_tidy
echo "lint: ok in ${SECONDS} s"

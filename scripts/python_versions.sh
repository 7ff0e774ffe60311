#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# python_versions.sh: helpers sourced by the per-version checks (check_abi3.sh,
# check_old_pythons.sh): finding one working interpreter per version, reporting a version that
# is not there, and venvs.

# shellcheck source=scripts/versions.sh
source "$(dirname "${BASH_SOURCE[0]}")/versions.sh"

# find_python 3.N: one working interpreter of that version (python3.N under pyenv or on PATH),
# or nothing; pyenv shims of inactive versions do not run.
find_python() {
  local version="$1" candidate
  # An unmatched glob stays literal and fails the venv probe below.
  for candidate in $(printf '%s\n' "${PYENV_ROOT:-${HOME}/.pyenv}"/versions/"${version}".*/bin/python \
    | sort -rV) $(command -v "python${version}" || true); do
    if "${candidate}" -c "import venv" >/dev/null 2>&1; then
      echo "${candidate}"
      return 0
    fi
  done
  return 0
}

# skip_check STEP REASON: one "SKIPPED: STEP: REASON" line, also appended to the file
# $TVM_FFI_SKIPPED_LOG names (run_tests.sh lists those lines at its end).
skip_check() {
  local line="SKIPPED: $1: $2"
  echo "${line}"
  if [ -n "${TVM_FFI_SKIPPED_LOG:-}" ]; then
    echo "${line}" >>"${TVM_FFI_SKIPPED_LOG}"
  fi
}

# find_pythons STEP VERSION...: sets the array `pythons` to one interpreter per VERSION found,
# in order, and reports each VERSION not found as a skipped STEP on that version.
find_pythons() {
  local step="$1" version python
  shift
  pythons=()
  for version in "$@"; do
    python="$(find_python "${version}")"
    if [ -n "${python}" ]; then
      pythons+=("${python}")
    else
      skip_check "${step} on Python ${version}" "no working python${version} on PATH or under pyenv"
    fi
  done
}

# make_venv PYTHON DIR PACKAGES...: a fresh venv at DIR with PACKAGES installed.
make_venv() {
  local python="$1" dir="$2"
  shift 2
  "${python}" -m venv "${dir}"
  "${dir}/bin/python" -m pip install -q "$@"
}

# version_tier_entries: the entries of tests/python/version_tier.txt (the tests the per-version
# runs take: a smoke part and the tests whose outcome can change with the Python version), one a
# line, relative to tests/python, without their comments.
version_tier_entries() {
  sed -e 's/#.*//' -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' -e '/^$/d' \
    "$(dirname "${BASH_SOURCE[0]}")/../tests/python/version_tier.txt"
}

# run_suite_with_wheel PYTHON WORK WHEEL: installs WHEEL in a venv under WORK and runs the tests
# of the per-version tier (version_tier_entries) from outside the checkout, so that the installed
# wheel is what gets imported. Tests of those files that compile C++ (marker `compiles`) run in
# the main test run only: what they build does not depend on the Python version.
run_suite_with_wheel() {
  local python="$1" work="$2" wheel="$3" version tests=() entry
  version="$("${python}" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
  while IFS= read -r entry; do
    tests+=("${PWD}/tests/python/${entry}")
  done < <(version_tier_entries)
  echo "tests on Python ${version} with ${wheel##*/}:" \
    "the ${#tests[@]} entries of tests/python/version_tier.txt"
  make_venv "${python}" "${work}/venv-${version}" pytest pytest-xdist hypothesis \
    "${TVM_FFI_NUMPY_REQUIREMENT}" ml_dtypes "${wheel}"
  (cd "${work}" && "venv-${version}/bin/python" -m pytest -q -p no:cacheprovider \
    -n "${JOBS:-2}" -m "not compiles" "${tests[@]}")
}

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

# Left out of the per-version runs:
# - tests that compile C++ (marker `compiles`): what they build does not depend on the Python
#   version, and the main test run has them;
# - Apache's reference wheels are CPython 3.11 builds: their Python package runs only there;
# - the docs layout test checks the built docs, which do not depend on the Python version.
PER_VERSION_SELECTION=(
  -m "not compiles"
  --deselect tests/python/test_docs_layout.py
  --deselect tests/python/test_pickle_compat.py
  --deselect tests/python/test_module_surface.py
  --deselect tests/python/test_structural_mutate_parity.py
  --deselect tests/python/test_type_metadata_parity.py::test_registry_matches_the_reference
)

# run_suite_with_wheel PYTHON WORK WHEEL: installs WHEEL in a venv under WORK and runs the
# Python tests from outside the checkout, so that the installed wheel is what gets imported.
run_suite_with_wheel() {
  local python="$1" work="$2" wheel="$3" version
  version="$("${python}" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
  echo "tests on Python ${version} with ${wheel##*/}"
  make_venv "${python}" "${work}/venv-${version}" pytest pytest-xdist hypothesis \
    "${TVM_FFI_NUMPY_REQUIREMENT}" ml_dtypes "${wheel}"
  (cd "${work}" && "venv-${version}/bin/python" -m pytest -q -p no:cacheprovider \
    -n "${JOBS:-2}" "${PER_VERSION_SELECTION[@]}" "${OLDPWD}/tests/python")
}

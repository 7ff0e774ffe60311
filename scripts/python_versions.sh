#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# python_versions.sh: helpers sourced by the per-version checks (check_abi3.sh,
# check_old_pythons.sh): finding one working interpreter per minor version, and venvs.

# One working interpreter per listed minor version (python3.N on PATH or under pyenv); pyenv
# shims of inactive versions do not run.
find_pythons() {
  local minor candidate
  for minor in "$@"; do
    # An unmatched glob stays literal and fails the venv probe below.
    for candidate in $(printf '%s\n' "${PYENV_ROOT:-${HOME}/.pyenv}"/versions/3."${minor}".*/bin/python \
      | sort -rV) $(command -v "python3.${minor}" || true); do
      if "${candidate}" -c "import venv" >/dev/null 2>&1; then
        echo "${candidate}"
        break
      fi
    done
  done
  return 0
}

# make_venv PYTHON DIR PACKAGES...: a fresh venv at DIR with PACKAGES installed.
make_venv() {
  local python="$1" dir="$2"
  shift 2
  "${python}" -m venv "${dir}"
  "${dir}/bin/python" -m pip install -q "$@"
}

# Tests of compiled C++ and CUDA code that no Python version changes: the main test run has
# them, so the per-version runs leave them out to stay inside CI's time.
NATIVE_ONLY_TESTS=(
  --deselect tests/python/test_module_compat.py::test_module_virtuals_across_runtimes
  --deselect tests/python/test_graph_compat.py
  --deselect tests/python/test_cuda_headers.py
  --deselect tests/python/test_headers.py::test_every_header_compiles_alone
  # Apache's reference wheels are CPython 3.11 builds: their Python package runs only there.
  --deselect tests/python/test_pickle_compat.py
)

# run_suite_with_wheel PYTHON WORK WHEEL: installs WHEEL in a venv under WORK and runs the
# Python tests from outside the checkout, so that the installed wheel is what gets imported.
run_suite_with_wheel() {
  local python="$1" work="$2" wheel="$3" version
  version="$("${python}" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
  echo "tests on Python ${version} with ${wheel##*/}"
  # numpy 2.5 exports ml_dtypes arrays through DLPack; the refusal tests assume numpy < 2.5.
  make_venv "${python}" "${work}/venv-${version}" pytest pytest-xdist hypothesis "numpy<2.5" \
    ml_dtypes "${wheel}"
  (cd "${work}" && "venv-${version}/bin/python" -m pytest -q -p no:cacheprovider \
    -n "${JOBS:-2}" "${NATIVE_ONLY_TESTS[@]}" "${OLDPWD}/tests/python")
}

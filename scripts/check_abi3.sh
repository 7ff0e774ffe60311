#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# check_abi3.sh: builds the cp312-abi3 wheel with the oldest Python >= 3.12 found, checks it
# with abi3audit, then runs the Python tests with that one wheel on every Python >= 3.12
# found (python3.N on PATH or under pyenv). Without such a Python it says so and stops.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

WORK="${ABI3_WORK_DIR:-build-abi3}"

# One working interpreter per minor version; pyenv shims of inactive versions do not run.
find_pythons() {
  local minor candidate
  for minor in 12 13 14 15; do
    for candidate in $(ls -d "${PYENV_ROOT:-${HOME}/.pyenv}"/versions/3."${minor}".*/bin/python \
      2>/dev/null | sort -rV) $(command -v "python3.${minor}" || true); do
      if "${candidate}" -c "import venv" >/dev/null 2>&1; then
        echo "${candidate}"
        break
      fi
    done
  done
  return 0
}

make_venv() {
  local python="$1" dir="$2"
  shift 2
  "${python}" -m venv "${dir}"
  "${dir}/bin/python" -m pip install -q "$@"
}

mapfile -t pythons < <(find_pythons)
if [ "${#pythons[@]}" -eq 0 ]; then
  echo "check_abi3.sh: no Python >= 3.12 on this machine; the abi3 wheel is not checked"
  exit 0
fi

rm -rf "${WORK}"
echo "check_abi3.sh: building the wheel with ${pythons[0]}"
make_venv "${pythons[0]}" "${WORK}/build-venv" scikit-build-core "cython>=3.0" cython-cmake \
  ninja cmake abi3audit
"${WORK}/build-venv/bin/python" -m pip wheel -q --no-build-isolation --no-deps \
  -w "${WORK}/dist" .
wheel="$(ls "${WORK}"/dist/*-cp312-abi3-*.whl)"
"${WORK}/build-venv/bin/abi3audit" --strict --verbose "${wheel}"

for python in "${pythons[@]}"; do
  version="$("${python}" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
  echo "check_abi3.sh: tests on Python ${version} with ${wheel##*/}"
  make_venv "${python}" "${WORK}/venv-${version}" pytest numpy ml_dtypes "${wheel}"
  # From outside the checkout, so that the installed wheel is what gets imported.
  (cd "${WORK}" && "venv-${version}/bin/python" -m pytest -q -p no:cacheprovider \
    "${OLDPWD}/tests/python")
done
echo "check_abi3.sh: the abi3 wheel passed on ${#pythons[@]} Python version(s)"

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# check_old_pythons.sh: builds the regular (version-specific) wheel with each Python 3.9 and
# 3.10 found (python3.N on PATH or under pyenv) and runs the Python tests with it. The main
# test run covers the default python3, check_abi3.sh Python >= 3.12. Without such a Python it
# says so and stops.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

WORK="${OLD_PYTHONS_WORK_DIR:-build-old-pythons}"

source scripts/python_versions.sh

mapfile -t pythons < <(find_pythons 9 10)
if [ "${#pythons[@]}" -eq 0 ]; then
  echo "check_old_pythons.sh: no Python 3.9 or 3.10 on this machine; they are not checked"
  exit 0
fi

rm -rf "${WORK}"
for python in "${pythons[@]}"; do
  version="$("${python}" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
  echo "check_old_pythons.sh: building the wheel with Python ${version}"
  make_venv "${python}" "${WORK}/build-venv-${version}" scikit-build-core "cython>=3.0" \
    cython-cmake ninja cmake typing-extensions
  "${WORK}/build-venv-${version}/bin/python" -m pip wheel -q --no-build-isolation --no-deps \
    -w "${WORK}/dist-${version}" .
  run_suite_with_wheel "${python}" "${WORK}" "$(ls "${WORK}/dist-${version}"/*.whl)"
done
echo "check_old_pythons.sh: the wheels passed on ${#pythons[@]} Python version(s)"

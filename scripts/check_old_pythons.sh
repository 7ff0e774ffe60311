#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# check_old_pythons.sh: builds the regular (version-specific) wheel with each Python of
# TVM_FFI_OLD_PYTHONS (versions.sh) found (python3.N on PATH or under pyenv) and runs the Python
# tests with it. The main test run covers the default python3, check_abi3.sh the newer ones.
# Each one missing is reported as a SKIPPED line; without any it stops there, successfully.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

WORK="${OLD_PYTHONS_WORK_DIR:-build-old-pythons}"

source scripts/python_versions.sh

# shellcheck disable=SC2086 # the list is space-separated
find_pythons "regular wheel" ${TVM_FFI_OLD_PYTHONS}
if [ "${#pythons[@]}" -eq 0 ]; then
  exit 0
fi

rm -rf "${WORK}"
for python in "${pythons[@]}"; do
  version="$("${python}" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
  echo "check_old_pythons.sh: building the wheel with Python ${version}"
  make_venv "${python}" "${WORK}/build-venv-${version}" scikit-build-core "cython>=3.0" \
    cython-cmake ninja cmake typing-extensions
  "${WORK}/build-venv-${version}/bin/python" -m pip wheel -q --no-build-isolation --no-deps \
    --config-settings=cmake.define.TVM_FFI_WERROR=ON -w "${WORK}/dist-${version}" .
  run_suite_with_wheel "${python}" "${WORK}" "$(ls "${WORK}/dist-${version}"/*.whl)"
done
echo "check_old_pythons.sh: the wheels passed on ${#pythons[@]} Python version(s)"

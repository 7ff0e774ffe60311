#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# check_abi3.sh: builds the cp312-abi3 wheel with the oldest Python of TVM_FFI_ABI3_PYTHONS
# (versions.sh) found, checks it with abi3audit, then runs the per-version tier of the Python
# tests (tests/python/version_tier.txt) with that one wheel on each of them found (python3.N on
# PATH or under pyenv). Each one missing is reported as a SKIPPED line; without any it stops
# there, successfully.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

WORK="${ABI3_WORK_DIR:-build-abi3}"

source scripts/python_versions.sh

# shellcheck disable=SC2086 # the list is space-separated
find_pythons "abi3 wheel" ${TVM_FFI_ABI3_PYTHONS}
if [ "${#pythons[@]}" -eq 0 ]; then
  exit 0
fi

rm -rf "${WORK}"
echo "check_abi3.sh: building the wheel with ${pythons[0]}"
make_venv "${pythons[0]}" "${WORK}/build-venv" scikit-build-core "cython>=3.0" cython-cmake \
  ninja cmake abi3audit
"${WORK}/build-venv/bin/python" -m pip wheel -q --no-build-isolation --no-deps \
  --config-settings=cmake.define.TVM_FFI_WERROR=ON -w "${WORK}/dist" .
wheel="$(ls "${WORK}"/dist/*-cp312-abi3-*.whl)"
"${WORK}/build-venv/bin/abi3audit" --strict --verbose "${wheel}"
# tests/python/test_wheel_layout.py checks this wheel's size (at most 3 MB) and its stripped
# libraries in each run below.
TVM_FFI_WHEEL="$(realpath "${wheel}")"
export TVM_FFI_WHEEL

for python in "${pythons[@]}"; do
  run_suite_with_wheel "${python}" "${WORK}" "${wheel}"
done
echo "check_abi3.sh: the abi3 wheel passed on ${#pythons[@]} Python version(s)"

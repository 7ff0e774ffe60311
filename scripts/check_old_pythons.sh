#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# check_old_pythons.sh: builds the regular (version-specific) wheel with each Python of
# TVM_FFI_OLD_PYTHONS (versions.sh) found (python3.N on PATH or under pyenv) and runs the
# per-version tier of the Python tests (tests/python/version_tier.txt) with it. The main test run
# covers the default python3 with every test, check_abi3.sh the newer ones.
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

# build_wheel PYTHON VERSION: the regular wheel of this checkout for PYTHON, in
# WORK/dist-VERSION.
build_wheel() {
  local python="$1" version="$2"
  make_venv "${python}" "${WORK}/build-venv-${version}" scikit-build-core "cython>=3.0" \
    cython-cmake ninja cmake typing-extensions
  "${WORK}/build-venv-${version}/bin/python" -m pip wheel -q --no-build-isolation --no-deps \
    --config-settings=cmake.define.TVM_FFI_WERROR=ON -w "${WORK}/dist-${version}" .
}

rm -rf "${WORK}"
mkdir -p "${WORK}"
# The wheels build at the same time, each in a build directory of its own (pyproject.toml's
# build-dir names the wheel tag): a build keeps one core busy for the most part (pip, Cython, the
# extension's one large C file). Their tests run one version after the other.
versions=()
builds=()
for python in "${pythons[@]}"; do
  version="$("${python}" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
  echo "check_old_pythons.sh: building the wheel with Python ${version}"
  build_wheel "${python}" "${version}" >"${WORK}/build-${version}.log" 2>&1 &
  versions+=("${version}")
  builds+=("$!")
done
failed=0
for i in "${!builds[@]}"; do
  status=0
  wait "${builds[i]}" || status=$?
  cat "${WORK}/build-${versions[i]}.log"
  if [ "${status}" -ne 0 ]; then
    echo "check_old_pythons.sh: the wheel for Python ${versions[i]} failed to build" \
      "(status ${status}); its output is above"
    failed=1
  fi
done
if [ "${failed}" -ne 0 ]; then
  exit 1
fi
for i in "${!pythons[@]}"; do
  run_suite_with_wheel "${pythons[i]}" "${WORK}" "$(ls "${WORK}/dist-${versions[i]}"/*.whl)"
done
echo "check_old_pythons.sh: the wheels passed on ${#pythons[@]} Python version(s)"

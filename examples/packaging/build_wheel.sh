#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the example's wheel into dist/, installs it and runs run_example.py; where auditwheel
# is installed, also makes the manylinux wheel for publishing in wheelhouse/. Needs CMake, a
# C++17 compiler, and in the current Python: pip, scikit-build-core, apache-tvm-ffi and numpy.
# PYTHON names the interpreter (default: python).
set -euo pipefail
cd "$(dirname "$0")"
python() { "${PYTHON:-python}" "$@"; }

# [build-begin]
# Build against the apache-tvm-ffi installed here (without --no-build-isolation, pip installs
# scikit-build-core and apache-tvm-ffi into a temporary environment and builds there).
python -m pip wheel --no-build-isolation --no-deps --wheel-dir dist .
# [build-end]

# [install-begin]
# --force-reinstall replaces an earlier build of the same version.
python -m pip install --force-reinstall --no-deps dist/my_ffi_extension-*.whl
python run_example.py
# [install-end]

if command -v auditwheel >/dev/null; then
  # [repair-begin]
  # libtvm_ffi.so comes from the apache-tvm-ffi dependency: leave it out of the wheel.
  auditwheel repair --exclude libtvm_ffi.so --wheel-dir wheelhouse dist/my_ffi_extension-*.whl
  # [repair-end]
fi

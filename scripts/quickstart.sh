#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# quickstart.sh: install the package from this checkout with what the get-started example
# needs, then build and run examples/get_started (a C++ kernel called on NumPy and torch data).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/versions.sh

# CMake and a C++ compiler build the example; numpy and a CPU torch are the frameworks it uses.
if ! command -v c++ >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  ${SUDO} apt-get update -q
  ${SUDO} env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends g++
fi
python3 -m pip install -q cmake ninja "${TVM_FFI_NUMPY_REQUIREMENT}" "torch==${TVM_FFI_TORCH_VERSION}"
python3 -m pip install .
python3 examples/get_started/run_example.py

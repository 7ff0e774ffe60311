#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# quickstart.sh: install the package from this checkout and check that it loads.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

python3 -m pip install .
cd /tmp
python3 -c "import tvm_ffi; print('tvm_ffi', tvm_ffi.__version__, 'from', \
tvm_ffi.libinfo.find_libtvm_ffi())"

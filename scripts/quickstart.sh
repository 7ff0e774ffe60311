#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# quickstart.sh: install the package from this checkout and make a few calls across the FFI.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

python3 -m pip install .
cd /tmp
python3 - <<'PY'
import tvm_ffi

add_one = tvm_ffi.get_global_func("testing.add_one")
double = tvm_ffi.register_global_func("quickstart.double", lambda x: 2 * x)
apply = tvm_ffi.get_global_func("testing.apply")
print("tvm_ffi", tvm_ffi.__version__, "from", tvm_ffi.libinfo.find_libtvm_ffi())
print("native add_one(41) =", add_one(41))
print("native apply(Python double, 21) =", apply(double, 21))
PY

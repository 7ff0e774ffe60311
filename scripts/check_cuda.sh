#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# check_cuda.sh: the checks that need a CUDA GPU (CI has none; their tests skip there).
# Installs tvm_ffi into the python3 on PATH, from $WHEEL when set, else built from this
# checkout without network access. Then runs the GPU tests, the whole Python suite and the
# tensor benchmark with its CUDA cases, logging each to $LOG_DIR (default build-cuda/).
# Exits non-zero when a step failed, after running them all.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1

PYTHON="${PYTHON:-python3}"
LOG_DIR="${LOG_DIR:-build-cuda}"
mkdir -p "${LOG_DIR}"
failed=()
step() {
  local name="$1"
  shift
  echo "=== check_cuda.sh: ${name} ==="
  "$@" 2>&1 | tee "${LOG_DIR}/${name}.log" || failed+=("${name}")
}

nvidia-smi -L
"${PYTHON}" -c 'import sys, torch
print("python", sys.version.split()[0], "torch", torch.__version__, "cuda", torch.version.cuda,
      "available", torch.cuda.is_available())'
if [ -n "${WHEEL:-}" ]; then
  "${PYTHON}" -m pip install -q --no-deps --no-index --force-reinstall "${WHEEL}"
else
  "${PYTHON}" -m pip install -q --no-deps --no-build-isolation --force-reinstall .
fi || exit 1

step gpu-tests "${PYTHON}" -m pytest -v -rs -p no:cacheprovider tests/python/test_cuda.py \
  tests/python/test_stream.py
step all-tests "${PYTHON}" -m pytest -q -rs -p no:cacheprovider tests/python
step bench-tensor "${PYTHON}" bench/bench_tensor.py 9

if [ "${#failed[@]}" -ne 0 ]; then
  echo "check_cuda.sh: failed: ${failed[*]}"
  exit 1
fi
echo "check_cuda.sh: all steps passed"

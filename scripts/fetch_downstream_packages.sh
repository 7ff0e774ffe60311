#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# fetch_downstream_packages.sh: download the published packages built on tvm_ffi that the
# downstream tests install next to ours (tests/python/test_downstream_tvm.py,
# tests/python/test_header_tls.py).
#
# Each wheel lands in .cache/downstream/ (ignored by git), downloaded once with --no-deps. Quiet
# and idempotent; a wheel that cannot be fetched (offline machine) only prints a warning, and the
# test that needs it then fails in CI.
set -uo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE_DIR="${TVM_FFI_DOWNSTREAM_DIR:-${REPO_ROOT}/.cache/downstream}"
PYTHON="${PYTHON:-python3}"
source "${REPO_ROOT}/scripts/versions.sh"
# The TVM compiler release whose runtime layer is tvm_ffi (pure Python plus ctypes-loaded
# libraries: one wheel serves every Python it supports), and the ORC JIT loader of objects.
PACKAGES=("apache-tvm==${TVM_FFI_DOWNSTREAM_TVM_VERSION}"
  "apache-tvm-ffi-orcjit==${TVM_FFI_DOWNSTREAM_ORCJIT_VERSION}")

mkdir -p "${CACHE_DIR}"
for requirement in "${PACKAGES[@]}"; do
  wheel_prefix="$(echo "${requirement}" | sed 's/-/_/g; s/==/-/')"
  if ls "${CACHE_DIR}/${wheel_prefix}"-*.whl >/dev/null 2>&1; then
    continue
  fi
  if ! "${PYTHON}" -m pip download -q --no-deps --disable-pip-version-check \
    --dest "${CACHE_DIR}" "${requirement}" >"${CACHE_DIR}/pip.log" 2>&1; then
    echo "fetch_downstream_packages.sh: warning: cannot download ${requirement} (offline?);" \
      "see ${CACHE_DIR}/pip.log" >&2
  fi
done
exit 0

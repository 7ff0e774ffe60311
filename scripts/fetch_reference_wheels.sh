#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# fetch_reference_wheels.sh: download Apache TVM FFI wheels used only as binary-compat test references.
#
# Each version lands in .cache/reference_wheels/<version>/ (ignored by git) and is unpacked there,
# so that <version>/tvm_ffi/include and <version>/tvm_ffi/lib/libtvm_ffi.so exist. Idempotent and
# quiet; a version that cannot be fetched (offline machine, missing release) only prints a warning.
set -uo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE_DIR="${TVM_FFI_REFERENCE_WHEEL_DIR:-${REPO_ROOT}/.cache/reference_wheels}"
PYTHON="${PYTHON:-python3}"
source "${REPO_ROOT}/scripts/versions.sh"
# The references, then the rest of the release history (a version in both is fetched once).
read -ra VERSIONS <<<"${TVM_FFI_REFERENCE_VERSIONS} ${TVM_FFI_RELEASE_HISTORY_VERSIONS}"

warn() {
  echo "fetch_reference_wheels.sh: warning: $*" >&2
}

# Prints the path of the one downloaded wheel of $1, if any.
wheel_in() {
  find "$1" -maxdepth 1 -name 'apache_tvm_ffi-*.whl' -print -quit 2>/dev/null
}

download_wheel() {
  local version="$1" dest="$2"
  mkdir -p "${dest}"
  "${PYTHON}" -m pip download -q --no-deps --disable-pip-version-check \
    --dest "${dest}" "apache-tvm-ffi==${version}" >"${dest}/pip.log" 2>&1
}

unpack_wheel() {
  local wheel="$1" dest="$2"
  # A wheel is a zip file; Python's zipfile avoids depending on the unzip tool.
  "${PYTHON}" - "${wheel}" "${dest}" <<'EOF'
import sys
import zipfile

with zipfile.ZipFile(sys.argv[1]) as archive:
    members = [m for m in archive.namelist() if m.startswith(("tvm_ffi/include/", "tvm_ffi/lib/"))]
    archive.extractall(sys.argv[2], members)
EOF
}

fetch_one() {
  local version="$1"
  local dest="${CACHE_DIR}/${version}"
  if [ -f "${dest}/tvm_ffi/lib/libtvm_ffi.so" ] && [ -f "${dest}/tvm_ffi/include/tvm/ffi/c_api.h" ]; then
    return 0
  fi
  local wheel
  wheel="$(wheel_in "${dest}")"
  if [ -z "${wheel}" ]; then
    if ! download_wheel "${version}" "${dest}"; then
      warn "cannot download apache-tvm-ffi==${version} (offline?); see ${dest}/pip.log"
      return 0
    fi
    wheel="$(wheel_in "${dest}")"
  fi
  if [ -z "${wheel}" ] || ! unpack_wheel "${wheel}" "${dest}"; then
    warn "cannot unpack the apache-tvm-ffi==${version} wheel in ${dest}"
    return 0
  fi
}

for version in "${VERSIONS[@]}"; do
  fetch_one "${version}"
done
exit 0

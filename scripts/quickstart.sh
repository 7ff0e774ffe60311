#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# quickstart.sh: install the package from this checkout into a virtual environment with what the
# get-started example needs, then build and run examples/get_started (a C++ kernel called on
# NumPy and torch data), and say what to do next.
#
# The Python environment: the active virtual environment when there is one (VIRTUAL_ENV is set,
# or $PYTHON runs inside a venv); otherwise .venv in the checkout, created with `$PYTHON -m venv`
# (or reused when it works). The system Python is never written to.
#
# Environment variables:
#   PYTHON                      the interpreter that creates .venv (default: python3)
#   VIRTUAL_ENV                 a virtual environment to install into instead of .venv
#   TVM_FFI_QUICKSTART_NO_APT=1 skip the apt-get step (the tools must already be there)
#   TVM_FFI_TORCH_INDEX_URL     the extra package index torch comes from (default: PyTorch's
#                               CPU-only index, when it is reachable; empty: the configured index)
#
# With apt-get (as root, or through sudo), it installs the missing ones of: g++, make, libdw1
# (file:line in C++ backtraces), and python3-venv when a venv cannot be created.
# The output of the package build is kept in .cache/quickstart/pip-install.log.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/versions.sh
source scripts/versions.sh

PYTHON="${PYTHON:-python3}"
TOTAL_STEPS=5
STEP_STARTED=0
APT_PACKAGES=(g++ make libdw1)
LOG_DIR="${PWD}/.cache/quickstart"
DEFAULT_TORCH_INDEX="https://download.pytorch.org/whl/cpu"

say() { echo "quickstart.sh: $*"; }
die() {
  echo "quickstart.sh: error: $*" >&2
  exit 1
}

# step N TITLE: print the header of step N.
step() {
  STEP_STARTED="${SECONDS}"
  echo
  echo "[$1/${TOTAL_STEPS}] $2 ..."
}

step_done() { echo "    done in $((SECONDS - STEP_STARTED)) s"; }

# ---------------------------------------------------------------- system packages (apt-get)

# The apt packages of the arguments that dpkg does not list as installed.
missing_apt_packages() {
  local pkg
  for pkg in "$@"; do
    if ! dpkg-query -W -f='${Status}' "${pkg}" 2>/dev/null | grep -q "install ok installed"; then
      echo "${pkg}"
    fi
  done
}

# The command prefix that runs as root ("" as root, "sudo"), or fails when there is none.
root_prefix() {
  if [ "$(id -u)" -eq 0 ]; then
    echo ""
  elif command -v sudo >/dev/null 2>&1; then
    echo "sudo"
  else
    return 1
  fi
}

can_use_apt() {
  [ "${TVM_FFI_QUICKSTART_NO_APT:-0}" != "1" ] && command -v apt-get >/dev/null 2>&1 &&
    command -v dpkg-query >/dev/null 2>&1
}

# apt_install PKG...: install the packages as root; when that is not possible, print the command
# to run and fail.
apt_install() {
  local prefix
  if ! prefix="$(root_prefix)"; then
    say "not root and no sudo; to install them, run as root:"
    echo "    apt-get update && apt-get install -y --no-install-recommends $*"
    return 1
  fi
  say "installing: $* (apt-get)"
  ${prefix} apt-get update -q &&
    ${prefix} env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@"
}

# Fail when a tool the build needs is missing; only warn about libdw.
check_build_tools() {
  command -v c++ >/dev/null 2>&1 || command -v g++ >/dev/null 2>&1 ||
    die "no C++ compiler (c++ or g++) found: install g++ (Debian/Ubuntu: apt-get install g++)"
  command -v make >/dev/null 2>&1 ||
    die "make not found (the example's CMake build uses it): install make"
  if can_use_apt && [ -n "$(missing_apt_packages libdw1)" ]; then
    say "warning: libdw1 is not installed; C++ backtraces will lack file:line"
  fi
}

install_system_packages() {
  if [ "${TVM_FFI_QUICKSTART_NO_APT:-0}" = "1" ]; then
    say "skipped (TVM_FFI_QUICKSTART_NO_APT=1)"
  elif ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg-query >/dev/null 2>&1; then
    say "apt-get not found; install a C++17 compiler, make and libdw (elfutils) by hand"
  else
    local missing
    mapfile -t missing < <(missing_apt_packages "${APT_PACKAGES[@]}")
    if [ "${#missing[@]}" -eq 0 ]; then
      say "already installed: ${APT_PACKAGES[*]}"
    elif ! apt_install "${missing[@]}"; then
      say "could not install ${missing[*]}; going on with what is there"
    fi
  fi
  check_build_tools
}

# ---------------------------------------------------------------- the Python environment

# Set VENV_DIR to the environment to install into; create .venv when there is none.
VENV_DIR=""
choose_python() {
  if [ -n "${VIRTUAL_ENV:-}" ]; then
    venv_works "${VIRTUAL_ENV}" ||
      die "VIRTUAL_ENV=${VIRTUAL_ENV} has no bin/python with pip: activate a working venv or unset VIRTUAL_ENV"
    VENV_DIR="${VIRTUAL_ENV}"
    say "using the active virtual environment ${VIRTUAL_ENV}"
    return
  fi
  command -v "${PYTHON}" >/dev/null 2>&1 ||
    die "PYTHON=${PYTHON} not found: install Python 3.9 or newer, or set PYTHON to one"
  "${PYTHON}" -c 'import sys; sys.exit(sys.version_info < (3, 9))' ||
    die "PYTHON=${PYTHON} is $("${PYTHON}" --version 2>&1); Python 3.9 or newer is needed"
  local prefix
  prefix="$("${PYTHON}" -c 'import sys; print(sys.prefix if sys.prefix != sys.base_prefix else "")')"
  if [ -n "${prefix}" ]; then
    VENV_DIR="${prefix}"
    say "using the virtual environment of ${PYTHON}: ${prefix}"
    return
  fi
  VENV_DIR="${PWD}/.venv"
  if venv_works "${VENV_DIR}"; then
    say "reusing ${VENV_DIR}"
    return
  fi
  say "creating ${VENV_DIR} with ${PYTHON} ($("${PYTHON}" --version 2>&1))"
  if ! "${PYTHON}" -m venv --clear "${VENV_DIR}"; then
    install_venv_module
    "${PYTHON}" -m venv --clear "${VENV_DIR}" || die "${PYTHON} -m venv ${VENV_DIR} failed"
  fi
  venv_works "${VENV_DIR}" || die "the new venv ${VENV_DIR} has no working pip"
}

venv_works() { [ -x "$1/bin/python" ] && "$1/bin/python" -m pip --version >/dev/null 2>&1; }

# Debian and Ubuntu ship venv (with ensurepip) apart from Python: python3-venv and, for a
# python3.X that is not the default one, python3.X-venv.
install_venv_module() {
  local version packages=(python3-venv)
  version="$("${PYTHON}" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
  if ! can_use_apt; then
    die "${PYTHON} cannot create a venv; install its venv module (Debian/Ubuntu: python3-venv)"
  fi
  if apt-cache show "python${version}-venv" >/dev/null 2>&1; then
    packages+=("python${version}-venv")
  fi
  apt_install "${packages[@]}" || die "could not install ${packages[*]}"
}

# ---------------------------------------------------------------- Python packages

# The extra index torch comes from: TVM_FFI_TORCH_INDEX_URL, else PyTorch's CPU index when it
# answers (without it, PyPI's torch for Linux brings the CUDA libraries, gigabytes of them).
torch_index() {
  if [ -n "${TVM_FFI_TORCH_INDEX_URL+set}" ]; then
    echo "${TVM_FFI_TORCH_INDEX_URL}"
  elif "${VPY}" -c "import urllib.request as r; r.urlopen('${DEFAULT_TORCH_INDEX}/', timeout=10)" \
    >/dev/null 2>&1; then
    echo "${DEFAULT_TORCH_INDEX}"
  else
    echo "quickstart.sh: ${DEFAULT_TORCH_INDEX} does not answer; torch comes from the" \
      "configured index" >&2
  fi
}

install_dependencies() {
  local index args=()
  index="$(torch_index)"
  [ -z "${index}" ] || args=(--extra-index-url "${index}")
  "${VPY}" -m pip install "${args[@]}" cmake ninja "${TVM_FFI_NUMPY_REQUIREMENT}" \
    "torch==${TVM_FFI_TORCH_VERSION}"
}

# The build's progress lines: ninja's "[12/80] Building CXX object ..." and "FAILED: <file>",
# scikit-build-core's "*** ..." and pip's last word.
PROGRESS_LINES='^ *(\[[0-9]+/[0-9]+\] |FAILED: |\*\*\* |Successfully (built|installed) )'

install_package() {
  local log="${LOG_DIR}/pip-install.log"
  mkdir -p "${LOG_DIR}"
  say "full build log: ${log}"
  if ! PYTHONUNBUFFERED=1 "${VPY}" -m pip install -v . 2>&1 | tee "${log}" |
    { grep --line-buffered -E "${PROGRESS_LINES}" || true; }; then
    {
      echo
      echo "quickstart.sh: pip install . failed; the first errors in ${log}:"
      grep -m 10 -E '(FAILED: |error:|CMake Error)' "${log}" || true
      echo
      echo "quickstart.sh: the last lines of ${log}:"
      tail -n 60 "${log}"
    } >&2
    die "building the package failed (full log: ${log})"
  fi
}

# ---------------------------------------------------------------- what next

# A path as the user can type it from the checkout: relative when it is inside.
shown_path() {
  case "$1" in
    "${PWD}"/*) echo "${1#"${PWD}"/}" ;;
    *) echo "$1" ;;
  esac
}

what_next() {
  local python backtrace
  python="$(shown_path "${VENV_DIR}")/bin/python"
  backtrace="$("${VPY}" -m tvm_ffi.config --backtrace 2>&1 | tr "\n" " " | sed "s/ *$//" || true)"
  if [ "${backtrace}" = "libdw" ]; then
    backtrace="libdw: C++ frames in Python tracebacks show file:line"
  fi
  echo
  echo "Quick start done in ${SECONDS} s. What next:"
  echo "  the example:     examples/get_started/ (add_one.cc, CMakeLists.txt, run_example.py)"
  echo "  run it again:    ${python} examples/get_started/run_example.py"
  echo "  use the venv:    source $(shown_path "${VENV_DIR}")/bin/activate"
  echo "  read:            docs/quickstart.md, then docs/guide/ (python.md, cpp.md, packaging.md)"
  echo "  run the tests:   bash scripts/run_tests.sh"
  echo "  backtraces:      ${backtrace} (tvm-ffi-config --backtrace)"
}

# ---------------------------------------------------------------- the steps

step 1 "system packages: a C++ compiler, make and libdw"
install_system_packages
step_done

step 2 "the Python environment"
choose_python
VPY="${VENV_DIR}/bin/python"
# The venv's cmake and ninja build the package and the example, as in an activated venv.
export PATH="${VENV_DIR}/bin:${PATH}" VIRTUAL_ENV="${VENV_DIR}"
say "installing with ${VPY} ($("${VPY}" --version 2>&1))"
step_done

step 3 "installing CMake, ninja, numpy and torch (CPU)"
install_dependencies
step_done

step 4 "building and installing tvm_ffi from this checkout (pip install -v .)"
install_package
step_done

step 5 "building and running examples/get_started"
"${VPY}" examples/get_started/run_example.py
step_done

what_next

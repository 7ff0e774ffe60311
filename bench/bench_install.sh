#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench_install.sh: the CPU time (user + system, all processes) of a cold `pip install .`
# (an empty build directory, ccache off) and of a warm one (the same tree again: the build
# directory and ccache are reused), then builds the wheel and reports its size and whether its
# libraries are stripped (no .debug_* sections, a .gnu_debuglink to the build's debuginfo
# folder). CPU time, unlike wall time, hardly moves with the machine's load.
#
#   bench/bench_install.sh [--no-build-isolation]
#
# PYTHON picks the interpreter to install into (default: .venv/bin/python of the checkout). By
# default pip isolates the build, as a plain `pip install .` does (its time to set up the build
# environment counts); with --no-build-isolation the build tools must be installed in that
# environment.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

python="${PYTHON:-.venv/bin/python}"
if [ ! -x "${python}" ]; then
  echo "bench_install.sh: ${python} not found; set PYTHON to a virtual environment's python" >&2
  exit 2
fi
pip_options=(-q)
if [ "${1:-}" = "--no-build-isolation" ]; then
  pip_options=(-q --no-build-isolation)
fi
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT

# cpu_seconds <label> <command...>: runs the command and prints the CPU seconds it and every
# process it started used.
cpu_seconds() {
  local label="$1"
  shift
  "${python}" - "${label}" "$@" <<'PY'
import resource
import subprocess
import sys

label, command = sys.argv[1], sys.argv[2:]
subprocess.run(command, check=True)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{label}: {usage.ru_utime + usage.ru_stime:.1f} CPU-s "
      f"({usage.ru_utime:.1f} user, {usage.ru_stime:.1f} system)")
PY
}

CCACHE_DISABLE=1 cpu_seconds "cold pip install . (${pip_options[*]})" \
  "${python}" -m pip install "${pip_options[@]}" --force-reinstall --no-deps \
  -C build-dir="${work}/cold-build" .
"${python}" -m pip install "${pip_options[@]}" .
cpu_seconds "warm pip install . (${pip_options[*]})" \
  "${python}" -m pip install "${pip_options[@]}" --force-reinstall --no-deps .

"${python}" -m pip wheel "${pip_options[@]}" --no-deps -w "${work}/dist" .
wheel="$(ls "${work}"/dist/*.whl)"
echo "wheel: ${wheel##*/}: $(stat -c %s "${wheel}") bytes"
"${python}" -m zipfile -e "${wheel}" "${work}/unpacked"
while IFS= read -r library; do
  sections="$(readelf -S -W "${library}")"
  debug_sections="$(grep -c ' \.debug_' <<<"${sections}" || true)"
  debuglink="no"
  if grep -q ' \.gnu_debuglink ' <<<"${sections}"; then
    debuglink="yes"
  fi
  echo "  ${library#"${work}/unpacked/"}: $(stat -c %s "${library}") bytes," \
    "${debug_sections} .debug_* sections, .gnu_debuglink: ${debuglink}"
done < <(find "${work}/unpacked" -name '*.so' | sort)

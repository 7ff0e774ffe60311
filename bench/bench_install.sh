#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench_install.sh: times `pip install .` of an unchanged tree (a first install builds what
# changed, the timed second one should find nothing to build), then builds the wheel and
# reports its size and whether its libraries are stripped (no .debug_* sections, a
# .gnu_debuglink to the build's debuginfo folder).
#
#   bench/bench_install.sh [--no-build-isolation]
#
# PYTHON picks the interpreter to install into (default: .venv/bin/python of the checkout). By
# default pip isolates the build, as a plain `pip install .` does: scikit-build-core then clears
# the build directory's CMake cache and object files, and ccache (used when installed) serves the
# rebuild. With --no-build-isolation the build tools must be installed in that environment.
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

now() { date +%s.%N; }

"${python}" -m pip install "${pip_options[@]}" .
start="$(now)"
"${python}" -m pip install "${pip_options[@]}" .
end="$(now)"
echo "second pip install . (${pip_options[*]}): $(awk "BEGIN {printf \"%.1f\", ${end} - ${start}}") s"

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

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# lint.sh: every linter and formatter check, using tools installed by install_deps.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

py_dirs=(python tests)
[ -d bench ] && py_dirs+=(bench)
[ -d docs ] && py_dirs+=(docs)

echo "lint: ruff check"
python3 -m ruff check "${py_dirs[@]}"
echo "lint: ruff format --check"
python3 -m ruff format --check "${py_dirs[@]}"

echo "lint: clang-format"
cpp_dirs=()
for d in include src tests/cpp; do
  [ -d "$d" ] && cpp_dirs+=("$d")
done
if [ "${#cpp_dirs[@]}" -gt 0 ]; then
  find "${cpp_dirs[@]}" -type f \( -name '*.h' -o -name '*.cc' -o -name '*.c' \) -print0 \
    | xargs -0 -r clang-format --dry-run -Werror
fi

if [ -d python/tvm_ffi/cython ]; then
  echo "lint: cython-lint"
  cython-lint --max-line-length 100 python/tvm_ffi/cython
fi
echo "lint: ok"

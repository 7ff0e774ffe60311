#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds libadd_vectors.so with the C compiler alone, using the flags tvm-ffi-config prints.
# Usage: build_with_compiler.sh OUTPUT_DIR   (TVM_FFI_CONFIG overrides the command, CC the compiler)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out_dir="${1:?usage: build_with_compiler.sh OUTPUT_DIR}"
read -r -a config <<< "${TVM_FFI_CONFIG:-tvm-ffi-config}"
# [compile-begin]
read -r -a cflags <<< "$("${config[@]}" --cflags)"
read -r -a link_flags <<< "$("${config[@]}" --ldflags --libs | tr '\n' ' ')"
"${CC:-cc}" -std=c11 -O2 -fPIC -shared "${cflags[@]}" "$here/add_vectors.c" \
  -o "$out_dir/libadd_vectors.so" "${link_flags[@]}"
# [compile-end]

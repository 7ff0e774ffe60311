#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# build.sh: builds the guide's library with g++ and the flags tvm-ffi-config prints.
# Usage: build.sh OUTPUT.so
# The flags are meant to split into words, one per flag:
# shellcheck disable=SC2046
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
output="$1"

# [build-begin]
g++ -shared -fPIC -O2 $(tvm-ffi-config --cxxflags) \
  "$here"/functions.cc "$here"/tensors.cc "$here"/errors.cc "$here"/objects.cc \
  "$here"/globals.cc "$here"/callbacks.cc "$here"/containers.cc \
  -o "$output" $(tvm-ffi-config --ldflags) $(tvm-ffi-config --libs)
# [build-end]

#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tvm_ffi_build_progress.sh <compile command...>: the compiler launcher of a build under pip
# (TVM_FFI_BUILD_PROGRESS). It runs the command and, when the build has a terminal, writes to
# that terminal which part of tvm_ffi is compiling and how long it took: pip shows the build's
# own output only with -v. Without a terminal (CI, logs) it prints nothing. The exit status is
# the command's.

source=""
output=""
previous=""
for argument in "$@"; do
  case "${previous}" in
    -c) source="${argument##*/}" ;;
    -o) output="${argument}" ;;
  esac
  previous="${argument}"
done
case "${output}" in
  *tvm_ffi_shared.dir/*) part="the runtime, libtvm_ffi.so" ;;
  *tvm_ffi_testing.dir/*) part="the testing library, libtvm_ffi_testing.so" ;;
  *tvm_ffi_cython.dir/*) part="the Python extension, tvm_ffi.core" ;;
  *) part="${output##*/}" ;;
esac
case "${source}" in
  unity_*) what="${part}" ;;
  *) what="${part} (${source})" ;;
esac

say() {
  { printf 'tvm_ffi build: %s\n' "$1" > /dev/tty; } 2> /dev/null
}

say "compiling ${what} ..."
start=$(date +%s)
"$@"
status=$?
seconds=$(($(date +%s) - start))
if [ "${status}" -eq 0 ]; then
  say "compiled ${what} in ${seconds} s"
else
  say "compiling ${what} failed after ${seconds} s (pip install -v . shows the compiler's output)"
fi
exit "${status}"

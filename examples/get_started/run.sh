#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# run.sh: runs the get-started example against the installed tvm_ffi (used by the test suite).
set -euo pipefail
exec python3 "$(dirname "${BASH_SOURCE[0]}")/run_example.py"

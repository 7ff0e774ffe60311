# SPDX-License-Identifier: Apache-2.0
# versions.sh: every version CI pins or tests against, in one place. The scripts source it;
# tests/python/pinned_versions.py reads the same NAME="value" lines, so keep to that form.
# shellcheck shell=bash disable=SC2034 # read by the scripts that source this file

# Apache TVM FFI releases fetched as compatibility references (fetch_reference_wheels.sh).
# 0.1.13 and 0.1.13.post0 are yanked on PyPI but an exact pin still fetches them.
TVM_FFI_REFERENCE_VERSIONS="0.1.0 0.1.13 0.1.13.post0 0.1.13.post2 0.1.15.post2"
# Every 0.1.x release, yanked ones included, oldest first, also fetched: their exported symbols
# are checked against ours, so that binaries built on any of them load here
# (test_old_release_symbols.py).
TVM_FFI_RELEASE_HISTORY_VERSIONS="0.1.0 0.1.1 0.1.2 0.1.3 0.1.4 0.1.5 0.1.6 0.1.7 0.1.8 0.1.8.post0 0.1.8.post1 0.1.8.post2 0.1.9 0.1.10 0.1.11 0.1.12 0.1.13 0.1.13.post0 0.1.13.post1 0.1.13.post2 0.1.13.post3 0.1.14 0.1.14.post0 0.1.14.post1 0.1.15 0.1.15.post0 0.1.15.post1 0.1.15.post2"
# The release whose ABI and Python API this package matches: header paths, exported symbols,
# pickles and JSON graphs are compared with it.
TVM_FFI_MATCHED_VERSION="0.1.15.post2"
# The one release whose headers allocate objects through TVMFFIGetCustomAllocator (docs/abi.md,
# 'The allocation hook').
TVM_FFI_CUSTOM_ALLOCATOR_VERSION="0.1.13"
# The releases whose C++ layouts (Optional, ModuleObj) ours matches (test_module_compat.py).
TVM_FFI_MODULE_LAYOUT_VERSIONS="0.1.13.post2 0.1.15.post2"
# The releases whose public C++ declarations must all compile against our headers
# (test_header_parity.py): the one TVM's compiler pins and the matched one.
TVM_FFI_HEADER_PARITY_VERSIONS="0.1.13.post2 0.1.15.post2"
# The container header sets built and read against ours (test_container_compat.py).
TVM_FFI_CONTAINER_COMPAT_VERSIONS="0.1.0 0.1.13.post2 0.1.15.post2"

# The TVM compiler release whose runtime layer is tvm_ffi (fetch_downstream_packages.sh,
# test_downstream_tvm.py), and the oldest Python it installs on.
TVM_FFI_DOWNSTREAM_TVM_VERSION="0.27.0.post1"
TVM_FFI_DOWNSTREAM_TVM_MIN_PYTHON="3.10"
# The published ORC JIT loader of Apache TVM FFI, which loads objects built against our headers
# (fetch_downstream_packages.sh, test_header_tls.py).
TVM_FFI_DOWNSTREAM_ORCJIT_VERSION="0.1.3"

# The per-version checks: the abi3 wheel runs on each of these Pythons found
# (check_abi3.sh), a regular wheel is built and run on each of the older ones found
# (check_old_pythons.sh). The main test run covers the default python3.
TVM_FFI_ABI3_PYTHONS="3.12 3.13 3.14 3.15"
TVM_FFI_OLD_PYTHONS="3.9 3.10"

# Frameworks the tests and the quick start install. numpy 2.5 exports ml_dtypes arrays through
# DLPack, which the refusal tests assume it does not.
TVM_FFI_TORCH_VERSION="2.13.0"
TVM_FFI_NUMPY_REQUIREMENT="numpy<2.5"

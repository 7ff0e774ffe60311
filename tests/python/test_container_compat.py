# SPDX-License-Identifier: Apache-2.0
"""Containers cross the ABI inline: code compiled against Apache's headers reads and builds
arrays and maps (docs/abi.md, 'Maps and dicts') that our runtime builds and reads.

The library tests/compat/container_lib.cc is compiled against each cached reference header set
(scripts/fetch_reference_wheels.sh) and loaded into this process, where our libtvm_ffi.so
is already the global runtime; a version whose wheel is not cached is skipped.
"""

from __future__ import annotations

import ctypes
import shutil
import subprocess
from pathlib import Path

import pytest
from pinned_versions import CONTAINER_COMPAT_VERSIONS
from reference_wheels import REPO_ROOT, require_reference

import tvm_ffi
from tvm_ffi import libinfo

pytestmark = pytest.mark.compiles

VERSIONS = ("ours", *CONTAINER_COMPAT_VERSIONS)
SIZES = (0, 1, 3, 4, 5, 8, 17, 100, 1000)


def _include_dir(version: str) -> Path:
    if version == "ours":
        return Path(libinfo.find_include_path())
    return require_reference(version) / "include"


@pytest.fixture(scope="module", params=VERSIONS)
def container_lib(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict:
    version = request.param
    include = _include_dir(version)
    if shutil.which("g++") is None:
        pytest.skip("g++ is not available")
    out = tmp_path_factory.mktemp(f"containerlib-{version}") / "libcontainer_compat.so"
    libdir = str(Path(libinfo.find_libtvm_ffi()).parent)
    cmd = ["g++", "-std=c++17", "-O1", "-shared", "-fPIC", f"-I{include}"]
    cmd += [str(REPO_ROOT / "tests" / "compat" / "container_lib.cc"), f"-L{libdir}", "-ltvm_ffi"]
    subprocess.run([*cmd, "-o", str(out)], check=True)
    lib = ctypes.CDLL(str(out))
    names = ("array_sum", "make_array", "map_get", "map_count_iterated", "make_map")
    funcs = {
        name: tvm_ffi.Function.__from_extern_c__(
            ctypes.cast(getattr(lib, f"__tvm_ffi_{name}"), ctypes.c_void_p).value,
            keep_alive_object=lib,
        )
        for name in names
    }
    return funcs


@pytest.mark.parametrize("size", SIZES)
def test_library_reads_maps_built_by_our_runtime(container_lib: dict, size: int) -> None:
    our_map = tvm_ffi.Map({f"key{i}": i for i in range(size)})
    assert container_lib["map_count_iterated"](our_map) == size
    for i in range(size):
        assert container_lib["map_get"](our_map, f"key{i}") == i


@pytest.mark.parametrize("size", SIZES)
def test_our_runtime_reads_maps_built_by_the_library(container_lib: dict, size: int) -> None:
    their_map = container_lib["make_map"](size)
    assert len(their_map) == size
    assert [key for key in their_map] == [f"key{i}" for i in range(size)]
    for i in range(size):
        assert their_map[f"key{i}"] == i
    assert f"key{size}" not in their_map


def test_missing_key_from_library_lookup_is_key_error(container_lib: dict) -> None:
    with pytest.raises(KeyError):
        container_lib["map_get"](tvm_ffi.Map({"a": 1, "b": 2, "c": 3, "d": 4, "e": 5}), "zzz")


@pytest.mark.parametrize("size", SIZES)
def test_library_reads_arrays_built_by_our_runtime(container_lib: dict, size: int) -> None:
    assert container_lib["array_sum"](tvm_ffi.Array(list(range(size)))) == sum(range(size))


@pytest.mark.parametrize("size", SIZES)
def test_our_runtime_reads_arrays_built_by_the_library(container_lib: dict, size: int) -> None:
    assert list(container_lib["make_array"](size)) == list(range(size))

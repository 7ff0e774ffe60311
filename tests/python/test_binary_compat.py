# SPDX-License-Identifier: Apache-2.0
"""Binary compatibility with Apache TVM FFI: libraries built on one side run on the other's runtime.

The sources live in tests/compat/. Each case compiles a C++ kernel library, a pure-C library and
a C-API-only host (driver.cc) with plain g++/gcc command lines, then runs the host with
LD_LIBRARY_PATH naming one runtime directory, so that every DT_NEEDED libtvm_ffi.so resolves to
that runtime. Apache's wheels come from scripts/fetch_reference_wheels.sh; a case whose wheel is
not in the cache is skipped offline and fails in CI (reference_wheels.py).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from pinned_versions import CUSTOM_ALLOCATOR_VERSION, REFERENCE_VERSIONS
from reference_wheels import REPO_ROOT, missing_reference, reference_root

from tvm_ffi import libinfo

pytestmark = pytest.mark.compiles

COMPAT_DIR = REPO_ROOT / "tests" / "compat"
VERSIONS = REFERENCE_VERSIONS
# The module_* entries below follow the stable-C host path: ffi.Module.load_from_file.so, then
# ffi.ModuleGetFunction (docs/abi.md, 'Loading a library').

# What driver.cc prints when everything behaves; version_patch and runtime depend on the side.
EXPECTED = {
    "add_one": "42",
    "add_one_bad_arg": (
        "ERROR TypeError: Mismatched type on argument #0 when calling: "
        "`add_one(0: int) -> int`. Expected `int` but got `const char*`"
    ),
    "add_one_bool": "2",
    "greet": "hello, compat",
    "greet_small_str": "hello, tiny",
    "check_positive_ok": "5",
    "check_positive_error": "ERROR ValueError: expected a positive value, got -3",
    "runtime_str_type_key": "ffi.String",
    "greet_runtime_str": "hello, a runtime-owned string",
    "callback": "20",
    "callback_error": "ERROR RuntimeError: callback failed",
    "object_type_key": "compat.MyObj",
    "object_parent": "ffi.Object",
    "object_is_dynamic": "yes",
    "object_index_by_key": "match",
    "object_field": "7",
    "object_value": "7",
    "object_value_wrong_type": "ERROR TypeError: expected 'compat.MyObj'",
    "global_mul": "42",
    "c_add": "5",
    "c_add_error": "ERROR TypeError: c_add() expects two ints",
}
# The driver's module_* lines: the library loaded again through the runtime's own loader.
MODULE_EXPECTED = {
    "module_type_key": "ffi.Module",
    "module_add_one": "42",
    "module_no_such_function": "None",
}


@dataclass(frozen=True)
class Side:
    """One implementation: a header set and the runtime directory holding libtvm_ffi.so."""

    name: str
    include_dirs: tuple[str, ...]
    lib_dir: str

    @property
    def runtime(self) -> str:
        return os.path.realpath(os.path.join(self.lib_dir, "libtvm_ffi.so"))

    def version_patch(self) -> str:
        header = Path(self.include_dirs[0]) / "tvm" / "ffi" / "c_api.h"
        text = header.read_text(encoding="utf-8")
        return re.search(r"#define\s+TVM_FFI_VERSION_PATCH\s+(\d+)", text).group(1)


def _ours() -> Side:
    includes = (libinfo.find_include_path(), libinfo.find_dlpack_include_path())
    return Side("ours", includes, os.path.dirname(libinfo.find_libtvm_ffi()))


def _apache(version: str) -> Side | None:
    root = reference_root(version)
    if root is None:
        return None
    return Side(version, (str(root / "include"),), str(root / "lib"))


# target -> (compiler, source in tests/compat, output, (flags before, flags after the sources))
RECIPES = {
    "lib": ("g++", "compat_lib.cc", "libcompat.so", (["-std=c++17", "-shared"], [])),
    "clib": ("gcc", "compat_c_lib.c", "libcompat_c.so", (["-std=c11", "-shared"], [])),
    "driver": ("g++", "driver.cc", "driver", (["-std=c++17"], ["-ldl"])),
}


class CompileError(Exception):
    """A compat source did not build; the message carries the command and compiler output."""


class Builds:
    """Compiles the compat sources for each side in a thread pool; targets resolve lazily."""

    def __init__(self, out_dir: Path, executor: ThreadPoolExecutor) -> None:
        self._out_dir = out_dir
        self._executor = executor
        self._futures: dict[str, Future[str]] = {}

    def submit_side(self, side: Side) -> None:
        """Queue every recipe built with this side's headers and linked to its runtime."""
        for target, (compiler, source, output, flags) in RECIPES.items():
            out = self._out_dir / side.name / output
            out.parent.mkdir(parents=True, exist_ok=True)
            cmd = [compiler, *flags[0], "-O1", "-fPIC", *(f"-I{d}" for d in side.include_dirs)]
            cmd += [str(COMPAT_DIR / source), f"-L{side.lib_dir}", "-ltvm_ffi", *flags[1]]
            cmd += ["-o", str(out)]
            self._futures[f"{side.name}/{target}"] = self._executor.submit(_compile, cmd, str(out))

    def get(self, side: Side, target: str) -> str:
        """Path of a built target; raises CompileError if it failed to build."""
        return self._futures[f"{side.name}/{target}"].result()


def _compile(cmd: list[str], out: str) -> str:
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=False)
    if proc.returncode != 0:
        raise CompileError(f"{' '.join(cmd)}\n{proc.stdout}{proc.stderr}")
    return out


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Builds]:
    for tool in ("g++", "gcc"):
        if shutil.which(tool) is None:
            pytest.skip(f"binary compat tests need the system compiler '{tool}'")
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as executor:
        result = Builds(tmp_path_factory.mktemp("binary_compat"), executor)
        result.submit_side(_ours())
        for version in VERSIONS:
            side = _apache(version)
            if side is not None:
                result.submit_side(side)
        yield result


def _require_apache(version: str) -> Side:
    side = _apache(version)
    if side is None:
        missing_reference(version)
    return side


def _run_driver(driver: str, lib_side: Side, builds: Builds, runtime: Side) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LD_LIBRARY_PATH", "LD_PRELOAD")}
    env["LD_LIBRARY_PATH"] = runtime.lib_dir
    libs = [builds.get(lib_side, "lib"), builds.get(lib_side, "clib")]
    proc = subprocess.run(
        [driver, *libs], env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert proc.returncode == 0, f"driver exited with {proc.returncode}\n{proc.stdout}{proc.stderr}"
    observed = dict(line.split("=", 1) for line in proc.stdout.splitlines())
    observed["runtime"] = ",".join(os.path.realpath(p) for p in observed["runtime"].split(","))
    return observed


def _core(observed: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in observed.items() if not k.startswith("module_")}


def _module(observed: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in observed.items() if k.startswith("module_")}


def _expected(runtime: Side) -> dict[str, str]:
    return {**EXPECTED, "version_patch": runtime.version_patch(), "runtime": runtime.runtime}


def test_our_headers_on_our_runtime(builds: Builds) -> None:
    ours = _ours()
    observed = _run_driver(builds.get(ours, "driver"), ours, builds, runtime=ours)
    assert _core(observed) == _expected(ours)


@pytest.mark.parametrize("version", VERSIONS)
def test_apache_headers_on_our_runtime(builds: Builds, version: str) -> None:
    apache, ours = _require_apache(version), _ours()
    observed = _run_driver(builds.get(ours, "driver"), apache, builds, runtime=ours)
    assert _core(observed) == _expected(ours)


@pytest.mark.parametrize("version", VERSIONS)
def test_our_headers_on_apache_runtime(builds: Builds, version: str) -> None:
    apache, ours = _require_apache(version), _ours()
    observed = _run_driver(builds.get(apache, "driver"), ours, builds, runtime=apache)
    assert _core(observed) == _expected(apache)


@pytest.mark.parametrize("headers", ("ours", *VERSIONS))
def test_module_loader_on_our_runtime(builds: Builds, headers: str) -> None:
    ours = _ours()
    lib_side = ours if headers == "ours" else _require_apache(headers)
    observed = _run_driver(builds.get(ours, "driver"), lib_side, builds, runtime=ours)
    assert _module(observed) == MODULE_EXPECTED


@pytest.mark.parametrize("version", VERSIONS)
def test_module_loader_on_apache_runtime(builds: Builds, version: str) -> None:
    apache, ours = _require_apache(version), _ours()
    observed = _run_driver(builds.get(apache, "driver"), ours, builds, runtime=apache)
    assert _module(observed) == MODULE_EXPECTED


def test_custom_allocator_library_imports_the_custom_allocator(builds: Builds) -> None:
    # Guards that case above: it only exercises the allocator hook if the import is there.
    nm = shutil.which("nm")
    if nm is None:
        pytest.skip("binutils 'nm' is not installed")
    library = builds.get(_require_apache(CUSTOM_ALLOCATOR_VERSION), "lib")
    proc = subprocess.run(
        [nm, "-D", "--undefined-only", library], capture_output=True, text=True, check=True
    )
    assert "TVMFFIGetCustomAllocator" in proc.stdout

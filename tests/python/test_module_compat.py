# SPDX-License-Identifier: Apache-2.0
"""C++ module compatibility with Apache TVM FFI: ModuleObj's vtable and the C++ class layouts.

``tests/compat/module_lib.cc`` defines a module class that overrides every ``ModuleObj`` virtual
and a tensor kernel; ``tests/compat/module_host.cc`` is a quick-start style C++ host that loads
the library with ``Module::LoadFromFile`` and calls every virtual. Each is built against our
headers and against Apache's, and every mix runs on every runtime, so a vtable slot out of place,
a class of the wrong size or a C++ symbol one runtime lacks fails here.
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from pinned_versions import MATCHED_VERSION, MODULE_LAYOUT_VERSIONS
from reference_wheels import REPO_ROOT, missing_reference, reference_root

import tvm_ffi
from tvm_ffi import libinfo

pytestmark = pytest.mark.compiles

COMPAT_DIR = REPO_ROOT / "tests" / "compat"
# The releases whose C++ layouts (Optional, ModuleObj) ours matches.
VERSIONS = MODULE_LAYOUT_VERSIONS

EXPECTED = {
    "lib_kind": "library",
    "lib_mask": "3",
    "lib_implements_add_one": "yes",
    "lib_implements_missing": "no",
    "lib_missing_function": "None",
    "counter_kind": "compat_counter",
    "counter_mask": "5",
    "counter_triple": "42",
    "counter_missing": "None",
    "counter_implements": "yes",
    "counter_doc": "Multiplies its argument by three; a docstring longer than a small string.",
    "counter_metadata": '{"n":1}',
    "counter_no_doc": "None",
    "counter_written": "counter as txt",
    "counter_formats": "txt,counter",
    "counter_saved": "7:saved",
    "counter_source": "source in c",
    "counter_imports": "1",
    "counter_via_imports": "found",
    "counter_doc_via_imports": (
        "Multiplies its argument by three; a docstring longer than a small string."
    ),
    "counter_imports_cleared": "0",
    "counter_override_calls": "11",
    "counter_fail": "ValueError: fail got 5",
    "add_one": "1.00,2.50,4.00,5.50",
}


@dataclass(frozen=True)
class Side:
    """One implementation: its header directories and the directory holding libtvm_ffi.so."""

    name: str
    include_dirs: tuple[str, ...]
    lib_dir: str


def _ours() -> Side:
    includes = (libinfo.find_include_path(), libinfo.find_dlpack_include_path())
    return Side("ours", includes, os.path.dirname(libinfo.find_libtvm_ffi()))


def _side(name: str) -> Side | None:
    if name == "ours":
        return _ours()
    root = reference_root(name)
    return None if root is None else Side(name, (str(root / "include"),), str(root / "lib"))


def _require(name: str) -> Side:
    side = _side(name)
    if side is None:
        missing_reference(name)
    return side


def _compile(side: Side, source: str, output: Path, shared: bool) -> Path:
    cmd = ["g++", "-std=c++17", "-O1", "-Wall", "-fPIC", *(["-shared"] if shared else [])]
    cmd += [f"-I{d}" for d in side.include_dirs]
    cmd += [str(COMPAT_DIR / source), f"-L{side.lib_dir}", "-ltvm_ffi", "-o", str(output)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, f"{' '.join(cmd)}\n{proc.stdout}{proc.stderr}"
    return output


class Builds:
    """Builds module_lib.so and module_host with one side's headers on first use, once."""

    def __init__(self, out_dir: Path) -> None:
        self._out_dir = out_dir
        self._done: dict[tuple[str, str], Path] = {}

    def __getitem__(self, key: tuple[str, str]) -> Path:
        if key not in self._done:
            side_name, kind = key
            side = _require(side_name)
            if kind == "lib":
                output = self._out_dir / f"module_lib_{side_name}.so"
                self._done[key] = _compile(side, "module_lib.cc", output, shared=True)
            else:
                output = self._out_dir / f"module_host_{side_name}"
                self._done[key] = _compile(side, "module_host.cc", output, shared=False)
        return self._done[key]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Builds:
    """The module library and host of each side, built with that side's headers."""
    if shutil.which("g++") is None:
        pytest.skip("module compat tests need the system compiler 'g++'")
    return Builds(tmp_path_factory.mktemp("module_compat"))


def _run_host(host: Path, lib: Path, runtime: Side, scratch: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LD_LIBRARY_PATH", "LD_PRELOAD")}
    # Bind every symbol at load time: a C++ entry point the runtime lacks fails at once.
    env.update(LD_LIBRARY_PATH=runtime.lib_dir, LD_BIND_NOW="1")
    proc = subprocess.run(
        [str(host), str(lib), str(scratch)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, f"host exited with {proc.returncode}\n{proc.stdout}{proc.stderr}"
    return dict(line.split("=", 1) for line in proc.stdout.splitlines())


# Every mix of header sets for the host and the library, on every runtime, that involves us.
_MIXES = [
    mix
    for mix in itertools.product(("ours", *VERSIONS), repeat=3)
    if "ours" in mix or mix == (MATCHED_VERSION,) * 3
]


@pytest.mark.parametrize(
    ("host_side", "lib_side", "runtime_side"),
    _MIXES,
    ids=[f"host-{h}-lib-{lib}-runtime-{r}" for h, lib, r in _MIXES],
)
def test_module_virtuals_across_runtimes(
    built: Builds,
    tmp_path: Path,
    host_side: str,
    lib_side: str,
    runtime_side: str,
) -> None:
    for name in {host_side, lib_side, runtime_side}:
        _require(name)
    runtime = _require(runtime_side)
    observed = _run_host(
        built[(host_side, "host")], built[(lib_side, "lib")], runtime, tmp_path / "scratch.txt"
    )
    assert observed == EXPECTED


@pytest.mark.parametrize("version", VERSIONS)
def test_cxx_layouts_are_the_reference_layouts(tmp_path: Path, version: str) -> None:
    """The sizes pinned in cxx_layout.h (checked on ours by test_cxx_layout.cc) are Apache's."""
    side = _require(version)
    probe = tmp_path / "probe.cc"
    probe.write_text(f'#include "{COMPAT_DIR / "cxx_layout.h"}"\n', encoding="utf-8")
    cmd = ["g++", "-std=c++17", "-fsyntax-only", *(f"-I{d}" for d in side.include_dirs), str(probe)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr


_NM_LINE = re.compile(r"^\s*(?:[0-9a-fA-F]+\s+)?[A-Za-z]\s+(.+)$")


def _cxx_symbols(path: Path, *flags: str) -> set[str]:
    """Demangled dynamic symbol names of an ELF file (``nm -D -C`` with ``flags``)."""
    proc = subprocess.run(
        ["nm", "-D", "-C", *flags, str(path)], capture_output=True, text=True, check=True
    )
    return {m.group(1) for m in map(_NM_LINE.match, proc.stdout.splitlines()) if m}


@pytest.mark.parametrize("version", VERSIONS)
def test_our_headers_import_only_what_the_reference_exports(built: Builds, version: str) -> None:
    """A host or library built with our headers runs on Apache's runtime: every C++ symbol of
    tvm::ffi it imports, the reference runtime exports."""
    side = _require(version)
    exported = _cxx_symbols(Path(side.lib_dir) / "libtvm_ffi.so", "--defined-only")
    for kind in ("host", "lib"):
        imported = _cxx_symbols(built[("ours", kind)], "--undefined-only")
        wanted = {name for name in imported if "tvm::ffi::" in name}
        assert wanted, f"the {kind} should import some C++ entry points of the runtime"
        assert wanted <= exported, f"{kind} imports what {version} lacks: {wanted - exported}"


@pytest.mark.parametrize("lib_side", ["ours", *VERSIONS])
def test_python_calls_a_client_module_class(built: Builds, tmp_path: Path, lib_side: str) -> None:
    """Our Python package drives a module class compiled against either header set."""
    _require(lib_side)
    lib = tvm_ffi.load_module(built[(lib_side, "lib")])
    counter = lib.make_counter_module()
    assert isinstance(counter, tvm_ffi.Module)
    assert counter.kind == "compat_counter"
    assert counter.get_property_mask() == 5
    assert counter.is_binary_serializable() and counter.is_compilation_exportable()
    assert counter.get_function("triple")(5) == 15
    assert counter.implements_function("triple")
    assert not counter.implements_function("missing")
    assert counter.get_function_doc("triple") == EXPECTED["counter_doc"]
    assert counter.get_function_metadata("triple") == {"n": 1}
    assert counter.get_function_doc("fail") is None
    formats = counter.get_write_formats()
    assert isinstance(formats, tvm_ffi.Array)  # as Apache returns it
    assert list(formats) == ["txt", "counter"]
    assert counter.inspect_source("py") == "source in py"
    target = tmp_path / "out.txt"
    counter.write_to_file(str(target), "bin")
    assert target.read_text(encoding="utf-8") == "counter as bin"
    counter.import_module(lib)
    assert len(counter.imports) == 1
    assert counter.get_function("add_one", query_imports=True) is not None
    counter.clear_imports()
    assert len(counter.imports) == 0
    assert lib.counter_calls(counter) == 11
    with pytest.raises(ValueError, match="fail got 3"):
        counter.get_function("fail")(3)

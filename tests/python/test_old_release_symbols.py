# SPDX-License-Identifier: Apache-2.0
"""Binaries built against any 0.1.x release load on our runtime.

Every C symbol and every tvm::ffi C++ symbol that some release's libtvm_ffi.so exports (read with
``nm -D``) is exported by ours, or is listed with its reason in
tests/compat/old_release_symbols_omitted.txt. The C++ names that a later release changed are kept
as forwarding aliases (old_releases.ALIASES); a library built against each release that uses one
is loaded into this process, where our runtime serves it. The releases are
TVM_FFI_RELEASE_HISTORY_VERSIONS in scripts/versions.sh, fetched by
scripts/fetch_reference_wheels.sh; one not in the cache is skipped offline and fails in CI.
"""

from __future__ import annotations

import functools
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest
from old_releases import ALIASES, HISTORY_VERSIONS, alias_releases, expand_releases
from pinned_versions import REFERENCE_VERSIONS
from reference_wheels import REPO_ROOT, require_reference

import tvm_ffi
from tvm_ffi import libinfo

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ELF checks need Linux"),
    pytest.mark.skipif(shutil.which("nm") is None, reason="binutils 'nm' is not installed"),
]

OMITTED_FILE = REPO_ROOT / "tests" / "compat" / "old_release_symbols_omitted.txt"
LIBRARY_SOURCE = REPO_ROOT / "tests" / "compat" / "old_release_lib.cc"
# Symbols the linker defines in every shared library.
_LINKER_SYMBOLS = frozenset({"_init", "_fini", "_edata", "_end", "__bss_start"})
# A mangled name in namespace tvm::ffi, also as vtable/typeinfo, thunk, guard or local static.
_TVM_FFI_CXX = re.compile(r"^_Z(?:T[VIS]|GV|Th\d+_|Tv\d+_n?\d+_)*Z?NK?3tvm3ffi")
_OMISSION_KINDS = ("unique-static", "internal")


def _defined_exports(library: Path) -> dict[str, str]:
    """Each dynamic symbol ``library`` defines -> its ``nm`` type letter."""
    cmd = ["nm", "-D", "--defined-only", str(library)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    symbols = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3:
            symbols[parts[2].split("@", 1)[0]] = parts[1]
    return symbols


def _undefined_imports(library: Path) -> set[str]:
    cmd = ["nm", "-D", "--undefined-only", str(library)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return {line.split()[-1].split("@", 1)[0] for line in out.splitlines() if line.strip()}


def _in_scope(name: str) -> bool:
    """A C symbol, or a C++ one of namespace tvm::ffi (std:: instantiations every user emits)."""
    if name.startswith("_Z"):
        return _TVM_FFI_CXX.match(name) is not None
    return name not in _LINKER_SYMBOLS


def _demangle(names: list[str]) -> list[str]:
    if shutil.which("c++filt") is None or not names:
        return names
    text = "\n".join(names)
    return subprocess.run(
        ["c++filt"], input=text, check=True, capture_output=True, text=True
    ).stdout.splitlines()


@functools.cache
def _release_exports(version: str) -> dict[str, str]:
    return _defined_exports(require_reference(version) / "lib" / "libtvm_ffi.so")


@functools.cache
def _our_exports() -> frozenset[str]:
    return frozenset(_defined_exports(Path(libinfo.find_libtvm_ffi())))


class Omission(NamedTuple):
    """One entry of the omission list."""

    symbol: str
    releases: tuple[str, ...]
    kind: str
    reason: str


def _omissions() -> list[Omission]:
    entries = []
    for line in OMITTED_FILE.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        symbol, releases, why = (field.strip() for field in line.split("|", 2))
        kind, _, reason = why.partition(":")
        entries.append(Omission(symbol, expand_releases(releases), kind.strip(), reason.strip()))
    return entries


def _header_text(version: str) -> str:
    include = require_reference(version) / "include"
    return "\n".join(p.read_text(errors="replace") for p in include.rglob("*") if p.is_file())


def _entity_name(demangled: str) -> str:
    """The function or variable a demangled symbol names: ``a::B::f(int)::x`` -> ``f``."""
    return demangled.split("(", 1)[0].rsplit("::", maxsplit=1)[-1].split("<", 1)[0]


def test_history_covers_the_references() -> None:
    assert set(REFERENCE_VERSIONS) <= set(HISTORY_VERSIONS)
    assert len(set(HISTORY_VERSIONS)) == len(HISTORY_VERSIONS)


@pytest.mark.parametrize("version", HISTORY_VERSIONS)
def test_release_exports_are_ours_or_omitted(version: str) -> None:
    listed = {o.symbol for o in _omissions() if version in o.releases}
    theirs = {name for name in _release_exports(version) if _in_scope(name)}
    missing = sorted(theirs - _our_exports() - listed)
    shown = [f"{m} ({d})" for m, d in zip(missing, _demangle(missing))]
    assert not shown, f"exported by {version}, not by ours, not omitted:\n" + "\n".join(shown)


def test_omission_list_is_sorted_and_unique() -> None:
    symbols = [o.symbol for o in _omissions()]
    assert symbols == sorted(set(symbols))


@pytest.mark.parametrize("omission", _omissions(), ids=lambda o: o.symbol)
def test_omission_is_exact(omission: Omission) -> None:
    assert omission.kind in _OMISSION_KINDS, f"unknown kind '{omission.kind}'"
    assert omission.reason, "an omission needs a reason"
    assert omission.symbol not in _our_exports(), "ours exports it: drop it from the list"
    exporters = tuple(v for v in HISTORY_VERSIONS if omission.symbol in _release_exports(v))
    assert exporters == omission.releases
    if omission.kind == "unique-static":
        # Every library that uses the inline function defines its own copy; none imports it.
        assert {_release_exports(v)[omission.symbol] for v in exporters} == {"u"}
    else:
        name = _entity_name(_demangle([omission.symbol])[0])
        assert all(name not in _header_text(v) for v in exporters), f"{name} is in the headers"


@pytest.mark.parametrize("symbol", sorted(ALIASES))
def test_alias_serves_exactly_its_releases(symbol: str) -> None:
    assert symbol in _our_exports()
    exporters = tuple(v for v in HISTORY_VERSIONS if symbol in _release_exports(v))
    assert exporters == expand_releases(ALIASES[symbol])


@pytest.fixture(scope="module")
def stringify() -> tvm_ffi.Function:
    return tvm_ffi.get_global_func("ffi.json.Stringify")


def _build_library(version: str, out: Path) -> Path:
    """Build old_release_lib.cc as a user of ``version`` did: its headers, linked to its runtime."""
    if shutil.which("g++") is None:
        pytest.skip("g++ is not available")
    root = require_reference(version)
    cmd = ["g++", "-std=c++17", "-O1", "-shared", "-fPIC", f"-I{root / 'include'}"]
    cmd += [str(LIBRARY_SOURCE), f"-L{root / 'lib'}", "-ltvm_ffi", "-Wl,-z,now", "-o", str(out)]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, f"{' '.join(cmd)}\n{proc.stdout}{proc.stderr}"
    return out


VALUES = [
    {"name": "compat", "sizes": [1, 2, 3], "nested": {"ok": True, "none": None}},
    [1.5, "two", [], {}],
]


@pytest.mark.compiles
@pytest.mark.parametrize("version", alias_releases())
def test_release_library_runs_on_ours(
    version: str, tmp_path: Path, stringify: tvm_ffi.Function
) -> None:
    library = _build_library(version, tmp_path / "libold_release.so")
    expected = {s for s, spec in ALIASES.items() if version in expand_releases(spec)}
    assert expected <= _undefined_imports(library), "the library does not call the aliases"
    module = tvm_ffi.load_module(str(library))
    for value in VALUES:
        compact = module.stringify_default(value)
        assert compact == stringify(value, None)
        assert json.loads(compact) == value
        assert module.stringify_indent(value, False, 7) == compact
        for indent in (1, 2, 4):
            text = module.stringify_indent(value, True, indent)
            assert text == stringify(value, indent)
            assert text != compact
            assert json.loads(text) == value
    with pytest.raises(ValueError, match="key"):
        module.stringify_default({1: "an int key"})

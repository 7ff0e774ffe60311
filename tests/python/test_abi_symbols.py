# SPDX-License-Identifier: Apache-2.0
"""Check the dynamic symbols and SONAME of the installed ``libtvm_ffi.so``.

The expected C exports are listed in ``exported_symbols.txt``: the C functions of ``c_api.h``
and ``c_env_api.h``, the symbol list of Apache TVM FFI 0.1.15 (docs/abi.md, 'Versioning and
compatibility').
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest
from old_releases import ALIASES
from pinned_versions import MATCHED_VERSION
from reference_wheels import require_reference

import tvm_ffi.libinfo

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ELF checks need Linux"),
    pytest.mark.skipif(shutil.which("readelf") is None, reason="readelf (binutils) not found"),
]

_EXPECTED_FILE = Path(__file__).with_name("exported_symbols.txt")
# Linker-provided symbols that are not part of our API.
_LINKER_SYMBOLS = frozenset({"_init", "_fini", "_edata", "_end", "__bss_start"})
_EXPORT_BINDS = frozenset({"GLOBAL", "WEAK"})
_EXPORT_TYPES = frozenset({"FUNC", "OBJECT"})
# Demangler prefixes for compiler-generated entities; the entity name follows them.
_SPECIAL_PREFIXES = (
    "typeinfo name for ",
    "typeinfo for ",
    "vtable for ",
    "construction vtable for ",
    "VTT for ",
    "guard variable for ",
    "non-virtual thunk to ",
    "virtual thunk to ",
    "covariant return thunk to ",
    "transaction clone for ",
)
_REFERENCE_TEMPORARY = re.compile(r"^reference temporary #\d+ for ")


class DynSymbol(NamedTuple):
    """One row of ``readelf --dyn-syms`` output."""

    raw_name: str
    sym_type: str
    bind: str
    defined: bool

    @property
    def name(self) -> str:
        """Return the symbol name without any ``@VER``/``@@VER`` version tag."""
        return self.raw_name.split("@", 1)[0]


def _readelf(*args: str, path: str | None = None) -> str:
    path = path or tvm_ffi.libinfo.find_libtvm_ffi()
    cmd = ["readelf", "-W", *args, path]
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def _dyn_symbols(path: str | None = None) -> list[DynSymbol]:
    symbols = []
    for line in _readelf("--dyn-syms", path=path).splitlines():
        parts = line.split()
        # Num: Value Size Type Bind Vis Ndx Name [(verindex)]
        if len(parts) < 8 or not parts[0].rstrip(":").isdigit():
            continue
        symbols.append(DynSymbol(parts[7], parts[3], parts[4], parts[6] != "UND"))
    return symbols


def _exported(symbols: list[DynSymbol], binds: frozenset[str]) -> list[DynSymbol]:
    return [s for s in symbols if s.defined and s.bind in binds and s.sym_type in _EXPORT_TYPES]


def _expected_names() -> set[str]:
    lines = _EXPECTED_FILE.read_text().splitlines()
    return {ln.strip() for ln in lines if ln.strip() and not ln.startswith("#")}


def _demangle(names: list[str]) -> list[str]:
    if shutil.which("c++filt") is None or not names:
        return names
    out = subprocess.run(
        ["c++filt"], input="\n".join(names), check=True, capture_output=True, text=True
    ).stdout
    return out.splitlines()


def _strip_special_prefixes(text: str) -> str:
    changed = True
    while changed:
        changed = False
        text, count = _REFERENCE_TEMPORARY.subn("", text)
        changed = count > 0
        for prefix in _SPECIAL_PREFIXES:
            if text.startswith(prefix):
                text, changed = text[len(prefix) :], True
    return text


def _drop_template_args(text: str) -> str:
    depth, kept = 0, []
    for ch in text:
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth = max(depth - 1, 0)
        elif depth == 0:
            kept.append(ch)
    return "".join(kept)


def _qualified_name(demangled: str) -> str:
    """Return the qualified entity name of a demangled symbol, without return type or params."""
    text = _strip_special_prefixes(demangled)
    text = text.split("operator", 1)[0]  # operator<< etc. would confuse the bracket counting
    text = _drop_template_args(text).split("(", 1)[0]
    tokens = text.split()
    return tokens[-1] if tokens else text


def _in_tvm_ffi_namespace(mangled: str, demangled: str) -> bool:
    if demangled == mangled:  # no demangler: fall back to the mangled nested-name prefix
        return re.match(r"^_Z(?:T[ISV]|GV|Th\d+_|Tv\d+_n?\d+_)*Z?NK?3tvm3ffi", mangled) is not None
    return _qualified_name(demangled).startswith("tvm::ffi::")


def test_c_exports_match_list():
    exported = _exported(_dyn_symbols(), _EXPORT_BINDS)
    c_names = {s.name for s in exported if not s.name.startswith("_Z")} - _LINKER_SYMBOLS
    expected = _expected_names()
    assert not expected - c_names, f"missing exports: {sorted(expected - c_names)}"
    assert not c_names - expected, f"unexpected C exports: {sorted(c_names - expected)}"


def test_expected_list_is_sorted_and_unique():
    lines = [ln for ln in _EXPECTED_FILE.read_text().splitlines() if not ln.startswith("#")]
    assert lines == sorted(set(lines))


def test_c_exports_have_no_version_tag():
    expected = _expected_names()
    tagged = sorted(s.raw_name for s in _dyn_symbols() if s.name in expected and "@" in s.raw_name)
    assert not tagged, f"versioned exports: {tagged}"


def test_soname_is_libtvm_ffi():
    sonames = re.findall(r"\(SONAME\)\s+Library soname: \[([^\]]*)\]", _readelf("-d"))
    assert sonames == ["libtvm_ffi.so"]


# What every Linux system has; anything else (libdw, say) would make the wheel fail to load.
_SYSTEM_LIBRARIES = re.compile(
    r"^(libc|libm|libdl|librt|libpthread|libstdc\+\+|libgcc_s|ld-linux-x86-64|ld-linux-aarch64)"
    r"\.so(\.\d+)*$"
)


def test_needs_only_system_libraries():
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]*)\]", _readelf("-d"))
    assert "libc.so.6" in needed
    assert [name for name in needed if not _SYSTEM_LIBRARIES.match(name)] == []


def test_cxx_exports_stay_in_tvm_ffi_namespace():
    binds = _EXPORT_BINDS | {"UNIQUE"}
    mangled = sorted({s.name for s in _exported(_dyn_symbols(), binds) if s.name.startswith("_Z")})
    demangled = _demangle(mangled)
    assert len(demangled) == len(mangled)
    leaked = [f"{m} ({d})" for m, d in zip(mangled, demangled) if not _in_tvm_ffi_namespace(m, d)]
    assert not leaked, "C++ symbols outside tvm::ffi exported:\n" + "\n".join(leaked)


def _api_exports(path: str | None = None) -> set[str]:
    """The C functions and the demangled tvm::ffi C++ entities a runtime exports.

    Unique (``u``) symbols are left out: they are the function-local statics of inline header
    functions (type index caches, their guards), which every library that uses them emits.
    """
    exported = _exported(_dyn_symbols(path), _EXPORT_BINDS)
    c_names = {s.name for s in exported if not s.name.startswith("_Z")} - _LINKER_SYMBOLS
    mangled = sorted({s.name for s in exported if s.name.startswith("_Z")})
    cxx = {d for m, d in zip(mangled, _demangle(mangled)) if _in_tvm_ffi_namespace(m, d)}
    return c_names | cxx


def test_exports_match_the_reference_runtime():
    """Every C function and C++ entry point the matched Apache release exports, ours exports too
    (C++ hosts link them), and ours exports no C++ entity of tvm::ffi that it lacks, apart from
    the old releases' signatures kept as aliases (test_old_release_symbols.py)."""
    reference = str(require_reference(MATCHED_VERSION) / "lib" / "libtvm_ffi.so")
    theirs, ours = _api_exports(reference), _api_exports() - set(_demangle(sorted(ALIASES)))
    assert sorted(theirs - ours) == []
    assert sorted(name for name in ours - theirs if not name.startswith("TVMFFI")) == []


@pytest.mark.parametrize(
    ("demangled", "ok"),
    [
        ("typeinfo for tvm::ffi::Error", True),
        ("vtable for tvm::ffi::ModuleObj", True),
        ("tvm::ffi::Module::LoadFromFile(tvm::ffi::String const&)", True),
        ("std::string tvm::ffi::details::Make<int>(int)", True),
        ("tvm::ffi::operator<<(std::ostream&, tvm::ffi::Any const&)", True),
        ("std::vector<tvm::ffi::Any, std::allocator<tvm::ffi::Any> >::~vector()", False),
        ("typeinfo for std::runtime_error", False),
        ("guard variable for std::pair<int, tvm::ffi::Any>::x", False),
    ],
)
def test_namespace_classifier(demangled, ok):
    assert _in_tvm_ffi_namespace("_Zdummy", demangled) is ok

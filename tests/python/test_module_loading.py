# SPDX-License-Identifier: Apache-2.0
"""What load_module checks before and while it loads a library: damaged or foreign files,
unresolved symbols and the ABI version the library was built with; and that loading one file
again reuses its pinned module."""

from __future__ import annotations

import ctypes
import os
import platform
import shutil
import struct
from pathlib import Path

import pytest
from library_build import SRC, compile_library

import tvm_ffi

# e_machine values and the names the loader reports for them.
EM_X86_64, EM_AARCH64 = 62, 183
MACHINE_NAMES = {EM_X86_64: "x86-64", EM_AARCH64: "AArch64"}


class _Version(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32), ("patch", ctypes.c_uint32)]


def runtime_version() -> tuple[int, int, int]:
    version = _Version()
    tvm_ffi.LIB.TVMFFIGetVersion(ctypes.byref(version))
    return (version.major, version.minor, version.patch)


def _abi_versions() -> dict[str, tuple[int, int, int]]:
    """Versions to fake: incompatible ones (another major; another minor in 0.X) and newer
    patch levels, which only add to the ABI."""
    major, minor, patch = runtime_version()
    versions = {
        "other_major": (major + 1, minor, patch),
        "newer_patch": (major, minor, patch + 50),
        "other_major_no_sections": (major + 1, minor, patch),
    }
    if major == 0:
        versions["other_minor"] = (0, minor + 1, 0)
    return versions


# Not marked `compiles`: the small C libraries build in a second, and how the loader treats them
# is what the sanitized runs are there to check.
@pytest.fixture(scope="module")
def libs(tmp_path_factory: pytest.TempPathFactory, config_script: str) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("loading_libs")

    def build(name: str, source: str, *defines: str) -> Path:
        return compile_library(config_script, [SRC / source], out / f"{name}.so", True, defines)

    built = {
        "plain": build("plain", "generated_c_lib.c"),
        "missing_symbol": build("missing_symbol", "undefined_symbol_lib.c", "WITH_MISSING_SYMBOL"),
        "optional_symbol": build("optional_symbol", "undefined_symbol_lib.c"),
    }
    for name, (major, minor, patch) in _abi_versions().items():
        defines = (f"ABI_MAJOR={major}", f"ABI_MINOR={minor}", f"ABI_PATCH={patch}")
        built[name] = build(name, "abi_version_lib.c", *defines, f'LOADED_MARKER="{name}"')
    return built


def ran_constructor(name: str) -> bool:
    """Whether the abi_version_lib built as ``name`` ran its code (it marks the environment)."""
    getenv = ctypes.CDLL(None).getenv
    getenv.restype = ctypes.c_char_p
    return getenv(f"TVM_FFI_TEST_LOADED_{name}".encode()) is not None


def patched_copy(source: Path, target: Path, offset: int, value: bytes) -> Path:
    data = bytearray(source.read_bytes())
    data[offset : offset + len(value)] = value
    target.write_bytes(bytes(data))
    return target


def last_segment_page(library: Path) -> int:
    """File offset of the page where the last PT_LOAD segment of a 64-bit little-endian ELF
    starts: cut there, the file lacks pages that dlopen maps."""
    data = library.read_bytes()
    (phoff,) = struct.unpack_from("<Q", data, 32)
    phentsize, phnum = struct.unpack_from("<HH", data, 54)
    starts = []
    for i in range(phnum):
        p_type, _, p_offset = struct.unpack_from("<IIQ", data, phoff + i * phentsize)
        if p_type == 1:  # PT_LOAD
            starts.append(p_offset)
    return max(starts) // 4096 * 4096


def test_truncated_library_is_rejected_before_loading(
    libs: dict[str, Path], tmp_path: Path, run_python
) -> None:
    source = libs["plain"]
    data = source.read_bytes()
    cut_headers = tmp_path / "cut_headers.so"
    cut_headers.write_bytes(data[:100])  # the program headers start at 64 and run past 100
    cut_segment = tmp_path / "cut_segment.so"
    cut = last_segment_page(source)
    cut_segment.write_bytes(data[:cut])
    # dlopen of such a file dies with SIGBUS: a subprocess keeps pytest alive if it does.
    code = (
        "import sys, tvm_ffi\n"
        "for path in sys.argv[1:]:\n"
        "    try:\n"
        "        tvm_ffi.load_module(path)\n"
        "        print('loaded')\n"
        "    except RuntimeError as error:\n"
        "        print(str(error).replace(chr(10), ' '))\n"
    )
    lines = run_python("-c", code, str(cut_headers), str(cut_segment)).stdout.splitlines()
    assert len(lines) == 2
    assert f"failed to load library '{cut_headers}'" in lines[0]
    assert "truncated or corrupt: the program header table" in lines[0]
    assert f"failed to load library '{cut_segment}'" in lines[1]
    assert "truncated or corrupt: segment" in lines[1]
    assert f"the file has {cut} bytes" in lines[1]


def test_library_for_another_machine(libs: dict[str, Path], tmp_path: Path) -> None:
    host = {"x86_64": EM_X86_64, "aarch64": EM_AARCH64}.get(platform.machine())
    if host is None:
        pytest.skip(f"no foreign machine chosen for host '{platform.machine()}'")
    foreign = EM_AARCH64 if host == EM_X86_64 else EM_X86_64
    library = patched_copy(libs["plain"], tmp_path / "foreign.so", 18, struct.pack("<H", foreign))
    expected = f"built for {MACHINE_NAMES[foreign]}, this process is {MACHINE_NAMES[host]}"
    with pytest.raises(RuntimeError, match=expected):
        tvm_ffi.load_module(library)


def test_library_of_another_class_or_byte_order(libs: dict[str, Path], tmp_path: Path) -> None:
    elf32 = patched_copy(libs["plain"], tmp_path / "elf32.so", 4, b"\x01")  # EI_CLASS
    with pytest.raises(RuntimeError, match="built for 32-bit ELF, this process is 64-bit"):
        tvm_ffi.load_module(elf32)
    big = patched_copy(libs["plain"], tmp_path / "big.so", 5, b"\x02")  # EI_DATA
    with pytest.raises(RuntimeError, match="built for big-endian, this process is little-endian"):
        tvm_ffi.load_module(big)


def test_unresolved_symbol_fails_at_load(libs: dict[str, Path]) -> None:
    # Loading lazily would succeed, and the first call would end the process.
    message = "undefined symbol 'tvm_ffi_test_function_nobody_defines'"
    with pytest.raises(RuntimeError, match=message):
        tvm_ffi.load_module(libs["missing_symbol"])


def test_weak_optional_symbol_still_loads(libs: dict[str, Path]) -> None:
    assert tvm_ffi.load_module(libs["optional_symbol"]).uses_symbols() == 0


def _version_text(version: tuple[int, int, int]) -> str:
    return ".".join(map(str, version))


@pytest.mark.parametrize("name", ["other_major", "other_minor"])
def test_incompatible_abi_is_refused_before_the_library_runs(
    libs: dict[str, Path], name: str
) -> None:
    if name not in libs:
        pytest.skip("a change of minor version breaks the ABI only in 0.X")
    built_with = _version_text(_abi_versions()[name])
    runtime = _version_text(runtime_version())
    with pytest.raises(ImportError) as info:
        tvm_ffi.load_module(libs[name])
    assert isinstance(info.value, RuntimeError)  # like every other load_module failure
    message = str(info.value)
    assert f"failed to load library '{libs[name]}'" in message
    assert f"built against tvm-ffi ABI {built_with}" in message
    assert f"this runtime is {runtime}" in message
    assert "rebuild" in message
    assert not ran_constructor(name)


def test_abi_is_checked_without_section_headers(libs: dict[str, Path], tmp_path: Path) -> None:
    # No section headers (e_shoff, e_shnum, e_shstrndx zeroed): the symbol is found after dlopen.
    source = libs["other_major_no_sections"]
    library = patched_copy(source, tmp_path / "no_sections.so", 40, b"\0" * 8)
    library = patched_copy(library, library, 60, b"\0" * 4)
    with pytest.raises(ImportError, match="built against tvm-ffi ABI"):
        tvm_ffi.load_module(library)


def test_newer_patch_level_loads(libs: dict[str, Path]) -> None:
    assert tvm_ffi.load_module(libs["newer_patch"]).answer() == 42
    assert ran_constructor("newer_patch")


def test_loading_again_reuses_the_pinned_module(libs: dict[str, Path], tmp_path: Path) -> None:
    use_count = tvm_ffi.get_global_func("testing.object_use_count")
    first = tvm_ffi.load_module(libs["plain"])
    baseline = use_count(first)
    for _ in range(1000):
        assert tvm_ffi.load_module(libs["plain"]).same_as(first)
    assert use_count(first) == baseline
    link = tmp_path / "link.so"
    os.symlink(libs["plain"], link)
    assert tvm_ffi.load_module(link).same_as(first)  # the same file under another name
    assert tvm_ffi.load_module(libs["plain"], keep_module_alive=False).same_as(first)
    copy = shutil.copy(libs["plain"], tmp_path / "copy.so")
    assert not tvm_ffi.load_module(copy).same_as(first)  # another file: another library

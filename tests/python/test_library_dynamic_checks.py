# SPDX-License-Identifier: Apache-2.0
"""load_module refuses, before the dynamic loader sees them, libraries whose segments overlap or
whose dynamic section sends the loader outside the file or the image (the loader would crash
on them), and libraries whose ABI version symbol is not the constant the headers define (its
value could not be trusted before the library's code runs)."""

from __future__ import annotations

import ctypes
import platform
import struct
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest
from library_build import SRC, compile_library

import tvm_ffi

PT_LOAD, PT_DYNAMIC = 1, 2
DT_NEEDED, DT_STRTAB, DT_SYMTAB, DT_RELA, DT_STRSZ, DT_SYMENT = 1, 5, 6, 7, 10, 11
DT_GNU_HASH, DT_VERSYM = 0x6FFFFEF5, 0x6FFFFFF0
PHDR, DYN, SYM, RELA = 56, 16, 24, 24  # entry sizes of a 64-bit ELF

pytestmark = pytest.mark.skipif(
    platform.machine() not in ("x86_64", "aarch64") or sys.byteorder != "little",
    reason="the crafted files are 64-bit little-endian ELF",
)


class Elf:
    """A 64-bit little-endian shared library, patched in place."""

    def __init__(self, data: bytes) -> None:
        self.data = bytearray(data)

    def program_headers(self) -> list[tuple[int, int, int, int, int]]:
        """(header offset, p_type, p_offset, p_vaddr, p_filesz) of each program header."""
        (phoff,) = struct.unpack_from("<Q", self.data, 32)
        (phnum,) = struct.unpack_from("<H", self.data, 56)
        headers = []
        for at in range(phoff, phoff + phnum * PHDR, PHDR):
            p_type, _, p_offset, p_vaddr, _, p_filesz = struct.unpack_from("<IIQQQQ", self.data, at)
            headers.append((at, p_type, p_offset, p_vaddr, p_filesz))
        return headers

    def offset_of(self, address: int) -> int:
        for _, p_type, p_offset, p_vaddr, p_filesz in self.program_headers():
            if p_type == PT_LOAD and p_vaddr <= address < p_vaddr + p_filesz:
                return p_offset + address - p_vaddr
        raise AssertionError(f"address {address:#x} is not in the file")

    def dynamic(self) -> dict[int, int]:
        """File offset of the value of each dynamic tag (the last entry of each)."""
        (dynamic,) = [h for h in self.program_headers() if h[1] == PT_DYNAMIC]
        at, entries = self.offset_of(dynamic[3]), {}
        while True:
            (tag,) = struct.unpack_from("<q", self.data, at)
            if tag == 0:
                return entries
            entries[tag] = at + 8
            at += DYN

    def value(self, tag: int) -> int:
        return struct.unpack_from("<Q", self.data, self.dynamic()[tag])[0]

    def put(self, offset: int, fmt: str, value: int) -> None:
        struct.pack_into(fmt, self.data, offset, value)

    def set_tag(self, tag: int, value: int) -> None:
        self.put(self.dynamic()[tag], "<Q", value)


def overlapping_segments(elf: Elf) -> None:
    loads = [h for h in elf.program_headers() if h[1] == PT_LOAD]
    elf.put(loads[1][0] + 16, "<Q", loads[0][3])  # the second one's p_vaddr


def dynamic_outside_the_file(elf: Elf) -> None:
    (dynamic,) = [h for h in elf.program_headers() if h[1] == PT_DYNAMIC]
    elf.put(dynamic[0] + 16, "<Q", 0x7FFF0000)


def needed_name_past_the_strings(elf: Elf) -> None:
    elf.set_tag(DT_NEEDED, elf.value(DT_STRSZ) + 1000)


def symbol_name_outside(elf: Elf) -> None:
    elf.put(elf.offset_of(elf.value(DT_SYMTAB)) + SYM, "<I", 0x7FFFFFF0)  # symbol 1's st_name


def relocation_outside(elf: Elf) -> None:
    elf.put(elf.offset_of(elf.value(DT_RELA)), "<Q", 0x7FFF0000)  # the first r_offset


def hash_table_without_buckets(elf: Elf) -> None:
    elf.put(elf.offset_of(elf.value(DT_GNU_HASH)), "<I", 0)


def version_index_past_the_versions(elf: Elf) -> None:
    elf.put(elf.offset_of(elf.value(DT_VERSYM)) + 2, "<H", 0x7FFF)  # symbol 1's version


DAMAGE: dict[str, tuple[Callable[[Elf], None], str]] = {
    "overlapping_segments": (overlapping_segments, "loadable segments 0 and 1 overlap"),
    "dynamic_outside_the_file": (dynamic_outside_the_file, "does not end (DT_NULL) inside"),
    "string_table_outside": (
        lambda elf: elf.set_tag(DT_STRTAB, 0x7FFF0000),
        "the dynamic string table at 0x7fff0000",
    ),
    "needed_name_past_the_strings": (needed_name_past_the_strings, "past the end of the string"),
    "symbol_name_outside": (symbol_name_outside, "dynamic symbol 1 names the string at offset"),
    "relocation_outside": (relocation_outside, "writes to 0x7fff0000, outside the library's image"),
    "symbol_entry_size": (lambda elf: elf.set_tag(DT_SYMENT, 16), "entries of 16 bytes"),
    "hash_table_without_buckets": (hash_table_without_buckets, "GNU symbol hash table"),
    "version_index_past_the_versions": (version_index_past_the_versions, "has version index 32767"),
}


@pytest.fixture(scope="module")
def plain_library(tmp_path_factory: pytest.TempPathFactory, config_script: str) -> Path:
    """A library with versioned symbols (it calls setenv) and a function add(a, b)."""
    out = tmp_path_factory.mktemp("dynamic_checks") / "plain.so"
    sources = [SRC / "generated_c_lib.c", SRC / "abi_symbol_kind_lib.c"]
    return compile_library(
        config_script, sources, out, True, ("SYMBOL_KIND=0", 'LOADED_MARKER="plain"')
    )


LOAD_ONE = """
import sys, tvm_ffi
try:
    tvm_ffi.load_module(sys.argv[1])
    print("loaded")
except RuntimeError as error:
    print(type(error).__name__, str(error).replace(chr(10), " "))
"""


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_damaged_dynamic_section_is_refused(
    plain_library: Path, tmp_path: Path, damage: str
) -> None:
    patch, expected = DAMAGE[damage]
    elf = Elf(plain_library.read_bytes())
    patch(elf)
    library = tmp_path / f"{damage}.so"
    library.write_bytes(bytes(elf.data))
    # Before these checks the loader crashed on such files: a child keeps pytest alive.
    result = subprocess.run(
        [sys.executable, "-c", LOAD_ONE, str(library)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert f"failed to load library '{library}'" in result.stdout
    assert "truncated or corrupt: " in result.stdout
    assert expected in result.stdout


def test_undamaged_library_loads(plain_library: Path) -> None:
    assert tvm_ffi.load_module(plain_library).add(2, 3) == 5


SYMBOL_KINDS = {
    1: "an object of 4 bytes",
    2: "an object of 64 bytes",
    3: "a function",
    4: "zero-filled data",
    5: "a thread-local variable",
    6: "writable data",
}


def ran_constructor(marker: str) -> bool:
    getenv = ctypes.CDLL(None).getenv
    getenv.restype = ctypes.c_char_p
    return getenv(f"TVM_FFI_TEST_LOADED_{marker}".encode()) is not None


@pytest.mark.parametrize("kind", sorted(SYMBOL_KINDS))
def test_abi_version_symbol_of_another_kind_is_refused(
    tmp_path: Path, config_script: str, kind: int
) -> None:
    marker = f"abi_symbol_kind_{kind}"
    library = compile_library(
        config_script,
        [SRC / "abi_symbol_kind_lib.c"],
        tmp_path / f"{marker}.so",
        True,
        (f"SYMBOL_KIND={kind}", f'LOADED_MARKER="{marker}"'),
    )
    with pytest.raises(ImportError) as info:
        tvm_ffi.load_module(library)
    message = str(info.value)
    assert f"failed to load library '{library}'" in message
    assert "its ABI version symbol '__tvm_ffi__abi_version' is " + SYMBOL_KINDS[kind] in message
    assert "it must be a constant TVMFFIVersion (12 bytes)" in message
    assert not ran_constructor(marker)

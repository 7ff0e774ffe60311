# SPDX-License-Identifier: Apache-2.0
"""Strip column positions from a code object's location table (CPython 3.11+).

Tracebacks underline the columns an instruction covers. The synthetic frames that stand for
native frames reuse a tiny compiled statement, so its columns have nothing to do with the C++
line the traceback shows; without columns, no carets are drawn. The table format is CPython's
(``InternalDocs/code_objects.md``, "Format of the locations table"): one entry per run of up to
8 code units, a header byte ``1kkkklll`` (kind ``k``, length ``l + 1``), then kind-specific
data. Kind 13 carries only a signed varint line delta; kind 15 means no location at all.
"""

from __future__ import annotations

_NO_COLUMNS = 13
_NO_LOCATION = 15
_LONG_FORM = 14
_ONE_LINE_FORMS = range(10, 13)  # line delta 0, 1 or 2, then two column bytes


def _read_varint(table: bytes, pos: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = table[pos]
        pos += 1
        value |= (byte & 63) << shift
        shift += 6
        if not byte & 64:
            return value, pos


def _read_svarint(table: bytes, pos: int) -> tuple[int, int]:
    value, pos = _read_varint(table, pos)
    return (-(value >> 1) if value & 1 else value >> 1), pos


def _svarint(value: int) -> bytes:
    value = ((-value) << 1) | 1 if value < 0 else value << 1
    out = bytearray()
    while value >= 64:
        out.append(64 | (value & 63))
        value >>= 6
    out.append(value)
    return bytes(out)


def _line_delta(kind: int, table: bytes, pos: int) -> tuple[int, int]:
    """Return the entry's line delta and the position after its data."""
    if kind in _ONE_LINE_FORMS:
        return kind - 10, pos + 2
    if kind == _NO_COLUMNS:
        return _read_svarint(table, pos)
    if kind == _LONG_FORM:
        delta, pos = _read_svarint(table, pos)
        for _ in range(3):  # end line delta, start column + 1, end column + 1
            _, pos = _read_varint(table, pos)
        return delta, pos
    return 0, pos + 1  # short forms 0-9: same line, one column byte


def without_columns(table: bytes) -> bytes:
    """Return ``table`` with every entry's columns dropped and its lines kept."""
    out = bytearray()
    pos = 0
    while pos < len(table):
        header = table[pos]
        pos += 1
        kind = (header >> 3) & 15
        if kind == _NO_LOCATION:
            out.append(header)
            continue
        delta, pos = _line_delta(kind, table, pos)
        out.append(0x80 | (_NO_COLUMNS << 3) | (header & 7))
        out += _svarint(delta)
    return bytes(out)

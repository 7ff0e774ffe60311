# SPDX-License-Identifier: Apache-2.0
"""Every exception message raised by the package has one form, or is listed as Apache's text.

The form is ``api(): what is wrong; expected x, got y``: the public callable first, then a
lower-case clause, no final period. Messages that must stay word for word as Apache TVM FFI
0.1.15.post2 (or CPython) writes them are listed in ``apache_messages.txt``; the sources are
scanned (``ast`` for ``.py``, string literals after ``raise Name(`` for ``.pxi``) and every
other literal message must have the form.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from pinned_messages import read_pinned

import tvm_ffi

REPO_ROOT = Path(__file__).resolve().parents[2]
PACKAGE_DIR = REPO_ROOT / "python" / "tvm_ffi"
PINNED_FILE = Path(__file__).with_name("apache_messages.txt")

# ``api(): `` then a clause that does not start with a capital letter and does not end in '.'.
# A formatted value is written ``{}``; a leading ``{}`` stands for an api name given by a caller.
FORM = re.compile(r"^(?:[A-Za-z_][\w.]*|\{\})(?:\.\w+)*\(\): (?![A-Z])\S(?:.|\n)*(?<!\.)$")
# Python literal strings, implicitly concatenated, right after ``raise Name(``.
PXI_RAISE = re.compile(
    r"raise\s+(?P<kind>_?[A-Z]\w*)\(\s*"
    r"(?P<literals>(?:[rfbu]{0,2}(?:\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*')\s*)+)[,)]"
)
PXI_FIELD = re.compile(r"\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}")


def _template_of(node: ast.expr) -> str | None:
    """The message of a string or f-string node, each formatted value written ``{}``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts = [v.value if isinstance(v, ast.Constant) else "{}" for v in node.values]
        return "".join(str(p) for p in parts)
    return None


def _py_messages(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
            continue
        call = node.exc
        name = ast.unparse(call.func).rsplit(".", 1)[-1]
        if call.args and name.lstrip("_")[:1].isupper():
            text = _template_of(call.args[0])
            if text is not None:
                found.append((node.lineno, text))
    return found


def _pxi_literal(literal: str) -> str:
    prefix, body = re.match(r"([rfbu]*)(.*)", literal, re.S).groups()
    text = ast.literal_eval(body)
    return PXI_FIELD.sub("{}", text) if "f" in prefix else text


def _pxi_messages(path: Path) -> list[tuple[int, str]]:
    source = path.read_text(encoding="utf-8")
    found = []
    for match in PXI_RAISE.finditer(source):
        literals = re.findall(
            r"[rfbu]{0,2}(?:\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*')", match["literals"]
        )
        line = source.count("\n", 0, match.start()) + 1
        found.append((line, "".join(_pxi_literal(lit) for lit in literals)))
    return found


def _all_messages() -> list[tuple[str, int, str]]:
    messages = []
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        messages += [(str(path.relative_to(PACKAGE_DIR)), n, t) for n, t in _py_messages(path)]
    for path in sorted(PACKAGE_DIR.rglob("*.pxi")):
        messages += [(str(path.relative_to(PACKAGE_DIR)), n, t) for n, t in _pxi_messages(path)]
    return messages


def _pinned() -> list[tuple[str, str]]:
    """(file, message prefix) pairs from apache_messages.txt."""
    return read_pinned(PINNED_FILE)


def test_scan_finds_the_messages() -> None:
    files = {file for file, _, _ in _all_messages()}
    assert len(_all_messages()) > 150
    assert {"registry.py", "cython/call.pxi", "cython/dlpack_import.pxi"} <= files


def test_every_pinned_message_still_exists() -> None:
    messages = _all_messages()
    stale = [
        (file, prefix)
        for file, prefix in _pinned()
        if not any(f == file and t.startswith(prefix) for f, _, t in messages)
    ]
    assert stale == [], "apache_messages.txt lists messages the sources no longer raise"


def test_every_message_has_the_form_or_is_pinned() -> None:
    pinned = _pinned()
    offenders = [
        f"{file}:{line}: {text!r}"
        for file, line, text in _all_messages()
        if not FORM.match(text) and not any(f == file and text.startswith(p) for f, p in pinned)
    ]
    assert offenders == [], "messages off the form:\n" + "\n".join(offenders)


@pytest.mark.parametrize(
    "text",
    [
        "Array.__getitem__(): index out of range; expected 0 <= index < 3, got 5",
        "from_dlpack(): the capsule was already consumed",
        "{}(): unknown device type code 99",
    ],
)
def test_form_accepts(text: str) -> None:
    assert FORM.match(text)


@pytest.mark.parametrize(
    "text",
    [
        "Array.__getitem__(): Index out of range",
        "from_dlpack(): the capsule was already consumed.",
        "from_dlpack: the capsule was already consumed",
        "the capsule was already consumed",
    ],
)
def test_form_rejects(text: str) -> None:
    assert not FORM.match(text)


def test_raised_register_object_message_has_the_form() -> None:
    with pytest.raises(TypeError) as info:
        tvm_ffi.register_object(3)
    assert FORM.match(str(info.value))
    assert str(info.value).startswith("register_object(): ")


def test_raised_load_module_message_has_the_form() -> None:
    with pytest.raises(TypeError) as info:
        tvm_ffi.load_module(b"lib.so")
    assert str(info.value) == "load_module(): expected a str or os.PathLike path, got 'bytes'"


def test_raised_map_message_names_the_python_class() -> None:
    with pytest.raises(TypeError) as info:
        tvm_ffi.Map(5)
    assert str(info.value) == "Map(): expected a mapping, got 'int'"

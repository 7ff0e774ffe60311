# SPDX-License-Identifier: Apache-2.0
"""The shipped core.pyi stub lists exactly the public names of the compiled core module."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import tvm_ffi
import tvm_ffi.core

IMPORTED_MODULES = {
    "abc",
    "atexit",
    "builtins",
    "collections",
    "ctypes",
    "dataclasses",
    "enum",
    "inspect",
    "json",
    "numbers",
    "os",
    "sys",
    "threading",
    "types",
    "typing",
    "warnings",
}
SENTINELS = {"MISSING", "KWARGS"}


def _stub_names() -> set[str]:
    stub = Path(inspect.getfile(tvm_ffi)).with_name("core.pyi")
    tree = ast.parse(stub.read_text())
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def _module_names() -> set[str]:
    return {
        name
        for name in dir(tvm_ffi.core)
        if not name.startswith("__") and name not in IMPORTED_MODULES
    }


def test_stub_matches_compiled_core() -> None:
    assert _stub_names() == _module_names()


def test_stub_classes_are_classes() -> None:
    for name in _stub_names():
        value = getattr(tvm_ffi.core, name)
        if name[0].isupper() and not name.startswith("ERROR") and name not in SENTINELS:
            assert isinstance(value, type), name

# SPDX-License-Identifier: Apache-2.0
"""tvm_ffi._ffi_api: the runtime's ``ffi.*`` global functions as module attributes."""

from __future__ import annotations

import tvm_ffi
from tvm_ffi import _ffi_api


def _one_level_ffi_names() -> list[str]:
    names = tvm_ffi.registry.list_global_func_names()
    return sorted(n[4:] for n in names if n.startswith("ffi.") and "." not in n[4:])


def test_every_one_level_ffi_function_is_an_attribute() -> None:
    names = _one_level_ffi_names()
    assert len(names) > 50
    for name in names:
        func = getattr(_ffi_api, name)
        assert isinstance(func, tvm_ffi.Function)
        assert func.same_as(tvm_ffi.get_global_func(f"ffi.{name}"))
        assert func.__name__ == name


def test_functions_downstream_packages_use_are_there() -> None:
    for name in ("MakeObjectFromPackedArgs", "RecursiveEq", "ModuleGlobalsAdd", "ToJSONGraph"):
        assert isinstance(getattr(_ffi_api, name), tvm_ffi.Function)


def test_nested_names_are_left_out() -> None:
    assert tvm_ffi.get_global_func("ffi.json.Parse", allow_missing=True) is not None
    assert not hasattr(_ffi_api, "json")
    assert not hasattr(_ffi_api, "Parse")


def test_functions_work_when_called() -> None:
    assert _ffi_api.ArraySize(tvm_ffi.Array([1, 2, 3])) == 3
    assert _ffi_api.RecursiveEq(tvm_ffi.Array([1, 2]), tvm_ffi.Array([1, 2])) is True
    assert _ffi_api.RecursiveEq(tvm_ffi.Array([1, 2]), tvm_ffi.Array([1, 3])) is False


def test_the_init_function_is_init_ffi_api() -> None:
    assert _ffi_api._FFI_INIT_FUNC is tvm_ffi.init_ffi_api


def test_import_tvm_ffi_loads_ffi_api_and_utils(run_python) -> None:
    code = (
        "import sys, tvm_ffi\n"
        "print('tvm_ffi._ffi_api' in sys.modules, 'tvm_ffi.utils' in sys.modules)\n"
        "print(tvm_ffi._ffi_api.RecursiveEq.__name__, tvm_ffi.utils.FileLock.__name__)\n"
    )
    assert run_python("-c", code).stdout.split() == ["True", "True", "RecursiveEq", "FileLock"]


def test_find_spec_of_a_missing_submodule_is_none(run_python) -> None:
    # Checked before and after `import tvm_ffi`: find_spec imports the parent package first.
    code = (
        "import importlib.util\n"
        "names = ['tvm_ffi.no_such_module', 'tvm_ffi.utils.no_such_module',"
        " 'tvm_ffi.cpp.no_such_module']\n"
        "print([importlib.util.find_spec(n) for n in names])\n"
        "import tvm_ffi\n"
        "print([importlib.util.find_spec(n) for n in names])\n"
        "print(importlib.util.find_spec('tvm_ffi.utils') is not None)\n"
    )
    assert run_python("-c", code).stdout.split("\n")[:3] == [
        "[None, None, None]",
        "[None, None, None]",
        "True",
    ]

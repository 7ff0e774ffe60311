# SPDX-License-Identifier: Apache-2.0
"""``__doc__`` and ``__signature__`` of Functions, from the metadata of module exports, global
functions and reflected methods; ``(*args)`` for functions without metadata."""

from __future__ import annotations

import inspect
import pydoc
from typing import Any, Callable

import pytest

import tvm_ffi
import tvm_ffi.cpp
import tvm_ffi.testing

POSITIONAL = inspect.Parameter.POSITIONAL_ONLY

SCALE_SOURCE = """
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/reflection/registry.h>
TVM_FFI_STATIC_INIT_BLOCK() {
  tvm::ffi::reflection::GlobalDef().def(
      "introspection.halve", [](int64_t x) { return x / 2; }, "Halve x, rounding toward zero.");
}
int64_t scale(int64_t x, double factor) { return static_cast<int64_t>(x * factor); }
int64_t total(tvm::ffi::Array<int64_t> values) {
  int64_t sum = 0;
  for (int64_t v : values) sum += v;
  return sum;
}
"""
SCALE_DOC = """Multiply x by factor.

    Parameters
    ----------
    x : int
        The value.
    """


def signature_text(func: Callable[..., Any]) -> str:
    return str(inspect.signature(func))


def render_help(func: object) -> str:
    return pydoc.render_doc(func, renderer=pydoc.plaintext)


@pytest.fixture(scope="module")
def jit_module(tmp_path_factory: pytest.TempPathFactory) -> tvm_ffi.Module:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TVM_FFI_CACHE_DIR", str(tmp_path_factory.mktemp("tvm_ffi_cache")))
        return tvm_ffi.cpp.load_inline(
            "introspection_scale",
            cpp_sources=SCALE_SOURCE,
            functions={"scale": SCALE_DOC, "total": ""},
        )


@pytest.mark.compiles
def test_module_function_signature_and_doc(jit_module: tvm_ffi.Module) -> None:
    for func in (jit_module.scale, jit_module["scale"], jit_module.get_function("scale")):
        signature = inspect.signature(func)
        assert [p.name for p in signature.parameters.values()] == ["_0", "_1"]
        assert all(p.kind is POSITIONAL for p in signature.parameters.values())
        assert str(signature) == "(_0: int, _1: float, /) -> int"
        assert func.__doc__ == (
            "scale(_0: int, _1: float, /) -> int\n\n"
            "Multiply x by factor.\n\nParameters\n----------\nx : int\n    The value."
        )
        assert func(3, 2.5) == 7


@pytest.mark.compiles
def test_global_function_doc_registered_in_cpp(jit_module: tvm_ffi.Module) -> None:
    halve = tvm_ffi.get_global_func("introspection.halve")
    assert (
        halve.__doc__ == "introspection.halve(_0: int, /) -> int\n\nHalve x, rounding toward zero."
    )
    assert halve(7) == 3


@pytest.mark.compiles
def test_module_function_without_doc(jit_module: tvm_ffi.Module) -> None:
    assert signature_text(jit_module.total) == "(_0: Array[int], /) -> int"
    assert jit_module.total.__doc__ == "total(_0: Array[int], /) -> int"
    assert jit_module.total([1, 2, 3]) == 6


@pytest.mark.compiles
def test_help_of_module_function(jit_module: tvm_ffi.Module) -> None:
    text = render_help(jit_module.get_function("scale"))
    assert "scale(_0: int, _1: float, /) -> int" in text
    assert "Multiply x by factor." in text


EXPORT_SOURCE = """
#include <tvm/ffi/function_export.h>
int64_t add(int64_t a, int64_t b) { return a + b; }
TVM_FFI_DLL_EXPORT_TYPED_FUNC(add, add);
"""


@pytest.mark.compiles
@pytest.mark.parametrize(
    ("cflags", "expected"),
    [
        ([], "(_0: int, _1: int, /) -> int"),
        (["-DTVM_FFI_DLL_EXPORT_INCLUDE_METADATA=0"], "(*args)"),
    ],
    ids=["default", "opt-out"],
)
def test_plain_export_macro_gives_a_signature_by_default(
    tmp_path: Any, cflags: list[str], expected: str
) -> None:
    module = tvm_ffi.cpp.load_inline(
        "plain_export",
        cpp_sources=EXPORT_SOURCE,
        extra_cflags=cflags,
        build_directory=str(tmp_path),
    )
    assert signature_text(module.add) == expected
    assert module.add(2, 3) == 5


def test_testing_library_export_carries_its_numpy_doc() -> None:
    module = tvm_ffi.load_module(tvm_ffi.libinfo.find_libtvm_ffi_testing())
    func = module["testing_dll_test_add_with_docstring"]
    assert signature_text(func) == "(_0: int, _1: int, /) -> int"
    assert func.__doc__.startswith("testing_dll_test_add_with_docstring(_0: int, _1: int, /)")
    assert "Add two integers." in func.__doc__
    assert func(2, 3) == 5


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("testing.add_one", "(_0: int, /) -> int"),
        ("testing.schema_no_args", "() -> int"),
        ("testing.schema_no_return", "(_0: int, /) -> None"),
        ("testing.schema_id_opt_str", "(_0: str | None, /) -> str | None"),
        (
            "testing.schema_arr_map_opt",
            "(_0: Array[int | None], _1: Map[str, Array[int]], _2: str | None, /)"
            " -> Map[str, Array[int]]",
        ),
        ("testing.schema_id_device", "(_0: Device, /) -> Device"),
        ("testing.schema_id_tensor", "(_0: Tensor, /) -> Tensor"),
    ],
)
def test_global_function_signature(name: str, expected: str) -> None:
    func = tvm_ffi.get_global_func(name)
    assert signature_text(func) == expected
    assert func.__doc__ == f"{name}{expected}"


def test_global_packed_function_takes_args() -> None:
    echo = tvm_ffi.get_global_func("testing.echo")
    signature = inspect.signature(echo)
    assert str(signature) == "(*args)"
    assert echo.__doc__ == "testing.echo(*args)"
    assert echo(5) == 5


def test_annotations_are_schema_text() -> None:
    signature = inspect.signature(tvm_ffi.get_global_func("testing.schema_id_arr_int"))
    (param,) = signature.parameters.values()
    assert param.annotation == "Array[int]"
    assert signature.return_annotation == "Array[int]"


def test_functions_of_init_ffi_api_modules() -> None:
    from tvm_ffi.testing import _ffi_api  # testing.* via init_ffi_api

    assert signature_text(_ffi_api.add_one) == "(_0: int, /) -> int"
    assert _ffi_api.add_one.__doc__ == "testing.add_one(_0: int, /) -> int"


def test_help_of_global_function() -> None:
    text = render_help(tvm_ffi.get_global_func("testing.schema_id_int"))
    assert "testing.schema_id_int(_0: int, /) -> int" in text


def test_reflected_methods() -> None:
    pair_cls = tvm_ffi.testing.TestIntPair
    pair = pair_cls(1, 2)
    assert signature_text(pair_cls.sum) == "(self: testing.TestIntPair, /) -> int"
    assert signature_text(pair.sum) == "() -> int"
    assert pair_cls.sum.__doc__ == "Method to compute sum of a and b"
    assert pair.sum() == 3
    add = tvm_ffi.testing.TestObjectBase.add_i64
    assert signature_text(add) == "(self: testing.TestObjectBase, _1: int, /) -> int"
    assert "sum(self: testing.TestIntPair, /) -> int" in render_help(pair_cls)


def test_method_function_doc() -> None:
    info = tvm_ffi.testing.TestIntPair.__tvm_ffi_type_info__
    (method,) = [m for m in info.methods if m.name == "sum"]
    assert method.func.__doc__ == (
        "testing.TestIntPair.sum(self: testing.TestIntPair, /) -> int\n\n"
        "Method to compute sum of a and b"
    )


def test_function_without_metadata() -> None:
    func = tvm_ffi.convert(lambda x: x + 1)
    assert signature_text(func) == "(*args)"
    assert func.__doc__ == tvm_ffi.Function.__doc__
    assert func(1) == 2


def test_class_keeps_its_doc() -> None:
    assert tvm_ffi.Function.__doc__.startswith("A native function")
    assert inspect.getdoc(tvm_ffi.Function).startswith("A native function")


def test_doc_and_signature_are_cached_and_assignable() -> None:
    func = tvm_ffi.get_global_func("testing.add_one")
    assert inspect.signature(func) is inspect.signature(func)
    func.__doc__ = "my doc"
    assert func.__doc__ == "my doc"
    assert tvm_ffi.get_global_func("testing.add_one").__doc__ != "my doc"
    assert func(1) == 2


def test_removed_global_keeps_working() -> None:
    tvm_ffi.register_global_func("testing_introspection.tmp", lambda: 1, override=True)
    func = tvm_ffi.get_global_func("testing_introspection.tmp")
    tvm_ffi.registry.remove_global_func("testing_introspection.tmp")
    assert signature_text(func) == "(*args)"
    assert func() == 1

# SPDX-License-Identifier: Apache-2.0
"""Shape: a tuple of ints backed by a native ffi.Shape object."""

from __future__ import annotations

import pickle

import pytest

import tvm_ffi


def test_shape_is_a_tuple_with_a_cached_native_object() -> None:
    shape = tvm_ffi.Shape((1, 2, 3))
    assert isinstance(shape, tuple)
    assert shape == (1, 2, 3)
    assert shape._tvm_ffi_cached_object is not None


def test_shape_rejects_non_integers() -> None:
    with pytest.raises(ValueError, match="Shape must be a tuple of integers"):
        tvm_ffi.Shape((1, 2.5))


def test_echo_returns_the_same_native_shape() -> None:
    shape = tvm_ffi.Shape((4, 5))
    echoed = tvm_ffi.get_global_func("testing.echo")(shape)
    assert isinstance(echoed, tvm_ffi.Shape)
    assert echoed == (4, 5)
    assert echoed._tvm_ffi_cached_object.same_as(shape._tvm_ffi_cached_object)


@pytest.mark.parametrize("replacement", [None, "x", "moved out"])
def test_shape_with_unusable_cache_sends_its_values(replacement: str | None) -> None:
    echo = tvm_ffi.get_global_func("testing.echo")
    shape = tvm_ffi.Shape((4, 5))
    if replacement == "moved out":
        echo(shape._tvm_ffi_cached_object._move())
    else:
        shape._tvm_ffi_cached_object = replacement
    echoed = echo(shape)
    assert isinstance(echoed, tvm_ffi.Shape)
    assert echoed == (4, 5)


def test_native_shape_result_becomes_shape() -> None:
    result = tvm_ffi.get_global_func("ffi.Shape")(7, 8, 9)
    assert isinstance(result, tvm_ffi.Shape)
    assert tuple(result) == (7, 8, 9)


def test_empty_shape() -> None:
    assert tvm_ffi.Shape(()) == ()


def test_shape_pickles_to_an_equal_shape() -> None:
    restored = pickle.loads(pickle.dumps(tvm_ffi.Shape((2, 3))))
    assert isinstance(restored, tvm_ffi.Shape)
    assert restored == (2, 3)


def test_convert_keeps_shape() -> None:
    shape = tvm_ffi.Shape((1,))
    assert tvm_ffi.convert(shape) is shape


def test_shape_repr_uses_native_printer() -> None:
    assert repr(tvm_ffi.Shape((1, 2))._tvm_ffi_cached_object) == "Shape(1, 2)"

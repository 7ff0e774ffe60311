# SPDX-License-Identifier: Apache-2.0
"""A failed field write shows the user's assignment and the error, without the binding's own
frames (Cython entries, the extension's native frames, the interpreter's C frames) between."""

from __future__ import annotations

import inspect
import traceback

import pytest

import tvm_ffi
import tvm_ffi.testing
from tvm_ffi.dataclasses import py_class


@py_class("testing.traceback.Counter")
class Counter(tvm_ffi.Object):
    count: int = 0


def _frame_files(error: BaseException) -> list[str]:
    return [frame.filename for frame in traceback.extract_tb(error.__traceback__)]


def _derived() -> tvm_ffi.Object:
    return tvm_ffi.testing.create_object(
        "testing.TestObjectDerived",
        v_i64=1,
        v_f64=2.0,
        v_str="s",
        v_map=tvm_ffi.Map({}),
        v_array=tvm_ffi.Array([]),
    )


def test_py_class_field_write_shows_only_the_assignment() -> None:
    counter = Counter()
    with pytest.raises(TypeError, match="expected int, got str") as info:
        counter.count = "x"
    assert _frame_files(info.value) == [__file__]
    assert counter.count == 0


def test_reflected_field_write_shows_only_the_assignment() -> None:
    derived = _derived()
    message = r"Cannot convert from type `ffi\.SmallStr` to `int`"
    with pytest.raises(TypeError, match=message) as info:
        derived.v_i64 = "x"
    files = _frame_files(info.value)
    # An unoptimised (sanitizer) build keeps the header's conversion helpers as frames of their
    # own; they name the FFI's headers, never the binding.
    assert [f for f in files if "/include/tvm/ffi/" not in f] == [__file__]
    text = "".join(
        traceback.format_exception(type(info.value), info.value, info.value.__traceback__)
    )
    assert ".pxi" not in text
    assert "core." not in text
    assert derived.v_i64 == 1


def test_failed_write_of_a_read_only_field_is_still_an_attribute_error() -> None:
    pair = tvm_ffi.testing.TestIntPair(1, 2)
    with pytest.raises(AttributeError):
        pair.a = 3  # type: ignore[misc]
    assert pair.a == 1


def test_field_descriptors_are_ffi_properties() -> None:
    prop = inspect.getattr_static(type(_derived()), "v_i64")
    assert isinstance(prop, tvm_ffi.core.FFIProperty)
    assert type(prop).__name__ == "FieldProperty"

# SPDX-License-Identifier: Apache-2.0
"""core.String and core.Bytes: str/bytes subclasses that cache their FFI object."""

from __future__ import annotations

import gc
import pickle

import pytest

import tvm_ffi
from tvm_ffi import core

echo = tvm_ffi.get_global_func("testing.echo")
use_count = tvm_ffi.get_global_func("testing.object_use_count")
LONG_TEXT = "a string longer than seven bytes"
LONG_DATA = b"bytes longer than seven"


def test_string_is_str_subclass() -> None:
    text = core.String("hello")
    assert isinstance(text, str)
    assert text == "hello"
    assert text._tvm_ffi_cached_object is None


def test_string_supports_str_methods() -> None:
    text = core.String("Hello World")
    assert text.upper() == "HELLO WORLD"
    assert text.split() == ["Hello", "World"]
    assert type(text[0:5]) is str
    assert hash(text) == hash("Hello World")


def test_returned_string_keeps_object_in_slot_not_dict() -> None:
    text = echo(LONG_TEXT)
    assert not hasattr(text, "__dict__")
    assert isinstance(text._tvm_ffi_cached_object, tvm_ffi.Object)


def test_returned_string_is_not_tracked_by_the_gc() -> None:
    """Its cache is a native handle, not a Python object: nothing for the GC to visit."""
    assert not gc.is_tracked(echo(LONG_TEXT))


def test_cached_object_read_twice_wraps_the_same_native_object() -> None:
    text = echo(LONG_TEXT)
    first, second = text._tvm_ffi_cached_object, text._tvm_ffi_cached_object
    assert first.same_as(second)
    assert use_count(first) == 3  # the String's own reference and the two wrappers'


def test_cache_keeps_any_assigned_value_and_none_or_del_clear_it() -> None:
    text = echo(LONG_TEXT)
    marker = object()
    text._tvm_ffi_cached_object = marker
    assert text._tvm_ffi_cached_object is marker
    text._tvm_ffi_cached_object = None
    assert text._tvm_ffi_cached_object is None
    text._tvm_ffi_cached_object = echo(LONG_TEXT + "?")._tvm_ffi_cached_object
    assert echo(text) == LONG_TEXT + "?"  # the assigned object is what is sent
    del text._tvm_ffi_cached_object
    assert text._tvm_ffi_cached_object is None


def test_releasing_the_string_releases_its_object() -> None:
    text = echo(LONG_TEXT)
    cached = text._tvm_ffi_cached_object
    assert use_count(cached) == 2
    del text
    assert use_count(cached) == 1


def test_string_subclass_starts_without_cached_object() -> None:
    class Tagged(core.String):
        pass

    text = Tagged(LONG_TEXT)
    assert text._tvm_ffi_cached_object is None
    assert echo(text) == LONG_TEXT


def test_bytes_is_bytes_subclass() -> None:
    data = core.Bytes(b"\x00\x01")
    assert isinstance(data, bytes)
    assert data == b"\x00\x01"
    assert data._tvm_ffi_cached_object is None


def test_returned_string_caches_object() -> None:
    text = echo(LONG_TEXT)
    assert type(text) is core.String
    assert text == LONG_TEXT
    assert isinstance(text._tvm_ffi_cached_object, tvm_ffi.Object)


def test_passing_cached_string_sends_cached_object() -> None:
    text = echo(LONG_TEXT)
    again = echo(text)
    assert again == LONG_TEXT
    assert again._tvm_ffi_cached_object.same_as(text._tvm_ffi_cached_object)


def test_passing_cached_bytes_sends_cached_object() -> None:
    data = echo(LONG_DATA)
    assert type(data) is core.Bytes
    again = echo(data)
    assert again == LONG_DATA
    assert again._tvm_ffi_cached_object.same_as(data._tvm_ffi_cached_object)


def test_cached_object_reference_is_shared_not_copied() -> None:
    text = echo(LONG_TEXT)
    cached = text._tvm_ffi_cached_object
    before = use_count(cached)
    again = echo(text)
    assert use_count(cached) == before + 1
    del again
    assert use_count(cached) == before


def test_string_without_cache_is_sent_as_text() -> None:
    text = core.String(LONG_TEXT)
    result = echo(text)
    assert result == LONG_TEXT
    assert result._tvm_ffi_cached_object is not None


@pytest.mark.parametrize("replacement", [None, 5, "text", "moved out", "array"])
def test_unusable_cache_sends_the_content(replacement: str | int | None) -> None:
    """A cache reassigned to something else, or whose handle was moved out, is not used."""
    for value in (echo(LONG_TEXT), echo(LONG_DATA)):
        if replacement == "moved out":
            echo(value._tvm_ffi_cached_object._move())
        elif replacement == "array":
            value._tvm_ffi_cached_object = tvm_ffi.Array([1])
        else:
            value._tvm_ffi_cached_object = replacement
        again = echo(value)
        assert again == value
        assert type(again) is type(value)


def test_deleted_string_cache_sends_the_content() -> None:
    text = echo(LONG_TEXT)
    del text._tvm_ffi_cached_object
    assert echo(text) == LONG_TEXT


def test_string_subclass_cache_property_is_honoured() -> None:
    """A subclass may compute the cache: it is read through the attribute, not the slot."""
    source = echo(LONG_TEXT + "!")

    class Derived(core.String):
        @property
        def _tvm_ffi_cached_object(self) -> tvm_ffi.Object:
            return source._tvm_ffi_cached_object

        @_tvm_ffi_cached_object.setter
        def _tvm_ffi_cached_object(self, value: object) -> None:
            pass

    assert echo(Derived(LONG_TEXT)) == LONG_TEXT + "!"


def test_typed_string_function_accepts_string() -> None:
    text = echo(LONG_TEXT)
    assert tvm_ffi.get_global_func("testing.schema_id_string")(text) == LONG_TEXT


def test_string_pickles_to_plain_str() -> None:
    restored = pickle.loads(pickle.dumps(echo(LONG_TEXT)))
    assert type(restored) is str
    assert restored == LONG_TEXT


def test_bytes_pickles_to_plain_bytes() -> None:
    restored = pickle.loads(pickle.dumps(echo(LONG_DATA)))
    assert type(restored) is bytes
    assert restored == LONG_DATA


def test_convert_str_returns_string_without_cache() -> None:
    text = tvm_ffi.convert("s")
    assert type(text) is core.String
    assert text == "s"
    assert text._tvm_ffi_cached_object is None


def test_convert_keeps_string_object() -> None:
    text = echo(LONG_TEXT)
    assert tvm_ffi.convert(text) is text


def test_non_ascii_long_string_round_trips() -> None:
    text = "ünïcödé ✓ 日本語 text"
    result = echo(text)
    assert result == text
    assert echo(result) == text


def test_string_without_cache_in_later_argument() -> None:
    apply = tvm_ffi.get_global_func("testing.apply")
    first = core.String("first " + LONG_TEXT)
    second = core.String("second " + LONG_TEXT)
    assert apply(lambda x, y: x + "|" + y, first, second) == f"{first}|{second}"


@pytest.mark.parametrize("text", ["a str longer than a SmallStr", "nul\x00inside the text"])
def test_long_str_argument_is_a_string_object(text: str) -> None:
    # As in Apache's binding: a callee taking an ObjectRef accepts it, and it is an ffi.String.
    assert tvm_ffi.get_global_func("testing.object_use_count")(text) == 1
    with pytest.raises(TypeError, match=r"Expected `Device` but got `ffi\.String`"):
        tvm_ffi.get_global_func("testing.schema_id_device")(text)


def test_short_str_argument_is_a_small_string() -> None:
    with pytest.raises(TypeError, match=r"Expected `Device` but got `ffi\.SmallStr`"):
        tvm_ffi.get_global_func("testing.schema_id_device")("short")

# SPDX-License-Identifier: Apache-2.0
"""Map(dict) and Dict(dict) build through TVMFFIMapFromPairs (c_map_api.h); each must give
the map the packed globals ffi.Map / ffi.Dict give for the same entries: the same entries in
the same order, the same layout (capacity and slots), the same errors, and no leaked
reference."""

from __future__ import annotations

import ctypes
import gc
import random
import sys

import pytest

import tvm_ffi
from tvm_ffi import Dict, Map, core

_PACKED_BUILD = {Map: tvm_ffi.get_global_func("ffi.Map"), Dict: tvm_ffi.get_global_func("ffi.Dict")}
_SMALL_FLAG = 1 << 63
_BLOCK_SLOTS = 16
_BLOCK_BYTES = 16 + 16 * 48  # metadata bytes, then 16 items of key, value, prev, next
_EMPTY_SLOT = 0xFF


class Payload:
    """A plain Python object: it crosses as an opaque object, hashed by identity."""


class AsInt:
    """Distinct Python keys that convert to the same FFI int."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __tvm_ffi_int__(self) -> int:
        return self.value


class BadObject:
    def __tvm_ffi_object__(self) -> object:
        return 5  # not an Object: a TypeError


def packed_build(cls: type, entries: dict) -> Map | Dict:
    flat = [item for pair in entries.items() for item in pair]
    return _PACKED_BUILD[cls](*flat)


def read_u64(address: int) -> int:
    return ctypes.c_uint64.from_address(address).value


def key_type_index(address: int) -> int:
    return ctypes.c_int32.from_address(address).value


def layout(m: Map | Dict) -> tuple:
    """Size, capacity word, and where each key sits (its type index per slot)."""
    handle = m.__chandle__()
    data, size, slots = read_u64(handle + 24), read_u64(handle + 32), read_u64(handle + 40)
    if slots & _SMALL_FLAG:
        return size, slots, [key_type_index(data + 32 * i) for i in range(size)]
    placed = []
    for slot in range(slots):
        block = data + (slot // _BLOCK_SLOTS) * _BLOCK_BYTES
        meta = ctypes.c_uint8.from_address(block + slot % _BLOCK_SLOTS).value
        key = block + _BLOCK_SLOTS + 48 * (slot % _BLOCK_SLOTS)
        placed.append((meta, key_type_index(key) if meta != _EMPTY_SLOT else None))
    return size, slots, placed


def same_value(a: object, b: object) -> bool:
    if isinstance(a, tvm_ffi.Object) and not isinstance(a, (Map, Dict, tvm_ffi.Array)):
        return a.same_as(b)
    if isinstance(a, (Map, Dict)):
        return isinstance(b, type(a)) and all(
            same_key(x, y) and same_value(v, w) for (x, v), (y, w) in zip(a.items(), b.items())
        )
    return type(a) is type(b) and a == b


def same_key(a: object, b: object) -> bool:
    return same_value(a, b) if isinstance(a, tvm_ffi.Object) else type(a) is type(b) and a == b


def is_identity_hashed(key: object) -> bool:
    """A key converted to a new object each time (an opaque object, a BigInt) that is hashed
    by its address: its slot differs from build to build."""
    return isinstance(key, Payload) or (isinstance(key, int) and not -(2**63) <= key < 2**63)


def assert_same_map(built: Map | Dict, expected: Map | Dict, entries: dict) -> None:
    assert type(built) is type(expected)
    if not any(is_identity_hashed(key) for key in entries):
        assert layout(built) == layout(expected)
    built_items, expected_items = list(built.items()), list(expected.items())
    assert len(built_items) == len(expected_items)
    for (key, value), (key2, value2) in zip(built_items, expected_items):
        assert same_key(key, key2), (key, key2)
        assert same_value(value, value2), (value, value2)


def random_item(rng: random.Random, shared: list, identity_hashed: bool) -> object:
    kind = rng.randrange(11 if identity_hashed else 10)
    if kind == 0:
        return "".join(rng.choice("abz") for _ in range(rng.randrange(8)))  # SmallStr
    if kind == 1:
        return "long key " + "".join(rng.choice("ab") for _ in range(rng.randrange(12)))
    if kind == 2:
        return "".join(rng.choice("\u00e9\u65e5a") for _ in range(rng.randrange(5)))
    if kind == 3:
        return rng.randrange(-50, 50)
    if kind == 4:
        return rng.randrange(-(2**63), 2**63)
    if kind == 5:
        return rng.choice([True, False, None])
    if kind == 6:
        return rng.choice([0.5, -2.25, 1e300, float("inf")])
    if kind == 7 and not identity_hashed:
        return rng.choice(shared[:3])  # FFI objects, each one the same key in every build
    if kind == 7:
        return rng.choice(shared)  # FFI objects and opaque objects, some repeated
    if kind == 8:
        return AsInt(rng.randrange(-5, 5))  # duplicates after conversion
    if kind == 9:
        return tvm_ffi.convert("short")  # a String object equal to a SmallStr key
    return 2**64 + rng.randrange(3)  # beyond int64: a BigInt


def shared_objects() -> list:
    return [
        tvm_ffi.Array([1, 2]),
        tvm_ffi.Array([1, 2]),
        tvm_ffi.Shape([3]),
        Payload(),
        Payload(),
        tvm_ffi.convert("an ffi.String key"),
    ]


@pytest.mark.parametrize("cls", [Map, Dict])
@pytest.mark.parametrize("size", list(range(41)))
def test_random_dicts_match_the_packed_global(cls: type, size: int) -> None:
    rng = random.Random(1000 * size + (cls is Dict))
    shared = shared_objects()
    for round_ in range(4):
        identity_hashed = round_ >= 2
        entries = {
            random_item(rng, shared, identity_hashed): random_item(rng, shared, True)
            for _ in range(size)
        }
        assert_same_map(cls(entries), packed_build(cls, entries), entries)


@pytest.mark.parametrize("cls", [Map, Dict])
@pytest.mark.parametrize("size", [0, 1, 2, 3, 4, 5, 9, 10, 11, 16, 33, 100])
def test_str_int_dicts_match_the_packed_global(cls: type, size: int) -> None:
    entries = {f"k{i}": i for i in range(size)}
    built = cls(entries)
    assert_same_map(built, packed_build(cls, entries), entries)
    assert dict(built.items()) == entries


@pytest.mark.parametrize("cls", [Map, Dict])
def test_duplicates_after_conversion_keep_the_first_place_and_the_last_value(cls: type) -> None:
    entries = {AsInt(7): "a", "x": "b", AsInt(7): "c", 7: "d", "y": "e"}
    built = cls(entries)
    assert list(built.items()) == [(7, "d"), ("x", "b"), ("y", "e")]
    assert_same_map(built, packed_build(cls, entries), entries)
    many = {AsInt(i % 3): i for i in range(12)}
    assert list(cls(many).items()) == [(0, 9), (1, 10), (2, 11)]
    assert_same_map(cls(many), packed_build(cls, many), many)


@pytest.mark.parametrize("cls", [Map, Dict])
def test_str_keys_of_either_form_are_one_key(cls: type) -> None:
    for text in ("short", "a key longer than seven bytes"):
        entries = {text: 1, tvm_ffi.convert(text): 2}
        # Python sees one key already (String is a str); the FFI sees one key too.
        assert list(cls(entries).items()) == [(text, 2)]
        assert_same_map(cls(entries), packed_build(cls, entries), entries)


@pytest.mark.parametrize("cls", [Map, Dict])
def test_bool_int_and_float_keys_stay_distinct(cls: type) -> None:
    entries = {True: "bool", AsInt(1): "int", 2.0: "float", AsInt(2): "int 2", None: "none"}
    built = cls(entries)
    assert [(type(k), k) for k in built] == [
        (bool, True),
        (int, 1),
        (float, 2.0),
        (int, 2),
        (type(None), None),
    ]
    assert_same_map(built, packed_build(cls, entries), entries)


@pytest.mark.parametrize("cls", [Map, Dict])
@pytest.mark.parametrize("bad_as", ["key", "value"])
@pytest.mark.parametrize("size", [0, 3, 10, 40])
def test_an_unconvertible_entry_is_a_type_error_without_leaks(
    cls: type, bad_as: str, size: int
) -> None:
    payload = Payload()
    long_text = "a value longer than a SmallStr"
    bad = BadObject()
    entries: dict = {f"k{i}": payload for i in range(size)}
    entries.update({f"long {i}": long_text for i in range(size)})
    entries.update({bad: 1} if bad_as == "key" else {"bad": bad})
    entries["after"] = payload
    baseline = (sys.getrefcount(payload), sys.getrefcount(bad))
    for _ in range(200):
        with pytest.raises(TypeError, match=r"must return a tvm_ffi\.Object"):
            cls(entries)
    gc.collect()
    assert (sys.getrefcount(payload), sys.getrefcount(bad)) == baseline


def test_invalid_utf8_str_raises_as_the_packed_global() -> None:
    for entries in ({"\ud800": 1}, {"a": "\ud800"}):
        with pytest.raises(UnicodeEncodeError):
            Map(entries)
        with pytest.raises(UnicodeEncodeError):
            packed_build(Map, entries)


@pytest.mark.parametrize("cls", [Map, Dict])
def test_repeated_builds_do_not_leak(cls: type) -> None:
    payload = Payload()
    key = Payload()
    array = tvm_ffi.Array([1])
    entries = {"a": payload, key: 1, "long key of a map": array, 5: payload}
    baseline = (sys.getrefcount(payload), sys.getrefcount(key))
    for _ in range(20_000):
        cls(entries)
    gc.collect()
    assert (sys.getrefcount(payload), sys.getrefcount(key)) == baseline
    use_count = tvm_ffi.get_global_func("testing.object_use_count")
    assert use_count(array) == 1


@pytest.mark.parametrize("cls", [Map, Dict])
def test_a_dict_changed_by_a_conversion_is_an_error(cls: type) -> None:
    entries: dict = {}

    class Grows:
        def __tvm_ffi_int__(self) -> int:
            entries[object()] = 0
            return 1

    entries.update({"a": 1, "b": Grows(), "c": 3})
    with pytest.raises(RuntimeError, match="dictionary changed size during iteration"):
        cls(entries)


def test_constructors_keep_their_signatures() -> None:
    assert list(Map(input_dict={"a": 1}).items()) == [("a", 1)]
    assert len(Dict()) == 0 and len(Dict(None)) == 0
    assert list(Dict(input_dict={"a": 1}).items()) == [("a", 1)]
    assert list(Map(Map({"a": 1})).items()) == [("a", 1)]  # any mapping, through its items
    with pytest.raises(TypeError, match="expected a mapping, got 'int'"):
        Map(5)
    with pytest.raises(TypeError):
        Map()


def test_map_from_pairs_rejects_bad_arguments() -> None:
    lib = ctypes.CDLL(tvm_ffi.libinfo.find_libtvm_ffi())
    build = lib.TVMFFIMapFromPairs
    build.argtypes = [ctypes.c_int32, ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p]
    build.restype = ctypes.c_int
    out = ctypes.c_void_p()
    error = ctypes.c_void_p()
    map_index = 72  # kTVMFFIMap
    for type_index, num_pairs in ((0, 0), (map_index, -1)):
        assert build(type_index, None, num_pairs, ctypes.byref(out)) == -1
        lib.TVMFFIErrorMoveFromRaised(ctypes.byref(error))
        assert error.value is not None
        lib.TVMFFIObjectDecRef(error)
    assert build(map_index, None, 0, ctypes.byref(out)) == 0
    assert ctypes.c_int32.from_address(out.value + 8).value == map_index
    lib.TVMFFIObjectDecRef(out)


@pytest.mark.parametrize("cls", [tvm_ffi.Map, tvm_ffi.Dict])
def test_pickle_constructor_makes_an_empty_instance_to_fill(cls: type) -> None:
    # Apache's pickles rebuild a Map as core._new_object(Map) followed by __setstate__.
    empty = core._new_object(cls)
    assert type(empty) is cls
    empty.__setstate__(cls({"k": 1, 2: "v"}).__getstate__())
    assert dict(empty.items()) == {"k": 1, 2: "v"}

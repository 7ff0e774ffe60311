# SPDX-License-Identifier: Apache-2.0
"""The native reads of Map and Dict (length, ``[]``, ``in``, ``get``) agree with the runtime.

Keys that are str, int, bool or None are looked up by reading the map object directly; these
tests compare every answer with the runtime's own global functions, on both storage layouts.
"""

from __future__ import annotations

import ctypes
import random

import pytest

import tvm_ffi
from tvm_ffi import Dict, Map

_SMALL_FLAG = 1 << 63

_PACKED = {
    Map: (
        tvm_ffi.get_global_func("ffi.MapGetItem"),
        tvm_ffi.get_global_func("ffi.MapCount"),
        tvm_ffi.get_global_func("ffi.MapSize"),
    ),
    Dict: (
        tvm_ffi.get_global_func("ffi.DictGetItem"),
        tvm_ffi.get_global_func("ffi.DictCount"),
        tvm_ffi.get_global_func("ffi.DictSize"),
    ),
}

_MISSING = object()


def is_small_layout(m: Map | Dict) -> bool:
    """Whether the map object uses the small layout (bit 63 of ``slots_`` at offset 40)."""
    slots = ctypes.c_uint64.from_address(m.__chandle__() + 40).value
    return bool(slots & _SMALL_FLAG)


def packed_lookup(m: Map | Dict, key: object) -> object:
    """The value of key through the runtime's global functions, or _MISSING."""
    get_item, count, _ = _PACKED[type(m)]
    if not count(m, key):
        return _MISSING
    return get_item(m, key)


def assert_agrees(m: Map | Dict, key: object) -> None:
    """Every read of key gives what the runtime gives."""
    expected = packed_lookup(m, key)
    assert (key in m) == (expected is not _MISSING)
    assert m.get(key, _MISSING) == expected
    if expected is _MISSING:
        with pytest.raises(KeyError):
            m[key]
    else:
        assert m[key] == expected


def assert_size(m: Map | Dict) -> None:
    assert len(m) == _PACKED[type(m)][2](m)


STR_KEYS = [
    "",
    "a",
    "k5",
    "seven77",
    "eight888",
    "a much longer key than eight bytes",
    "é",
    "日本語",
]


@pytest.mark.parametrize("cls", [Map, Dict])
@pytest.mark.parametrize("count", [1, 3, 4])
def test_small_layout_str_keys(cls: type, count: int) -> None:
    entries = {key: i for i, key in enumerate(STR_KEYS[:count])}
    m = cls(entries)
    assert is_small_layout(m)
    assert len(m) == count
    for key, value in entries.items():
        assert m[key] == value
        assert key in m
        assert m.get(key) == value
    for key in [*STR_KEYS[count:], "missing", "k"]:
        assert key not in m
        assert m.get(key, -1) == -1
        assert_agrees(m, key)


@pytest.mark.parametrize("cls", [Map, Dict])
def test_dense_layout_short_long_and_non_ascii_keys(cls: type) -> None:
    entries = {key: key.upper() for key in STR_KEYS}
    entries.update({f"key-{i}" * (i % 4 + 1): i for i in range(40)})
    m = cls(entries)
    assert not is_small_layout(m)
    assert_size(m)
    for key, value in entries.items():
        assert m[key] == value
        assert key in m
    for key in ["key-0key-0key-0key-0key-0", "ключ", "missing-long-key-1234567"]:
        assert_agrees(m, key)


@pytest.mark.parametrize("cls", [Map, Dict])
@pytest.mark.parametrize("extra", [0, 20])
def test_int_keys(cls: type, extra: int) -> None:
    keys = [0, 1, -1, 7, -(2**63), 2**63 - 1, 2**40 + 3, -(2**33)]
    entries = {key: str(key) for key in keys[: 3 + extra]} | {i * 1000: i for i in range(extra)}
    m = cls(entries)
    assert is_small_layout(m) == (len(entries) <= 4)
    for key, value in entries.items():
        assert m[key] == value
        assert m.get(key) == value
    for key in [2, -2, 2**62, -(2**62), 999]:
        assert_agrees(m, key)


@pytest.mark.parametrize("cls", [Map, Dict])
def test_missing_key_raises_the_runtime_key_error(cls: type) -> None:
    m = cls({"a": 1, 2: 3})
    with pytest.raises(KeyError) as fast:
        m["b"]
    with pytest.raises(KeyError) as packed:
        _PACKED[cls][0](m, "b")
    assert type(fast.value) is KeyError
    assert str(fast.value) == str(packed.value) == f"'key is not in {cls.__name__}'"


@pytest.mark.parametrize("cls", [Map, Dict])
def test_unhashable_key_is_a_type_error(cls: type) -> None:
    m = cls({"a": 1})
    for key in ([1], {"a": 1}, {1}):
        with pytest.raises(TypeError, match="unhashable"):
            m[key]  # type: ignore[index]
        with pytest.raises(TypeError, match="unhashable"):
            key in m  # noqa: B015
        with pytest.raises(TypeError, match="unhashable"):
            m.get(key)


@pytest.mark.parametrize("cls", [Map, Dict])
def test_int_beyond_int64(cls: type) -> None:
    m = cls({"a": 1, 5: 2})
    for key in (2**63, -(2**63) - 1, 2**100):
        assert key not in m
        assert m.get(key, "absent") == "absent"
        with pytest.raises(KeyError):
            m[key]
    big = cls({2**70: "big", 1: "one"})
    assert big[2**70] == "big"
    assert 2**70 in big


@pytest.mark.parametrize("cls", [Map, Dict])
def test_bool_and_int_keys_stay_distinct(cls: type) -> None:
    # The runtime stores a bool as a Bool cell, which is never equal to an Int cell.
    m = cls({True: "t", 0: "zero"})
    assert m[True] == "t"
    assert m[0] == "zero"
    assert 1 not in m
    assert False not in m
    for key in (True, False, 0, 1):
        assert_agrees(m, key)


@pytest.mark.parametrize("cls", [Map, Dict])
def test_none_key(cls: type) -> None:
    m = cls({None: 1, "x": 2})
    assert m[None] == 1
    assert None in cls({"x": 2, None: 0})
    assert None not in cls({"x": 2})
    assert_agrees(m, None)


@pytest.mark.parametrize("cls", [Map, Dict])
def test_other_keys_go_to_the_runtime(cls: type) -> None:
    obj = tvm_ffi.convert(lambda: None)
    m = cls({1.5: "float", b"bytes": "bytes", obj: "object", tvm_ffi.core.String("abc"): "str"})
    assert m[1.5] == "float"
    assert m[b"bytes"] == "bytes"
    assert m[obj] == "object"
    assert m["abc"] == "str"
    assert m[tvm_ffi.core.String("abc")] == "str"
    assert 2.5 not in m
    assert m.get(b"other") is None


def test_invalid_utf8_str_raises_as_before() -> None:
    m = Map({"a": 1})
    with pytest.raises(UnicodeEncodeError):
        m["\ud800"]


def test_dict_after_inserts_and_erases() -> None:
    d: Dict = Dict()
    reference: dict = {}
    rng = random.Random(7)
    pool = (
        [f"k{i}" for i in range(300)]
        + list(range(-150, 150))
        + [f"long-key-{i:05d}" for i in range(100)]
    )
    for step in range(4000):
        key = rng.choice(pool)
        if rng.random() < 0.4 and key in reference:
            del d[key]
            del reference[key]
        else:
            d[key] = step
            reference[key] = step
        if step % 97 == 0:
            assert len(d) == len(reference)
            for probe in rng.sample(pool, 30):
                assert d.get(probe, _MISSING) == reference.get(probe, _MISSING)
                assert_agrees(d, probe)
    assert len(d) == len(reference)
    for key in pool:
        assert (key in d) == (key in reference)
        assert d.get(key, _MISSING) == reference.get(key, _MISSING)


def test_dict_grown_to_a_thousand_entries() -> None:
    d: Dict = Dict()
    for i in range(1000):
        d[f"name{i}"] = i
        d[i * 7919] = -i
        if i in (1, 2, 3, 500):
            assert len(d) == 2 * (i + 1)
    assert not is_small_layout(d)
    assert len(d) == 2000
    for i in range(1000):
        assert d[f"name{i}"] == i
        assert d[i * 7919] == -i
    for i in range(0, 1000, 2):
        del d[f"name{i}"]
    assert len(d) == 1500
    for i in range(1000):
        assert (f"name{i}" in d) == (i % 2 == 1)
        assert_agrees(d, f"name{i}")


def test_dict_shrinking_back_to_empty() -> None:
    d = Dict({f"k{i}": i for i in range(10)})
    for i in range(10):
        del d[f"k{i}"]
        assert len(d) == 9 - i
        assert f"k{i}" not in d
    assert d.get("k0") is None
    d.clear()
    assert len(d) == 0
    assert "k1" not in d


def test_maps_made_in_cpp() -> None:
    made = tvm_ffi.get_global_func("testing.schema_id_map_str_int")({"a": 1, "bbbbbbbbbb": 2})
    assert isinstance(made, Map)
    assert made["a"] == 1
    assert made["bbbbbbbbbb"] == 2
    assert "c" not in made
    entries = {f"entry{i}": i for i in range(12)}
    made_dict = tvm_ffi.get_global_func("testing.schema_id_dict_str_int")(entries)
    assert isinstance(made_dict, Dict)
    assert len(made_dict) == 12
    assert all(made_dict[key] == value for key, value in entries.items())
    assert "entry12" not in made_dict


def test_values_of_a_cpp_made_map_come_back_as_before() -> None:
    np = pytest.importorskip("numpy")
    make = tvm_ffi.get_global_func("testing.make_map_with_tensor")
    m = make(np.zeros((2, 3), dtype="float32"))
    assert m["value"] == 42
    assert m["name"] == "test"
    assert isinstance(m["tensor"], tvm_ffi.Tensor)
    for key in ("tensor", "value", "name"):
        assert type(m[key]) is type(_PACKED[Map][0](m, key))
        assert type(m.get(key)) is type(m[key])


@pytest.mark.parametrize("maker", ["testing.make_map_with_tensor", "testing.make_dict_with_tensor"])
def test_tensor_values_of_a_torch_call_come_back_as_torch(maker: str) -> None:
    torch = pytest.importorskip("torch")
    m = tvm_ffi.get_global_func(maker)(torch.zeros(2, 3))
    assert isinstance(m["tensor"], torch.Tensor)
    assert isinstance(m.get("tensor"), torch.Tensor)
    assert m["tensor"].shape == (2, 3)
    assert m["value"] == 42


@pytest.mark.parametrize("cls", [Map, Dict])
@pytest.mark.parametrize("size", [0, 2, 4, 5, 17, 200])
def test_random_cross_check_with_the_runtime(cls: type, size: int) -> None:
    rng = random.Random(size)

    def random_key() -> object:
        kind = rng.randrange(5)
        if kind == 0:
            return "".join(rng.choice("ab\u00e9\u65e5z") for _ in range(rng.randrange(12)))
        if kind == 1:
            return rng.randrange(-(2**63), 2**63)
        if kind == 2:
            return rng.randrange(-20, 20)
        if kind == 3:
            return rng.choice([True, False, None])
        return f"key{rng.randrange(100)}"

    entries = {random_key(): i for i in range(size)}
    m = cls(entries)
    assert_size(m)
    assert len(m) == len(entries)
    for key in list(entries) + [random_key() for _ in range(300)]:
        assert_agrees(m, key)

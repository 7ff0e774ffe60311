# SPDX-License-Identifier: Apache-2.0
"""Array, List, Map and Dict: the sequence/mapping protocols and conversion (5.1-5.5)."""

from __future__ import annotations

import copy
import pickle
import sys
from typing import Any
from unittest import mock

import pytest

import tvm_ffi
from tvm_ffi import Array, Dict, List, Map

echo = tvm_ffi.get_global_func("testing.echo")
use_count = tvm_ffi.get_global_func("testing.object_use_count")


def make_object() -> tvm_ffi.Object:
    """A fresh FFI object that Python owns alone."""
    return tvm_ffi.convert(lambda: None)


class Opaque:
    """A Python object with no FFI conversion; it is stored as an opaque object."""


# Array


def test_array_construction_len_and_iter() -> None:
    a = Array([1, 2, 3])
    assert len(a) == 3
    assert list(a) == [1, 2, 3]
    assert isinstance(a, Array)


def test_array_requires_an_argument() -> None:
    with pytest.raises(TypeError):
        Array()  # type: ignore[call-arg]


def test_array_index_and_negative_index() -> None:
    a = Array([10, 20, 30])
    assert a[0] == 10
    assert a[2] == 30
    assert a[-1] == 30
    assert a[-3] == 10


def test_array_slice_returns_python_list() -> None:
    a = Array([0, 1, 2, 3, 4])
    assert a[1:3] == [1, 2]
    assert type(a[1:3]) is list
    assert a[::2] == [0, 2, 4]
    assert a[::-1] == [4, 3, 2, 1, 0]


def test_array_index_out_of_range_message() -> None:
    a = Array([1, 2, 3])
    with pytest.raises(IndexError, match=r"^Index out of range\. size: 3, got index 5$"):
        a[5]
    with pytest.raises(IndexError, match=r"^Index out of range\. size: 3, got index -4$"):
        a[-4]


def test_array_non_integer_index_is_type_error() -> None:
    a = Array([1, 2, 3])
    with pytest.raises(TypeError):
        a["x"]  # type: ignore[index]


def test_array_has_no_item_assignment() -> None:
    a = Array([1, 2])
    with pytest.raises((AttributeError, TypeError)):
        a[0] = 5  # type: ignore[index]


def test_array_contains() -> None:
    a = Array([1, "two", None])
    assert 1 in a
    assert "two" in a
    assert None in a
    assert 3 not in a


def test_array_contains_nested_python_list() -> None:
    a = Array([[2, 3], [4]])
    assert [2, 3] in a
    assert [4] in a
    assert [3, 2] not in a


def test_array_add_python_list_on_either_side() -> None:
    a = Array([1, 2])
    right = a + [3]  # noqa: RUF005
    left = [0] + a  # noqa: RUF005
    assert isinstance(right, Array)
    assert isinstance(left, Array)
    assert list(right) == [1, 2, 3]
    assert list(left) == [0, 1, 2]
    assert list(a) == [1, 2]


def test_array_bool_is_non_empty() -> None:
    assert not Array([])
    assert Array([0])


def test_array_equals_list_with_same_content() -> None:
    assert Array([1, 2]) == [1, 2]
    assert Array([1, 2]) != [2, 1]
    assert Array([1, 2]) == Array([1, 2])
    assert Array([1, [2, "x"]]) == Array([1, [2, "x"]])
    assert Array([1, 2]) != Array([1, 2, 3])


def test_array_equal_arrays_hash_equal() -> None:
    assert hash(Array([1, "a", [2]])) == hash(Array([1, "a", [2]]))


def test_array_copy_is_equal() -> None:
    a = Array([1, "s", [2.5]])
    assert copy.copy(a) == a


def test_array_pickle_round_trip() -> None:
    a = Array([1, "s", [2.5, None]])
    b = pickle.loads(pickle.dumps(a))
    assert isinstance(b, Array)
    assert b == a
    assert not b.same_as(a)


# List


def test_list_default_is_empty() -> None:
    assert len(List()) == 0


@pytest.mark.parametrize("count", [2**62, 2**59, 2**63 - 1])
def test_list_reserve_beyond_memory_raises_memory_error(count: int) -> None:
    lst = List([1, 2])
    with pytest.raises(MemoryError, match="cannot make room"):
        tvm_ffi.get_global_func("ffi.ListReserve")(lst, count)
    assert list(lst) == [1, 2]


def test_list_setitem_index_and_negative_index() -> None:
    lst = List([1, 2, 3])
    lst[0] = 10
    lst[-1] = "z"
    assert list(lst) == [10, 2, "z"]


def test_list_setitem_out_of_range() -> None:
    lst = List([1])
    with pytest.raises(IndexError, match=r"^Index out of range\. size: 1, got index 3$"):
        lst[3] = 0


def test_list_slice_assignment_may_change_length() -> None:
    lst = List([0, 1, 2, 3])
    lst[1:3] = ["a", "b", "c"]
    assert list(lst) == [0, "a", "b", "c", 3]
    lst[1:4] = []
    assert list(lst) == [0, 3]


def test_list_extended_slice_assignment() -> None:
    lst = List([0, 1, 2, 3])
    lst[::2] = [8, 9]
    assert list(lst) == [8, 1, 9, 3]


def test_list_extended_slice_size_mismatch() -> None:
    lst = List([0, 1, 2, 3])
    with pytest.raises(
        ValueError, match=r"^attempt to assign sequence of size 1 to extended slice of size 2$"
    ):
        lst[::2] = [1]
    assert list(lst) == [0, 1, 2, 3]


def test_list_delitem_index_and_slices() -> None:
    lst = List([0, 1, 2, 3, 4, 5])
    del lst[0]
    assert list(lst) == [1, 2, 3, 4, 5]
    del lst[-1]
    assert list(lst) == [1, 2, 3, 4]
    del lst[1:3]
    assert list(lst) == [1, 4]
    lst.extend([5, 6, 7])
    del lst[::2]
    assert list(lst) == [4, 6]


def test_list_insert_clamps_like_list() -> None:
    lst = List([1, 2])
    lst.insert(100, "end")
    lst.insert(-100, "start")
    lst.insert(1, "mid")
    assert list(lst) == ["start", "mid", 1, 2, "end"]


def test_list_append_and_extend() -> None:
    lst = List([])
    lst.append(1)
    lst.extend([2, 3])
    lst.extend(Array([4]))
    assert list(lst) == [1, 2, 3, 4]


def test_list_pop() -> None:
    lst = List([1, 2, 3])
    assert lst.pop() == 3
    assert lst.pop(0) == 1
    assert list(lst) == [2]


def test_list_pop_from_empty() -> None:
    with pytest.raises(IndexError, match=r"^pop from empty list$"):
        List([]).pop()


def test_list_clear_and_reverse() -> None:
    lst = List([1, 2, 3])
    lst.reverse()
    assert list(lst) == [3, 2, 1]
    lst.clear()
    assert len(lst) == 0
    assert not lst


def test_list_add_returns_new_container() -> None:
    lst = List([1])
    result = lst + [2]  # noqa: RUF005
    assert list(result) == [1, 2]
    assert list(lst) == [1]


def test_list_equals_array_with_same_content() -> None:
    assert List([1, 2]) == Array([1, 2])
    assert List([1, 2]) == [1, 2]


def test_list_shared_by_reference_through_echo() -> None:
    lst = List([1, 2])
    echoed = echo(lst)
    assert isinstance(echoed, List)
    assert echoed.same_as(lst)
    echoed.append(3)
    echoed[0] = 100
    assert list(lst) == [100, 2, 3]


def test_python_list_argument_becomes_array() -> None:
    assert isinstance(echo([1, 2]), Array)


# Map


def test_map_getitem_get_and_contains() -> None:
    m = Map({"a": 1, 2: "b", None: 3.5})
    assert m["a"] == 1
    assert m[2] == "b"
    assert m[None] == 3.5
    assert m.get("a") == 1
    assert m.get("missing") is None
    assert m.get("missing", 7) == 7
    assert "a" in m
    assert "missing" not in m
    assert len(m) == 3


@pytest.mark.parametrize("cls", [tvm_ffi.Map, tvm_ffi.Dict])
@pytest.mark.parametrize("value", [5, "ab", [("a", 1)]])
def test_map_from_non_mapping_is_type_error(cls: type, value: object) -> None:
    with pytest.raises(TypeError, match=f"expected a mapping, got '{type(value).__name__}'"):
        cls(value)


@pytest.mark.parametrize("cls", [tvm_ffi.Map, tvm_ffi.Dict])
def test_map_from_non_mapping_is_also_attribute_error(cls: type) -> None:
    # a value without items() has always raised AttributeError here; callers catch either
    with pytest.raises(AttributeError, match="expected a mapping, got 'int'"):
        cls(3)
    with pytest.raises(TypeError):
        cls(3)
    if cls is tvm_ffi.Map:
        with pytest.raises(AttributeError, match="got 'NoneType'"):
            cls(None)  # type: ignore[arg-type]
    else:
        assert len(cls(None)) == 0  # Dict(None) is an empty Dict


def test_map_missing_key_is_key_error() -> None:
    m = Map({"a": 1})
    with pytest.raises(KeyError, match="key is not in Map"):
        m["missing"]


def test_map_iterates_in_insertion_order() -> None:
    m = Map({"z": 1, "a": 2, "m": 3})
    assert list(m) == ["z", "a", "m"]
    assert list(m.keys()) == ["z", "a", "m"]
    assert list(m.values()) == [1, 2, 3]
    assert list(m.items()) == [("z", 1), ("a", 2), ("m", 3)]


def test_map_views() -> None:
    m = Map({"x": 1, "y": 2})
    assert len(m.keys()) == 2
    assert len(m.values()) == 2
    assert len(m.items()) == 2
    assert "x" in m.keys()  # noqa: SIM118
    assert 2 in m.values()
    assert ("x", 1) in m.items()
    assert ("x", 2) not in m.items()


def test_map_bool() -> None:
    assert not Map({})
    assert Map({"a": 0})


def test_map_object_keys_by_identity() -> None:
    key = make_object()
    m = Map({key: "v"})
    assert m[key] == "v"
    assert make_object() not in m


def test_map_not_equal_to_dict() -> None:
    assert Map({"a": 1}) != {"a": 1}
    assert (Map({"a": 1}) == {"a": 1}) is False


def test_map_equals_map_with_same_content() -> None:
    assert Map({"a": 1, "b": [2]}) == Map({"a": 1, "b": [2]})
    assert Map({"a": 1}) != Map({"a": 2})
    assert hash(Map({"a": 1})) == hash(Map({"a": 1}))


def test_map_has_no_item_assignment() -> None:
    m = Map({"a": 1})
    with pytest.raises((AttributeError, TypeError)):
        m["b"] = 2  # type: ignore[index]


# Dict


def test_dict_default_is_empty() -> None:
    assert len(Dict()) == 0


def test_dict_setitem_and_delitem() -> None:
    d = Dict({"a": 1})
    d["b"] = 2
    d["a"] = 10
    assert dict(d.items()) == {"a": 10, "b": 2}
    del d["a"]
    assert list(d) == ["b"]


def test_dict_delitem_missing_key() -> None:
    d = Dict({"a": 1})
    with pytest.raises(KeyError, match="missing"):
        del d["missing"]


def test_dict_pop() -> None:
    d = Dict({"a": 1, "b": 2})
    assert d.pop("a") == 1
    assert d.pop("a", "default") == "default"
    assert list(d) == ["b"]
    with pytest.raises(KeyError, match="a"):
        d.pop("a")


def test_dict_pop_more_than_one_default() -> None:
    d = Dict({"a": 1})
    with pytest.raises(TypeError, match="at most 2 arguments"):
        d.pop("a", 1, 2)  # type: ignore[call-arg]
    assert d["a"] == 1


def test_dict_clear_and_update() -> None:
    d = Dict({"a": 1})
    d.update({"b": 2, "a": 3})
    assert dict(d.items()) == {"a": 3, "b": 2}
    d.clear()
    assert len(d) == 0


def test_dict_shared_by_reference_through_echo() -> None:
    d = Dict({"a": 1})
    echoed = echo(d)
    assert isinstance(echoed, Dict)
    echoed["b"] = 2
    del echoed["a"]
    assert dict(d.items()) == {"b": 2}


def test_python_dict_argument_becomes_map() -> None:
    result = echo({"a": 1})
    assert isinstance(result, Map)
    assert not isinstance(result, Dict)


# Conversion through typed functions


def test_typed_array_accepts_python_list() -> None:
    fn = tvm_ffi.get_global_func("testing.schema_id_arr_int")
    result = fn([1, 2])
    assert isinstance(result, Array)
    assert list(result) == [1, 2]


def test_typed_array_rejects_wrong_element() -> None:
    fn = tvm_ffi.get_global_func("testing.schema_id_arr_int")
    with pytest.raises(TypeError, match=r"Array\[index 1: ffi\.SmallStr\]"):
        fn([1, "x"])


def test_typed_array_of_strings() -> None:
    fn = tvm_ffi.get_global_func("testing.schema_id_arr_str")
    assert list(fn(["a", "b"])) == ["a", "b"]


def test_typed_map_accepts_python_dict() -> None:
    fn = tvm_ffi.get_global_func("testing.schema_id_map_str_int")
    result = fn({"a": 1, "b": 2})
    assert isinstance(result, Map)
    assert dict(result.items()) == {"a": 1, "b": 2}


def test_typed_map_rejects_wrong_value() -> None:
    fn = tvm_ffi.get_global_func("testing.schema_id_map_str_int")
    with pytest.raises(TypeError, match="Mismatched type on argument #0"):
        fn({"a": "x"})


def test_typed_list_accepts_list_container() -> None:
    fn = tvm_ffi.get_global_func("testing.schema_id_list_int")
    lst = List([1, 2])
    result = fn(lst)
    assert isinstance(result, List)
    assert result.same_as(lst)


def test_typed_dict_accepts_dict_container() -> None:
    fn = tvm_ffi.get_global_func("testing.schema_id_dict_str_int")
    d = Dict({"a": 1})
    result = fn(d)
    assert isinstance(result, Dict)
    assert result.same_as(d)


def test_element_identity_preserved() -> None:
    obj = make_object()
    a = echo(Array([obj, [obj]]))
    assert a[0].same_as(obj)
    assert a[1][0].same_as(obj)


def test_nested_python_containers_convert_recursively() -> None:
    result = echo([1, {"k": [2, 3]}])
    assert isinstance(result[1], Map)
    assert isinstance(result[1]["k"], Array)
    assert list(result[1]["k"]) == [2, 3]


# Reference counts


def test_python_object_refcount_returns_to_baseline() -> None:
    value = Opaque()
    baseline = sys.getrefcount(value)
    for _ in range(100_000):
        a = echo(Array([value]))
        assert a[0] is value
    del a
    assert sys.getrefcount(value) == baseline


def test_ffi_object_use_count_returns_to_baseline() -> None:
    obj = make_object()
    baseline = use_count(obj)
    for _ in range(100_000):
        m = echo(Map({"k": Array([obj])}))
    del m
    assert use_count(obj) == baseline


@pytest.mark.parametrize("key", [[1, 2], {"a": 1}, {1, 2}])
def test_unhashable_keys_are_rejected_like_dict(key: object) -> None:
    d = tvm_ffi.Dict({"a": 1})
    m = tvm_ffi.Map({"a": 1})
    with pytest.raises(TypeError, match="unhashable"):
        d[key] = 1
    with pytest.raises(TypeError, match="unhashable"):
        m[key]
    with pytest.raises(TypeError, match="unhashable"):
        key in m  # noqa: B015
    assert len(d) == 1


DEEP_NESTING = """
import tvm_ffi
kinds = [
    lambda chain, i: tvm_ffi.Array([chain, i]),
    lambda chain, i: tvm_ffi.List([chain]),
    lambda chain, i: tvm_ffi.Map({"next": chain}),
    lambda chain, i: tvm_ffi.Dict({1: 1, 2: 2, 3: 3, 4: 4, 5: chain}),  # dense layout
]
chain = tvm_ffi.Array([])
for i in range(1_000_000):
    chain = kinds[i % len(kinds)](chain, i)
del chain
print("freed")
"""


def test_million_deep_nesting_is_freed(run_python) -> None:
    # In a child process: freeing one level per native stack frame would crash it.
    assert run_python("-c", DEEP_NESTING).stdout == "freed\n"


@pytest.mark.parametrize("kind", [tvm_ffi.Map, tvm_ffi.Dict])
def test_hash_and_views_of_maps_nested_as_keys_are_linear(kind) -> None:
    # Reading items() or values() once looked every key up again (hashing it in Python), so
    # hashing a map with a map key did two nested hashes per level: 2**60 steps here.
    chain = kind({})
    for i in range(60):
        chain = kind({chain: i})
    assert isinstance(hash(chain), int)
    ((key, value),) = chain.items()
    assert value == 59 and key == next(iter(chain))
    assert list(chain.values()) == [59]
    assert (key, 59) in chain.items() and (key, 58) not in chain.items()


DEEP_WALKS = """
import copy
import tvm_ffi
chain = tvm_ffi.Array([])
for i in range(200_000):
    chain = tvm_ffi.Array([chain]) if i % 2 else tvm_ffi.Map({"k": chain})
print(repr(chain).startswith("ffi.Array(0x"))  # the printer's error falls back to the address
try:
    copy.deepcopy(chain)
except RuntimeError as err:
    print(err)
"""


def test_native_walks_of_too_deep_values_raise(run_python) -> None:
    # Printing and deep copy recurse natively; past the thread's stack they raise instead of
    # crashing (in a child process, so a regression does not take the test run down).
    lines = run_python("-c", DEEP_WALKS).stdout.splitlines()
    assert lines == ["True", "maximum recursion depth exceeded while deep-copying a value"]


@pytest.mark.parametrize("make", [lambda x: [x], lambda x: (x,), lambda x: {"k": x}])
def test_converting_too_deep_python_containers_raises_recursion_error(make) -> None:
    value = 1
    for _ in range(100_000):
        value = make(value)
    with pytest.raises(RecursionError, match="while converting a nested container"):
        tvm_ffi.convert(value)
    with pytest.raises(RecursionError):
        tvm_ffi.get_global_func("testing.echo")(value)
    shallow = make(make(1))
    assert tvm_ffi.convert(shallow) == tvm_ffi.convert(make(make(1)))


def test_endless_tvm_ffi_value_chain_raises_recursion_error() -> None:
    class Endless:
        def __tvm_ffi_value__(self) -> object:
            return Endless()

    with pytest.raises(RecursionError):
        tvm_ffi.convert(Endless())


# Equality with other types: what does not compare is left to the other operand


class _EqualsEverything:
    """A class whose __eq__/__ne__ answer for any left operand that returns NotImplemented."""

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False


CONTAINERS = [
    pytest.param(lambda: Array([1, 2]), id="Array"),
    pytest.param(lambda: List([1, 2]), id="List"),
    pytest.param(lambda: Map({"a": 1}), id="Map"),
    pytest.param(lambda: Dict({"a": 1}), id="Dict"),
]


@pytest.mark.parametrize("make", CONTAINERS)
def test_container_equals_mock_any(make: Any) -> None:
    assert make() == mock.ANY
    assert (make() != mock.ANY) is False
    assert mock.call(make()) == mock.call(mock.ANY)


@pytest.mark.parametrize("make", CONTAINERS)
def test_container_eq_defers_to_other_operand(make: Any) -> None:
    assert make() == _EqualsEverything()
    assert (make() != _EqualsEverything()) is False
    assert make().__eq__(_EqualsEverything()) is NotImplemented
    assert make().__ne__(_EqualsEverything()) is NotImplemented


@pytest.mark.parametrize("make", CONTAINERS)
@pytest.mark.parametrize("other", [1, None, "ab", 2.5])
def test_container_unrelated_values_are_unequal(make: Any, other: object) -> None:
    assert make().__eq__(other) is NotImplemented
    assert (make() == other) is False
    assert (make() != other) is True


def test_sequence_eq_converts_python_sequences_strictly() -> None:
    assert Array([1, 2]) == (1, 2)
    assert List([1, 2]) == [1, 2]
    assert Array([1, 2]) == List([1, 2])
    assert List([1, 2]) == Array([1, 2])
    assert Array([{"a": 1}]) == [{"a": 1}]
    assert Array([0, 1]) == range(2)
    # Element types compare strictly, as in the runtime's RecursiveEq.
    assert Array([1]) != [1.0]
    assert Array([1]) != [True]
    # A mapping never equals a sequence, nor a string one of its characters.
    assert Array([1]) != {1: 2}
    assert Array(["a"]) != "a"


def test_sequence_eq_with_numpy_array_is_numpy_elementwise() -> None:
    numpy = pytest.importorskip("numpy")
    result = Array([1, 2]) == numpy.array([1, 3])
    assert isinstance(result, numpy.ndarray)
    assert result.tolist() == [True, False]


def test_map_and_dict_equal_only_their_own_kind() -> None:
    assert Map({"a": 1}) != Dict({"a": 1})
    assert Dict({"a": 1}) != Map({"a": 1})
    assert Map({"a": 1}) != {"a": 1}
    assert Dict({"a": 1}) != {"a": 1}
    assert Dict({"a": [1]}) == Dict({"a": [1]})


def test_sequence_contains_nested_python_sequence() -> None:
    assert [1] in Array([[1], 2])
    assert (1,) in List([[1], 2])
    assert [{"a": 1}] in Array([[{"a": 1}]])
    assert [1.0] not in Array([[1], 2])
    assert "a" in Array(["a"])


def test_container_helpers_index_like_upstream() -> None:
    from tvm_ffi import container

    assert container.normalize_index(3, -1) == 2
    with pytest.raises(IndexError, match=r"Index out of range\. size: 3, got index 3"):
        container.normalize_index(3, 3)
    with pytest.raises(TypeError, match="indices must be integers or slices"):
        container.normalize_index(3, 1.0)  # type: ignore[arg-type]
    data = [10, 20, 30]
    getter = lambda obj, i: obj[i]  # noqa: E731
    assert container.getitem_helper(data, getter, 3, -1) == 30
    assert container.getitem_helper(data, getter, 3, slice(None, None, -2)) == [30, 10]
    assert container._sequence_compare_other(Array([1]), {1: 1}) is NotImplemented
    assert container._sequence_compare_other(Array([1]), "x") is NotImplemented
    converted = container._sequence_compare_other(Array([1]), [1])
    assert isinstance(converted, Array) and list(converted) == [1]
    assert container._sequence_contains(Array([[1]]), [1], lambda this, value: False)
    assert not container._sequence_contains(Array([1]), "1", lambda this, value: False)
    assert container.MISSING is tvm_ffi.core.MISSING
    assert container.register_object is tvm_ffi.register_object

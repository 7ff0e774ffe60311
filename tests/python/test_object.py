# SPDX-License-Identifier: Apache-2.0
"""The handle-level Object API: identity, equality, NULL objects, moves and slots (4.1-4.3)."""

from __future__ import annotations

import ctypes
import pickle
from typing import Any, Callable

import pytest
from conftest import RunPython

import tvm_ffi
from tvm_ffi import core
from tvm_ffi.testing import TestIntPair, TestObjectBase, TestObjectDerived

echo = tvm_ffi.get_global_func("testing.echo")
use_count = tvm_ffi.get_global_func("testing.object_use_count")


def make_object() -> tvm_ffi.Object:
    """A fresh FFI object that Python owns alone."""
    return tvm_ffi.convert(lambda: None)


class PlainSubclass(tvm_ffi.Object):
    pass


class DictSubclass(tvm_ffi.Object):
    __slots__ = ("__dict__",)


def test_chandle_and_id_agree() -> None:
    obj = make_object()
    assert isinstance(obj.__chandle__(), int)
    assert obj.__chandle__() != 0
    assert obj.id_ == obj.__chandle__()


def test_ctypes_handle_matches_chandle() -> None:
    obj = make_object()
    handle = obj.__ctypes_handle__()
    assert type(handle) is ctypes.c_void_p
    assert handle.value == obj.__chandle__()


def test_same_as_compares_handles() -> None:
    obj = make_object()
    other = make_object()
    assert obj.same_as(obj)
    assert obj.same_as(echo(obj))
    assert not obj.same_as(other)


@pytest.mark.parametrize("other", [None, 1, "text", object()])
def test_same_as_and_is_false_for_non_objects(other: object) -> None:
    obj = make_object()
    assert not obj.same_as(other)
    assert not obj.is_(other)


def test_is_matches_same_as() -> None:
    obj = make_object()
    assert obj.is_(echo(obj))
    assert not obj.is_(make_object())


def test_equality_and_hash_by_handle() -> None:
    obj = make_object()
    again = echo(obj)
    assert obj == again
    assert (obj != again) is False
    assert hash(obj) == hash(again)
    assert obj != make_object()
    assert len({obj, again}) == 1


def test_default_object_is_null() -> None:
    obj = tvm_ffi.Object()
    assert obj.__chandle__() == 0
    assert obj.id_ == 0
    assert obj.__ctypes_handle__().value is None
    assert repr(obj) == "Object(chandle=None)"


def test_null_subclass_repr_uses_class_name() -> None:
    assert repr(PlainSubclass()) == "PlainSubclass(chandle=None)"


def test_move_handle_from_steals_handle() -> None:
    source = make_object()
    address = source.__chandle__()
    target = tvm_ffi.Object()
    target.__move_handle_from__(source)
    assert target.__chandle__() == address
    assert source.__chandle__() == 0
    assert use_count(target) == 1


def test_method_of_moved_out_object_is_refused() -> None:
    obj = tvm_ffi.get_global_func("testing.make_unregistered_object")()
    assert obj.get_v1_plus_one() == 42
    echo(obj._move())
    with pytest.raises(TypeError, match="but got `None`"):
        obj.get_v1_plus_one()
    with pytest.raises(ValueError, match="NULL object"):
        _ = obj.v1


def test_move_handle_into_subclass() -> None:
    source = make_object()
    target = PlainSubclass()
    target.__move_handle_from__(source)
    assert isinstance(target, PlainSubclass)
    assert source.__ctypes_handle__().value is None
    assert target.same_as(echo(target))


def test_move_handle_from_object_of_unrelated_type_is_type_error() -> None:
    # An Array holding a Tensor would read the tensor's fields as its cells.
    tensor = tvm_ffi.get_global_func("testing.tensor_empty_cpu")((2, 3), "float32")
    target = tvm_ffi.Array.__new__(tvm_ffi.Array)
    with pytest.raises(TypeError, match=r"Array cannot hold an object of type 'ffi\.Tensor'"):
        target.__move_handle_from__(tensor)
    assert target.__chandle__() == 0
    assert tensor.shape == (2, 3)
    pair = TestIntPair(1, 2)
    with pytest.raises(TypeError, match=r"expected 'testing\.TestObjectBase' or a subtype"):
        TestObjectBase.__new__(TestObjectBase).__move_handle_from__(pair)


def test_move_handle_from_object_of_a_subtype() -> None:
    derived = TestObjectDerived(v_map={}, v_array=[])
    base = TestObjectBase.__new__(TestObjectBase)
    base.__move_handle_from__(derived)
    assert base.v_i64 == 10 and derived.__chandle__() == 0
    with pytest.raises(TypeError, match="TestObjectDerived"):
        TestObjectDerived.__new__(TestObjectDerived).__move_handle_from__(TestObjectBase())


def test_subclass_gets_empty_slots() -> None:
    assert PlainSubclass.__slots__ == ()
    obj = PlainSubclass()
    with pytest.raises(AttributeError):
        obj.unknown_attribute = 1


def test_subclass_can_opt_into_dict() -> None:
    obj = DictSubclass()
    obj.extra = 5
    assert obj.extra == 5


def test_builtin_objects_are_objects() -> None:
    func = tvm_ffi.get_global_func("testing.add_one")
    assert isinstance(func, tvm_ffi.Object)
    assert isinstance(core.Error("ValueError", "m", ""), tvm_ffi.Object)
    assert isinstance(tvm_ffi.convert(object()), tvm_ffi.Object)


def test_use_count_tracks_python_references() -> None:
    obj = make_object()
    assert use_count(obj) == 1
    copies = [echo(obj) for _ in range(3)]
    assert use_count(obj) == 4
    del copies
    assert use_count(obj) == 1


def test_move_ref_wraps_object() -> None:
    obj = make_object()
    ref = obj._move()
    assert isinstance(ref, core.ObjectRValueRef)
    assert ref.obj is obj


NO_NATIVE_OBJECT = "has no native object"


def moved_out(obj: Any) -> Any:
    """obj after a call took its handle: the rvalue reference moved into the callee."""
    tvm_ffi.get_global_func("testing.apply")(tvm_ffi.convert(lambda x: x), obj._move())
    assert obj.__chandle__() == 0
    return obj


def never_set(cls: type) -> Any:
    """An instance of cls made without a native object."""
    return cls.__new__(cls)


@pytest.mark.parametrize("make", [moved_out, lambda a: never_set(tvm_ffi.Array)])
def test_sequence_without_native_object_raises_value_error(make: Callable[[Any], Any]) -> None:
    array = make(tvm_ffi.Array([1, 2]))
    for use in (len, lambda a: a[0], list, hash):
        with pytest.raises(ValueError, match=NO_NATIVE_OBJECT):
            use(array)


@pytest.mark.parametrize("make", [moved_out, lambda f: never_set(tvm_ffi.Function)])
def test_function_without_native_object_raises_value_error(make: Callable[[Any], Any]) -> None:
    func = make(tvm_ffi.convert(lambda: 1))
    with pytest.raises(ValueError, match=NO_NATIVE_OBJECT):
        func()
    with pytest.raises(ValueError, match=NO_NATIVE_OBJECT):
        func.__call__(1)


def test_tensor_without_native_object_raises_value_error() -> None:
    numpy = pytest.importorskip("numpy")
    tensor = moved_out(tvm_ffi.from_dlpack(numpy.zeros(3)))
    uses = [
        lambda t: t.shape,
        lambda t: t.strides,
        lambda t: t.dtype,
        lambda t: t.device,
        lambda t: t.ndim,
        lambda t: t.data_ptr(),
        lambda t: t.is_contiguous(),
        lambda t: t.__dlpack_device__(),
        lambda t: t.__dlpack__(),
        tvm_ffi.from_dlpack,
        numpy.from_dlpack,
    ]
    for use in uses:
        with pytest.raises(ValueError, match=NO_NATIVE_OBJECT):
            use(tensor)
    assert repr(tensor) == "Tensor(chandle=None)"


def test_error_without_native_object_raises_value_error() -> None:
    error = never_set(core.Error)
    for use in (lambda e: e.kind, lambda e: e.message, lambda e: e.backtrace):
        with pytest.raises(ValueError, match=NO_NATIVE_OBJECT):
            use(error)


def test_function_cannot_be_pickled() -> None:
    with pytest.raises(TypeError):
        pickle.dumps(make_object())


# sentinels


def test_sentinel_reprs() -> None:
    assert repr(core.MISSING) == "<MISSING>"
    assert repr(core.KWARGS) == "<KWARGS>"
    assert isinstance(core.MISSING, tvm_ffi.Object)
    assert isinstance(core.KWARGS, tvm_ffi.Object)
    assert not core.MISSING.same_as(core.KWARGS)


def test_sentinels_are_the_runtime_singletons() -> None:
    assert core.MISSING.same_as(tvm_ffi.get_global_func("ffi.GetInvalidObject")())
    assert core.KWARGS.same_as(tvm_ffi.get_global_func("ffi.GetKwargsObject")())
    assert echo(core.MISSING).same_as(core.MISSING)
    assert echo(core.KWARGS).__chandle__() == core.KWARGS.__chandle__()


# Each object holds the last reference to the next, through an Array field: freeing the head
# once took one native stack frame per link and crashed well before a million links.
_FREE_LONG_CHAIN = """
import tvm_ffi
make = tvm_ffi.get_global_func("ffi.MakeObjectFromPackedArgs")
chain = make("testing.TestObjectDerived", 0, 0.0, "s", {}, [])
for i in range(1000000):
    chain = make("testing.TestObjectDerived", i, 0.0, "s", {}, [chain])
del chain
print("freed")
"""


def test_freeing_a_million_object_chain_does_not_overflow_the_stack(run_python: RunPython) -> None:
    assert run_python("-c", _FREE_LONG_CHAIN).stdout.strip() == "freed"


CORE_CLASSES_BY_KEY = {
    "ffi.Object": tvm_ffi.Object,
    "ffi.Error": core.Error,
    "ffi.Function": tvm_ffi.Function,
    "ffi.Tensor": tvm_ffi.Tensor,
    "ffi.String": core.String,
    "ffi.Bytes": core.Bytes,
    "ffi.Shape": tvm_ffi.Shape,
    "ffi.Array": tvm_ffi.Array,
    "ffi.List": tvm_ffi.List,
    "ffi.Map": tvm_ffi.Map,
    "ffi.Dict": tvm_ffi.Dict,
    "ffi.Module": tvm_ffi.Module,
    "ffi.OpaquePyObject": core.OpaquePyObject,
    "DataType": core.DataType,
    "Device": tvm_ffi.Device,
}


@pytest.mark.parametrize("type_key", sorted(CORE_CLASSES_BY_KEY))
def test_type_info_attachment(type_key: str) -> None:
    cls = CORE_CLASSES_BY_KEY[type_key]
    info = core._type_cls_to_type_info(cls)
    assert info.type_key == type_key
    assert info.type_cls is cls
    parent = info.parent_type_info
    if type_key in ("ffi.Object", "DataType", "Device"):
        assert parent is None
    else:
        assert parent.type_key == "ffi.Object"
        assert parent.type_cls is tvm_ffi.Object


def test_fallback_class_type_info_names_its_registered_parent() -> None:
    obj = tvm_ffi.get_global_func("testing.make_unregistered_object")()
    info = core._type_cls_to_type_info(type(obj))
    assert info.type_cls is type(obj)
    parent = info.parent_type_info
    assert parent.type_key == "testing.TestUnregisteredBaseObject"
    assert parent.type_cls is type(obj).__mro__[1]
    assert parent.parent_type_info.type_cls is tvm_ffi.Object

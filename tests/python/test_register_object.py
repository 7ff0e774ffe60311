# SPDX-License-Identifier: Apache-2.0
"""register_object: reflected fields and methods, generated __init__, fallback classes (4.1-4.6)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import tvm_ffi
import tvm_ffi.testing
from tvm_ffi import core
from tvm_ffi.registry import _kwargs_tail

make_object_from_args = tvm_ffi.get_global_func("ffi.MakeObjectFromPackedArgs")
make_unregistered = tvm_ffi.get_global_func("testing.make_unregistered_object")
int_pair_sum = tvm_ffi.get_global_func("testing.TestIntPairSum")


@tvm_ffi.register_object("testing.TestIntPair")
class IntPair(tvm_ffi.Object):
    """Python side of testing.TestIntPair."""

    def describe(self) -> str:
        return f"pair {self.a}/{self.b}"


ObjectBase = tvm_ffi.testing.TestObjectBase


def body_v_array(self: tvm_ffi.Object) -> str:
    return "defined in the body"


# The bare form takes the key from __name__; keys have dots, so build the class dynamically.
ObjectDerived = tvm_ffi.register_object(
    type(ObjectBase)("testing.TestObjectDerived", (ObjectBase,), {"v_array": body_v_array})
)


def bind_testing_classes() -> None:
    """Give the two types back to tvm_ffi.testing's classes."""
    tvm_ffi.register_object("testing.TestIntPair")(tvm_ffi.testing.TestIntPair)
    tvm_ffi.register_object("testing.TestObjectDerived")(tvm_ffi.testing.TestObjectDerived)


# The decorators above bound this module's classes at import; other modules collected in the
# same process must not see them before this module's tests run (own_classes_registered).
bind_testing_classes()


@pytest.fixture(autouse=True, scope="module")
def own_classes_registered() -> Iterator[None]:
    """Bind this module's classes while its tests run; then tvm_ffi.testing's again."""
    tvm_ffi.register_object("testing.TestIntPair")(IntPair)
    tvm_ffi.register_object("testing.TestObjectDerived")(ObjectDerived)
    yield
    bind_testing_classes()


def make_base() -> ObjectBase:
    return make_object_from_args("testing.TestObjectBase", 10, 10.0, "hello")


def make_derived() -> tvm_ffi.Object:
    return make_object_from_args("testing.TestObjectDerived", 1, 2.0, "s", {"k": 1}, [1, 2])


# register_object arguments


def test_unknown_type_key_is_value_error() -> None:
    message = r"^Cannot find object type index for testing\.NoSuchType$"
    with pytest.raises(ValueError, match=message):

        @tvm_ffi.register_object("testing.NoSuchType")
        class Missing(tvm_ffi.Object):
            pass


def test_non_str_type_key_is_type_error() -> None:
    with pytest.raises(TypeError, match="type_key must be a str"):
        tvm_ffi.register_object(123)  # type: ignore[arg-type]


def test_bare_form_uses_class_name_as_key() -> None:
    assert ObjectDerived.__name__ == "testing.TestObjectDerived"
    assert isinstance(make_derived(), ObjectDerived)


def test_registration_returns_the_class() -> None:
    assert IntPair.__name__ == "IntPair"
    assert IntPair.__doc__ == "Python side of testing.TestIntPair."


def test_type_info_attached() -> None:
    info = IntPair.__tvm_ffi_type_info__
    assert info.type_key == "testing.TestIntPair"
    assert info.type_cls is IntPair
    assert ObjectDerived.__tvm_ffi_type_info__.parent_type_info.type_cls is ObjectBase


# Fields


def test_fields_become_properties() -> None:
    assert isinstance(IntPair.__dict__["a"], core.FFIProperty)
    pair = IntPair(3, 4)
    assert pair.a == 3
    assert pair.b == 4


def test_read_only_field_assignment_is_attribute_error() -> None:
    pair = IntPair(1, 2)
    with pytest.raises(AttributeError, match="has no setter"):
        pair.a = 5  # type: ignore[misc]
    assert pair.a == 1


def test_ffi_property_set_writes_read_only_field() -> None:
    pair = IntPair(1, 2)
    IntPair.a.set(pair, 5)  # type: ignore[attr-defined]
    assert pair.a == 5
    assert pair.sum() == 7


def test_writable_field_set_and_get() -> None:
    obj = make_base()
    assert obj.v_i64 == 10
    obj.v_i64 = 42
    obj.v_str = "world"
    assert obj.v_i64 == 42
    assert obj.v_str == "world"
    assert obj.add_i64(1) == 43


def test_writable_field_wrong_type_is_type_error() -> None:
    obj = make_base()
    with pytest.raises(TypeError, match=r"Cannot convert from type `ffi\.SmallStr` to `int`"):
        obj.v_i64 = "x"
    assert obj.v_i64 == 10


def test_float_field_is_read_only() -> None:
    obj = make_base()
    assert obj.v_f64 == 10.0
    with pytest.raises(AttributeError, match="has no setter"):
        obj.v_f64 = 1.0


def test_property_doc_from_reflection() -> None:
    assert IntPair.a.__doc__ == "Field `a`"
    assert ObjectBase.v_i64.__doc__ == "i64 field"
    assert ObjectBase.v_str.__doc__ is None


def test_derived_sees_parent_fields() -> None:
    obj = make_derived()
    assert obj.v_i64 == 1
    assert obj.v_str == "s"
    assert obj.v_map["k"] == 1


# Methods


def test_instance_method_installed() -> None:
    pair = IntPair(2, 5)
    assert pair.sum() == 7
    assert IntPair.sum.__doc__ == "Method to compute sum of a and b"
    assert IntPair.sum.__name__ == "sum"


def test_static_method_callable_is_staticmethod() -> None:
    info = IntPair.__tvm_ffi_type_info__
    static = [method for method in info.methods if method.is_static]
    assert static
    assert isinstance(static[0].as_callable(IntPair), staticmethod)


def test_global_function_accepts_registered_instance() -> None:
    assert int_pair_sum(IntPair(10, 20)) == 30


def test_class_body_names_not_overwritten() -> None:
    assert ObjectDerived.__dict__["v_array"] is body_v_array
    assert make_derived().v_array() == "defined in the body"
    assert IntPair(1, 2).describe() == "pair 1/2"


# Construction


def test_init_from_native_initializer() -> None:
    pair = IntPair(1, 2)
    assert isinstance(pair, IntPair)
    assert pair.__chandle__() != 0
    assert pair.sum() == 3


def test_init_wrong_arity_is_type_error() -> None:
    with pytest.raises(TypeError, match="Expected 2 but got 1 arguments"):
        IntPair(1)  # type: ignore[call-arg]


def test_type_without_initializer_cannot_be_constructed() -> None:
    cls = type(tvm_ffi.get_global_func("testing.make_structural_opaque")())
    with pytest.raises(
        TypeError, match=r"^`TestStructuralOpaque` cannot be constructed directly\. "
    ):
        cls()


def test_returned_objects_use_registered_class() -> None:
    assert isinstance(make_base(), ObjectBase)
    assert isinstance(tvm_ffi.get_global_func("testing.echo")(IntPair(1, 2)), IntPair)


# Fallback classes


def test_fallback_class_names() -> None:
    cls = type(make_unregistered())
    assert cls.__name__ == "TestUnregisteredObject"
    assert cls.__qualname__ == "testing.TestUnregisteredObject"
    assert cls.__module__ == "testing"
    assert "Auto-generated fallback class" in cls.__doc__


def test_fallback_class_subclasses_ancestor_fallback() -> None:
    cls = type(make_unregistered())
    parent = cls.__mro__[1]
    assert parent.__qualname__ == "testing.TestUnregisteredBaseObject"
    assert issubclass(cls, tvm_ffi.Object)


def test_fallback_class_reused() -> None:
    assert type(make_unregistered()) is type(make_unregistered())


def test_fallback_class_fields_and_methods() -> None:
    obj = make_unregistered()
    assert obj.v1 == 41
    assert obj.v2 == 42
    assert obj.get_v1_plus_one() == 42
    assert obj.get_v2_plus_two() == 44
    assert type(obj).get_v2_plus_two.__doc__ == "Get (v2 + 2) from TestUnregisteredObject"


# Slots


def test_subclass_gets_slots() -> None:
    assert IntPair.__dict__["__slots__"] == ()
    pair = IntPair(1, 2)
    assert not hasattr(pair, "__dict__")
    with pytest.raises(AttributeError):
        pair.unknown = 1  # type: ignore[attr-defined]


# keyword arguments and type attributes


def test_kwargs_tail_marks_keywords_and_drops_missing() -> None:
    assert _kwargs_tail({}) == []
    tail = _kwargs_tail({"a": 1, "b": core.MISSING, "c": "s"})
    assert tail[0].same_as(core.KWARGS)
    assert tail[1:] == ["a", 1, "c", "s"]


def test_lookup_type_attr_finds_native_init() -> None:
    index = IntPair.__tvm_ffi_type_info__.type_index
    init = core._lookup_type_attr(index, "__ffi_init__")
    assert isinstance(init, core.Function)
    made = init(3, 4)
    assert isinstance(made, IntPair)
    assert (made.a, made.b) == (3, 4)
    assert core._lookup_type_attr(index, "__ffi_init__", ancestor=True).same_as(init)


def test_lookup_type_attr_absent_is_none() -> None:
    index = IntPair.__tvm_ffi_type_info__.type_index
    assert core._lookup_type_attr(index, "__no_such_type_attr__") is None
    assert core._lookup_type_attr(index, "__no_such_type_attr__", ancestor=True) is None
    derived = ObjectDerived.__tvm_ffi_type_info__.type_index
    assert core._lookup_type_attr(derived, "__no_such_type_attr__", ancestor=True) is None
    # A type with fields and no constructor of its own gets the default one (as in Apache).
    assert isinstance(core._lookup_type_attr(derived, "__ffi_init__"), core.Function)


RESOLVED_THEN_REGISTERED = """
import tvm_ffi
make = tvm_ffi.get_global_func("ffi.MakeObjectFromPackedArgs")
Base = tvm_ffi.register_object("testing.TestObjectBase")(type("Base", (tvm_ffi.Object,), {}))
before = make("testing.TestObjectDerived", 1, 2.0, "s", {}, [])
Derived = tvm_ffi.register_object("testing.TestObjectDerived")(type("Derived", (Base,), {}))
after = make("testing.TestObjectDerived", 1, 2.0, "s", {}, [])
print(issubclass(type(before), Base), type(before) is Derived, type(after).__name__)
"""


def test_registering_a_class_replaces_the_ancestor_class_resolved_before(run_python) -> None:
    # In a child process: this process registered both classes at import. Before Derived is
    # registered, its objects get a class made for them under Base; after, Derived.
    printed = run_python("-c", RESOLVED_THEN_REGISTERED).stdout.split()
    assert printed == ["True", "False", "Derived"]


# Re-registration once wrappers exist. Run in a child process: which classes have
# made wrappers is process-wide state.
REREGISTER_SCRIPT = r"""
import tvm_ffi

def register(cls):
    return tvm_ffi.register_object("testing.TestIntPair")(cls)

Slim = register(type("Slim", (tvm_ffi.Object,), {"__slots__": ()}))
Wide = type("Wide", (tvm_ffi.Object,), {"__slots__": ("extra",)})
assert Wide.__basicsize__ > Slim.__basicsize__
index = tvm_ffi.core._object_type_key_to_index("testing.TestIntPair")
assert tvm_ffi.core._class_for_type_index(index) is Slim  # a lookup makes no wrapper
register(Wide)  # no wrapper exists yet: allowed
register(Slim)
pair = Slim(1, 2)
assert type(pair) is Slim
register(type("SlimToo", (tvm_ffi.Object,), {"__slots__": ()}))  # same size: allowed
try:
    register(Wide)
except ValueError as err:
    print(err)
else:
    raise SystemExit("a larger class replaced a materialized one")
# The rejected class changed nothing.
assert tvm_ffi.core._type_index_to_type_info(index).type_cls.__name__ == "SlimToo"
assert type(tvm_ffi.get_global_func("testing.echo")(pair)).__name__ == "SlimToo"

# Making the fallback class of a child type makes no wrapper of its parent.
base_key = "testing.TestUnregisteredBaseObject"
Base = tvm_ffi.register_object(base_key)(type("Base", (tvm_ffi.Object,), {"__slots__": ()}))
child = tvm_ffi.get_global_func("testing.make_unregistered_object")()
assert isinstance(child, Base) and type(child) is not Base
tvm_ffi.register_object(base_key)(type("WideBase", (tvm_ffi.Object,), {"__slots__": ("x",)}))
"""


def test_reregistering_larger_class_after_instances_is_value_error() -> None:
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-c", REREGISTER_SCRIPT], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(
        "register_object(): cannot re-register type 'testing.TestIntPair' with class 'Wide'; "
        "instances were already created with the smaller class 'Slim'"
    ), run.stdout


def test_init_from_the_ffi_init_type_attribute(run_python) -> None:
    # ObjectDef registers the field-wise constructor as a type attribute, not a method (0.1.15);
    # a class without __init__ of its own gets it. Registered in a fresh interpreter, as the
    # testing package's class would otherwise be replaced for every other test.
    script = """
import pytest, tvm_ffi, tvm_ffi.testing
from tvm_ffi import core

@tvm_ffi.register_object("testing.TestObjectPtrHolder")
class Holder(tvm_ffi.Object):
    pass

info = Holder.__tvm_ffi_type_info__
assert not any(m.name == "__ffi_init__" for m in info.methods)
assert core._lookup_type_attr(info.type_index, "__ffi_init__") is not None
value = tvm_ffi.testing.TestObjectBase(v_i64=4)
holder = Holder(value)
assert type(holder) is Holder and holder.value.same_as(value) and holder.optional_value is None
assert Holder(value=value, optional_value=value).optional_value.same_as(value)
with pytest.raises(TypeError, match="missing required argument: 'value'"):
    Holder()
print("constructed")
"""
    assert run_python("-c", script).stdout.strip() == "constructed"


class NotAnObject:
    pass


@pytest.mark.parametrize("cls", [int, NotAnObject, Exception])
def test_register_object_rejects_classes_that_are_not_objects(cls: type) -> None:
    before = core._registered_class(core._object_type_key_to_index("testing.TestIntPair"))
    with pytest.raises(TypeError, match=r"register_object\(\): expected a subclass"):
        tvm_ffi.register_object("testing.TestIntPair")(cls)
    after = core._registered_class(core._object_type_key_to_index("testing.TestIntPair"))
    assert after is before and not hasattr(cls, "__tvm_ffi_type_info__")


def test_keywords_to_a_positional_native_constructor_name_the_problem() -> None:
    with pytest.raises(TypeError, match=r"takes positional arguments only; got keyword argument"):
        IntPair(a=1, b=2)
    with pytest.raises(TypeError, match=r"keyword argument\(s\) 'b'"):
        IntPair(1, b=2)
    assert (IntPair(1, 2).a, IntPair(1, 2).b) == (1, 2)


def test_keywords_to_the_field_wise_constructor_set_fields() -> None:
    base = ObjectBase(v_str="named", v_i64=3)
    assert (base.v_i64, base.v_f64, base.v_str) == (3, 10.0, "named")


# Helpers shared with @c_class and @py_class


REGISTRY_HELPERS_SCRIPT = r"""
import warnings
import pytest, tvm_ffi, tvm_ffi.testing
from tvm_ffi import core, registry

calls = []

@tvm_ffi.register_object("testing.TestIntPair")
class Pair(tvm_ffi.Object):
    def __post_init__(self):
        calls.append((self.a, self.b))

pair = Pair(1, 2)
assert calls == [(1, 2)] and pair.sum() == 3

# a class registered with another type cannot borrow this __ffi_init__
@tvm_ffi.register_object("testing.TestObjectBase")
class Other(tvm_ffi.Object):
    pass

other = Other.__new__(Other)
with pytest.raises(TypeError, match=r"Pair.__ffi_init__\(\): calling it on a `Other` instance "
                                    r"is not supported"):
    Pair.__ffi_init__(other, 1, 2)

# _install_init keeps a class-body __init__ and guards types without an initializer
class Custom(tvm_ffi.Object):
    def __init__(self):
        pass

info = core._type_cls_to_type_info(Pair)
registry._install_init(Custom, info)
assert Custom.__dict__["__init__"].__qualname__ == "Custom.__init__"
unregistered = type(tvm_ffi.get_global_func("testing.make_structural_opaque")())
guarded = type("Guarded", (tvm_ffi.Object,), {})
registry._install_init(guarded, unregistered.__tvm_ffi_type_info__)
with pytest.raises(TypeError, match="`Guarded` cannot be constructed directly"):
    guarded()

# _add_type_attr_class_attrs copies type attributes the class body does not define
index = info.type_index
core._register_type_attr(index, "__test_registry_attr__", 41)
class Holder:
    pass
registry._add_type_attr_class_attrs(Holder, info, ["__test_registry_attr__", "__absent__"])
assert Holder.__test_registry_attr__ == 41 and not hasattr(Holder, "__absent__")
class Keeps:
    __test_registry_attr__ = 1
registry._add_type_attr_class_attrs(Keeps, info, ["__test_registry_attr__"])
assert Keeps.__test_registry_attr__ == 1
assert registry._add_class_attrs(Holder, info, type_attr_names=()) is Holder
assert isinstance(Holder.__dict__["a"], core.FFIProperty)

# _warn_missing_field_annotations names the own fields the body leaves out
class Half(tvm_ffi.Object):
    a: int
with pytest.warns(UserWarning, match=r"does not annotate the following reflected field\(s\): b\."):
    registry._warn_missing_field_annotations(Half, info, stacklevel=2)
class Full(tvm_ffi.Object):
    a: int
    b: int
with warnings.catch_warnings():
    warnings.simplefilter("error")
    registry._warn_missing_field_annotations(Full, info, stacklevel=2)
print("ok")
"""


def test_registry_helpers(run_python) -> None:
    assert run_python("-c", REGISTRY_HELPERS_SCRIPT).stdout.strip() == "ok"


def test_reflected_methods_do_not_replace_inherited_attributes(run_python) -> None:
    script = """
import tvm_ffi, tvm_ffi.testing

class Base(tvm_ffi.Object):
    def sum(self):
        return "python"

@tvm_ffi.register_object("testing.TestIntPair")
class Pair(Base):
    pass

assert "sum" not in Pair.__dict__ and Pair(1, 2).sum() == "python"
print("ok")
"""
    assert run_python("-c", script).stdout.strip() == "ok"

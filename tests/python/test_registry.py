# SPDX-License-Identifier: Apache-2.0
"""The global function registry."""

from __future__ import annotations

import json
import re
import sys
import types
from collections.abc import Iterator

import pytest

import tvm_ffi


@pytest.fixture
def unique_name(request: pytest.FixtureRequest) -> Iterator[str]:
    """A global function name private to one test; removed afterwards."""
    name = f"testreg.{request.node.name.replace('[', '_').replace(']', '_')}"
    tvm_ffi.remove_global_func(name)
    yield name
    tvm_ffi.remove_global_func(name)


def test_register_with_function_argument(unique_name: str) -> None:
    func = tvm_ffi.register_global_func(unique_name, lambda x: x * 3)
    assert isinstance(func, tvm_ffi.Function)
    assert func(2) == 6
    assert tvm_ffi.get_global_func(unique_name)(4) == 12


def test_register_decorator_returns_registered_function(unique_name: str) -> None:
    @tvm_ffi.register_global_func(unique_name)
    def triple(x: int) -> int:
        return x * 3

    assert isinstance(triple, tvm_ffi.Function)
    assert tvm_ffi.get_global_func(unique_name).same_as(triple)
    assert triple(5) == 15


def test_register_callable_first_uses_its_name() -> None:
    def testreg_callable_first_name() -> str:
        return "named"

    name = "testreg_callable_first_name"
    tvm_ffi.remove_global_func(name)
    func = tvm_ffi.register_global_func(testreg_callable_first_name)
    assert tvm_ffi.get_global_func(name).same_as(func)
    assert tvm_ffi.get_global_func(name)() == "named"
    tvm_ffi.remove_global_func(name)


def test_register_existing_function_object(unique_name: str) -> None:
    add_one = tvm_ffi.get_global_func("testing.add_one")
    result = tvm_ffi.register_global_func(unique_name, add_one)
    assert result.same_as(add_one)
    assert tvm_ffi.get_global_func(unique_name)(1) == 2


def test_register_duplicate_raises(unique_name: str) -> None:
    tvm_ffi.register_global_func(unique_name, lambda: 1)
    with pytest.raises(RuntimeError, match="already registered"):
        tvm_ffi.register_global_func(unique_name, lambda: 2)
    assert tvm_ffi.get_global_func(unique_name)() == 1


def test_register_duplicate_decorator_raises(unique_name: str) -> None:
    tvm_ffi.register_global_func(unique_name, lambda: 1)
    with pytest.raises(RuntimeError, match=f"Global Function `{unique_name}` is already"):

        @tvm_ffi.register_global_func(unique_name)
        def again() -> int:
            return 2


def test_register_with_override_replaces(unique_name: str) -> None:
    tvm_ffi.register_global_func(unique_name, lambda: 1)
    tvm_ffi.register_global_func(unique_name, lambda: 2, override=True)
    assert tvm_ffi.get_global_func(unique_name)() == 2


def test_register_decorator_with_override(unique_name: str) -> None:
    tvm_ffi.register_global_func(unique_name, lambda: 1)

    @tvm_ffi.register_global_func(unique_name, override=True)
    def replacement() -> int:
        return 3

    assert tvm_ffi.get_global_func(unique_name)() == 3


@pytest.mark.parametrize("name", [1, 5, None, b"bytes.name"])
def test_register_non_string_name_raises_type_error(name: object) -> None:
    with pytest.raises(TypeError, match=r"register_global_func\(\): expected a function name"):
        tvm_ffi.register_global_func(name, lambda: 1)


def test_get_missing_raises() -> None:
    with pytest.raises(ValueError, match=re.escape("Cannot find global function testreg.no_such")):
        tvm_ffi.get_global_func("testreg.no_such")


def test_get_missing_allowed_returns_none() -> None:
    assert tvm_ffi.get_global_func("testreg.no_such", allow_missing=True) is None


def test_remove_global_func(unique_name: str) -> None:
    tvm_ffi.register_global_func(unique_name, lambda: 1)
    tvm_ffi.remove_global_func(unique_name)
    assert tvm_ffi.get_global_func(unique_name, allow_missing=True) is None
    assert unique_name not in tvm_ffi.registry.list_global_func_names()


def test_remove_missing_is_ignored() -> None:
    assert tvm_ffi.remove_global_func("testreg.never_registered") is None


def test_registered_function_survives_python_reference(unique_name: str) -> None:
    tvm_ffi.register_global_func(unique_name, lambda s: s + "!")
    assert tvm_ffi.get_global_func(unique_name)("hi") == "hi!"


def test_list_global_func_names_includes_testing_functions(unique_name: str) -> None:
    tvm_ffi.register_global_func(unique_name, lambda: None)
    names = tvm_ffi.registry.list_global_func_names()
    assert all(isinstance(name, str) for name in names)
    for name in ("testing.echo", "testing.add_one", "testing.apply", unique_name):
        assert name in names


def test_metadata_of_python_function_is_empty(unique_name: str) -> None:
    tvm_ffi.register_global_func(unique_name, lambda: None)
    assert tvm_ffi.get_global_func_metadata(unique_name) == {}


def test_metadata_of_typed_function_has_type_schema() -> None:
    metadata = tvm_ffi.get_global_func_metadata("testing.add_one")
    assert isinstance(metadata["type_schema"], str)
    assert json.loads(metadata["type_schema"]) == {
        "type": "ffi.Function",
        "named_args": {"return": [{"type": "int"}], "params": [{"type": "int"}]},
    }


def test_metadata_extra_keys() -> None:
    metadata = tvm_ffi.get_global_func_metadata("testing.schema_id_int")
    assert metadata["bool_attr"] is True
    assert metadata["int_attr"] == 1
    assert metadata["str_attr"] == "hello"
    assert "type_schema" in metadata


def test_metadata_of_missing_function_raises() -> None:
    with pytest.raises(
        RuntimeError, match=re.escape("Global Function is not found: testreg.missing")
    ):
        tvm_ffi.get_global_func_metadata("testreg.missing")


@pytest.fixture
def fresh_module() -> Iterator[types.ModuleType]:
    module = types.ModuleType("testreg_target_module")
    sys.modules[module.__name__] = module
    yield module
    del sys.modules[module.__name__]


def test_init_ffi_api_sets_one_level_names(fresh_module: types.ModuleType) -> None:
    tvm_ffi.register_global_func("testreg_api.alpha", lambda: "a", override=True)
    tvm_ffi.register_global_func("testreg_api.nested.beta", lambda: "b", override=True)
    tvm_ffi.init_ffi_api("testreg_api", fresh_module.__name__)
    assert fresh_module.alpha() == "a"
    assert fresh_module.alpha.__name__ == "alpha"
    assert isinstance(fresh_module.alpha, tvm_ffi.Function)
    assert not hasattr(fresh_module, "beta")
    assert not hasattr(fresh_module, "nested")
    tvm_ffi.remove_global_func("testreg_api.alpha")
    tvm_ffi.remove_global_func("testreg_api.nested.beta")


def test_init_ffi_api_testing_namespace(fresh_module: types.ModuleType) -> None:
    tvm_ffi.init_ffi_api("testing", fresh_module.__name__)
    assert fresh_module.add_one(1) == 2
    assert fresh_module.echo.__name__ == "echo"
    assert fresh_module.echo.same_as(tvm_ffi.get_global_func("testing.echo"))


def test_init_ffi_api_strips_tvm_prefix(fresh_module: types.ModuleType) -> None:
    tvm_ffi.init_ffi_api("tvm.testing", fresh_module.__name__)
    assert fresh_module.add_one(2) == 3


def test_string_object_names_are_accepted(unique_name: str) -> None:
    name = tvm_ffi.get_global_func("testing.echo")(unique_name)
    assert type(name) is tvm_ffi.core.String
    tvm_ffi.register_global_func(name, lambda: 7)
    assert tvm_ffi.get_global_func(name)() == 7
    assert tvm_ffi.get_global_func_metadata(name) == {}
    tvm_ffi.remove_global_func(name)
    assert tvm_ffi.get_global_func(unique_name, allow_missing=True) is None


# One thread replaces a Python global while holding the GIL (waiting for the registry's lock);
# another removes it inside a GIL-releasing call, which frees the Python callable (needing the
# GIL). Freed under the registry's lock, this deadlocked within a second.
_REGISTER_REMOVE_RACE = """
import threading, time
import tvm_ffi

stop = time.monotonic() + 2.0
counts = {"register": 0, "remove": 0}

def register():
    while time.monotonic() < stop:
        tvm_ffi.register_global_func("testreg.race", lambda: None, override=True)
        counts["register"] += 1

def remove():
    while time.monotonic() < stop:
        tvm_ffi.remove_global_func("testreg.race")
        counts["remove"] += 1

threads = [threading.Thread(target=register), threading.Thread(target=remove)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(counts["register"] > 0 and counts["remove"] > 0)
"""


def test_replacing_and_removing_from_threads_does_not_deadlock(run_python) -> None:
    assert run_python("-c", _REGISTER_REMOVE_RACE).stdout.strip() == "True"


POD_TYPE_KEYS = {
    "None",
    "int",
    "bool",
    "float",
    "void*",
    "DataType",
    "Device",
    "DLTensor*",
    "const char*",
    "TVMFFIByteArray*",
    "ObjectRValueRef",
}


CORE_TYPE_KEYS = {
    "ffi.Object",
    "ffi.Error",
    "ffi.Function",
    "ffi.String",
    "ffi.Bytes",
    "ffi.SmallStr",
    "ffi.SmallBytes",
    "ffi.Shape",
    "ffi.Tensor",
    "ffi.Array",
    "ffi.List",
    "ffi.Map",
    "ffi.Dict",
    "ffi.Module",
    "ffi.OpaquePyObject",
}


def test_registered_type_keys_cover_pod_core_and_testing_types(run_python) -> None:
    """In a fresh process (tests here load libraries that add their own types)."""
    code = "import json, tvm_ffi\nprint(json.dumps(tvm_ffi.get_registered_type_keys()))\n"
    keys = json.loads(run_python("-c", code).stdout)
    assert len(set(keys)) == len(keys)
    assert set(keys) >= POD_TYPE_KEYS | CORE_TYPE_KEYS
    assert set(keys) >= {
        "testing.TestIntPair",
        "testing.TestObjectBase",
        "testing.TestObjectDerived",
    }
    for key in set(keys) - POD_TYPE_KEYS:
        assert key.startswith(("ffi.", "testing.")), key


def test_registered_type_keys_in_this_process_are_plain_strings() -> None:
    keys = tvm_ffi.get_registered_type_keys()
    assert keys == tvm_ffi.registry.get_registered_type_keys()
    assert all(type(key) is str for key in keys)
    assert set(keys) >= CORE_TYPE_KEYS


def test_registered_type_keys_include_a_type_allocated_later(run_python) -> None:
    code = (
        "import ctypes, tvm_ffi\n"
        "class ByteArray(ctypes.Structure):\n"
        "    _fields_ = [('data', ctypes.c_char_p), ('size', ctypes.c_size_t)]\n"
        "key = b'testing.AllocatedLater'\n"
        "assert key.decode() not in tvm_ffi.get_registered_type_keys()\n"
        "alloc = tvm_ffi.LIB.TVMFFITypeGetOrAllocIndex\n"
        "alloc.restype = ctypes.c_int32\n"
        "alloc(ctypes.byref(ByteArray(key, len(key))), -1, 1, 0, 1, 64)\n"
        "print(key.decode() in tvm_ffi.get_registered_type_keys())\n"
    )
    assert run_python("-c", code).stdout.strip() == "True"


def test_skip_unknown_objects_is_off_by_default() -> None:
    assert tvm_ffi.registry._SKIP_UNKNOWN_OBJECTS is False
    with pytest.raises(ValueError, match=r"Cannot find object type index for testreg\.NoSuchType"):

        @tvm_ffi.register_object("testreg.NoSuchType")
        class Unknown(tvm_ffi.Object):
            pass


def test_skip_unknown_objects_returns_the_class_unchanged(monkeypatch) -> None:
    monkeypatch.setattr(tvm_ffi.registry, "_SKIP_UNKNOWN_OBJECTS", True)

    @tvm_ffi.register_object("testreg.NoSuchType")
    class Unknown(tvm_ffi.Object):
        pass

    class Bare(tvm_ffi.Object):
        pass

    assert tvm_ffi.register_object(Bare) is Bare  # bare decorator: the class name as key
    for cls in (Unknown, Bare):
        assert "__tvm_ffi_type_info__" not in cls.__dict__
        assert "__init__" not in cls.__dict__


def test_skip_unknown_objects_still_registers_known_types(run_python) -> None:
    code = (
        "import tvm_ffi\n"
        "tvm_ffi.registry._SKIP_UNKNOWN_OBJECTS = True\n"
        "@tvm_ffi.register_object('testing.TestIntPair')\n"
        "class Pair(tvm_ffi.Object):\n"
        "    pass\n"
        "print(Pair.__tvm_ffi_type_info__.type_key)\n"
        "print(tvm_ffi.get_global_func('testing.TestIntPairSum')(Pair(1, 2)))\n"
    )
    assert run_python("-c", code).stdout.split() == ["testing.TestIntPair", "3"]

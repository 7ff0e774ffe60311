# SPDX-License-Identifier: Apache-2.0
"""tvm_ffi.testing: globals as attributes, helpers, markers, the GPU lock and the test classes,
including the native hash / equality hooks of the testing library's types."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any, Callable

import pytest

import tvm_ffi
import tvm_ffi.testing as testing
from tvm_ffi.testing import _locking

recursive_eq = tvm_ffi.get_global_func("ffi.RecursiveEq")
recursive_hash = tvm_ffi.get_global_func("ffi.RecursiveHash")
recursive_lt = tvm_ffi.get_global_func("ffi.RecursiveLt")

# Names the package defines in Python in place of the global function of the same name.
PYTHON_HELPERS = {"add_one", "make_unregistered_object"}


# Import and attributes


def test_import_tvm_ffi_does_not_import_testing(run_python) -> None:
    code = "import sys, tvm_ffi; print('tvm_ffi.testing' in sys.modules)"
    assert run_python("-c", code).stdout.strip() == "False"


def test_every_testing_global_is_an_attribute() -> None:
    names = [n for n in tvm_ffi.list_global_func_names() if n.startswith("testing.")]
    short_names = {n[len("testing.") :] for n in names if "." not in n[len("testing.") :]}
    assert {"echo", "apply", "nop", "TestIntPairSum", "schema_id_int"} <= short_names
    for short in short_names - PYTHON_HELPERS:
        func = getattr(testing, short)
        assert isinstance(func, tvm_ffi.Function), short
        assert func.same_as(tvm_ffi.get_global_func(f"testing.{short}")), short


# The private classes Apache's tvm_ffi.testing exports, each bound to its native type.
PRIVATE_CLASSES = {
    "_SchemaAllTypes": "testing.SchemaAllTypes",
    "_TestCxxAutoInit": "testing.TestCxxAutoInit",
    "_TestCxxAutoInitAllInitOff": "testing.TestCxxAutoInitAllInitOff",
    "_TestCxxAutoInitChild": "testing.TestCxxAutoInitChild",
    "_TestCxxAutoInitKwOnlyDefaults": "testing.TestCxxAutoInitKwOnlyDefaults",
    "_TestCxxAutoInitParent": "testing.TestCxxAutoInitParent",
    "_TestCxxAutoInitSimple": "testing.TestCxxAutoInitSimple",
    "_TestCxxClassBase": "testing.TestCxxClassBase",
    "_TestCxxClassDerived": "testing.TestCxxClassDerived",
    "_TestCxxClassDerivedDerived": "testing.TestCxxClassDerivedDerived",
    "_TestCxxEnumHolder": "testing.TestCxxEnumHolder",
    "_TestCxxInitSubset": "testing.TestCxxInitSubset",
    "_TestCxxIntEnum": "testing.TestCxxIntEnum",
    "_TestCxxKwOnly": "testing.TestCxxKwOnly",
    "_TestCxxNoAutoInit": "testing.TestCxxNoAutoInit",
    "_TestCxxStrEnum": "testing.TestCxxStrEnum",
}


def test_private_classes_are_exported_but_not_in_all() -> None:
    exported = {
        name for name in dir(testing) if name.startswith("_Test") or name == "_SchemaAllTypes"
    }
    assert exported == set(PRIVATE_CLASSES)
    for name, type_key in PRIVATE_CLASSES.items():
        cls = getattr(testing, name)
        assert cls.__tvm_ffi_type_info__.type_key == type_key
        assert cls.__module__ == "tvm_ffi.testing.testing"
        assert name not in testing.__all__


def test_globals_are_callable_through_the_package() -> None:
    assert testing.echo(7) == 7
    assert testing.apply(testing.add_one, 4) == 5
    assert testing.TestIntPairSum(testing.TestIntPair(2, 3)) == 5
    assert testing._ffi_api.schema_id_int(9) == 9


def test_add_one() -> None:
    assert testing.add_one(41) == 42
    with pytest.raises(TypeError, match="Expected `int`"):
        testing.add_one("x")  # type: ignore[arg-type]


def _add_one_forms() -> dict[str, Callable[[int], int]]:
    symbol = tvm_ffi.get_global_func("testing.get_add_one_c_symbol")()
    mlir_symbol = tvm_ffi.get_global_func("testing.get_mlir_add_one_c_symbol")()
    library = tvm_ffi.load_module(tvm_ffi.libinfo.find_libtvm_ffi_testing())
    add_with_docstring = library["testing_dll_test_add_with_docstring"]
    return {
        "global": testing.add_one,
        "c_symbol": tvm_ffi.Function.__from_extern_c__(symbol),
        "mlir_symbol": tvm_ffi.Function.__from_mlir_packed_safe_call__(mlir_symbol),
        "system_lib": tvm_ffi.system_lib("testing.")["add_one"],
        "dll_add": lambda x: add_with_docstring(x, 1),
    }


@pytest.mark.parametrize("form", ["global", "c_symbol", "mlir_symbol", "system_lib", "dll_add"])
def test_add_one_beyond_int64_raises_overflow_error_kind(form: str) -> None:
    # x + 1 overflowed int64, which is undefined behaviour in C++ (Apache's add_one takes a
    # 32-bit int and overflows there). The kind is the built-in OverflowError.
    add_one = _add_one_forms()[form]
    assert add_one(2**62) == 2**62 + 1
    assert add_one(-(2**63)) == -(2**63) + 1
    with pytest.raises(OverflowError, match="does not fit in int64") as info:
        add_one(2**63 - 1)
    assert info.value.__tvm_ffi_error__.kind == "OverflowError"


def test_make_unregistered_object_has_fallback_class() -> None:
    obj = testing.make_unregistered_object()
    assert type(obj).__qualname__ == "testing.TestUnregisteredObject"
    assert (obj.v1, obj.v2) == (41, 42)


# Markers


@pytest.mark.parametrize(
    ("marker", "version"),
    [
        (testing.requires_py310, (3, 10)),
        (testing.requires_py312, (3, 12)),
        (testing.requires_py313, (3, 13)),
    ],
)
def test_python_version_markers_are_skipif_marks(
    marker: pytest.MarkDecorator, version: tuple[int, int]
) -> None:
    assert isinstance(marker, pytest.MarkDecorator)
    assert marker.mark.name == "skipif"
    assert marker.mark.args == (sys.version_info < version,)
    assert marker.mark.kwargs["reason"] == f"requires Python {version[0]}.{version[1]}+"


@testing.requires_py310
def test_marker_applies_to_a_test() -> None:
    assert sys.version_info >= (3, 10)


# run_with_gpu_lock


@pytest.fixture
def lock_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh lock directory (not yet created) for run_with_gpu_lock."""
    directory = tmp_path / "locks" / "nested"
    monkeypatch.setenv("TVM_FFI_TEST_LOCK_DIR", str(directory))
    monkeypatch.setattr(_locking, "_GPU_LOCK_PATH", None)
    return directory


def test_gpu_lock_returns_result_and_forwards_arguments(lock_dir: Path) -> None:
    def combine(a: int, b: int = 0, func: int = 0) -> tuple[int, int, int]:
        return (a, b, func)

    # `func` is positional-only, so a keyword of that name reaches the callee.
    assert testing.run_with_gpu_lock(combine, 1, b=2, func=3) == (1, 2, 3)
    assert (lock_dir / "gpu.lock").is_file()


def test_gpu_lock_default_path_is_per_user(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TVM_FFI_TEST_LOCK_DIR", raising=False)
    monkeypatch.setattr(_locking, "_GPU_LOCK_PATH", None)
    path = _locking._ensure_gpu_lock_path()
    assert path.name == "gpu.lock"
    assert path.parent.name.startswith("tvm-ffi-test-locks-")
    assert path.parent.is_dir()


TRY_LOCK = """
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR)
try:
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
except BlockingIOError:
    print("held")
else:
    print("free")
"""


def other_process_sees(lock_file: Path) -> str:
    result = subprocess.run(
        [sys.executable, "-c", TRY_LOCK, str(lock_file)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return result.stdout.strip()


@pytest.mark.skipif(sys.platform == "win32", reason="probes the lock with fcntl")
def test_gpu_lock_is_held_during_the_call_only(lock_dir: Path) -> None:
    lock_file = lock_dir / "gpu.lock"
    assert testing.run_with_gpu_lock(other_process_sees, lock_file) == "held"
    assert other_process_sees(lock_file) == "free"


@pytest.mark.skipif(sys.platform == "win32", reason="probes the lock with fcntl")
def test_gpu_lock_released_when_the_call_raises(lock_dir: Path) -> None:
    def fail() -> None:
        raise KeyError("inside")

    with pytest.raises(KeyError, match="inside"):
        testing.run_with_gpu_lock(fail)
    assert other_process_sees(lock_dir / "gpu.lock") == "free"


def test_gpu_lock_serialises_processes(lock_dir: Path, tmp_path: Path) -> None:
    # Each child appends "start end" under the lock; interleaved runs would mix the pairs.
    log = tmp_path / "log.txt"
    child = textwrap.dedent(
        f"""
        import time
        from tvm_ffi.testing import run_with_gpu_lock
        def work():
            with open({str(log)!r}, "a") as f:
                f.write("start\\n"); f.flush(); time.sleep(0.3); f.write("end\\n")
        run_with_gpu_lock(work)
        """
    )
    procs = [subprocess.Popen([sys.executable, "-c", child]) for _ in range(3)]
    assert [p.wait(timeout=120) for p in procs] == [0, 0, 0]
    assert log.read_text().split() == ["start", "end"] * 3


# Classes: construction


def test_object_base_defaults_and_keywords() -> None:
    obj = testing.TestObjectBase()
    assert (obj.v_i64, obj.v_f64, obj.v_str) == (10, 10.0, "hello")
    obj = testing.TestObjectBase(v_i64=3, v_str="s")
    assert (obj.v_i64, obj.v_str) == (3, "s")
    assert obj.add_i64(4) == 7
    with pytest.raises(AttributeError):
        obj.v_f64 = 1.0  # type: ignore[misc]


def test_object_derived_needs_its_fields() -> None:
    obj = testing.TestObjectDerived(v_map={"k": 1}, v_array=[1, 2])
    assert isinstance(obj, testing.TestObjectBase)
    assert (obj.v_i64, dict(obj.v_map), list(obj.v_array)) == (10, {"k": 1}, [1, 2])
    with pytest.raises(TypeError, match="missing required argument: 'v_map'"):
        testing.TestObjectDerived()


def test_int_pair() -> None:
    pair = testing.TestIntPair(3, 4)
    assert (pair.a, pair.b, pair.sum()) == (3, 4, 7)
    with pytest.raises(AttributeError):
        pair.a = 1  # type: ignore[misc]


def test_object_ptr_holder() -> None:
    base = testing.TestObjectBase(v_i64=1)
    holder = testing.TestObjectPtrHolder(base)
    assert holder.value.same_as(base)
    assert holder.optional_value is None
    derived = testing.TestObjectDerived(v_map={}, v_array=[])
    holder = testing.TestObjectPtrHolder(base, optional_value=derived)
    assert holder.optional_value.same_as(derived)
    holder.value = derived
    assert holder.value.same_as(derived)
    with pytest.raises(TypeError):
        holder.value = testing.TestIntPair(1, 2)


def test_non_copyable() -> None:
    obj = testing.TestNonCopyable(5)
    assert obj.value == 5
    with pytest.raises(AttributeError):
        obj.value = 6  # type: ignore[misc]
    info = type(obj).__tvm_ffi_type_info__
    assert tvm_ffi.core._lookup_type_attr(info.type_index, "__ffi_shallow_copy__") is None
    assert tvm_ffi.core._lookup_type_attr(info.type_index, "__ffi_new__") is None


def test_frozen_cxx_is_registered_without_reflection() -> None:
    info = testing.TestFrozenCxx.__tvm_ffi_type_info__
    assert info.type_key == "testing.TestFrozenCxx"
    assert list(info.fields) == []
    with pytest.raises(TypeError, match="cannot be constructed directly"):
        testing.TestFrozenCxx()


def test_key_types_construct_positionally() -> None:
    assert (testing.TestCompare(1, "a", 2).ignored_field, testing.TestHash(1, "a", 3).name) == (
        2,
        "a",
    )
    for cls in (testing.TestCustomHash, testing.TestCustomCompare, testing.TestEqWithoutHash):
        obj = cls(7, "label")
        assert (obj.key, obj.label) == (7, "label")
        with pytest.raises(AttributeError):
            obj.key = 8


BAD_CONSTRUCTIONS: list[tuple[Callable[[], Any], str]] = [
    (lambda: testing.TestObjectBase(v_i64="x"), "field 'v_i64'"),
    (lambda: testing.TestObjectBase(no_such=1), "unexpected keyword argument 'no_such'"),
    (lambda: testing.TestIntPair(1), "Expected 2 but got 1 arguments"),
    (lambda: testing.TestIntPair(1, "b"), "Expected `int`"),
    (lambda: testing.TestObjectPtrHolder(), "missing required argument: 'value'"),
    (lambda: testing.TestObjectPtrHolder(1), "field 'value'"),
    (lambda: testing.TestObjectPtrHolder(None), "field 'value'"),
    (lambda: testing.TestNonCopyable(), "Expected 1 but got 0 arguments"),
    (lambda: testing.TestNonCopyable("x"), "Expected `int`"),
    (lambda: testing.TestCompare(1, 2, 3), "Expected `str`"),
    (lambda: testing.TestHash(1, "a"), "Expected 3 but got 2 arguments"),
    (lambda: testing.TestCustomHash("x", "a"), "Expected `int`"),
    (lambda: testing.TestCustomCompare(1), "Expected 2 but got 1 arguments"),
    (lambda: testing.TestEqWithoutHash(1, None), "Expected `str`"),
    (lambda: testing._SchemaAllTypes(), "cannot be constructed directly"),
    (lambda: testing._SchemaAllTypes.make_with("a", 1.0, "s"), "Expected `int`"),
]


@pytest.mark.parametrize(("make", "message"), BAD_CONSTRUCTIONS)
def test_wrong_constructor_input_is_type_error(make: Callable[[], Any], message: str) -> None:
    with pytest.raises(TypeError, match=message):
        make()


# create_object


def test_create_object_fills_defaults() -> None:
    obj = testing.create_object("testing.TestObjectBase", v_i64=12)
    assert isinstance(obj, testing.TestObjectBase)
    assert (obj.v_i64, obj.v_f64, obj.v_str) == (12, 10.0, "hello")
    holder = testing.create_object("testing.TestObjectPtrHolder", value=obj)
    assert holder.value.same_as(obj)
    assert holder.optional_value is None


def test_create_object_errors() -> None:
    missing = r"Required field `b` not set in type `testing\.TestIntPair`"
    with pytest.raises(TypeError, match=missing):
        testing.create_object("testing.TestIntPair", a=1)
    with pytest.raises(TypeError, match="does not have field `c`"):
        testing.create_object("testing.TestIntPair", a=1, b=2, c=3)
    with pytest.raises(TypeError):
        testing.create_object("testing.TestIntPair", a="x", b=2)


# _SchemaAllTypes


def test_schema_all_types_make_with_and_defaults() -> None:
    obj = testing._SchemaAllTypes.make_with(3, 1.5, "x")
    assert isinstance(obj, testing._SchemaAllTypes)
    assert (obj.v_int, obj.v_float, obj.v_string) == (3, 1.5, "x")
    assert obj.v_bool is True
    assert str(obj.v_device) == "cpu:0"
    assert str(obj.v_dtype) == "float32"
    assert obj.v_bytes == b""
    assert obj.v_variant == "v"
    assert (obj.v_opt_int, obj.v_opt_str, obj.v_opt_arr_variant) == (None, None, None)
    assert (len(obj.v_arr_int), len(obj.v_map_str_arr_int)) == (0, 0)


def test_schema_all_types_methods() -> None:
    obj = testing._SchemaAllTypes.make_with(3, 1.5, "x")
    assert obj.add_int(4) == 7
    assert list(obj.append_int([1, 2], 3)) == [1, 2, 3]
    assert obj.maybe_concat("a", "b") == "ab"
    assert (obj.maybe_concat(None, "b"), obj.maybe_concat("a", None)) == ("b", "a")
    assert obj.maybe_concat(None, None) is None
    merged = obj.merge_map({"a": [1], "c": [7]}, {"a": [2], "b": [3]})
    assert {k: list(v) for k, v in merged.items()} == {"a": [1, 2], "c": [7], "b": [3]}


def test_schema_all_types_fields_are_typed() -> None:
    obj = testing._SchemaAllTypes.make_with(0, 0.0, "")
    obj.v_opt_arr_variant = [1, "a"]
    assert list(obj.v_opt_arr_variant) == [1, "a"]
    obj.v_device = "cuda:1"
    assert str(obj.v_device) == "cuda:1"
    with pytest.raises(TypeError):
        obj.v_int = "x"
    with pytest.raises(TypeError):
        obj.v_variant = 3


def test_schema_all_types_metadata() -> None:
    info = testing._SchemaAllTypes.__tvm_ffi_type_info__
    fields = {f.name: f for f in info.fields}
    assert len(fields) == 15
    assert fields["v_bool"].metadata["int_attr"] == 1
    assert fields["v_string"].doc == "string field"
    methods = {m.name: m for m in info.methods}
    assert methods["add_int"].metadata["str_attr"] == "hello"
    assert methods["make_with"].is_static


# Native hooks: recursive equality, ordering and hashing


def test_compare_off_field_is_ignored_by_eq_and_hash() -> None:
    a, b = testing.TestCompare(1, "n", 2), testing.TestCompare(1, "n", 3)
    assert recursive_eq(a, b)
    assert recursive_hash(a) == recursive_hash(b)
    assert not recursive_eq(a, testing.TestCompare(1, "m", 2))


def test_hash_off_field_is_ignored_by_hash_only() -> None:
    a, b = testing.TestHash(1, "n", 2), testing.TestHash(1, "n", 3)
    assert recursive_hash(a) == recursive_hash(b)
    assert not recursive_eq(a, b)
    assert recursive_hash(a) != recursive_hash(testing.TestHash(2, "n", 2))


def test_custom_hash_hashes_key_only() -> None:
    a, b = testing.TestCustomHash(1, "a"), testing.TestCustomHash(1, "b")
    assert recursive_hash(a) == recursive_hash(b) == recursive_hash(1)
    assert not recursive_eq(a, b)  # equality is the default one, over both fields
    assert recursive_eq(a, testing.TestCustomHash(1, "a"))


def test_custom_compare_uses_key_only() -> None:
    cc = testing.TestCustomCompare
    assert recursive_eq(cc(1, "a"), cc(1, "b"))
    assert not recursive_eq(cc(1, "a"), cc(2, "a"))
    assert recursive_hash(cc(1, "a")) == recursive_hash(cc(1, "b"))
    assert recursive_lt(cc(1, "z"), cc(2, "a"))
    assert not recursive_lt(cc(2, "a"), cc(2, "z"))
    assert not recursive_lt(cc(3, "a"), cc(2, "z"))


def test_custom_hooks_apply_inside_containers() -> None:
    cc = testing.TestCustomCompare
    assert recursive_eq([cc(1, "a")], [cc(1, "b")])
    assert recursive_hash({"k": cc(5, "a")}) == recursive_hash({"k": cc(5, "b")})


def test_eq_without_hash_compares_but_refuses_hashing() -> None:
    ew = testing.TestEqWithoutHash
    assert recursive_eq(ew(1, "a"), ew(1, "b"))
    assert not recursive_eq(ew(1, "a"), ew(2, "a"))
    with pytest.raises(ValueError, match=r"testing\.TestEqWithoutHash"):
        recursive_hash(ew(1, "a"))


# testing.enum_variant_get


def test_enum_variant_get() -> None:
    alpha = testing.enum_variant_get("Alpha")
    assert alpha.same_as(testing.enum_variant_get("Alpha"))
    assert (alpha._int_index, alpha._str_index) == (0, "Alpha")
    assert testing.enum_variant_get("Beta")._str_index == "Beta"
    with pytest.raises(ValueError, match="has no instance with index Gamma"):
        testing.enum_variant_get("Gamma")

# SPDX-License-Identifier: Apache-2.0
"""tvm_ffi.utils: FileLock, the kwargs wrappers, unpack_dataclass and embed_cubin."""

from __future__ import annotations

import collections
import dataclasses
import inspect
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any, Optional

import pytest

import tvm_ffi
from tvm_ffi.core import MISSING
from tvm_ffi.utils import FileLock, kwargs_wrapper, lockfile, unpack_dataclass
from tvm_ffi.utils.embed_cubin import embed_cubin
from tvm_ffi.utils.kwargs_wrapper import make_kwargs_wrapper, make_kwargs_wrapper_from_signature
from tvm_ffi.utils.unpack_dataclass import unpack_dataclass_to_tuple


def test_utils_exports_the_upstream_names() -> None:
    assert tvm_ffi.utils.FileLock is lockfile.FileLock is FileLock
    for module in (kwargs_wrapper, lockfile, unpack_dataclass):
        assert getattr(tvm_ffi.utils, module.__name__.rsplit(".", 1)[1]) is module
    assert str(inspect.signature(FileLock.blocking_acquire)) == (
        "(self, timeout: 'float | None' = None, poll_interval: 'float' = 0.1) -> 'bool'"
    )


# ---------------------------------------------------------------------------------------------
# FileLock

# A child process that takes the lock, reports, holds it for argv[2] seconds and exits.
HOLDER = textwrap.dedent(
    """
    import sys, time
    from tvm_ffi.utils import FileLock
    lock = FileLock(sys.argv[1])
    print(lock.acquire(), flush=True)
    time.sleep(float(sys.argv[2]))
    lock.release()
    """
)


def _try_in_child(path: Path) -> bool:
    code = "import sys; from tvm_ffi.utils import FileLock; print(FileLock(sys.argv[1]).acquire())"
    out = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True
    )
    return out.stdout.strip() == "True"


def test_file_lock_excludes_another_process(tmp_path: Path) -> None:
    path = tmp_path / "build.lock"
    lock = FileLock(str(path))
    assert lock.acquire()
    assert path.exists()
    assert not _try_in_child(path)
    lock.release()
    assert _try_in_child(path)
    assert path.exists()  # left in place for the next user


def test_blocking_acquire_waits_for_the_other_process(tmp_path: Path) -> None:
    path = tmp_path / "wait.lock"
    command = [sys.executable, "-c", HOLDER, str(path), "1.0"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as child:
        assert child.stdout.readline().strip() == "True"
        lock = FileLock(str(path))
        started = time.monotonic()
        assert lock.blocking_acquire(timeout=30, poll_interval=0.02)
        assert time.monotonic() - started > 0.3
        lock.release()


def test_blocking_acquire_times_out(tmp_path: Path) -> None:
    path = tmp_path / "busy.lock"
    holder = FileLock(str(path))
    assert holder.acquire()
    waiter = FileLock(str(path))
    started = time.monotonic()
    message = f"Failed to acquire lock on '{path}' after 0.2 seconds."
    with pytest.raises(TimeoutError, match=message):
        waiter.blocking_acquire(timeout=0.2, poll_interval=0.01)
    assert time.monotonic() - started >= 0.2
    holder.release()
    assert waiter.blocking_acquire(timeout=0)
    waiter.release()


def test_lock_is_per_instance(tmp_path: Path) -> None:
    path = str(tmp_path / "same.lock")
    first, second = FileLock(path), FileLock(path)
    assert first.acquire()
    assert not first.acquire()  # already held: refused, nothing leaked
    assert not second.acquire()
    with pytest.raises(RuntimeError, match=r"^Lock is already held by this instance\.$"):
        first.blocking_acquire()
    first.release()
    first.release()  # releasing twice is harmless
    assert second.acquire()
    second.release()


def test_lock_as_context_manager(tmp_path: Path) -> None:
    path = tmp_path / "ctx.lock"
    with FileLock(str(path)) as held:
        assert isinstance(held, FileLock)
        assert not _try_in_child(path)
    assert _try_in_child(path)
    assert FileLock(str(path)).__exit__(None, None, None) is False


def test_lock_in_missing_directory_is_an_error(tmp_path: Path) -> None:
    cannot_open = r"^FileLock\.acquire\(\): cannot open lock file '.*x\.lock'"
    with pytest.raises(RuntimeError, match=cannot_open):
        FileLock(str(tmp_path / "no_such_dir" / "x.lock")).acquire()


# ---------------------------------------------------------------------------------------------
# make_kwargs_wrapper


def _collect(*args: Any) -> tuple:
    return args


def test_wrapper_signature_and_defaults() -> None:
    sentinel = object()
    wrapper = make_kwargs_wrapper(_collect, ["a", "b", "c", "d"], (sentinel, None, True))
    # None and bools are written into the signature, other defaults go through MISSING.
    assert str(inspect.signature(wrapper)) == "(a, b=<MISSING>, c=None, d=True)"
    assert wrapper.__name__ == "wrapper"
    assert wrapper(1) == (1, sentinel, None, True)
    assert wrapper(1, 2, d=False) == (1, 2, None, False)
    assert wrapper(d=0, c=9, b=8, a=7) == (7, 8, 9, 0)
    assert wrapper(1, MISSING) == (1, sentinel, None, True)  # MISSING means "use the default"


def test_wrapper_keyword_only_arguments() -> None:
    wrapper = make_kwargs_wrapper(_collect, ["a"], (), ["x", "y", "z"], {"y": 2.5, "z": False})
    assert str(inspect.signature(wrapper)) == "(a, *, x, y=<MISSING>, z=False)"
    assert wrapper.__kwdefaults__ == {"y": MISSING, "z": False}
    assert wrapper(1, x=0) == (1, 0, 2.5, False)
    assert wrapper(1, z=True, x=0, y=None) == (1, 0, None, True)


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        ((), {}, "wrapper() missing 1 required positional argument: 'a'"),
        ((1,), {"a": 2, "x": 0}, "wrapper() got multiple values for argument 'a'"),
        ((1,), {"x": 0, "q": 3}, "wrapper() got an unexpected keyword argument 'q'"),
        ((1, 2, 3), {}, "wrapper() takes from 1 to 2 positional arguments but 3 were given"),
        ((1,), {}, "wrapper() missing 1 required keyword-only argument: 'x'"),
    ],
)
def test_wrapper_reports_bad_calls_like_python(args, kwargs, message) -> None:
    wrapper = make_kwargs_wrapper(_collect, ["a", "b"], (5,), ["x"])
    with pytest.raises(TypeError) as info:
        wrapper(*args, **kwargs)
    assert str(info.value) == message


def test_wrapper_takes_the_prototype_metadata() -> None:
    def scale(x: int, factor: float = 2.0) -> float:
        """Scale x."""
        raise AssertionError("never called")

    wrapper = make_kwargs_wrapper(_collect, ["x", "factor"], (2.0,), prototype=scale)
    assert wrapper.__name__ == "scale"
    assert wrapper.__doc__ == "Scale x."
    assert wrapper.__wrapped__ is scale
    assert wrapper.__annotations__ == scale.__annotations__
    assert str(inspect.signature(wrapper)) == "(x: 'int', factor: 'float' = 2.0) -> 'float'"
    assert wrapper(3) == (3, 2.0)
    # Python 3.9 names the code object in the message; later versions the qualified name.
    shown = "scale" if sys.version_info >= (3, 10) else "wrapper"
    with pytest.raises(TypeError, match=rf"{shown}\(\) missing 1 required positional"):
        wrapper()


def test_wrapper_around_an_ffi_function() -> None:
    subtract = tvm_ffi.convert(lambda a, b: a - b)
    wrapper = make_kwargs_wrapper(subtract, ["a", "b"], (10,))
    assert wrapper(b=3, a=20) == 17
    assert wrapper(25) == 15


@pytest.mark.parametrize(
    ("call_args", "error", "message"),
    [
        ((["a", "a"],), ValueError, "Duplicate argument names found in: ['a', 'a']"),
        (([1],), TypeError, "Argument name must be a string, got int: 1"),
        ((["1a"],), ValueError, "Invalid argument name: '1a' is not a valid Python identifier"),
        (
            (["for"],),
            ValueError,
            "Invalid argument name: 'for' is a Python keyword "
            "and cannot be used as a parameter name",
        ),
        ((["a"], [1]), TypeError, "arg_defaults must be a tuple, got list"),
        ((["a"], (1, 2)), ValueError, "arg_defaults has 2 values but only 1 positional arguments"),
        (
            (["a"], (), ["x", "x"]),
            ValueError,
            "Duplicate keyword-only argument names found in: ['x', 'x']",
        ),
        ((["a"], (), [2]), TypeError, "Keyword-only argument name must be a string, got int: 2"),
        (
            (["a"], (), ["x"], {"y": 1}),
            ValueError,
            "Default provided for 'y' which is not in kwonly_names: ['x']",
        ),
        (
            (["a", "b"], (), ["b"]),
            ValueError,
            "Arguments cannot be both positional and keyword-only: {'b'}",
        ),
        (
            (["__i_target_func"],),
            ValueError,
            "Argument names conflict with internal names: {'__i_target_func'}. "
            'Please avoid using names starting with "__i_"',
        ),
    ],
)
def test_wrapper_rejects_bad_specs(call_args, error, message) -> None:
    with pytest.raises(error) as info:
        make_kwargs_wrapper(_collect, *call_args)
    assert str(info.value) == message


def test_checks_run_in_upstream_order() -> None:
    # Positional names first, then the defaults, then keyword-only names, then overlaps.
    with pytest.raises(ValueError, match="Invalid argument name"):
        make_kwargs_wrapper(_collect, ["1a"], (1, 2), ["x", "x"])
    with pytest.raises(ValueError, match="arg_defaults has 2 values"):
        make_kwargs_wrapper(_collect, ["a"], (1, 2), ["1x"])
    with pytest.raises(ValueError, match="Default provided for 'q'"):
        make_kwargs_wrapper(_collect, ["a"], (), ["a"], {"q": 1})


def test_wrapper_from_signature() -> None:
    def spec(a, b=3, /, c=None, *, d, e="e"):
        raise AssertionError("never called")

    wrapper = make_kwargs_wrapper_from_signature(_collect, inspect.signature(spec))
    # Positional-only parameters may be given by keyword in the wrapper.
    assert str(inspect.signature(wrapper)) == "(a, b=<MISSING>, c=None, *, d, e=<MISSING>)"
    assert wrapper(a=1, d=4) == (1, 3, None, 4, "e")
    trimmed = make_kwargs_wrapper_from_signature(
        _collect, inspect.signature(spec), exclude_arg_names=["b", "e", "not_there"]
    )
    assert str(inspect.signature(trimmed)) == "(a, c=None, *, d)"
    assert trimmed(1, d=2) == (1, None, 2)


def test_wrapper_from_signature_rejects_var_arguments() -> None:
    def star(a, *args):
        raise AssertionError("never called")

    def double_star(a, **kwargs):
        raise AssertionError("never called")

    with pytest.raises(ValueError, match=r"^\*args not supported in wrapper generation$"):
        make_kwargs_wrapper_from_signature(_collect, inspect.signature(star))
    with pytest.raises(ValueError, match=r"^\*\*kwargs not supported in wrapper generation$"):
        make_kwargs_wrapper_from_signature(_collect, inspect.signature(double_star))
    excluded = make_kwargs_wrapper_from_signature(
        _collect, inspect.signature(star), exclude_arg_names=["args"]
    )
    assert excluded(1) == (1,)


@dataclasses.dataclass
class Point:
    x: int
    y: float = 0.5


@dataclasses.dataclass
class Segment:
    start: Point
    points: list
    tags: dict
    label: str


def test_wrapper_maps_dataclasses_to_tuples() -> None:
    wrapper = make_kwargs_wrapper(
        _collect, ["seg", "raw", "default"], (Point(9),), map_dataclass_to_tuple=["seg", "default"]
    )
    segment = Segment(Point(1), [Point(2)], {"k": Point(3)}, "s")
    assert wrapper(segment, Point(4)) == (
        ((1, 0.5), [(2, 0.5)], {"k": (3, 0.5)}, "s"),
        Point(4),  # not listed: passed unchanged
        (9, 0.5),  # a default is unpacked too
    )


# ---------------------------------------------------------------------------------------------
# unpack_dataclass_to_tuple


@dataclasses.dataclass
class Annotated:
    scalar: int
    maybe: Optional[int]  # noqa: UP045 - resolvable on Python 3.9 too
    pair: tuple[int, int]
    anything: Any
    nested: Point


def test_unpack_nested_dataclasses_and_containers() -> None:
    Pair = collections.namedtuple("Pair", "left right")
    value = [Point(1), (Point(2),), {"a": Point(3)}, Pair(Point(4), 5), 6, "s"]
    assert unpack_dataclass_to_tuple(value) == [
        (1, 0.5),
        ((2, 0.5),),
        {"a": (3, 0.5)},
        Pair((4, 0.5), 5),
        6,
        "s",
    ]
    assert type(unpack_dataclass_to_tuple(value)[3]) is Pair


def test_unpack_keeps_leaves_and_copies_nothing_else() -> None:
    items = [1, 2]
    assert unpack_dataclass_to_tuple(items) == items
    assert unpack_dataclass_to_tuple(items) is not items  # containers are rebuilt
    leaf = {1, 2}
    assert unpack_dataclass_to_tuple(leaf) is leaf
    assert unpack_dataclass_to_tuple(Point) is Point  # a class is a leaf, not an instance
    pair = (1, 2)
    value = unpack_dataclass_to_tuple(Annotated(1, None, pair, Point(2), Point(3)))
    assert value == (1, None, (1, 2), (2, 0.5), (3, 0.5))
    assert value[2] is pair  # annotated as plain values: taken as is


def test_unpack_trusts_scalar_annotations() -> None:
    # A field annotated as a scalar is copied without looking at its value (as upstream).
    odd = Annotated(Point(1), None, (1, 2), None, Point(2))  # type: ignore[arg-type]
    assert unpack_dataclass_to_tuple(odd)[0] == Point(1)


def test_unpack_subclass_and_init_false_fields() -> None:
    @dataclasses.dataclass
    class Derived(Point):
        z: int = 7
        hidden: int = dataclasses.field(init=False, default=8)

    assert unpack_dataclass_to_tuple(Derived(1, 2.0)) == (1, 2.0, 7, 8)


def test_unpack_inlines_fields_annotated_with_a_dataclass() -> None:
    # As upstream: a field annotated with a dataclass is unpacked by that class's fields, so a
    # subclass instance there gives the annotated class's fields only.
    @dataclasses.dataclass
    class Derived(Point):
        z: int = 7

    @dataclasses.dataclass
    class Holder:
        point: Point
        other: Any

    assert unpack_dataclass_to_tuple(Holder(Derived(1, 2.0), Derived(3, 4.0))) == (
        (1, 2.0),
        (3, 4.0, 7),
    )


@dataclasses.dataclass
class Chain:
    value: int
    rest: Optional[Chain]  # noqa: UP045 - resolvable on Python 3.9 too


def test_unpack_dataclass_schema_helpers() -> None:
    schema = unpack_dataclass._extract_dataclass_to_tuple_schema(Annotated)
    assert schema == {
        "scalar": None,
        "maybe": None,
        "pair": None,
        "anything": unpack_dataclass.UNPACK,
        "nested": {"x": None, "y": None},
    }
    assert unpack_dataclass._extract_dataclass_to_tuple_schema(Chain) == {
        "value": None,
        "rest": unpack_dataclass.UNPACK,
    }
    assert unpack_dataclass._compile_dataclass_to_tuple_schema("v", schema) == (
        "(v.scalar, v.maybe, v.pair, __dispatch(v.anything), (v.nested.x, v.nested.y,),)"
    )
    assert unpack_dataclass._compile_dataclass_to_tuple_schema("v", {}) == "()"
    with pytest.raises(TypeError, match="Expected a dataclass class"):
        unpack_dataclass._extract_dataclass_to_tuple_schema(int)
    assert unpack_dataclass_to_tuple(Chain(1, Chain(2, None))) == (1, (2, None))


@pytest.mark.parametrize(
    ("annotation", "entry"),
    [
        (int, None),
        (type(None), None),
        (tuple[int, ...], None),
        (dict[str, float], None),
        (Optional[str], None),
        (list[int], "unpack"),
        (dict[str, Point], "unpack"),
        (tuple, "unpack"),
        (Any, "unpack"),
        (object, "unpack"),
        ("Unresolved", "unpack"),
        (Point, {"x": None, "y": None}),
    ],
)
def test_unpack_classify_field_type(annotation: Any, entry: Any) -> None:
    assert unpack_dataclass._classify_field_type(annotation) == entry
    assert unpack_dataclass._classify_field_type(Point, {Point}) == unpack_dataclass.UNPACK


def test_unpack_known_leaf_types() -> None:
    assert unpack_dataclass._is_known_leaf_type(int)
    assert unpack_dataclass._is_known_leaf_type(Ellipsis)
    assert unpack_dataclass._is_known_leaf_type(frozenset[int])
    assert not unpack_dataclass._is_known_leaf_type(frozenset)
    assert not unpack_dataclass._is_known_leaf_type(list[int])
    assert unpack_dataclass._LEAF_IDENTITY(leaf := object()) is leaf
    assert unpack_dataclass.DataclassToTupleSchema is dict


@pytest.mark.parametrize(
    ("schema", "error", "message"),
    [
        ([], TypeError, "must be a dict, got list"),
        ({1: None}, TypeError, "must be a string, got int"),
        ({"1a": None}, ValueError, "not a valid Python identifier"),
        ({"class": None}, ValueError, "is a Python keyword"),
        ({"a": {"b c": None}}, ValueError, "not a valid Python identifier"),
    ],
)
def test_unpack_validate_schema(schema: Any, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        unpack_dataclass._validate_dataclass_to_tuple_schema(schema)
    unpack_dataclass._validate_dataclass_to_tuple_schema({"a": {"b": "unpack"}, "c": None})


def test_unpack_rejects_field_names_that_are_not_identifiers() -> None:
    # dataclass() without generated methods takes any annotation key as a field name.
    odd_class = type("Odd", (), {"__annotations__": {"not an identifier": int}})
    odd_class = dataclasses.dataclass(init=False, repr=False, eq=False)(odd_class)
    with pytest.raises(ValueError, match="not a valid Python identifier"):
        unpack_dataclass_to_tuple(odd_class())


def test_unpack_cache_is_per_thread() -> None:
    import threading

    unpack_dataclass_to_tuple(Point(1))
    assert Point in unpack_dataclass._tls.cache
    seen = []
    worker = threading.Thread(target=lambda: seen.append(hasattr(unpack_dataclass._tls, "cache")))
    worker.start()
    worker.join()
    assert seen == [False]


# ---------------------------------------------------------------------------------------------
# kwargs_wrapper's helpers


def test_kwargs_wrapper_internal_names() -> None:
    assert {
        kwargs_wrapper._INTERNAL_TARGET_FUNC,
        kwargs_wrapper._INTERNAL_MISSING,
        kwargs_wrapper._INTERNAL_DEFAULTS_DICT,
        kwargs_wrapper._INTERNAL_UNPACK,
    } == kwargs_wrapper._INTERNAL_NAMES
    assert all(name.startswith("__i_") for name in kwargs_wrapper._INTERNAL_NAMES)


def test_kwargs_wrapper_build_wrapper_code() -> None:
    code, runtime = kwargs_wrapper._build_wrapper_code(
        ["a", "b", "c"], (None, 5), ["d", "e"], {"e": True}, {"b", "d"}
    )
    assert runtime == {"c": 5}
    assert "def wrapper(a, b=None, c=__i_MISSING, *, d, e=True):" in code
    namespace: dict[str, Any] = {
        "__i_target_func": lambda *args: args,
        "__i_MISSING": MISSING,
        "__i_arg_defaults": runtime,
        "__i_unpack": unpack_dataclass_to_tuple,
    }
    exec(code, namespace)
    assert namespace["wrapper"](1, Point(2), d=Point(3)) == (1, (2, 0.5), 5, (3, 0.5), True)


@pytest.mark.parametrize(
    ("names", "arg_type", "error", "message"),
    [
        (["a", "a"], "Argument", ValueError, "Duplicate argument names"),
        (["class"], "Keyword-only argument", ValueError, "keyword-only argument name: 'class'"),
        ([1], "Argument", TypeError, "Argument name must be a string, got int"),
        (["1x"], "Argument", ValueError, "not a valid Python identifier"),
    ],
)
def test_kwargs_wrapper_validate_argument_names(names, arg_type, error, message) -> None:
    with pytest.raises(error, match=message):
        kwargs_wrapper._validate_argument_names(names, arg_type)


def test_kwargs_wrapper_validate_wrapper_args_reserved_names() -> None:
    kwargs_wrapper._validate_wrapper_args(["x"], (), ["y"], {"y": 1}, set())
    with pytest.raises(ValueError, match="conflict with internal names"):
        kwargs_wrapper._validate_wrapper_args(["x"], (), [], {}, {"x"})


# ---------------------------------------------------------------------------------------------
# embed_cubin

USER_C = """
extern const char __tvm_ffi__cubin_{name}[];
extern const char __tvm_ffi__cubin_{name}_end[];
const char* {prefix}_begin(void) {{ return __tvm_ffi__cubin_{name}; }}
const char* {prefix}_end(void) {{ return __tvm_ffi__cubin_{name}_end; }}
"""

MAIN_C = """
#include <stdio.h>
const char* one_begin(void); const char* one_end(void);
const char* two_begin(void); const char* two_end(void);
int main(void) {
  fwrite(one_begin(), 1, one_end() - one_begin(), stdout);
  fputs("|", stdout);
  fwrite(two_begin(), 1, two_end() - two_begin(), stdout);
  return 0;
}
"""


@pytest.fixture(scope="module")
def binutils() -> dict[str, str]:
    if not sys.platform.startswith("linux"):
        pytest.skip("embed_cubin needs GNU binutils (Linux)")
    tools = {name: shutil.which(name) for name in ("ld", "objcopy", "nm", "gcc")}
    missing = [name for name, path in tools.items() if path is None]
    if missing:
        pytest.skip(f"missing tools: {', '.join(missing)}")
    return tools


def _user_object(tools: dict[str, str], work: Path, prefix: str, name: str) -> Path:
    source = work / f"{prefix}.c"
    source.write_text(USER_C.format(prefix=prefix, name=name))
    obj = work / f"{prefix}.o"
    subprocess.run([tools["gcc"], "-c", "-fPIC", str(source), "-o", str(obj)], check=True)
    return obj


def _symbols(tools: dict[str, str], obj: Path) -> dict[str, tuple[str, int]]:
    out = subprocess.run([tools["nm"], str(obj)], capture_output=True, text=True, check=True)
    table = {}
    for line in out.stdout.splitlines():
        parts = line.split()
        if len(parts) == 3:
            table[parts[2]] = (parts[1], int(parts[0], 16))
    return table


def test_embed_cubin_puts_the_bytes_between_local_symbols(binutils, tmp_path) -> None:
    image = bytes(range(256)) + b"\0tail"
    (tmp_path / "k.cubin").write_bytes(image)
    obj = _user_object(binutils, tmp_path, "one", "kernels")
    out = tmp_path / "one_with_image.o"
    embed_cubin(tmp_path / "k.cubin", obj, out, "kernels")
    symbols = _symbols(binutils, out)
    begin, end = symbols["__tvm_ffi__cubin_kernels"], symbols["__tvm_ffi__cubin_kernels_end"]
    assert begin[0] == end[0] == "r"  # local, read-only data
    assert end[1] - begin[1] == len(image)
    assert not [s for s in symbols if s.startswith("_binary_")]


def test_embedded_images_link_under_the_same_name(binutils, tmp_path) -> None:
    work = tmp_path
    objects = []
    for prefix, image in (("one", b"first image"), ("two", b"second")):
        (work / f"{prefix}.cubin").write_bytes(image)
        obj = _user_object(binutils, work, prefix, "shared_name")
        out = work / f"{prefix}_embedded.o"
        embed_cubin(work / f"{prefix}.cubin", obj, out, "shared_name")
        objects.append(str(out))
    (work / "main.c").write_text(MAIN_C)
    program = work / "program"
    subprocess.run(
        [binutils["gcc"], str(work / "main.c"), *objects, "-o", str(program)], check=True
    )
    shown = subprocess.run([str(program)], capture_output=True, check=True).stdout
    assert shown == b"first image|second"


def test_embed_cubin_errors(binutils, tmp_path) -> None:
    (tmp_path / "k.cubin").write_bytes(b"x")
    obj = _user_object(binutils, tmp_path, "one", "k")
    with pytest.raises(FileNotFoundError, match="CUBIN file not found"):
        embed_cubin(tmp_path / "missing.cubin", obj, tmp_path / "o.o", "k")
    with pytest.raises(FileNotFoundError, match="Input object file not found"):
        embed_cubin(tmp_path / "k.cubin", tmp_path / "missing.o", tmp_path / "o.o", "k")
    with pytest.raises(ValueError, match="name must be a C identifier"):
        embed_cubin(tmp_path / "k.cubin", obj, tmp_path / "o.o", "bad name")
    with pytest.raises(RuntimeError, match=r"ld \(merge\) failed"):
        embed_cubin(tmp_path / "k.cubin", tmp_path / "k.cubin", tmp_path / "o.o", "k")


def test_embed_cubin_command_line(binutils, tmp_path) -> None:
    (tmp_path / "k.cubin").write_bytes(b"cli image")
    obj = _user_object(binutils, tmp_path, "one", "cli")
    command = [sys.executable, "-m", "tvm_ffi.utils.embed_cubin", "--input-obj", str(obj)]
    command += ["--output-obj", "out.o", "--name", "cli"]
    done = subprocess.run(
        [*command, "--cubin", "k.cubin"], cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    symbols = _symbols(binutils, tmp_path / "out.o")
    assert symbols["__tvm_ffi__cubin_cli_end"][1] - symbols["__tvm_ffi__cubin_cli"][1] == 9
    failed = subprocess.run(
        [*command, "--cubin", "nope.cubin"], cwd=tmp_path, capture_output=True, text=True
    )
    assert failed.returncode == 1
    assert f"Error: CUBIN file not found: {tmp_path / 'nope.cubin'}" in failed.stderr
    usage = subprocess.run(command[:3], capture_output=True, text=True)
    assert usage.returncode == 2
    assert "--output-obj" in usage.stderr

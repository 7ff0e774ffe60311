# SPDX-License-Identifier: Apache-2.0
"""Errors across the boundary: kinds, register_error, core.Error and tracebacks."""

from __future__ import annotations

import ast
import gc
import subprocess
import sys
import traceback
import weakref
from collections.abc import Iterator
from typing import Any

import pytest

import tvm_ffi
from tvm_ffi import core
from tvm_ffi.error import ERROR_NAME_TO_TYPE, ERROR_TYPE_TO_NAME, register_error

raise_error = tvm_ffi.get_global_func("testing.test_raise_error")
apply = tvm_ffi.get_global_func("testing.apply")
echo = tvm_ffi.get_global_func("testing.echo")

REGISTERED = [
    RuntimeError,
    ValueError,
    TypeError,
    AttributeError,
    KeyError,
    IndexError,
    AssertionError,
    MemoryError,
    KeyboardInterrupt,
    RecursionError,
]


@pytest.fixture
def restore_error_registry() -> Iterator[None]:
    """Undo any register_error done by a test."""
    names = dict(ERROR_NAME_TO_TYPE)
    types = dict(ERROR_TYPE_TO_NAME)
    yield
    ERROR_NAME_TO_TYPE.clear()
    ERROR_NAME_TO_TYPE.update(names)
    ERROR_TYPE_TO_NAME.clear()
    ERROR_TYPE_TO_NAME.update(types)


@pytest.fixture
def gc_disabled() -> Iterator[None]:
    gc.collect()
    gc.disable()
    yield
    gc.enable()


def frames_of(exc: BaseException) -> list[traceback.FrameSummary]:
    return list(traceback.extract_tb(exc.__traceback__))


def format_exc(exc: BaseException) -> str:
    return "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))


def index_of_frame(frames: list[traceback.FrameSummary], name_part: str) -> int:
    matches = [i for i, frame in enumerate(frames) if name_part in frame.name]
    assert matches, f"no frame named like {name_part!r} in {[f.name for f in frames]}"
    return matches[0]


@pytest.mark.parametrize("kind", REGISTERED)
def test_native_error_kind_maps_to_class(kind: type[BaseException]) -> None:
    with pytest.raises(kind, match="native message") as info:
        raise_error(kind.__name__, "native message")
    assert type(info.value) is kind


@pytest.mark.parametrize("kind", ["InternalError", "NoSuchErrorKind", "print", "int"])
def test_unknown_native_kind_becomes_runtime_error(kind: str) -> None:
    with pytest.raises(RuntimeError, match="other kind") as info:
        raise_error(kind, "other kind")
    assert type(info.value) is RuntimeError
    assert info.value.__tvm_ffi_error__.kind == kind


BUILTIN_KINDS = [
    NotImplementedError,
    ZeroDivisionError,
    OSError,
    FileNotFoundError,
    StopIteration,
    SystemExit,
    GeneratorExit,
    LookupError,
    TimeoutError,
    UnicodeError,
]


@pytest.mark.parametrize("cls", BUILTIN_KINDS)
def test_builtin_native_kind_maps_to_its_class(cls: type[BaseException]) -> None:
    with pytest.raises(cls) as info:
        raise_error(cls.__name__, "built-in kind")
    assert type(info.value) is cls and info.value.args == ("built-in kind",)


def test_builtin_kind_that_takes_no_message_becomes_runtime_error() -> None:
    with pytest.raises(RuntimeError, match=r"^UnicodeDecodeError: bad bytes$"):
        raise_error("UnicodeDecodeError", "bad bytes")


def test_default_mapping_both_ways() -> None:
    for cls in REGISTERED:
        assert ERROR_NAME_TO_TYPE[cls.__name__] is cls
        assert ERROR_TYPE_TO_NAME[cls] == cls.__name__
    assert core.ERROR_NAME_TO_TYPE is ERROR_NAME_TO_TYPE


def test_exception_carries_error_object() -> None:
    with pytest.raises(ValueError, match="carried") as info:
        raise_error("ValueError", "carried")
    error = info.value.__tvm_ffi_error__
    assert isinstance(error, core.Error)
    assert isinstance(error, tvm_ffi.Object)
    assert error.kind == "ValueError"
    assert error.message == "carried"
    assert "TestRaiseError" in error.backtrace
    assert repr(error) == "ffi.Error"


def test_register_error_takes_any_class_as_apache_does(restore_error_registry: None) -> None:
    # Apache checks nothing at registration; an error of a kind whose class cannot be built
    # from one message still reaches Python, as a RuntimeError that says why.
    assert register_error("NotAnExceptionKind", dict) is dict
    with pytest.raises(RuntimeError, match=r"^NotAnExceptionKind: from C") as info:
        raise_error("NotAnExceptionKind", "from C")
    assert "cannot be built from one message argument" in str(info.value.__cause__)


def test_error_class_whose_new_returns_no_exception(restore_error_registry: None) -> None:
    class NotReallyAnError(Exception):
        def __new__(cls, *args: object) -> int:  # type: ignore[misc]
            return 5

    register_error("NotReallyAnError", NotReallyAnError)
    with pytest.raises(RuntimeError, match=r"^NotReallyAnError: from C") as info:
        raise_error("NotReallyAnError", "from C")
    cause = str(info.value.__cause__)
    assert "NotReallyAnError, the class of error kind 'NotReallyAnError'" in cause
    assert "gives an object of type 'int', not an exception" in cause


def test_register_error_with_a_kind_that_is_no_str_uses_the_class_name(
    restore_error_registry: None,
) -> None:
    class ErrNamedByClass(Exception):
        pass

    assert register_error(0)(ErrNamedByClass) is ErrNamedByClass
    assert ERROR_NAME_TO_TYPE["ErrNamedByClass"] is ErrNamedByClass


def test_register_error_class_form(restore_error_registry: None) -> None:
    class ErrFormClass(Exception):
        pass

    assert register_error(ErrFormClass) is ErrFormClass
    assert ERROR_NAME_TO_TYPE["ErrFormClass"] is ErrFormClass
    assert ERROR_TYPE_TO_NAME[ErrFormClass] == "ErrFormClass"


def test_register_error_bare_decorator_form(restore_error_registry: None) -> None:
    @register_error
    class ErrFormBare(Exception):
        pass

    assert isinstance(ErrFormBare, type)
    assert ERROR_NAME_TO_TYPE["ErrFormBare"] is ErrFormBare


def test_register_error_named_decorator_form(restore_error_registry: None) -> None:
    @register_error("ErrKindNamed")
    class ErrFormNamed(Exception):
        pass

    assert isinstance(ErrFormNamed, type)
    assert ERROR_NAME_TO_TYPE["ErrKindNamed"] is ErrFormNamed
    assert ERROR_TYPE_TO_NAME[ErrFormNamed] == "ErrKindNamed"


def test_register_error_name_and_class_form(restore_error_registry: None) -> None:
    class ErrFormPair(Exception):
        pass

    assert register_error("ErrKindPair", ErrFormPair) is ErrFormPair
    assert ERROR_NAME_TO_TYPE["ErrKindPair"] is ErrFormPair
    assert ERROR_TYPE_TO_NAME[ErrFormPair] == "ErrKindPair"


def test_registered_error_travels_from_native(restore_error_registry: None) -> None:
    @register_error("ErrTravelKind")
    class ErrTravel(Exception):
        pass

    with pytest.raises(ErrTravel, match="from c") as info:
        raise_error("ErrTravelKind", "from c")
    assert info.value.__tvm_ffi_error__.kind == "ErrTravelKind"


def test_registered_error_travels_through_callback(restore_error_registry: None) -> None:
    @register_error
    class ErrThroughCallback(Exception):
        pass

    def raiser() -> None:
        raise ErrThroughCallback("from python")

    with pytest.raises(ErrThroughCallback, match="from python") as info:
        apply(raiser)
    assert info.value.__tvm_ffi_error__.kind == "ErrThroughCallback"


def test_registered_error_converts_to_its_kind(restore_error_registry: None) -> None:
    @register_error("ErrConvertKind")
    class ErrConvert(Exception):
        pass

    assert echo(ErrConvert("payload")).kind == "ErrConvertKind"


def test_unregistered_subclass_comes_back_as_itself_with_its_base_kind() -> None:
    class SubValueError(ValueError):
        pass

    raised = SubValueError("sub")

    def raiser() -> None:
        raise raised

    with pytest.raises(SubValueError) as info:
        apply(raiser)
    assert info.value is raised
    assert info.value.__tvm_ffi_error__.kind == "ValueError"


def test_keyboard_interrupt_in_callback_comes_out_of_the_call() -> None:
    def interrupted() -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt) as info:
        apply(interrupted)
    assert type(info.value) is KeyboardInterrupt
    assert info.value.__tvm_ffi_error__.kind == "KeyboardInterrupt"
    assert "interrupted" in [frame.name for frame in frames_of(info.value)]


def test_key_error_message_is_str_of_exception() -> None:
    def raiser() -> None:
        raise KeyError("k")

    with pytest.raises(KeyError) as info:
        apply(raiser)
    assert info.value.__tvm_ffi_error__.message == "'k'"


def test_error_constructor_and_properties() -> None:
    error = core.Error("TypeError", "bad type", '  File "a.cc", line 3, in F\n')
    assert error.kind == "TypeError"
    assert error.message == "bad type"
    assert error.backtrace == '  File "a.cc", line 3, in F\n'
    assert error.extra_context is None


def test_error_constructor_accepts_string_objects() -> None:
    message = echo("a message longer than seven bytes")
    assert type(message) is core.String
    assert core.Error("ValueError", message).message == message


def test_error_methods_check_their_object() -> None:
    error = core.Error("ValueError", "moved", "")
    echo(error._move())
    with pytest.raises(ValueError, match="has no native object"):
        error.update_backtrace("x")
    with pytest.raises(ValueError, match="has no native object"):
        _ = error.kind
    with pytest.raises(TypeError, match=r"^Error\(\): expected an ffi\.Error, got 'Array'"):
        core.Error.update_backtrace(tvm_ffi.Array([1]), "x")
    with pytest.raises(TypeError, match=r"^Error\(\): expected an ffi\.Error, got 'Array'"):
        core.Error.__init__(tvm_ffi.Array([1]), "ValueError", "x")
    error.__init__("KeyError", "again")
    assert (error.kind, error.message) == ("KeyError", "again")


def test_exception_with_a_moved_out_error_gets_a_new_one() -> None:
    exc = ValueError("stale")
    exc.__tvm_ffi_error__ = core.Error("ValueError", "stale", "")
    echo(exc.__tvm_ffi_error__._move())
    converted = echo(exc)
    assert (converted.kind, converted.message) == ("ValueError", "stale")


def test_error_update_backtrace_replaces_text() -> None:
    error = core.Error("ValueError", "m", "old\n")
    error.update_backtrace('  File "b.cc", line 7, in G\n')
    assert error.backtrace == '  File "b.cc", line 7, in G\n'


def test_py_error_builds_exception_with_native_frames() -> None:
    error = core.Error("IndexError", "out of range", '  File "native.cc", line 12, in Lookup\n')
    exc = error.py_error()
    assert type(exc) is IndexError
    assert str(exc) == "out of range"
    assert exc.__tvm_ffi_error__.same_as(error)
    frame = frames_of(exc)[-1]
    assert (frame.filename, frame.lineno, frame.name) == ("native.cc", 12, "Lookup")


def test_py_error_of_unregistered_kind_is_runtime_error() -> None:
    assert type(core.Error("SomethingOdd", "m", "").py_error()) is RuntimeError


def test_raising_py_error_round_trips_through_callback() -> None:
    error = core.Error("AttributeError", "no attr", "")

    def raiser() -> None:
        raise error.py_error()

    with pytest.raises(AttributeError, match="no attr") as info:
        apply(raiser)
    assert info.value.__tvm_ffi_error__.same_as(error)


def test_parse_backtrace() -> None:
    text = (
        '  File "outer.cc", line 10, in Outer\n'
        "  some unrelated line\n"
        '  File "inner.py", line 2, in inner\n'
    )
    assert tvm_ffi.error._parse_backtrace(text) == [
        ("outer.cc", 10, "Outer"),
        ("inner.py", 2, "inner"),
    ]


def test_native_frames_in_traceback() -> None:
    with pytest.raises(ValueError, match="traced") as info:
        raise_error("ValueError", "traced")
    frames = frames_of(info.value)
    frame = frames[index_of_frame(frames, "TestRaiseError")]
    assert frame.filename.endswith("testing.cc")
    assert frame.lineno > 0
    assert frames[0].name == "test_native_frames_in_traceback"
    assert "TestRaiseError" in format_exc(info.value)


def test_callback_frames_and_native_frames_in_traceback() -> None:
    def failing_callback() -> None:
        raise TypeError("inside callback")

    with pytest.raises(TypeError, match="inside callback") as info:
        apply(failing_callback)
    frames = frames_of(info.value)
    native = index_of_frame(frames, "TestApply")
    callback = index_of_frame(frames, "failing_callback")
    assert frames[callback].filename == __file__
    assert frames[0].name == "test_callback_frames_and_native_frames_in_traceback"
    assert 0 < native < callback
    text = format_exc(info.value)
    assert "failing_callback" in text
    assert "TestApply" in text


NAMES_WITHOUT_LIBDW = """
import traceback
import tvm_ffi

def failing_callback():
    raise TypeError("inside callback")

try:
    tvm_ffi.get_global_func("testing.apply")(failing_callback)
except TypeError as err:
    print([frame.name for frame in traceback.extract_tb(err.__traceback__)])
with open("/proc/self/maps") as maps:
    print("libdw" in maps.read())
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/maps")
def test_unexported_native_frames_are_named_without_libdw(run_python) -> None:
    # TestApply is not an exported symbol: without libdw (not installed, or turned off) its
    # name comes from the testing library's ELF symbol table.
    env = {"TVM_FFI_BACKTRACE_LIBDW": "0"}
    names, libdw_mapped = run_python("-c", NAMES_WITHOUT_LIBDW, env=env).stdout.splitlines()
    assert libdw_mapped == "False"
    names = ast.literal_eval(names)
    assert any("TestApply" in name for name in names), names
    assert names.index("failing_callback") > max(i for i, n in enumerate(names) if "TestApply" in n)


def test_error_through_two_boundaries_keeps_object() -> None:
    originals: list[BaseException] = []

    def callback() -> None:
        with pytest.raises(KeyError) as inner:
            raise_error("KeyError", "deep")
        originals.append(inner.value)
        raise inner.value

    with pytest.raises(KeyError, match="deep") as info:
        apply(callback)
    assert info.value.__tvm_ffi_error__.same_as(originals[0].__tvm_ffi_error__)
    text = format_exc(info.value)
    assert text.count("TestRaiseError") == 1
    frames = frames_of(info.value)
    assert index_of_frame(frames, "TestApply") < index_of_frame(frames, "callback")
    assert index_of_frame(frames, "callback") < index_of_frame(frames, "TestRaiseError")


def caught_native_error() -> BaseException:
    try:
        raise_error("ValueError", "kept")
    except ValueError as err:
        return err
    raise AssertionError("testing.test_raise_error did not raise")


def test_passing_a_caught_error_again_adds_no_frames() -> None:
    exc = caught_native_error()
    error = exc.__tvm_ffi_error__
    tvm_ffi.get_global_func("testing.nop")(exc)
    length = len(error.backtrace)
    for _ in range(100):
        assert echo(exc).same_as(error)
    assert len(error.backtrace) == length


def raise_with_local(refs: list[weakref.ref[Marker]]) -> None:
    local = Marker()
    refs.append(weakref.ref(local))
    raise_error("ValueError", "kept")


def test_recording_passed_frames_keeps_no_frame_alive(gc_disabled: None) -> None:
    refs: list[weakref.ref[Marker]] = []
    try:
        raise_with_local(refs)
    except ValueError as err:
        exc = err
    tvm_ffi.get_global_func("testing.nop")(exc)
    exc.__traceback__ = None  # the usual way to let go of the frames
    assert refs[0]() is None


def test_a_replaced_error_object_gets_the_frames() -> None:
    exc = caught_native_error()
    nop = tvm_ffi.get_global_func("testing.nop")
    nop(exc)
    exc.__tvm_ffi_error__ = core.Error("ValueError", "fresh", "")
    nop(exc)
    assert "caught_native_error" in exc.__tvm_ffi_error__.backtrace


def test_reraising_an_error_from_callbacks_adds_only_the_new_frames() -> None:
    exc = caught_native_error()

    def reraise() -> None:
        raise exc

    lengths = []
    for _ in range(4):
        with pytest.raises(ValueError, match="kept"):
            apply(reraise)
        lengths.append(len(exc.__tvm_ffi_error__.backtrace))
    growth = [after - before for before, after in zip(lengths, lengths[1:])]
    # Each raise adds the same few frames (the callback's, the caller's), never the whole
    # traceback again, which would double the text each time. (How long those frames are
    # depends on the build: a Debug build inlines nothing and shows more of them.)
    assert growth[0] == growth[1] == growth[2], lengths
    assert 0 < growth[0] < lengths[0], lengths


def test_nested_callbacks_keep_innermost_frame() -> None:
    def innermost() -> None:
        raise IndexError("innermost")

    def middle() -> None:
        apply(innermost)

    with pytest.raises(IndexError, match="innermost") as info:
        apply(middle)
    frames = frames_of(info.value)
    assert frames[-1].name == "innermost"
    assert index_of_frame(frames, "middle") < len(frames) - 1


class Marker:
    pass


def raise_from_callback_with_local() -> weakref.ref[Marker]:
    local = Marker()
    ref = weakref.ref(local)

    def raiser() -> None:
        raise ValueError("cycle check")

    with pytest.raises(ValueError, match="cycle check"):
        apply(raiser)
    return ref


def raise_from_native_with_local() -> weakref.ref[Marker]:
    local = Marker()
    ref = weakref.ref(local)
    with pytest.raises(RuntimeError, match="cycle check"):
        raise_error("RuntimeError", "cycle check")
    return ref


@pytest.mark.parametrize("scenario", [raise_from_callback_with_local, raise_from_native_with_local])
def test_handled_error_frees_frame_locals_without_gc(gc_disabled: None, scenario: Any) -> None:
    ref = scenario()
    assert ref() is None


def test_failing_callback_keeps_the_handled_exception_of_its_caller() -> None:
    apply = tvm_ffi.get_global_func("testing.apply")

    def fail() -> None:
        raise ValueError("inner")

    try:
        raise KeyError("outer")
    except KeyError as outer:
        with pytest.raises(ValueError, match="inner") as info:
            apply(fail)
        assert info.value.__context__ is outer
        assert sys.exc_info()[1] is outer
        assert apply(lambda: str(sys.exc_info()[1])) == "'outer'"


def test_native_frames_without_line_info_have_no_source_lines(monkeypatch, tmp_path) -> None:
    # Such frames name their library file. Formatting must not read that binary as source:
    # Python 3.9's linecache raises SyntaxError on one, which broke every traceback print.
    import linecache
    import tokenize

    opened: list[str] = []
    real_open = tokenize.open

    def recording_open(filename: str) -> object:
        opened.append(str(filename))
        return real_open(filename)

    monkeypatch.setattr(tokenize, "open", recording_open)
    library = str(tmp_path / "libnative_frames.so")
    (tmp_path / "libnative_frames.so").write_bytes(b"\x7fELF\x02\x01\xff\xfe\x00" * 64)
    error = tvm_ffi.core.Error(
        "ValueError", "no lines", f'  File "{library}", line 0, in NativeFunction\n'
    )
    exc = error.py_error()
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    assert f'File "{library}", line 0, in NativeFunction\n' in text
    assert linecache.getlines(library) == []
    assert library not in opened


def test_traceback_manager_builds_native_entries() -> None:
    manager = tvm_ffi.error.TracebackManager()
    tb = manager.native_traceback(
        '  File "inner.cc", line 7, in Inner\n  File "outer.cc", line 3, in Outer\n'
    )
    # As Apache's: the appended entry becomes the outermost one (tb follows it).
    tb = manager.append_traceback(tb, "caller.cc", 11, "Caller")
    frames = traceback.extract_tb(tb)
    assert [(f.filename, f.lineno, f.name) for f in frames] == [
        ("caller.cc", 11, "Caller"),
        ("outer.cc", 3, "Outer"),
        ("inner.cc", 7, "Inner"),
    ]
    single = manager.append_traceback(None, "only.cc", 1, "Only")
    assert [f.name for f in traceback.extract_tb(single)] == ["Only"]
    assert manager.native_traceback("no frames here") is None


def test_callback_backtrace_leaves_out_the_core_extension_frames() -> None:
    def callback() -> None:
        raise_error("ValueError", "from inside")

    with pytest.raises(ValueError, match="from inside") as info:
        apply(callback)
    backtrace = info.value.__tvm_ffi_error__.backtrace
    assert "in callback" in backtrace
    assert "tvm_ffi.core." not in backtrace
    names = [frame.name for frame in frames_of(info.value)]
    assert not any(name.startswith("tvm_ffi.core.") for name in names[names.index("callback") :])


@pytest.mark.skipif(sys.version_info < (3, 11), reason="columns in tracebacks since 3.11")
def test_native_frames_have_no_columns_so_no_carets() -> None:
    with pytest.raises(ValueError) as info:
        raise_error("ValueError", "columns")
    native = [f for f in frames_of(info.value) if "TestRaiseError" in f.name]
    assert native and all(f.colno is None and f.end_colno is None for f in native)
    code = (
        "import tvm_ffi\ntvm_ffi.get_global_func('testing.test_raise_error')('ValueError', 'x')\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert "TestRaiseError" in result.stderr
    # The caller's own line may be underlined (3.13 shows -c source); native lines must not be.
    native_part = result.stderr[result.stderr.index("include/tvm/ffi/") :]
    assert "^" not in native_part


def test_traceback_goes_from_the_caller_straight_to_native_frames() -> None:
    with pytest.raises(ValueError, match="straight") as info:
        raise_error("ValueError", "straight")
    frames = frames_of(info.value)
    assert frames[0].name == "test_traceback_goes_from_the_caller_straight_to_native_frames"
    assert not any(frame.name.startswith("tvm_ffi.core.") for frame in frames)
    assert "TestRaiseError" in frames[-1].name


def test_conversion_errors_leave_out_the_binding_frames() -> None:
    with pytest.raises(TypeError) as info:
        tvm_ffi.get_global_func("testing.add_one")(object())
    assert not any(frame.name.startswith("tvm_ffi.core.") for frame in frames_of(info.value))


class CustomKeyError(KeyError):
    pass


class UnprintableError(Exception):
    def __str__(self) -> str:
        raise ValueError("no text")


def test_exception_whose_str_fails_keeps_its_class() -> None:
    raised = UnprintableError()

    def raiser() -> None:
        raise raised

    with pytest.raises(UnprintableError) as info:
        apply(raiser)
    assert info.value is raised
    error = info.value.__tvm_ffi_error__
    assert error.kind == "Exception"
    assert error.message == "<str() of the UnprintableError failed with ValueError>"


@pytest.mark.parametrize(
    ("exc", "kind"),
    [
        (FileNotFoundError("f"), "FileNotFoundError"),
        (OSError("o"), "OSError"),
        (SystemExit(2), "SystemExit"),
        (StopIteration(), "StopIteration"),
        (CustomKeyError("k"), "KeyError"),
        (KeyboardInterrupt(), "KeyboardInterrupt"),
    ],
)
def test_python_exception_kind_is_its_builtin_class_name(exc: BaseException, kind: str) -> None:
    assert tvm_ffi.convert(exc).kind == kind


def test_returned_callback_exception_has_native_then_callback_frames() -> None:
    def inner_raiser() -> None:
        marker = "local of the callback"  # noqa: F841 - read back from the frame below
        raise ValueError("deep")

    with pytest.raises(ValueError, match="deep") as info:
        apply(inner_raiser)
    entries = list(traceback_entries(info.value.__traceback__))
    names = [tb.tb_frame.f_code.co_name for tb in entries]
    assert names[-1] == "inner_raiser"
    assert any("TestApply" in name for name in names[:-1])
    assert entries[-1].tb_frame.f_locals["marker"] == "local of the callback"
    assert not any(name.startswith("tvm_ffi.core.") for name in names)


def traceback_entries(tb: object) -> Iterator[object]:
    while tb is not None:
        yield tb
        tb = tb.tb_next


def test_register_error_maps_a_builtin_name_to_another_class(restore_error_registry: None) -> None:
    class Other(ValueError):
        pass

    assert register_error("ValueError", Other) is Other
    with pytest.raises(Other, match="ValueError from C"):
        raise_error("ValueError", "ValueError from C")


def test_register_error_accepts_a_builtin_under_its_own_name(restore_error_registry: None) -> None:
    assert register_error(OSError) is OSError
    assert ERROR_NAME_TO_TYPE["OSError"] is OSError


def test_register_error_does_not_build_the_class(restore_error_registry: None) -> None:
    # CUTLASS DSL's error class names its own module-level name in __init__, which is not bound
    # while the decorator runs.
    built = []

    @register_error("LateBoundKind")
    class LateBound(RuntimeError):
        def __init__(self, message: str) -> None:
            built.append(message)
            super().__init__(message)

    assert built == []
    assert ERROR_NAME_TO_TYPE["LateBoundKind"] is LateBound
    with pytest.raises(LateBound, match="from C"):
        raise_error("LateBoundKind", "from C")
    assert built == ["from C"]


def test_error_of_a_class_not_built_from_one_message_says_why(
    restore_error_registry: None,
) -> None:
    class TwoArgs(Exception):
        def __init__(self, code: int, detail: str) -> None:
            super().__init__(code, detail)

    assert register_error("TwoArgsKind", TwoArgs) is TwoArgs
    with pytest.raises(RuntimeError, match=r"^TwoArgsKind: from C") as info:
        raise_error("TwoArgsKind", "from C")
    assert isinstance(info.value.__cause__, TypeError)
    assert "cannot be built from one message argument" in str(info.value.__cause__)

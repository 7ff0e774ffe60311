# SPDX-License-Identifier: Apache-2.0
"""Private names downstream code uses from Apache's modules, and what each does here.

Most are the core's (``tvm_ffi.core._...``); the module-level helpers of tvm_ffi.error,
tvm_ffi.config, tvm_ffi.structural and tvm_ffi._tensor/_convert are here too.
"""

from __future__ import annotations

import copy
import ctypes
import importlib
import inspect
import json
import sys
import traceback
import types
from typing import Any, Optional, Union

import pytest

import tvm_ffi
import tvm_ffi.testing
from tvm_ffi import config, core, error, structural

echo = tvm_ffi.get_global_func("testing.echo")


def _raise_in_helper() -> None:
    raise ValueError("from the helper")


def _caught(func: Any) -> BaseException:
    try:
        func()
    except BaseException as err:
        return err
    raise AssertionError("expected an exception")


# ------------------------------------------------------------------------------------------
# Classes and class hooks
# ------------------------------------------------------------------------------------------
def test_object_slots_meta_is_object_metaclass() -> None:
    assert type(core.Object) is core._ObjectSlotsMeta
    assert core._ObjectMeta is core._ObjectSlotsMeta

    class Plain(core.Object):
        pass

    assert Plain.__dict__["__slots__"] == ()


def test_class_object_and_dtype() -> None:
    assert core._CLASS_OBJECT is core.Object
    assert core._CLASS_DTYPE is tvm_ffi.dtype
    previous = core._CLASS_OBJECT
    try:
        core._set_class_object(tvm_ffi.Object)
        assert core._CLASS_OBJECT is tvm_ffi.Object
    finally:
        core._set_class_object(previous)


def test_register_object_by_index_returns_type_info() -> None:
    index = core._object_type_key_to_index("testing.TestIntPair")
    cls = core._registered_class(index)
    info = core._register_object_by_index(index, cls)
    assert info.type_key == "testing.TestIntPair"
    assert info.type_cls is cls
    assert type(tvm_ffi.testing.TestIntPair(1, 2)) is cls


def test_set_type_cls_rejects_a_type_with_a_class() -> None:
    info = core._lookup_or_register_type_info_from_type_key("testing.TestIntPair")
    with pytest.raises(AssertionError, match="already has the class"):
        core._set_type_cls(info, tvm_ffi.testing.TestIntPair)


def test_byte_array_arg_takes_bytes_only() -> None:
    assert isinstance(core.ByteArrayArg(b"abc"), core.ByteArrayArg)
    assert isinstance(core.ByteArrayArg(bytearray(b"abc")), core.ByteArrayArg)
    for value in ("text", 1, None, memoryview(b"x")):
        with pytest.raises(TypeError, match=f"expected bytes, {type(value).__name__} found"):
            core.ByteArrayArg(value)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------
# Reflected fields: FieldGetter / FieldSetter
# ------------------------------------------------------------------------------------------
def test_field_getter_and_setter_read_and_write() -> None:
    info = core._lookup_or_register_type_info_from_type_key("testing.TestObjectBase")
    fields = {field.name: field for field in info.fields}
    obj = tvm_ffi.testing.TestObjectBase(v_i64=5, v_f64=1.5, v_str="s")
    assert isinstance(fields["v_i64"].getter, core.FieldGetter)
    assert isinstance(fields["v_i64"].setter, core.FieldSetter)
    assert [fields[name].getter(obj) for name in ("v_i64", "v_f64", "v_str")] == [5, 1.5, "s"]
    fields["v_i64"].setter(obj, 42)
    assert obj.v_i64 == 42
    with pytest.raises(TypeError):
        fields["v_i64"].setter(obj, "not an int")
    with pytest.raises(TypeError, match="expected an FFI object, got 'int'"):
        fields["v_i64"].getter(1)


def test_ffi_property_has_the_property_members() -> None:
    prop = type(tvm_ffi.testing.TestObjectBase(v_i64=5, v_f64=1.5, v_str="s")).__dict__["v_i64"]
    assert isinstance(prop, core.FFIProperty)
    assert prop.fdel is None
    obj = tvm_ffi.testing.TestObjectBase(v_i64=5, v_f64=1.5, v_str="s")
    doubled = prop.getter(lambda this: this.v_f64 * 2)
    assert isinstance(doubled, property)
    assert doubled.fget(obj) == 3.0
    assert doubled.fset == prop.fset
    written = []
    assert prop.setter(lambda this, value: written.append(value)).fset(obj, 1) is None
    assert written == [1]
    assert prop.deleter(print).fdel is print


def test_type_field_normalize_value_passes_plain_values() -> None:
    info = core._lookup_or_register_type_info_from_type_key("testing.TestObjectBase")
    field = info.fields[0]
    marker = object()
    assert field.normalize_value(marker) is marker
    assert field.normalize_value(5) == 5


def test_type_converter_fn_convert() -> None:
    assert core.TypeSchema.from_annotation(int)._converter.fn_convert is None
    pair = core.TypeSchema.from_annotation(tvm_ffi.testing.TestIntPair)._converter
    index = core._object_type_key_to_index("testing.TestIntPair")
    attr = core._lookup_type_attr(index, "__ffi_convert__")
    assert isinstance(pair.fn_convert, tvm_ffi.Function)
    assert pair.fn_convert.same_as(attr)


def test_field_getter_without_native_function_raises() -> None:
    obj = tvm_ffi.testing.TestObjectBase(v_i64=5, v_f64=1.5, v_str="s")
    with pytest.raises(ValueError, match="no native function"):
        core.FieldGetter()(obj)
    with pytest.raises(ValueError, match="no native function"):
        core.FieldSetter()(obj, 1)


# ------------------------------------------------------------------------------------------
# Conversion helpers
# ------------------------------------------------------------------------------------------
def test_opaque_ptr_handlers_pass_an_exact_class_as_a_pointer() -> None:
    class Handle:
        def __init__(self, address: int) -> None:
            self.address = address

    class SubHandle(Handle):
        pass

    core._OPAQUE_PTR_HANDLERS[Handle] = lambda value: value.address
    try:
        result = echo(Handle(0x1234))
        assert isinstance(result, ctypes.c_void_p)
        assert result.value == 0x1234
        assert echo(Handle(0)).value is None
        assert echo(Handle(-1)).value == 2**64 - 1  # a negative int64 reads as its bits
        assert isinstance(echo(SubHandle(1)), SubHandle)  # exact classes only: opaque object
    finally:
        del core._OPAQUE_PTR_HANDLERS[Handle]


def test_opaque_ptr_handler_class_satisfies_a_void_p_schema() -> None:
    class Handle:
        def __init__(self, address: int) -> None:
            self.address = address

    class SubHandle(Handle):
        pass

    schema = core.TypeSchema.from_annotation(ctypes.c_void_p)
    with pytest.raises(TypeError, match=r"expected ctypes\.c_void_p"):
        schema.check_value(Handle(0x20))
    core._OPAQUE_PTR_HANDLERS[Handle] = lambda value: value.address
    try:
        schema.check_value(Handle(0x20))
        assert schema.convert(Handle(0x20)).type_index == 4  # kTVMFFIOpaquePtr
        with pytest.raises(TypeError, match=r"expected ctypes\.c_void_p"):
            schema.check_value(SubHandle(0x20))  # exact classes only, as in calls
    finally:
        del core._OPAQUE_PTR_HANDLERS[Handle]


def test_opaque_ptr_handler_must_return_an_int() -> None:
    class Bad:
        pass

    core._OPAQUE_PTR_HANDLERS[Bad] = lambda value: "12"
    try:
        with pytest.raises(TypeError):
            echo(Bad())
    finally:
        del core._OPAQUE_PTR_HANDLERS[Bad]


def test_convert_to_opaque_object_wraps_any_value() -> None:
    for value in (1, "text", [1, 2], object()):
        wrapped = core._convert_to_opaque_object(value)
        assert isinstance(wrapped, core.OpaquePyObject)
        assert wrapped.pyobject() is value


def test_convert_to_ffi_func_is_convert_func() -> None:
    assert core._convert_to_ffi_func is core.convert_func
    func = core._convert_to_ffi_func(lambda x: x + 1)
    assert isinstance(func, tvm_ffi.Function)
    assert func(1) == 2


def test_convert_to_ffi_error() -> None:
    err = core._convert_to_ffi_error(KeyError("missing"))
    assert isinstance(err, core.Error)
    assert (err.kind, err.message) == ("KeyError", "'missing'")
    raised = _caught(_raise_in_helper)
    converted = core._convert_to_ffi_error(raised)
    assert converted.kind == "ValueError"
    assert "_raise_in_helper" in converted.backtrace
    native = core.Error("ValueError", "boom", '  File "a.cc", line 1, in inner\n')
    assert core._convert_to_ffi_error(native.py_error()).same_as(native)


def test_numpy_dtype_to_ffi_dtype() -> None:
    np = pytest.importorskip("numpy")
    result = core._convert_numpy_dtype_to_ffi_dtype(np.dtype("float32"))
    assert isinstance(result, tvm_ffi.dtype)
    assert result == "float32"
    with pytest.raises(ValueError):
        core._convert_numpy_dtype_to_ffi_dtype(np.dtype("U3"))


def test_torch_dtype_to_ffi_dtype() -> None:
    with pytest.raises(ValueError, match=r"expected a torch\.dtype, got 'int'"):
        core._convert_torch_dtype_to_ffi_dtype(1)
    torch = pytest.importorskip("torch")
    result = core._convert_torch_dtype_to_ffi_dtype(torch.bfloat16)
    assert isinstance(result, tvm_ffi.dtype)
    assert result == "bfloat16"


def test_optional_modules_are_attributes_of_the_core() -> None:
    assert core.numpy is pytest.importorskip("numpy")
    assert core.ml_dtypes is sys.modules.get("ml_dtypes") or core.ml_dtypes is None
    assert core.cuda_driver is None or isinstance(core.cuda_driver, types.ModuleType)
    torch = sys.modules.get("torch")
    if torch is not None:
        assert core.torch is torch
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        core.no_such_name  # noqa: B018


def test_optional_modules_are_none_when_missing(run_python: Any) -> None:
    # A missing one is None in the namespace from the start, as in Apache's core; an installed
    # one is imported on first access only.
    pytest.importorskip("numpy")
    code = (
        "import sys; sys.modules['ml_dtypes'] = None\n"
        "from tvm_ffi import core, _convert\n"
        "print(vars(core).get('ml_dtypes', 'absent'), vars(core).get('numpy', 'absent'))\n"
        "print('numpy' in sys.modules, core.numpy is sys.modules['numpy'])\n"
        "print(all(name in dir(core) for name in ('torch', 'numpy', 'ml_dtypes', 'cuda_driver')))\n"
    )
    assert run_python("-c", code).stdout.split() == ["None", "absent", "False", "True", "True"]


def test_convert_module_optional_modules() -> None:
    from tvm_ffi import _convert

    assert _convert.numpy is core.numpy
    assert _convert.torch is core.torch
    with pytest.raises(AttributeError):
        _convert.no_such_name  # noqa: B018


# ------------------------------------------------------------------------------------------
# Shapes, strides, streams, debugging
# ------------------------------------------------------------------------------------------
def test_shape_obj_get_py_tuple() -> None:
    from tvm_ffi import _tensor

    shape = tvm_ffi.Shape((2, 3))
    assert _tensor._shape_obj_get_py_tuple is core._shape_obj_get_py_tuple
    assert _tensor.PyNativeObject is core.PyNativeObject
    assert core._shape_obj_get_py_tuple(shape._tvm_ffi_cached_object) == (2, 3)
    for other in (shape, (2, 3), tvm_ffi.convert([1]), None):
        with pytest.raises(TypeError, match=r"expected an ffi\.Shape object"):
            core._shape_obj_get_py_tuple(other)


def test_make_strides_from_shape() -> None:
    assert core._make_strides_from_shape((2, 3, 4)) == (12, 4, 1)
    assert core._make_strides_from_shape((2, 0, 4)) == (0, 4, 1)
    assert core._make_strides_from_shape(()) == ()
    with pytest.raises(TypeError):
        core._make_strides_from_shape([2, 3])  # type: ignore[arg-type]


def test_env_stream_aliases_round_trip() -> None:
    cuda = 2
    previous = core._env_set_current_stream(cuda, 3, 0x77)
    try:
        assert core._env_get_current_stream(cuda, 3) == 0x77
    finally:
        core._env_set_current_stream(cuda, 3, previous)
    assert core._env_get_current_stream(cuda, 3) == previous


def test_print_debug_info(capsys: pytest.CaptureFixture[str]) -> None:
    echo(1)
    core._print_debug_info()
    out = capsys.readouterr().out
    assert out.startswith("TVMFFIPyGetArgDispatchMapSize: ")
    assert int(out.split(":")[1]) >= 1


def test_testing_drop_last_ref_without_thread_state() -> None:
    core._testing_drop_last_ref_without_thread_state()


# ------------------------------------------------------------------------------------------
# Type schemas and methods
# ------------------------------------------------------------------------------------------
def test_annotation_helpers_match_from_annotation() -> None:
    schema = core.TypeSchema.from_annotation
    assert repr(core._annotation_union((int, type(None)))) == repr(schema(Optional[int]))
    assert repr(core._annotation_union((int, str))) == repr(schema(Union[int, str]))
    assert repr(core._annotation_cobject(tvm_ffi.Array, (int,))) == repr(schema(tvm_ffi.Array[int]))
    with pytest.raises(TypeError, match="requires 1 type argument"):
        core._annotation_cobject(tvm_ffi.Array, (int, str))

    class Unregistered(core.Object):
        pass

    with pytest.raises(TypeError, match="not registered"):
        core._annotation_cobject(Unregistered, ())


def test_build_converter() -> None:
    schema = core.TypeSchema.from_annotation(int)
    converter = core._build_converter(schema)
    assert type(converter) is type(schema._converter)
    with pytest.raises(TypeError, match="unknown TypeSchema origin"):
        core._build_converter(core.TypeSchema("no.such.Type"))


def test_origin_native_layout() -> None:
    layout = core._ORIGIN_NATIVE_LAYOUT
    assert layout["int"] == (8, 8, 1)
    assert layout["bool"] == (1, 1, 2)
    assert layout["Device"] == (8, 4, 6)
    for origin in ("Any", "str", "bytes", "Optional", "Union"):
        assert layout[origin] == (16, 8, -1)


def test_member_method_wrapper_binds_as_a_method() -> None:
    seen = []
    wrapper = core._member_method_wrapper(lambda this, *args: seen.append((this, args)))

    class Host:
        method = wrapper

    host = Host()
    host.method(1, 2)
    assert seen == [(host, (1, 2))]


# ------------------------------------------------------------------------------------------
# tvm_ffi.error: backtrace text <-> traceback
# ------------------------------------------------------------------------------------------
def test_error_hooks_are_set_in_the_core() -> None:
    assert core._WITH_APPEND_BACKTRACE is error._with_append_backtrace
    assert core._TRACEBACK_TO_BACKTRACE_STR is error._traceback_to_backtrace_str
    assert isinstance(error._TRACEBACK_MANAGER, error.TracebackManager)


def test_traceback_to_backtrace_str_is_most_recent_first() -> None:
    err = _caught(_raise_in_helper)
    text = error._traceback_to_backtrace_str(err.__traceback__)
    lines = text.splitlines(keepends=True)
    assert len(lines) == 2
    assert lines[0].endswith(", in _raise_in_helper\n")
    assert lines[1].endswith(", in _caught\n")
    assert lines[0].startswith(f'  File "{__file__}", line ')
    assert error._traceback_to_backtrace_str(None) == ""


def test_with_append_backtrace_puts_native_frames_outermost() -> None:
    err = _caught(_raise_in_helper)
    backtrace = '  File "inner.cc", line 1, in Inner\n  File "outer.cc", line 2, in Outer\n'
    result = error._with_append_backtrace(err, backtrace)
    assert result is err
    names = [frame.name for frame in traceback.extract_tb(err.__traceback__)]
    assert names == ["Outer", "Inner", "_caught", "_raise_in_helper"]
    assert error._with_append_backtrace(err, "no frames") is err


def test_traceback_manager_append_adds_the_outermost_entry() -> None:
    err = _caught(_raise_in_helper)
    tb = error._TRACEBACK_MANAGER.append_traceback(err.__traceback__, "native.cc", 7, "Native")
    frames = traceback.extract_tb(tb)
    assert (frames[0].filename, frames[0].lineno, frames[0].name) == ("native.cc", 7, "Native")
    assert [f.name for f in frames][1:] == ["_caught", "_raise_in_helper"]


# ------------------------------------------------------------------------------------------
# tvm_ffi.config and tvm_ffi.structural
# ------------------------------------------------------------------------------------------
def test_config_find_libdir() -> None:
    from pathlib import Path

    libdir = Path(config._find_libdir())
    assert libdir == Path(tvm_ffi.libinfo.find_libtvm_ffi()).parent


def test_structural_normalize_callbacks() -> None:
    def fn(value: Any) -> None:
        pass

    assert structural._normalize_callbacks(fn, "api") == [(Any, fn)]
    pairs = structural._normalize_callbacks([((int, str), fn), (float, fn)], api_name="api")
    assert pairs == [(int, fn), (str, fn), (float, fn)]
    with pytest.raises(TypeError, match="api"):
        structural._normalize_callbacks(5, "api")  # type: ignore[arg-type]


def test_structural_callback_type_to_type_index() -> None:
    assert structural._callback_type_to_type_index(object, "api") == -1
    assert structural._callback_type_to_type_index(Any, api_name="api") == -1
    assert structural._callback_type_to_type_index(int, "api") == 1
    array_index = core._object_type_key_to_index("ffi.Array")
    assert structural._callback_type_to_type_index(tvm_ffi.Array, "api") == array_index
    with pytest.raises(TypeError, match="api callback type"):
        structural._callback_type_to_type_index(Optional[int], "api")


def test_structural_callback_accepts_inplace_mode() -> None:
    assert structural._callback_accepts_inplace_mode(lambda value, mutator, mode: value)
    assert structural._callback_accepts_inplace_mode(lambda value, *rest: value)
    assert not structural._callback_accepts_inplace_mode(lambda value, mutator: value)
    assert not structural._callback_accepts_inplace_mode(getattr)  # no signature to read
    with pytest.raises(TypeError, match="must accept"):
        structural._callback_accepts_inplace_mode(lambda value: value)


def test_signatures_of_private_helpers_match_upstream() -> None:
    def names(func: Any) -> list[str]:
        return list(inspect.signature(func).parameters)

    assert names(structural._normalize_callbacks) == ["callbacks", "api_name"]
    assert names(structural._callback_type_to_type_index) == ["callback_type", "api_name"]
    assert names(error._with_append_backtrace) == ["py_error", "backtrace"]
    assert names(error._traceback_to_backtrace_str) == ["tb"]


# ------------------------------------------------------------------------------------------
# tvm_ffi.cpp.dtype and tvm_ffi.cpp.extension
# ------------------------------------------------------------------------------------------
def test_cpp_dtype_determine_backend_once() -> None:
    from tvm_ffi.cpp import dtype

    assert dtype._determine_backend_once() in ("cpu", "cuda", "rocm")
    assert dtype._determine_backend_once() is dtype._determine_backend_once()


def test_extension_string_helpers() -> None:
    from tvm_ffi.cpp import extension

    assert extension._escape_cpp_string_literal('a"b\\c\nd\te\r') == 'a\\"b\\\\c\\nd\\te\\r'
    assert "é".translate(extension._CPP_ESCAPE_TABLE) == "é"
    assert extension._str_seq2list(None) == []
    assert extension._str_seq2list("a.cc") == ["a.cc"]
    assert extension._str_seq2list(("a.cc", "b.cc")) == ["a.cc", "b.cc"]
    assert extension._windows_argument("C:/Program Files/x") == '"C:/Program Files/x"'
    assert extension._windows_argument("plain") == "plain"


def test_extension_hash_sources_matches_upstream_digests() -> None:
    from tvm_ffi.cpp import extension

    # Digests computed with Apache's _hash_sources for the same inputs.
    key = extension._hash_sources("a", None, ["x"], None, {"f": "d"}, [], [], [], [])
    assert key == "623115328f7c0611"
    embedded = {"k": b"x"}
    key = extension._hash_sources(None, None, ["/a.cc"], None, {}, ["-O2"], [], [], [], embedded)
    assert key == "8e824773e1862286"
    with pytest.raises(ValueError, match="Unsupported type"):
        extension._hash_sources(None, None, None, None, [1], [], [], [], [])  # type: ignore[list-item]


def test_extension_backend_helpers(monkeypatch: pytest.MonkeyPatch) -> None:
    from tvm_ffi.cpp import extension

    assert extension._resolve_gpu_backend("hip") == "hip"
    assert extension._resolve_gpu_backend("cuda") == "cuda"
    with pytest.raises(ValueError, match="Invalid backend: x"):
        extension._resolve_gpu_backend("x")
    extension._detect_gpu_backend.cache_clear()
    monkeypatch.setenv("TVM_FFI_GPU_BACKEND", "HIP")
    try:
        assert extension._detect_gpu_backend() == "hip"
        assert extension._resolve_gpu_backend(None) == "hip"
    finally:
        extension._detect_gpu_backend.cache_clear()


def test_extension_find_compiler(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from tvm_ffi.cpp import extension

    assert extension._find_compiler("sh") is not None
    (tmp_path / "bin").mkdir()
    tool = tmp_path / "bin" / "tvm-ffi-test-compiler"
    tool.write_text("#!/bin/sh\n")
    tool.chmod(0o755)
    monkeypatch.setenv("TVM_FFI_TEST_HOME", str(tmp_path))
    assert extension._find_compiler("tvm-ffi-test-compiler") is None
    found = extension._find_compiler("tvm-ffi-test-compiler", "NO_SUCH_VAR", "TVM_FFI_TEST_HOME")
    assert found == str(tool)


def test_extension_arch_targets(monkeypatch: pytest.MonkeyPatch) -> None:
    from tvm_ffi.cpp import extension

    monkeypatch.setenv("TVM_FFI_CUDA_ARCH_LIST", "8.0 9.0a")
    target = extension._get_cuda_target()
    assert "-gencode=arch=compute_80,code=sm_80" in target.split()
    assert "-gencode=arch=compute_90a,code=sm_90a" in target.split()
    monkeypatch.setenv("TVM_FFI_ROCM_ARCH_LIST", "gfx90a gfx942")
    assert extension._get_rocm_target() == ["--offload-arch=gfx90a", "--offload-arch=gfx942"]


def test_extension_toolkit_homes(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from tvm_ffi.cpp import extension

    monkeypatch.setenv("CUDA_HOME", str(tmp_path))
    assert extension._find_cuda_home() == str(tmp_path)
    monkeypatch.setenv("ROCM_PATH", str(tmp_path / "missing"))
    monkeypatch.delenv("ROCM_HOME", raising=False)
    with pytest.raises(RuntimeError, match="Could not find ROCm installation"):
        extension._find_rocm_home()


def test_extension_dev_prompt_needs_visual_studio() -> None:
    from tvm_ffi.cpp import extension

    if sys.platform.startswith("win32"):
        pytest.skip("Visual Studio may be installed")
    with pytest.raises(RuntimeError, match="MSVC developer environment: ninja -v"):
        extension._run_command_in_dev_prompt(["ninja", "-v"], ".", True)


def test_extension_maybe_write(tmp_path: Any) -> None:
    import os

    from tvm_ffi.cpp import extension

    path = tmp_path / "build.ninja"
    extension._maybe_write(str(path), "rules\n")
    assert path.read_text() == "rules\n"
    os.utime(path, (0, 0))
    extension._maybe_write(str(path), "rules\n")
    assert path.stat().st_mtime == 0  # unchanged content: the file is left alone
    extension._maybe_write(str(path), "other\n")
    assert path.read_text() == "other\n"


def test_extension_decorate_with_tvm_ffi() -> None:
    from tvm_ffi.cpp import extension

    text = extension._decorate_with_tvm_ffi("int f(int x) { return x; }", {"f": 'doc "q"', "g": ""})
    assert "#include <tvm/ffi/function.h>" in text
    assert text.index("int f(int x)") < text.index("TVM_FFI_DLL_EXPORT_TYPED_FUNC(f, f)")
    assert "TVM_FFI_DLL_EXPORT_TYPED_FUNC(g, g)" in text
    assert "TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC(f, " in text


def test_extension_generate_ninja_build(tmp_path: Any) -> None:
    from tvm_ffi.cpp import extension

    text = extension._generate_ninja_build(
        "demo", ["-DX=1"], [], ["-lm"], [str(tmp_path)], [str(tmp_path / "a.cc")]
    )
    assert "-DX=1" in text and "-lm" in text and f"-I{tmp_path}" in text
    assert "build demo.so: link_shared" in text
    assert "default demo.so" in text
    objects = extension._generate_ninja_build(
        "demo", [], [], [], [], [str(tmp_path / "a.cc")], output="demo.o"
    )
    assert "build demo.o: link_object" in objects


@pytest.mark.compiles
def test_extension_build_impl_builds_a_library(tmp_path: Any) -> None:
    from tvm_ffi.cpp import extension

    source = tmp_path / "add.cc"
    source.write_text(
        "#include <tvm/ffi/function.h>\n"
        "int add_one(int x) { return x + 1; }\n"
        "TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_one, add_one);\n"
    )
    build_dir = tmp_path / "build"
    path = extension._build_impl(
        "private_build_impl", str(source), None, None, None, None, str(build_dir), need_lock=False
    )
    assert path == str(build_dir / "private_build_impl.so")
    assert tvm_ffi.load_module(path).add_one(1) == 2


# ------------------------------------------------------------------------------------------
# Private members of classes
# ------------------------------------------------------------------------------------------
def test_device_tables_map_names_and_codes_both_ways() -> None:
    to_name = tvm_ffi.Device._DEVICE_TYPE_TO_NAME
    to_code = tvm_ffi.Device._DEVICE_NAME_TO_TYPE
    assert to_name[2] == "cuda" and to_name[3] == "cuda_host" and to_name[12] == "ext_dev"
    assert to_code["mps"] == to_code["metal"] == 8 and to_code["wgpu"] == 15
    # Host, managed and oneapi memory have a name but no constructor spelling; llvm neither.
    assert {"cuda_host", "rocm_host", "cuda_managed", "oneapi", "llvm"}.isdisjoint(to_code)
    assert set(to_code.values()) < set(to_name)
    assert all(isinstance(code, core.DLDeviceType) for code in to_name)
    for name, code in to_code.items():
        device = tvm_ffi.Device(f"{name}:3")
        assert (device.dlpack_device_type(), device.index) == (code, 3)
        assert device.type == to_name[code]
    for code, name in to_name.items():
        assert tvm_ffi.Device(code).type == name
        if name in to_code:
            assert tvm_ffi.Device(name) == tvm_ffi.Device(code)


def test_device_tables_are_the_ones_device_reads() -> None:
    to_name = tvm_ffi.Device._DEVICE_TYPE_TO_NAME
    to_code = tvm_ffi.Device._DEVICE_NAME_TO_TYPE
    assert tvm_ffi.Device("cpu")._DEVICE_NAME_TO_TYPE is to_code
    to_code["private_npu"] = 12
    to_name[99] = "private_npu"
    try:
        assert str(tvm_ffi.Device("private_npu:1")) == "ext_dev:1"
        assert tvm_ffi.Device(99, 2).type == "private_npu"
    finally:
        del to_code["private_npu"], to_name[99]
    with pytest.raises(ValueError, match="Unknown device"):
        tvm_ffi.Device("private_npu")


def test_dtype_code_sets_decide_is_integer_and_is_float() -> None:
    dtype = tvm_ffi.dtype
    assert sorted(dtype._INTEGER_CODES) == [0, 1]
    assert sorted(dtype._FLOAT_CODES) == [2, 4, *range(7, 18)]
    names = ["int8", "uint64", "float16", "bfloat16", "float8_e5m2", "float4_e2m1fn", "bool"]
    for name in [*names, "handle", "int32x4", "float6_e3m2fn"]:
        value = dtype(name)
        assert value.is_integer == (value.type_code in dtype._INTEGER_CODES), name
        assert value.is_float == (value.type_code in dtype._FLOAT_CODES), name
    assert dtype("float8_e4m3fn").is_float and not dtype("bool").is_integer


def test_type_info_has_type_metadata() -> None:
    def info(key: str) -> Any:
        return core._lookup_or_register_type_info_from_type_key(key)

    assert info("testing.TestIntPair")._has_type_metadata
    assert info("testing.TestIntPair").total_size == 40
    assert info("ffi.Object")._has_type_metadata
    assert not info("ffi.Array")._has_type_metadata  # a static type without native metadata
    assert not info("ffi.String")._has_type_metadata

    @tvm_ffi.dataclasses.py_class("test_private_names.WithMetadata")
    class WithMetadata(tvm_ffi.Object):
        x: int

    assert core._type_cls_to_type_info(WithMetadata)._has_type_metadata
    unregistered = copy.copy(info("testing.TestIntPair"))
    unregistered.type_index = 1 << 30
    assert unregistered._has_type_metadata is False


def test_type_info_read_back_methods_reloads_the_native_table() -> None:
    native = core._lookup_or_register_type_info_from_type_key("testing.TestIntPair")
    assert {"__ffi_init__", "sum"} <= {m.name for m in native.methods}
    fresh = copy.copy(native)
    fresh.methods = []
    assert fresh._read_back_methods() is None
    assert [(m.name, m.is_static) for m in fresh.methods] == [
        (m.name, m.is_static) for m in native.methods
    ]
    assert fresh.methods[0] is not native.methods[0]
    pair = tvm_ffi.testing.TestIntPair(3, 4)
    sum_method = next(m for m in fresh.methods if m.name == "sum")
    assert sum_method.func(pair) == 7
    unregistered = copy.copy(native)
    unregistered.type_index = 1 << 30
    with pytest.raises(ValueError, match="not registered"):
        unregistered._read_back_methods()


def test_type_field_is_payload_enum_field() -> None:
    from tvm_ffi.dataclasses.enum import Enum

    holder = core._lookup_or_register_type_info_from_type_key("testing.TestCxxEnumHolder")
    flags = {f.name: f._is_payload_enum_field() for f in holder.fields}
    assert flags["priority"] and flags["opcode"]  # IntEnum and StrEnum fields

    class Shade(Enum, type_key="test_private_names.Shade"):
        depth: int
        light = None

    @tvm_ffi.dataclasses.py_class("test_private_names.EnumFields")
    class EnumFields(tvm_ffi.Object):
        shade: Shade
        level: tvm_ffi.testing._TestCxxIntEnum
        count: int

    fields = {f.name: f for f in core._type_cls_to_type_info(EnumFields).fields}
    assert not fields["shade"]._is_payload_enum_field()  # a plain Enum has no int/str payload
    assert fields["level"]._is_payload_enum_field()
    assert not fields["count"]._is_payload_enum_field()
    untyped = copy.copy(fields["level"])
    untyped.ty = None
    assert not untyped._is_payload_enum_field()


def test_type_schema_repr_impl_is_the_repr() -> None:
    T = core.TypeSchema
    schemas = [
        T("Optional", (T("int"),)),
        T.from_json_str('{"type":"ffi.Map","args":[{"type":"str"},{"type":"int"}]}'),
        T("Callable", named_args={"return": (T("int"),), "params": (T("str"),)}),
        T("tuple", ()),
    ]
    for schema in schemas:
        assert schema._repr_impl(None, False, frozenset()) == repr(schema) == schema.output_repr()
        assert schema._repr_impl(None, True, frozenset()) == schema.input_repr()
        assert schema._repr_impl(str.upper, False, frozenset()) == schema.repr(str.upper)


def test_type_schema_repr_impl_expands_a_conversion_schema_once() -> None:
    key = "test_private_names.Convertible"

    @tvm_ffi.dataclasses.py_class(key)
    class Convertible(tvm_ffi.Object):
        x: int

    index = core._object_type_key_to_index(key)
    accepted = {"type": "Union", "args": [{"type": "int"}, {"type": key}]}
    core._register_type_attr(index, "__ffi_convert_type_schema__", json.dumps(accepted))
    schema = core.TypeSchema(key)
    # Input text names what converts; the type itself is not expanded a second time.
    assert schema._repr_impl(None, True, frozenset()) == f"int | {key}"
    assert schema.input_repr() == f"int | {key}"
    assert schema._repr_impl(None, True, frozenset({index})) == key
    assert schema._repr_impl(None, False, frozenset()) == key == schema.output_repr()


def test_field_valid_structural_eq_values() -> None:
    from tvm_ffi.dataclasses import Field, field

    valid = Field._VALID_STRUCTURAL_EQ_VALUES
    assert {None, "ignore", "def", "def-pattern", "def-simple"} <= valid
    for value in valid:
        assert field(structural_eq=value).structural_eq == value
    assert "recursive" not in valid
    with pytest.raises(ValueError, match="structural_eq must be one of"):
        field(structural_eq="recursive")


def _gen_abi_cpp_module() -> Any:
    return importlib.import_module("tvm_ffi.dataclasses.gen_abi_cpp")


def test_gen_abi_cpp_generator_lowers_values_and_objects() -> None:
    gen_module = _gen_abi_cpp_module()
    T = core.TypeSchema
    gen = gen_module._Generator([])
    pair = T("testing.TestIntPair")

    def lowered(carrier: Any) -> tuple[str, int, int]:
        return carrier.cpp_type, carrier.size, carrier.alignment

    assert lowered(gen._lower_value(T("int"))) == ("int64_t", 8, 8)
    assert lowered(gen._lower_value(T("str"))) == ("::tvm::ffi::String", 16, 8)
    assert lowered(gen._lower_value(T("Optional", (pair,)))) == ("::tvm::ffi::Any", 16, 8)
    nullable = gen._lower_value(T("Optional", (pair,)), container_argument=True)
    assert nullable.cpp_type == "::tvm::ffi::ObjectPtr<::testing::TestIntPairObj>"
    array = gen._lower_value(T("Array", (T("Optional", (pair,)),)))
    assert array.cpp_type == "::tvm::ffi::Array<::tvm::ffi::ObjectPtr<::testing::TestIntPairObj>>"
    union = gen._lower_value(T("Map", (T("str"), T("Union", (pair, T("Array"))))))
    assert union.cpp_type == (
        "::tvm::ffi::Map<::tvm::ffi::String, ::tvm::ffi::Arc<::tvm::ffi::Object>>"
    )
    assert gen._lower_value(T("tuple", (T("int"), T("float")))).cpp_type == (
        "::tvm::ffi::Tuple<int64_t, double>"
    )
    assert lowered(gen._lower_object(pair)) == ("::tvm::ffi::Arc<::testing::TestIntPairObj>", 8, 8)
    assert gen._lower_object(T("Object")).cpp_type == "::tvm::ffi::Arc<::tvm::ffi::Object>"
    assert gen._lower_object(T("ffi.Shape")).cpp_type == "::tvm::ffi::Shape"
    assert gen._lower_nullable_object(T("str")).cpp_type == (
        "::tvm::ffi::ObjectPtr<::tvm::ffi::detail::StringObj>"
    )
    with pytest.raises(ValueError):
        gen._lower_value(T("None"))


def test_gen_abi_cpp_generator_dynamic_object_type_is_a_dependency() -> None:
    gen = _gen_abi_cpp_module()._Generator([])
    T = core.TypeSchema
    assert gen._get_dynamic_object_cpp_type(T("testing.TestIntPair")) == (
        "::testing::TestIntPairObj"
    )
    assert [info.type_key for info in gen.dependencies.values()] == ["testing.TestIntPair"]
    for static in ("int", "str", "Object"):
        with pytest.raises(ValueError, match="not a user-defined object type"):
            gen._get_dynamic_object_cpp_type(T(static))
    header = gen.build()
    assert "struct TestIntPairObj : public ::tvm::ffi::Object {" in header


def test_gen_abi_cpp_generator_lower_field_matches_the_header() -> None:
    gen_module = _gen_abi_cpp_module()
    info = core._lookup_or_register_type_info_from_type_key("testing.SchemaAllTypes")
    gen = gen_module._Generator([info])
    # v_opt_int, an Optional<int64_t>, is rejected (as by Apache's generator).
    accepted = [f for f in info.fields if f.name != "v_opt_int"]
    carriers = {f.name: gen._lower_field(f, info) for f in accepted}
    assert carriers["v_int"].cpp_type == "int64_t"
    assert carriers["v_device"].cpp_type == "DLDevice"
    assert carriers["v_map_str_int"].cpp_type == "::tvm::ffi::Map<::tvm::ffi::String, int64_t>"
    for f in accepted:
        line = gen_module._member_line(gen._field_model(f, info)[0])
        assert line.startswith(f"  {carriers[f.name].cpp_type} {f.name};  // offset="), f.name
    field = info.fields[0]
    wrong = copy.copy(next(f for f in info.fields if f.name == "v_int"))
    wrong.size, wrong.alignment = 3, 1  # no C++ type has this layout
    with pytest.raises(ValueError):
        gen._lower_field(wrong, info)
    assert gen._lower_field(field, info) == carriers[field.name]


def test_traceback_manager_frame_helpers() -> None:
    manager = error._TRACEBACK_MANAGER
    frame = manager._create_frame("/native/src/kernel.cc", 42, "RunKernel")
    assert isinstance(frame, types.FrameType)
    assert (frame.f_code.co_filename, frame.f_code.co_name) == (
        "/native/src/kernel.cc",
        "RunKernel",
    )
    assert frame.f_lineno == 42
    code = manager._get_cached_code_object("/native/src/kernel.cc", 7, "Other")
    assert isinstance(code, types.CodeType)
    assert (code.co_filename, code.co_name, code.co_firstlineno) == (
        "/native/src/kernel.cc",
        "Other",
        7,
    )
    tb = types.TracebackType(None, frame, frame.f_lasti, 42)
    assert traceback.format_tb(tb) == ['  File "/native/src/kernel.cc", line 42, in RunKernel\n']
    # A frame without line information (line 0) formats without reading the file.
    no_line = manager._create_frame("/native/lib/libx.so", 0, "Entry")
    entry = types.TracebackType(tb, no_line, no_line.f_lasti, 0)
    assert traceback.format_tb(entry)[0] == '  File "/native/lib/libx.so", line 0, in Entry\n'


def test_traceback_manager_append_traceback_puts_the_new_entry_first() -> None:
    manager = error.TracebackManager()
    tb = manager.append_traceback(None, "/native/a.cc", 3, "Inner")
    tb = manager.append_traceback(tb, "/native/b.cc", 9, "Outer")
    assert [line.split(",")[0] for line in traceback.format_tb(tb)] == [
        '  File "/native/b.cc"',
        '  File "/native/a.cc"',
    ]
    assert error._traceback_to_backtrace_str(tb) == (
        '  File "/native/a.cc", line 3, in Inner\n  File "/native/b.cc", line 9, in Outer\n'
    )


def test_rust_object_renderer_deref_lines() -> None:
    codegen = importlib.import_module("tvm_ffi.stub.rust_generator.codegen")
    renderer = codegen._ObjectRenderer(info=None, imports=None, ty_map={}, module=(), declared={})
    assert renderer._deref_lines("Pair", "PairObj", "base") == [
        "impl Deref for Pair {",
        "    type Target = PairObj;",
        "    fn deref(&self) -> &PairObj {",
        "        &self.base",
        "    }",
        "}",
    ]

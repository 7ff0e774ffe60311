# SPDX-License-Identifier: Apache-2.0
"""The library of the guide page docs/guide/cpp.md (sources in docs/snippets/cpp/), built as the
page says, behaves as the page says: functions, tensors, errors, objects, global functions,
callbacks and containers."""

from __future__ import annotations

import ctypes
import os
import pickle
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import tvm_ffi
import tvm_ffi.cpp
from tvm_ffi.cpp import toolchain

pytestmark = [pytest.mark.compiles, pytest.mark.xdist_group("cpp_guide")]

DOCS = Path(__file__).resolve().parents[2] / "docs"
PAGE = DOCS / "guide" / "cpp.md"
SNIPPETS = DOCS / "snippets" / "cpp"
SOURCES = sorted(SNIPPETS.glob("*.cc"))


def _require_toolchain() -> None:
    try:
        toolchain.find_cxx_compiler()
        toolchain.find_ninja()
    except RuntimeError as err:
        pytest.skip(f"cannot build C++ here: {err}")


def _is_loaded(path: str) -> bool:
    """Whether the shared library at ``path`` is already loaded in this process."""
    try:
        ctypes.CDLL(path, mode=os.RTLD_NOLOAD | os.RTLD_LAZY)
    except OSError:
        return False
    return True


@pytest.fixture(scope="module")
def mod() -> tvm_ffi.Module:
    """The guide's library, built like the page's first code block (tvm_ffi.cpp.load)."""
    _require_toolchain()
    path = tvm_ffi.cpp.build("cpp_guide", sources=SOURCES)
    other_copy = tvm_ffi.get_global_func("cpp_guide.clamp", allow_missing=True) is not None
    if other_copy and hasattr(os, "RTLD_NOLOAD") and not _is_loaded(path):
        pytest.fail(
            "another build of the guide's library is loaded in this process (a different "
            "$TVM_FFI_CACHE_DIR?); loading a second copy would abort the process"
        )
    return tvm_ffi.load_module(path)


@pytest.fixture(scope="module")
def kernel_config(mod: tvm_ffi.Module) -> type:
    """The Python class the page binds to cpp_guide.KernelConfig."""

    @tvm_ffi.register_object("cpp_guide.KernelConfig")
    class KernelConfig(tvm_ffi.Object):
        """The Python side of cpp_guide.KernelConfig."""

    return KernelConfig


# ---- the page and its snippets ------------------------------------------------------------


def test_every_region_the_page_includes_exists():
    includes = re.findall(
        r"```\{literalinclude\} \.\./snippets/cpp/(\S+)\n(.*?)```", PAGE.read_text(), re.S
    )
    assert len(includes) >= 20
    for file_name, options in includes:
        text = (SNIPPETS / file_name).read_text()
        for marker in re.findall(r":(?:start-after|end-before): (\S+)", options):
            assert text.count(marker) == 1, f"{file_name}: {marker}"


def test_the_page_has_no_inline_native_code():
    fences = re.findall(r"^```(\w*)", PAGE.read_text(), re.M)
    assert set(fences) <= {"python", "text", ""}


def test_build_script_builds_a_loadable_library(tmp_path: Path):
    if shutil.which("g++") is None or shutil.which("bash") is None:
        pytest.skip("needs g++ and bash")
    output = tmp_path / "libcpp_guide.so"
    env = dict(
        os.environ, PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])
    )
    subprocess.run(["bash", str(SNIPPETS / "build.sh"), str(output)], env=env, check=True)
    # A second copy in this process would register its globals again; check it in a child.
    script = (
        "import sys, tvm_ffi\n"
        "mod = tvm_ffi.load_module(sys.argv[1])\n"
        "assert mod.add_one(41) == 42\n"
        "assert mod.greet('Ada') == 'Hello, Ada!'\n"
        "assert tvm_ffi.get_global_func('cpp_guide.clamp')(9, 0, 5) == 5\n"
        # No Python class is registered here: the object still has its fields and methods.
        "config = mod.default_config()\n"
        "assert type(config).__name__ == 'KernelConfig'\n"
        "assert (config.name, config.num_blocks(512)) == ('default', 2)\n"
        "print('ok')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(output)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "ok\n"


# ---- functions ------------------------------------------------------------------------------


def test_typed_exports(mod):
    assert mod.add_one(41) == 42
    assert mod["add_one"](1) == 2
    assert mod.scale(2, 1.5) == 3.0
    assert mod.scale(2, 2) == 4.0


def test_typed_export_rejects_a_wrong_argument(mod):
    message = "Mismatched type on argument #0 when calling: `add_one(0: int) -> int`"
    with pytest.raises(TypeError, match=re.escape(message) + ".*got `None`"):
        mod.add_one(None)


def test_function_made_at_run_time(mod):
    triple = mod.make_multiplier(3)
    assert isinstance(triple, tvm_ffi.Function)
    assert triple(14) == 42
    assert mod.make_multiplier(-1)(5) == -5


def test_packed_function_sees_each_argument(mod):
    describe = mod.make_describer()
    text = describe(1, "a", "a longer string", None, 2.5, True)
    assert text == "int 1, str 'a', str 'a longer string', None, float, bool"
    assert describe() == ""


# ---- tensors (NumPy) ------------------------------------------------------------------------


@pytest.fixture
def np():
    return pytest.importorskip("numpy")


def test_add_into_writes_the_callers_output(mod, np):
    a = np.arange(4, dtype="float32")
    out = np.zeros(4, dtype="float32")
    assert mod.add_into(a, np.ones(4, dtype="float32"), out) is None
    assert out.tolist() == [1.0, 2.0, 3.0, 4.0]


def test_add_into_checks_its_arguments(mod, np):
    a = np.arange(4, dtype="float32")
    with pytest.raises(TypeError, match="a must be float32, got float64"):
        mod.add_into(a.astype("float64"), a, a)
    with pytest.raises(ValueError, match=re.escape("one shape, got [4], [4] and [3]")):
        mod.add_into(a, a, np.zeros(3, dtype="float32"))
    with pytest.raises(ValueError, match="add_into needs contiguous tensors"):
        mod.add_into(a[::2], a[::2], a[::2].copy())


def test_sum_2d_honours_strides(mod, np):
    x = np.arange(6, dtype="float32").reshape(2, 3)
    assert mod.sum_2d(x) == 15.0
    assert mod.sum_2d(x.T) == 15.0
    assert mod.sum_2d(x[:, 1:]) == 12.0
    assert mod.sum_2d(x[::-1]) == 15.0
    with pytest.raises(ValueError, match="x must be 2-D, got 1-D"):
        mod.sum_2d(x.ravel())


def test_returning_an_argument_shares_its_memory(mod, np):
    short, long = np.zeros(3, "float32"), np.zeros(5, "float32")
    result = mod.longer(short, long)
    assert isinstance(result, tvm_ffi.Tensor)
    view = np.from_dlpack(result)
    assert view.shape == (5,)
    assert view.ctypes.data == long.ctypes.data


def test_scaled_without_a_framework_allocator_uses_host_memory(mod, np):
    result = mod.scaled(np.arange(3, dtype="float32"), 2.0)
    assert isinstance(result, tvm_ffi.Tensor)
    assert np.from_dlpack(result).tolist() == [0.0, 2.0, 4.0]
    empty = mod.scaled(np.zeros((0, 2), dtype="float32"), 2.0)
    assert np.from_dlpack(empty).shape == (0, 2)
    with pytest.raises(ValueError, match="scaled needs a contiguous tensor"):
        mod.scaled(np.zeros((2, 2), dtype="float32").T, 1.0)


def test_stream_of_reads_the_current_stream(mod, np):
    x = np.zeros(2, "float32")
    assert mod.stream_of(x) == 0
    with tvm_ffi.use_raw_stream(tvm_ffi.device("cpu", 0), 0x1234):
        assert mod.stream_of(x) == 0x1234
    assert mod.stream_of(x) == 0


# ---- tensors (PyTorch) ----------------------------------------------------------------------


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


def test_torch_tensors_go_in_and_come_out(mod, torch):
    a, b, out = torch.arange(3.0), torch.ones(3), torch.zeros(3)
    mod.add_into(a, b, out)
    assert out.tolist() == [1.0, 2.0, 3.0]
    longest = mod.longer(a, torch.zeros(5))
    assert isinstance(longest, torch.Tensor)
    assert longest.shape == (5,)


def test_env_alloc_output_is_a_torch_tensor(mod, torch):
    result = mod.scaled(torch.arange(3, dtype=torch.float32), 2.0)
    assert isinstance(result, torch.Tensor)
    assert result.tolist() == [0.0, 2.0, 4.0]


def test_torch_cuda_stream_is_current_during_the_call(mod, torch):
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA device")
    x = torch.zeros(2, device="cuda")
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        assert mod.stream_of(x) == stream.cuda_stream
    assert mod.stream_of(x) == torch.cuda.current_stream().cuda_stream


# ---- errors ---------------------------------------------------------------------------------


def test_throw_and_check(mod):
    assert mod.safe_sqrt(9.0) == 3.0
    with pytest.raises(ValueError, match="safe_sqrt: expected x >= 0, got -1"):
        mod.safe_sqrt(-1.0)
    assert mod.pick([10, 20, 30], 2) == 30
    with pytest.raises(IndexError, match="pick: index 3 out of range for 3 values"):
        mod.pick([10, 20, 30], 3)
    with pytest.raises(IndexError, match="Check failed"):
        mod.pick([10], -1)


def test_icheck_failure_is_a_runtime_error(mod):
    assert mod.halve_even(8) == 4
    with pytest.raises(RuntimeError, match=re.escape("half * 2 == x (2 vs. 3)")) as caught:
        mod.halve_even(3)
    assert "halve_even got an odd number" in str(caught.value)
    assert type(caught.value) is RuntimeError


KIND_TO_CLASS = [
    ("TypeError", TypeError),
    ("ValueError", ValueError),
    ("IndexError", IndexError),
    ("KeyError", KeyError),
    ("AttributeError", AttributeError),
    ("NotImplementedError", NotImplementedError),
    ("AssertionError", AssertionError),
    ("MemoryError", MemoryError),
    ("RuntimeError", RuntimeError),
    ("InternalError", RuntimeError),
    ("CppGuideUnregisteredKind", RuntimeError),
]


@pytest.mark.parametrize(("kind", "cls"), KIND_TO_CLASS)
def test_error_kind_becomes_python_class(mod, kind, cls):
    with pytest.raises(cls) as caught:
        mod.raise_kind(kind, "the message")
    assert type(caught.value) is cls
    assert "the message" in str(caught.value)


def test_registered_error_kind(mod):
    class CppGuideTestError(RuntimeError):
        pass

    tvm_ffi.register_error("CppGuideTestError", CppGuideTestError)
    with pytest.raises(CppGuideTestError, match="grid too large"):
        mod.raise_kind("CppGuideTestError", "grid too large")


def test_standard_exceptions(mod):
    assert mod.parse_int("42") == 42
    assert mod.parse_int("-7") == -7
    with pytest.raises(ValueError, match="parse_int: trailing characters in '4x2'"):
        mod.parse_int("4x2")
    with pytest.raises(ValueError, match=re.escape("parse_int: not an integer: 'abc' (stoll)")):
        mod.parse_int("abc")
    with pytest.raises(ValueError, match="not an integer: '99999999999999999999'"):
        mod.parse_int("99999999999999999999")
    with pytest.raises(RuntimeError, match="stoll") as caught:
        mod.parse_int_unchecked("abc")
    assert type(caught.value) is RuntimeError


# ---- objects --------------------------------------------------------------------------------


def test_object_fields_and_methods(mod, kernel_config):
    config = kernel_config("add", 128)
    assert (config.name, config.block_size, list(config.tags)) == ("add", 128, [])
    assert config.num_blocks(1000) == 8
    assert config.num_blocks(1024) == 8
    config.block_size = 256
    config.tags = ["fast"]
    assert config.block_size == 256
    assert isinstance(config.tags, tvm_ffi.Array)
    assert list(config.tags) == ["fast"]
    assert repr(config) == 'cpp_guide.KernelConfig(name="add", block_size=256, tags=("fast",))'


def test_object_field_errors(mod, kernel_config):
    config = kernel_config("add", 128)
    with pytest.raises(AttributeError):
        config.name = "sub"
    with pytest.raises(TypeError):
        config.block_size = "large"
    assert (config.name, config.block_size) == ("add", 128)


def test_static_method_returns_the_registered_class(mod, kernel_config):
    made = kernel_config.for_name("mul")
    assert type(made) is kernel_config
    assert (made.name, made.block_size) == ("mul", 256)


def test_function_returning_the_reference(mod, kernel_config):
    config = mod.default_config()
    assert type(config) is kernel_config
    assert (config.name, config.block_size) == ("default", 256)


def test_function_taking_the_reference(mod, kernel_config):
    assert mod.total_threads(kernel_config("add", 128), 1000) == 1024
    with pytest.raises(
        TypeError, match=re.escape("Expected `cpp_guide.KernelConfig` but got `int`")
    ):
        mod.total_threads(3, 1000)


def test_method_docstring(mod, kernel_config):
    assert kernel_config.num_blocks.__doc__ == "Blocks needed for n elements."


# ---- global functions -----------------------------------------------------------------------


def test_global_functions(mod):
    assert tvm_ffi.get_global_func("cpp_guide.clamp")(15, 0, 10) == 10
    assert tvm_ffi.get_global_func("cpp_guide.clamp")(-5, 0, 10) == 0
    assert tvm_ffi.get_global_func("cpp_guide.version")() == "1.0"
    assert tvm_ffi.get_global_func("cpp_guide.count_args")(1, "two", 3.0) == 3
    assert tvm_ffi.get_global_func("cpp_guide.count_args")() == 0
    with pytest.raises(TypeError):
        tvm_ffi.get_global_func("cpp_guide.clamp")(1, 2)


def test_looking_up_a_global_from_cpp(mod):
    assert mod.clamp_to_byte(300) == 255
    assert mod.clamp_to_byte(-3) == 0
    assert mod.clamp_to_byte(7) == 7


# ---- callbacks ------------------------------------------------------------------------------


def test_callbacks(mod):
    assert mod.apply_n(lambda x: 2 * x, 1, 10) == 1024
    assert mod.apply_n(lambda x: 2 * x, 5, 0) == 5
    assert list(mod.map_ints([1, 2, 3], lambda v: v * v)) == [1, 4, 9]
    assert mod.apply_n(mod.make_multiplier(2), 1, 3) == 8  # an FFI function works too
    with pytest.raises(TypeError):
        mod.apply_n(lambda x: "not an int", 1, 1)
    with pytest.raises(TypeError):
        mod.map_ints([1], lambda v: "not an int")


def test_callback_errors(mod):
    def reject(x: int) -> int:
        raise ValueError("rejected")

    assert mod.call_or(reject, 1, "fallback") == "fallback"
    assert mod.call_or(lambda x: x + 1, 1, "fallback") == 2

    original = KeyError("missing")

    def missing(x: int) -> int:
        raise original

    with pytest.raises(KeyError) as caught:
        mod.call_or(missing, 1, "fallback")
    assert caught.value is original


def test_native_calls_release_the_gil_by_default(mod):
    if os.environ.get("TVM_FFI_RELEASE_GIL_BY_DEFAULT", "1") == "0":
        pytest.skip("TVM_FFI_RELEASE_GIL_BY_DEFAULT=0")
    assert mod.apply_n.release_gil is True


# ---- strings and containers -----------------------------------------------------------------


def test_string(mod):
    assert mod.greet("Ada") == "Hello, Ada!"
    assert isinstance(mod.greet("Ada"), str)
    assert mod.greet("a name longer than seven bytes") == "Hello, a name longer than seven bytes!"


def test_array(mod):
    assert list(mod.cumulative_sum([1, 2, 3])) == [1, 3, 6]
    assert list(mod.cumulative_sum((1, 2, 3))) == [1, 3, 6]
    assert isinstance(mod.cumulative_sum([]), tvm_ffi.Array)
    with pytest.raises(TypeError, match=re.escape("got `Array[index 1: ffi.SmallStr]`")):
        mod.cumulative_sum([1, "two"])


def test_array_is_copy_on_write(mod):
    original = tvm_ffi.Array([1, 2])
    assert list(mod.appended(original, 3)) == [1, 2, 3]
    assert list(original) == [1, 2]


def test_map(mod):
    counts = mod.count_words(["to", "be", "or", "not", "to", "be"])
    assert isinstance(counts, tvm_ffi.Map)
    assert dict(counts.items()) == {"to": 2, "be": 2, "or": 1, "not": 1}
    assert mod.count_of({"to": 2}, "to") == 2
    assert mod.count_of(counts, "be") == 2
    with pytest.raises(KeyError):
        mod.count_of(counts, "question")


def test_optional(mod):
    assert mod.find_index(["a", "b"], "b") == 1
    assert mod.find_index(["a", "b"], "z") is None
    assert mod.repeat("ab", None) == "abab"
    assert mod.repeat("ab", 3) == "ababab"
    with pytest.raises(TypeError, match="Expected 2 but got 1 arguments"):
        mod.repeat("ab")


def test_variant(mod):
    assert mod.describe_value(7) == "int 7"
    assert mod.describe_value("seven") == "str seven"
    assert mod.describe_value("a longer string") == "str a longer string"
    assert mod.describe_value([7, 7]) == "list of 2"
    with pytest.raises(TypeError, match="Expected `Variant<int, str, Array<int>>`"):
        mod.describe_value(7.5)


# ---- objects defined in Python, read from C++ (docs/guide/dataclasses.md) ------------------


@pytest.fixture(scope="module")
def rect_class() -> type:
    """A @py_class type with the fields py_class_fields.cc reads by name."""
    from tvm_ffi.dataclasses import field, py_class

    @py_class("cpp_guide_test.Rect")
    class Rect(tvm_ffi.Object):
        width: float
        height: float = 1.0
        copies: int = field(default=2, kw_only=True)

    return Rect


def test_cpp_lists_the_fields_of_a_py_class_object(mod, rect_class):
    assert list(mod.field_names(rect_class(2.0))) == ["width", "height", "copies"]


def test_cpp_reads_and_writes_py_class_fields_by_name(mod, rect_class):
    rect = rect_class(2.0, 3.5)
    assert mod.area(rect) == 7.0
    mod.stretch(rect, 3.0)
    assert rect.width == 6.0
    assert mod.area(rect) == 21.0


def test_cpp_reading_a_missing_field_raises(mod, kernel_config):
    message = r"Cannot find field +`width` in cpp_guide\.KernelConfig"
    with pytest.raises(RuntimeError, match=message):
        mod.area(kernel_config("add", 128))


def test_cpp_takes_a_py_class_object_as_any(mod, rect_class):
    assert mod.sum_int_fields(rect_class(1.0, copies=5)) == 5
    assert mod.sum_int_fields(tvm_ffi.Array([1, 2])) == 0
    with pytest.raises(TypeError, match="sum_int_fields: expected an object, got int"):
        mod.sum_int_fields(3)


# ---- the IR nodes of docs/guide/compiler.md -------------------------------------------------


@pytest.fixture(scope="module")
def ir(mod) -> dict[str, type]:
    """Python classes bound to the IR's type keys, by short name."""
    return {
        name: tvm_ffi.register_object(f"cpp_guide.{name}")(type(name, (tvm_ffi.Object,), {}))
        for name in ("Var", "Const", "Add", "Func")
    }


def test_ir_nodes_print_through_reflection(ir):
    x = ir["Var"]("x")
    func = ir["Func"]([x], ir["Add"](x, ir["Const"](1)))
    assert repr(func) == (
        'cpp_guide.Func(params=(cpp_guide.Var(name="x"),), body=cpp_guide.Add('
        'lhs=cpp_guide.Var(name="x"), rhs=cpp_guide.Const(value=1)))'
    )
    with pytest.raises(TypeError, match=re.escape("Expected `cpp_guide.Expr` but got `int`")):
        ir["Add"](x, 1)


def test_ir_structural_equality_binds_params_and_ignores_names(mod, ir):
    var, const, add, func = ir["Var"], ir["Const"], ir["Add"], ir["Func"]
    x, y = var("x"), var("y")
    f = func([x], add(x, const(1)))
    g = func([y], add(y, const(1)))
    assert tvm_ffi.structural_equal(f, g)
    assert tvm_ffi.structural_hash(f) == tvm_ffi.structural_hash(g)
    assert mod.same_ir(f, g)
    assert not tvm_ffi.structural_equal(add(x, const(1)), add(y, const(1)))
    assert tvm_ffi.structural_equal(add(x, const(1)), add(y, const(1)), map_free_vars=True)
    h = func([y], add(y, const(2)))
    assert not mod.same_ir(f, h)
    lhs, rhs = tvm_ffi.get_first_structural_mismatch(f, h)
    assert str(lhs) == str(rhs) == "<root>.body.rhs.value"


def test_ir_serializes_with_its_sharing(ir):
    x = ir["Var"]("x")
    f = ir["Func"]([x], ir["Add"](x, ir["Const"](1)))
    text = tvm_ffi.serialization.to_json_graph_str(f)
    back = tvm_ffi.serialization.from_json_graph_str(text)
    assert type(back) is ir["Func"]
    assert tvm_ffi.structural_equal(back, f)
    assert back.body.lhs.same_as(back.params[0])
    unpickled = pickle.loads(pickle.dumps(f))
    assert tvm_ffi.structural_equal(unpickled, f)
    assert unpickled.body.lhs.same_as(unpickled.params[0])

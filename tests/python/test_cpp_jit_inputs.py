# SPDX-License-Identifier: Apache-2.0
"""tvm_ffi.cpp without a compiler: argument checks, generated sources and build files, dtypes."""

from __future__ import annotations

import pytest

import tvm_ffi
import tvm_ffi.cpp
from tvm_ffi.cpp import inline_source, ninja_build

# The argument checks refuse before anything is built; a mistake would build in a scratch cache.
pytestmark = pytest.mark.usefixtures("cache_dir")

ADD_ONE = "int add_one(int x) { return x + 1; }\n"


def test_functions_forms_normalize():
    assert inline_source.normalize_functions(None) == {}
    assert inline_source.normalize_functions("f") == {"f": ""}
    assert inline_source.normalize_functions(["f", "g"]) == {"f": "", "g": ""}
    assert inline_source.normalize_functions({"f": "doc", "g": None}) == {"f": "doc", "g": ""}


def test_assembled_source_exports_after_sources():
    text = inline_source.assemble_source([ADD_ONE], {"add_one": 'say "hi"\n'})
    assert text.index("#include <tvm/ffi/function.h>") < text.index(ADD_ONE)
    assert text.index(ADD_ONE) < text.index("TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_one, add_one)")
    assert 'TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC(add_one, "say \\"hi\\"\\012")' in text


@pytest.mark.parametrize("name", ["bad name", "../escape", "1st", "", "a-b"])
def test_bad_name_is_rejected(name):
    with pytest.raises(ValueError, match="identifier-like"):
        tvm_ffi.cpp.build_inline(name, cpp_sources=ADD_ONE, functions="add_one")


def test_bad_function_name_is_rejected():
    with pytest.raises(ValueError, match="function name"):
        tvm_ffi.cpp.build_inline("jit_ok", cpp_sources=ADD_ONE, functions=["add one"])


def test_no_sources_is_rejected():
    with pytest.raises(ValueError, match="cpp_sources or cuda_sources"):
        tvm_ffi.cpp.build_inline("jit_empty", functions="f")


def test_embed_cubin_checks_names_and_images():
    with pytest.raises(ValueError, match="embed_cubin name"):
        tvm_ffi.cpp.build_inline("jit_cubin", cpp_sources=ADD_ONE, embed_cubin={"a b": b"x"})
    with pytest.raises(TypeError, match=r"embed_cubin\['k'\] must be bytes, got str"):
        tvm_ffi.cpp.build_inline("jit_cubin", cpp_sources=ADD_ONE, embed_cubin={"k": "x"})


def test_missing_nvcc_is_reported(tmp_path, monkeypatch):
    monkeypatch.setenv("CUDA_HOME", str(tmp_path))
    with pytest.raises(RuntimeError, match="nvcc not found"):
        tvm_ffi.cpp.build_inline("jit_cuda", cuda_sources=ADD_ONE, backend="cuda")


@pytest.mark.parametrize(
    ("dtype", "cpp_type"),
    [
        ("bool", "bool"),
        ("int8", "int8_t"),
        ("int16", "int16_t"),
        ("int32", "int32_t"),
        ("int64", "int64_t"),
        ("uint8", "uint8_t"),
        ("uint16", "uint16_t"),
        ("uint32", "uint32_t"),
        ("uint64", "uint64_t"),
        ("float16", "__half"),
        ("float32", "float"),
        ("float64", "double"),
        ("bfloat16", "__nv_bfloat16"),
        ("float8_e4m3fn", "__nv_fp8_e4m3"),
        ("float8_e5m2", "__nv_fp8_e5m2"),
        ("float4_e2m1fnx2", "__nv_fp4x2_e2m1"),
        ("f32", "float"),
        ("fp8_e5m2", "__nv_fp8_e5m2"),
    ],
)
def test_to_cpp_dtype(dtype, cpp_type):
    assert tvm_ffi.cpp.to_cpp_dtype(dtype) == cpp_type


@pytest.mark.parametrize("dtype", ["float32x4", "complex64", "int7", "handle"])
def test_to_cpp_dtype_unknown(dtype):
    with pytest.raises(ValueError, match=dtype):
        tvm_ffi.cpp.to_cpp_dtype(dtype)


def test_import_tvm_ffi_does_not_import_cpp(run_python):
    code = "import tvm_ffi, sys; assert 'tvm_ffi.cpp' not in sys.modules"
    run_python("-c", code)
    run_python("-c", "import tvm_ffi; assert 'cpp' in tvm_ffi.__all__; tvm_ffi.cpp.load_inline")


def test_max_jobs_is_passed_to_ninja(monkeypatch):
    monkeypatch.setenv("MAX_JOBS", "3")
    assert ninja_build._job_count_args() == ["-j", "3"]
    monkeypatch.setenv("MAX_JOBS", "many")
    assert ninja_build._job_count_args() == []


def test_generated_build_file_is_valid(tmp_path):
    text = ninja_build.render_build_file(
        {"cxx": ["c++"], "cxxflags": ["-DX=$HOME"], "ldflags": ["-shared"]},
        [ninja_build.CompileStep("compile_cxx", "a b.cc", "a_b.o")],
        [],
        "out.so",
        "link_shared",
    )
    assert "cxxflags = '-DX=$$HOME'\n" in text
    assert "build a_b.o: compile_cxx a$ b.cc\n" in text
    assert "build out.so: link_shared a_b.o\n" in text

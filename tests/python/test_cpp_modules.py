# SPDX-License-Identifier: Apache-2.0
"""tvm_ffi.cpp.extension, .dtype and .nvrtc: the module paths of Apache's package."""

from __future__ import annotations

import ctypes
import enum
import importlib.util
import inspect
import logging
import re
import sys
import types
from pathlib import Path

import pytest

import tvm_ffi
import tvm_ffi.cpp
from tvm_ffi.cpp import dtype, extension, nvrtc, toolchain

# ---------------------------------------------------------------- package and extension


def test_package_exports():
    assert tvm_ffi.cpp.__all__ == ["build", "build_inline", "load", "load_inline", "to_cpp_dtype"]
    assert tvm_ffi.cpp.dtype is dtype
    assert tvm_ffi.cpp.extension is extension
    assert tvm_ffi.cpp.to_cpp_dtype is dtype.to_cpp_dtype
    for name in ("build", "build_inline", "load", "load_inline"):
        assert getattr(tvm_ffi.cpp, name) is getattr(extension, name)


def test_importing_cpp_leaves_nvrtc_and_cuda_unimported(run_python):
    code = (
        "import sys, tvm_ffi.cpp\n"
        "assert 'tvm_ffi.cpp.extension' in sys.modules\n"
        "assert 'tvm_ffi.cpp.nvrtc' not in sys.modules\n"
        "assert not any(m == 'cuda' or m.startswith('cuda.') for m in sys.modules)\n"
        "import tvm_ffi.cpp.nvrtc\n"
        "assert not any(m == 'cuda' or m.startswith('cuda.') for m in sys.modules)\n"
    )
    run_python("-c", code)


def test_extension_names():
    assert extension.Module is tvm_ffi.Module
    assert extension.load_module is tvm_ffi.load_module
    assert extension.FileLock is tvm_ffi.utils.FileLock
    assert extension.find_libtvm_ffi is tvm_ffi.libinfo.find_libtvm_ffi
    assert extension.find_include_path is tvm_ffi.libinfo.find_include_path
    assert extension.find_dlpack_include_path is tvm_ffi.libinfo.find_dlpack_include_path
    assert extension.IS_WINDOWS is sys.platform.startswith("win32")
    assert extension.BACKEND_STR.__args__ == ("cuda", "hip")
    assert extension.logger.name == "tvm_ffi.cpp.extension"
    for name in extension.__all__:
        assert hasattr(extension, name)


def _parameters(function) -> list[tuple[str, object]]:
    return [(p.name, p.default) for p in inspect.signature(function).parameters.values()]


_COMMON_FLAGS = [
    ("extra_cflags", None),
    ("extra_cuda_cflags", None),
    ("extra_ldflags", None),
    ("extra_include_paths", None),
    ("build_directory", None),
]
_EMPTY = inspect.Parameter.empty


def test_extension_signatures_match_apache():
    files = [("sources", None), ("cpp_files", None), ("cuda_files", None)]
    inline = [("cpp_sources", None), ("cuda_sources", None), ("functions", None)]
    assert _parameters(extension.build) == [
        ("name", _EMPTY),
        *files,
        *_COMMON_FLAGS,
        ("backend", None),
        ("output", None),
    ]
    assert _parameters(extension.load) == [
        ("name", _EMPTY),
        *files,
        *_COMMON_FLAGS,
        ("keep_module_alive", True),
        ("backend", None),
    ]
    assert _parameters(extension.build_inline) == [
        ("name", _EMPTY),
        *inline,
        *_COMMON_FLAGS,
        ("embed_cubin", None),
        ("backend", None),
        ("output", None),
    ]
    assert _parameters(extension.load_inline) == [
        ("name", _EMPTY),
        *inline,
        *_COMMON_FLAGS,
        ("embed_cubin", None),
        ("keep_module_alive", True),
        ("backend", None),
    ]
    assert _parameters(extension.build_ninja) == [("build_dir", _EMPTY)]
    assert _parameters(nvrtc.nvrtc_compile) == [
        ("source", _EMPTY),
        ("name", "kernel.cu"),
        ("arch", None),
        ("extra_opts", None),
    ]


# ---------------------------------------------------------------- build_ninja

# Rules that copy files: ninja runs without a compiler, so these tests cost milliseconds.
_COPY_BUILD = """\
rule copy
  command = cp $in $out
build out.txt: copy in.txt
"""

_FAILING_BUILD = """\
rule fail
  command = echo reason-on-stdout && echo reason-on-stderr 1>&2 && false
build out.txt: fail in.txt
"""


def _needs_ninja():
    try:
        toolchain.find_ninja()
    except RuntimeError:
        pytest.skip("needs ninja")


def _write_build(directory: Path, build_file: str) -> None:
    (directory / "in.txt").write_text("payload\n")
    (directory / "build.ninja").write_text(build_file)


def test_build_ninja_runs_the_build_file(tmp_path):
    _needs_ninja()
    _write_build(tmp_path, _COPY_BUILD)
    extension.build_ninja(str(tmp_path))
    assert (tmp_path / "out.txt").read_text() == "payload\n"


def test_build_ninja_failure_carries_output(tmp_path):
    _needs_ninja()
    _write_build(tmp_path, _FAILING_BUILD)
    with pytest.raises(RuntimeError) as info:
        extension.build_ninja(str(tmp_path))
    message = str(info.value)
    assert message.startswith("ninja exited with status 1\nstdout:\n")
    stdout = message.split("\nstderr:", maxsplit=1)[0]
    assert "reason-on-stdout" in stdout  # ninja relays the command's output on its stdout
    assert "echo reason-on-stdout" in stdout  # -v: the full command line is printed
    assert not (tmp_path / "out.txt").exists()


@pytest.mark.parametrize(
    ("setting", "streams"),
    [("1", ["stdout", "stderr"]), ("stdout", ["stdout"]), ("stderr", ["stderr"]), ("0", [])],
)
def test_build_log_setting(tmp_path, monkeypatch, caplog, setting, streams):
    _needs_ninja()
    _write_build(tmp_path, _COPY_BUILD)
    monkeypatch.setenv("TVM_FFI_CPP_EXTENSION_LOG_BUILD", setting)
    with caplog.at_level(logging.INFO, logger="tvm_ffi.cpp.extension"):
        extension.build_ninja(str(tmp_path))
    logged = [record.getMessage() for record in caplog.records]
    assert [message.split()[2].rstrip(":") for message in logged] == streams
    if "stdout" in streams:
        assert "cp in.txt out.txt" in logged[0]


def test_gpu_backend_setting_chooses_the_toolchain(tmp_path, monkeypatch):
    (tmp_path / "bin").mkdir()
    for variable in ("CUDA_HOME", "CUDA_PATH", "ROCM_HOME", "ROCM_PATH"):
        monkeypatch.setenv(variable, str(tmp_path))
    monkeypatch.setenv("TVM_FFI_GPU_BACKEND", "HIP")
    with pytest.raises(RuntimeError, match="hipcc not found"):
        toolchain.find_gpu_toolchain(None)
    for program in ("nvcc", "hipcc"):
        (tmp_path / "bin" / program).write_text("#!/bin/sh\n")
    assert toolchain.find_gpu_toolchain(None).backend == "hip"
    assert toolchain.find_gpu_toolchain("cuda").backend == "cuda"  # the argument wins
    monkeypatch.setenv("TVM_FFI_GPU_BACKEND", "other")
    assert toolchain.find_gpu_toolchain(None).backend == "cuda"


# ---------------------------------------------------------------- dtype


def _fake_torch(*, available: bool, cuda: str | None, hip: str | None) -> types.ModuleType:
    torch = types.ModuleType("torch")
    torch.cuda = types.SimpleNamespace(is_available=lambda: available)
    torch.version = types.ModuleType("torch.version")
    torch.version.cuda, torch.version.hip = cuda, hip
    return torch


@pytest.fixture
def gpu_backend(monkeypatch):
    """Select the backend ``to_cpp_dtype`` sees: ``"cpu"`` (no torch), ``"cuda"`` or ``"rocm"``."""

    def select(backend: str) -> None:
        if backend == "cpu":
            monkeypatch.setitem(sys.modules, "torch", None)  # import torch -> ImportError
        else:
            cuda, hip = ("12.8", None) if backend == "cuda" else (None, "6.3")
            torch = _fake_torch(available=True, cuda=cuda, hip=hip)
            monkeypatch.setitem(sys.modules, "torch", torch)
            monkeypatch.setitem(sys.modules, "torch.version", torch.version)
        dtype._gpu_backend.cache_clear()

    yield select
    dtype._gpu_backend.cache_clear()


def test_backend_detection(gpu_backend, monkeypatch):
    for backend in ("cpu", "cuda", "rocm"):
        gpu_backend(backend)
        assert dtype._gpu_backend() == backend
    torch = _fake_torch(available=False, cuda="12.8", hip=None)
    monkeypatch.setitem(sys.modules, "torch", torch)
    monkeypatch.setitem(sys.modules, "torch.version", torch.version)
    dtype._gpu_backend.cache_clear()
    assert dtype._gpu_backend() == "cpu"


@pytest.mark.parametrize("backend", ["cpu", "cuda", "rocm"])
def test_cpu_types_on_every_backend(gpu_backend, backend):
    gpu_backend(backend)
    expected = {
        "int8": "int8_t",
        "int16": "int16_t",
        "int32": "int32_t",
        "int64": "int64_t",
        "uint8": "uint8_t",
        "uint16": "uint16_t",
        "uint32": "uint32_t",
        "uint64": "uint64_t",
        "float32": "float",
        "float64": "double",
        "bool": "bool",
    }
    assert expected == dtype.CPU_DTYPE_MAP
    for name, cpp_type in expected.items():
        assert dtype.to_cpp_dtype(name) == cpp_type


_CUDA_TYPES = {
    "float16": "__half",
    "bfloat16": "__nv_bfloat16",
    "float8_e4m3fn": "__nv_fp8_e4m3",
    "float8_e5m2": "__nv_fp8_e5m2",
    "float8_e8m0fnu": "__nv_fp8_e8m0",
    "float4_e2m1": "__nv_fp4_e2m1",
    "float4_e2m1fn_x2": "__nv_fp4x2_e2m1",
}

_ROCM_TYPES = {
    "float16": "__half",
    "bfloat16": "__hip_bfloat16",
    "float8_e4m3fn": "__hip_fp8_e4m3",
    "float8_e4m3fnuz": "__hip_fp8_e4m3_fnuz",
    "float8_e5m2": "__hip_fp8_e5m2",
    "float8_e5m2fnuz": "__hip_fp8_e5m2_fnuz",
    "float4_e2m1": "__hip_fp4_e2m1",
    "float4_e2m1fn_x2": "__hip_fp4x2_e2m1",
}


@pytest.mark.parametrize(
    ("backend", "table"), [("cuda", _CUDA_TYPES), ("rocm", _ROCM_TYPES), ("cpu", _CUDA_TYPES)]
)
def test_gpu_types_follow_the_backend(gpu_backend, backend, table):
    gpu_backend(backend)
    assert dtype.CUDA_DTYPE_MAP == _CUDA_TYPES
    assert dtype.ROCM_DTYPE_MAP == _ROCM_TYPES
    for name, cpp_type in table.items():
        assert dtype.to_cpp_dtype(name) == cpp_type


@pytest.mark.parametrize(
    ("backend", "name", "cpp_type"),
    [
        ("cuda", "float4_e2m1fn", "__nv_fp4_e2m1"),  # tvm_ffi's spelling of float4_e2m1
        ("cuda", "float4_e2m1fnx2", "__nv_fp4x2_e2m1"),
        ("rocm", "float4_e2m1fnx2", "__hip_fp4x2_e2m1"),
        ("cuda", "float6_e3m2fn", "__nv_fp6_e3m2"),
        ("rocm", "bf16", "__hip_bfloat16"),
        ("cpu", "fp8_e5m2", "__nv_fp8_e5m2"),
        ("cpu", "i64", "int64_t"),
    ],
)
def test_other_spellings(gpu_backend, backend, name, cpp_type):
    gpu_backend(backend)
    assert dtype.to_cpp_dtype(name) == cpp_type


class _TorchLikeDtype:
    """Stands for a ``torch.dtype``: its ``str`` is ``torch.<name>``."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __str__(self) -> str:
        return f"torch.{self.name}"


def test_dtype_objects(gpu_backend):
    gpu_backend("cuda")
    assert dtype.to_cpp_dtype(_TorchLikeDtype("float16")) == "__half"
    assert dtype.to_cpp_dtype(_TorchLikeDtype("bool")) == "bool"
    assert dtype.to_cpp_dtype("torch.int32") == "int32_t"
    assert dtype.to_cpp_dtype(tvm_ffi.dtype("bfloat16")) == "__nv_bfloat16"
    assert dtype.to_cpp_dtype(tvm_ffi.dtype("uint8")) == "uint8_t"


@pytest.mark.parametrize(
    ("backend", "given", "shown"),
    [
        ("cpu", "float32x4", "float32x4"),
        ("cpu", "float8_e4m3fnuz", "float8_e4m3fnuz"),  # a ROCm-only type
        ("cuda", "float8_e5m2fnuz", "float8_e5m2fnuz"),
        ("rocm", "float6_e2m3fn", "float6_e2m3fn"),
        ("cuda", _TorchLikeDtype("complex64"), "complex64"),
        ("rocm", 5, "5"),
    ],
)
def test_unsupported_dtypes(gpu_backend, backend, given, shown):
    gpu_backend(backend)
    expected = f"Unsupported dtype string: {shown} for backend = '{backend}'"
    with pytest.raises(ValueError, match=f"^{re.escape(expected)}$"):
        dtype.to_cpp_dtype(given)


# ---------------------------------------------------------------- nvrtc without cuda-python


def test_nvrtc_without_cuda_python(monkeypatch):
    if importlib.util.find_spec("cuda") is not None:
        monkeypatch.setitem(sys.modules, "cuda", None)  # hide an installed cuda-python
    with pytest.raises(ImportError, match=r"pip install cuda-python") as info:
        nvrtc.nvrtc_compile("__global__ void k() {}", arch="sm_80")
    assert isinstance(info.value, RuntimeError)  # what Apache's package raises
    assert info.value.name == "cuda.bindings"
    assert isinstance(info.value.__cause__, ImportError)


# ---------------------------------------------------------------- nvrtc with a fake cuda-python


class _NvrtcResult(enum.IntEnum):
    NVRTC_SUCCESS = 0
    NVRTC_ERROR_COMPILATION = 6
    NVRTC_ERROR_INVALID_INPUT = 3


class _CUresult(enum.IntEnum):
    CUDA_SUCCESS = 0
    CUDA_ERROR_NO_DEVICE = 100
    CUDA_ERROR_INVALID_CONTEXT = 201


class _CUdeviceAttribute(enum.IntEnum):
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76


def _fill(buffer: bytes, data: bytes) -> None:
    """Write into a bytes buffer in place, as cuda-python's output-buffer calls do."""
    assert len(buffer) >= len(data)
    ctypes.memmove(buffer, data, len(data))


class FakeNvrtc(types.ModuleType):
    """``cuda.bindings.nvrtc``: records calls; ``compile_result``/``log`` shape the outcome."""

    nvrtcResult = _NvrtcResult

    def __init__(self) -> None:
        super().__init__("cuda.bindings.nvrtc")
        self.calls: list[tuple] = []
        self.create_result = _NvrtcResult.NVRTC_SUCCESS
        self.compile_result = _NvrtcResult.NVRTC_SUCCESS
        self.cubin_result = _NvrtcResult.NVRTC_SUCCESS
        self.log = b""
        self.image = b"\x7fELF fake cubin"

    def nvrtcCreateProgram(self, src, name, num_headers, headers, include_names):
        self.calls.append(("create", src, name, num_headers, headers, include_names))
        return self.create_result, "prog"

    def nvrtcCompileProgram(self, prog, num_options, options):
        self.calls.append(("compile", prog, num_options, list(options)))
        return (self.compile_result,)

    def nvrtcGetProgramLogSize(self, prog):
        return _NvrtcResult.NVRTC_SUCCESS, len(self.log) + 1 if self.log else 1

    def nvrtcGetProgramLog(self, prog, buffer):
        _fill(buffer, self.log + b"\0")
        return (_NvrtcResult.NVRTC_SUCCESS,)

    def nvrtcGetCUBINSize(self, prog):
        return _NvrtcResult.NVRTC_SUCCESS, len(self.image)

    def nvrtcGetCUBIN(self, prog, buffer):
        _fill(buffer, self.image)
        return (self.cubin_result,)

    def nvrtcDestroyProgram(self, prog):
        self.calls.append(("destroy", prog))
        return (_NvrtcResult.NVRTC_SUCCESS,)


class FakeDriver(types.ModuleType):
    """``cuda.bindings.driver``: a device of compute capability 8.6 at index 3."""

    CUresult = _CUresult
    CUdevice_attribute = _CUdeviceAttribute

    def __init__(self) -> None:
        super().__init__("cuda.bindings.driver")
        self.calls: list[tuple] = []
        self.init_result = _CUresult.CUDA_SUCCESS
        self.context_result = _CUresult.CUDA_SUCCESS

    def cuInit(self, flags):
        self.calls.append(("cuInit", flags))
        return (self.init_result,)

    def cuCtxGetDevice(self):
        self.calls.append(("cuCtxGetDevice",))
        return self.context_result, 3

    def cuDeviceGetAttribute(self, attribute, device):
        self.calls.append(("cuDeviceGetAttribute", attribute, device))
        major = attribute == _CUdeviceAttribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
        return _CUresult.CUDA_SUCCESS, 8 if major else 6


@pytest.fixture
def cuda_python(monkeypatch) -> tuple[FakeDriver, FakeNvrtc]:
    driver, fake_nvrtc = FakeDriver(), FakeNvrtc()
    cuda, bindings = types.ModuleType("cuda"), types.ModuleType("cuda.bindings")
    cuda.bindings = bindings
    bindings.driver, bindings.nvrtc = driver, fake_nvrtc
    for name, module in [
        ("cuda", cuda),
        ("cuda.bindings", bindings),
        ("cuda.bindings.driver", driver),
        ("cuda.bindings.nvrtc", fake_nvrtc),
    ]:
        monkeypatch.setitem(sys.modules, name, module)
    return driver, fake_nvrtc


SOURCE = 'extern "C" __global__ void fill(float* x) { x[threadIdx.x] = 1.0f; }\n'


def test_nvrtc_compile_with_explicit_arch(cuda_python):
    driver, fake = cuda_python
    image = nvrtc.nvrtc_compile(
        SOURCE, name="fill.cu", arch="sm_90a", extra_opts=["-DVALUE=1", b"-I/inc"]
    )
    assert image == fake.image
    options = [b"--gpu-architecture=sm_90a", b"-default-device", b"-DVALUE=1", b"-I/inc"]
    assert fake.calls == [
        ("create", SOURCE.encode(), b"fill.cu", 0, None, None),
        ("compile", "prog", 4, options),
        ("destroy", "prog"),
    ]
    assert driver.calls == []  # an explicit arch needs no device


def test_nvrtc_compile_detects_the_current_device(cuda_python):
    driver, fake = cuda_python
    assert nvrtc.nvrtc_compile(SOURCE) == fake.image
    major, minor = _CUdeviceAttribute
    assert driver.calls == [
        ("cuInit", 0),
        ("cuCtxGetDevice",),
        ("cuDeviceGetAttribute", major, 3),
        ("cuDeviceGetAttribute", minor, 3),
    ]
    assert fake.calls[0][2] == b"kernel.cu"
    assert fake.calls[1] == (
        "compile",
        "prog",
        2,
        [b"--gpu-architecture=sm_86", b"-default-device"],
    )


def test_nvrtc_compile_without_context_uses_device_0(cuda_python):
    driver, _ = cuda_python
    driver.context_result = _CUresult.CUDA_ERROR_INVALID_CONTEXT
    nvrtc.nvrtc_compile(SOURCE)
    assert [call[2] for call in driver.calls if call[0] == "cuDeviceGetAttribute"] == [0, 0]


def test_nvrtc_compile_without_device(cuda_python):
    driver, fake = cuda_python
    driver.init_result = _CUresult.CUDA_ERROR_NO_DEVICE
    with pytest.raises(RuntimeError, match=r"auto-detect GPU architecture.*cuInit.*'arch'"):
        nvrtc.nvrtc_compile(SOURCE)
    assert fake.calls == []


def test_nvrtc_compile_error_carries_the_log(cuda_python):
    _, fake = cuda_python
    fake.compile_result = _NvrtcResult.NVRTC_ERROR_COMPILATION
    fake.log = b'fill.cu(1): error: identifier "y" is undefined\n'
    with pytest.raises(RuntimeError) as info:
        nvrtc.nvrtc_compile(SOURCE, arch="sm_80")
    assert str(info.value) == (
        "nvrtc_compile(): NVRTC compilation failed:\n"
        'fill.cu(1): error: identifier "y" is undefined\n'
    )
    assert fake.calls[-1] == ("destroy", "prog")


def test_nvrtc_compile_error_without_log(cuda_python):
    _, fake = cuda_python
    fake.compile_result = _NvrtcResult.NVRTC_ERROR_COMPILATION
    with pytest.raises(RuntimeError, match=r"NVRTC compilation failed: NVRTC_ERROR_COMPILATION$"):
        nvrtc.nvrtc_compile(SOURCE, arch="sm_80")
    assert fake.calls[-1] == ("destroy", "prog")


def test_nvrtc_create_and_cubin_failures(cuda_python):
    _, fake = cuda_python
    fake.cubin_result = _NvrtcResult.NVRTC_ERROR_INVALID_INPUT
    with pytest.raises(RuntimeError, match="nvrtcGetCUBIN failed"):
        nvrtc.nvrtc_compile(SOURCE, arch="sm_80")
    assert fake.calls[-1] == ("destroy", "prog")
    fake.calls.clear()
    fake.create_result = _NvrtcResult.NVRTC_ERROR_INVALID_INPUT
    with pytest.raises(RuntimeError, match="nvrtcCreateProgram failed"):
        nvrtc.nvrtc_compile(SOURCE, arch="sm_80")
    assert [call[0] for call in fake.calls] == ["create"]

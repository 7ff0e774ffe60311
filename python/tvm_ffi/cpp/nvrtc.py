# SPDX-License-Identifier: Apache-2.0
"""``nvrtc_compile``: CUDA C++ source to a CUBIN image with NVRTC, through cuda-python.

cuda-python is imported when ``nvrtc_compile`` runs, so importing this module needs nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any


class _CudaPythonMissingError(ImportError, RuntimeError):
    """cuda-python is not installed: an ``ImportError`` that is also a ``RuntimeError``.

    Apache's package raises ``RuntimeError`` here, so callers catching either class see it.
    """


def _bindings() -> tuple[ModuleType, ModuleType]:
    """Import the driver and NVRTC modules of cuda-python (``cuda.bindings``)."""
    try:
        from cuda.bindings import driver, nvrtc
    except ImportError as err:
        raise _CudaPythonMissingError(
            "nvrtc_compile(): the CUDA bindings are not available; install the cuda-python "
            "package (pip install cuda-python)",
            name="cuda.bindings",
        ) from err
    return driver, nvrtc


def _result_name(result: Any) -> str:
    """Name a cuda-python result code (an enum member) by its name, such as ``CUDA_ERROR_*``."""
    return str(getattr(result, "name", result))


def _driver_call(driver: ModuleType, what: str, *args: Any) -> Any:
    """Call ``driver.<what>(*args)``; return its one value, raise if the result is not success."""
    result, *values = getattr(driver, what)(*args)
    if result != driver.CUresult.CUDA_SUCCESS:
        raise RuntimeError(f"nvrtc_compile(): {what} failed: {_result_name(result)}")
    return values[0] if values else None


def _current_device(driver: ModuleType) -> Any:
    """Return the device of the current context, or device 0 when there is none."""
    result, device = driver.cuCtxGetDevice()
    return device if result == driver.CUresult.CUDA_SUCCESS else 0


def _device_arch(driver: ModuleType) -> str:
    """Return ``sm_<major><minor>`` of the current device (initialising the driver)."""
    _driver_call(driver, "cuInit", 0)
    device = _current_device(driver)
    attributes = driver.CUdevice_attribute
    major = _driver_call(
        driver,
        "cuDeviceGetAttribute",
        attributes.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
        device,
    )
    minor = _driver_call(
        driver,
        "cuDeviceGetAttribute",
        attributes.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
        device,
    )
    return f"sm_{major}{minor}"


def _detect_arch(driver: ModuleType) -> str:
    try:
        return _device_arch(driver)
    except Exception as err:
        raise RuntimeError(
            f"nvrtc_compile(): failed to auto-detect GPU architecture: {err}; "
            "pass the 'arch' parameter explicitly"
        ) from err


def _options(arch: str, extra_opts: Sequence[str | bytes] | None) -> list[bytes]:
    """NVRTC options: the target, ``-default-device``, then ``extra_opts`` as given."""
    options = [f"--gpu-architecture={arch}".encode(), b"-default-device"]
    for option in extra_opts or ():
        options.append(option.encode() if isinstance(option, str) else bytes(option))
    return options


def _program_log(nvrtc: ModuleType, prog: Any) -> str:
    """Return the compile log, or ``""`` when NVRTC cannot give it."""
    success = nvrtc.nvrtcResult.NVRTC_SUCCESS
    result, size = nvrtc.nvrtcGetProgramLogSize(prog)
    if result != success or size <= 1:  # the size counts the final NUL
        return ""
    log = bytes(size)  # cuda-python writes the log into this buffer
    (result,) = nvrtc.nvrtcGetProgramLog(prog, log)
    return log.rstrip(b"\0").decode("utf-8", errors="replace") if result == success else ""


def _compile_failure(nvrtc: ModuleType, prog: Any, result: Any) -> RuntimeError:
    log = _program_log(nvrtc, prog)
    if log:
        return RuntimeError(f"nvrtc_compile(): NVRTC compilation failed:\n{log}")
    return RuntimeError(f"nvrtc_compile(): NVRTC compilation failed: {_result_name(result)}")


def _check(nvrtc: ModuleType, result: Any, what: str) -> None:
    if result != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        raise RuntimeError(f"nvrtc_compile(): {what} failed: {_result_name(result)}")


def _cubin(nvrtc: ModuleType, prog: Any) -> bytes:
    """Copy the CUBIN image out of a compiled program."""
    result, size = nvrtc.nvrtcGetCUBINSize(prog)
    _check(nvrtc, result, "nvrtcGetCUBINSize")
    image = bytes(size)  # cuda-python writes the image into this buffer
    (result,) = nvrtc.nvrtcGetCUBIN(prog, image)
    _check(nvrtc, result, "nvrtcGetCUBIN")
    return image


def nvrtc_compile(
    source: str,
    *,
    name: str = "kernel.cu",
    arch: str | None = None,
    extra_opts: Sequence[str] | None = None,
) -> bytes:
    """Compile CUDA C++ source to a CUBIN image with NVRTC.

    NVRTC, reached through the cuda-python package (``cuda.bindings.nvrtc``), compiles the
    source with ``--gpu-architecture=<arch> -default-device`` and then ``extra_opts``. The
    image can be loaded with the CUDA driver API, or embedded into a library with the
    ``embed_cubin`` argument of :func:`tvm_ffi.cpp.load_inline`.

    Parameters
    ----------
    source : str
        The CUDA C++ source code. Kernels meant to be looked up by name are usually
        ``extern "C"``.
    name : str
        The file name NVRTC gives the source in its messages.
    arch : str, optional
        The real GPU architecture to build for, such as ``"sm_80"`` or ``"sm_90a"``. By default,
        that of the current CUDA device (device 0 without a current context).
    extra_opts : sequence of str, optional
        More NVRTC options, such as ``["-I/path/to/include", "-DVALUE=1"]``; ``bytes`` are
        passed as they are.

    Returns
    -------
    bytes
        The CUBIN image.

    Raises
    ------
    ImportError
        If cuda-python is not installed. The exception is a ``RuntimeError`` too, which is
        what Apache's package raises there.
    RuntimeError
        If the architecture cannot be detected, or NVRTC fails; a failed compile carries
        NVRTC's log.

    Examples
    --------
    >>> from tvm_ffi.cpp.nvrtc import nvrtc_compile
    >>> source = 'extern "C" __global__ void fill(float* x) { x[threadIdx.x] = 1.0f; }'
    >>> image = nvrtc_compile(source, arch="sm_80")  # doctest: +SKIP
    """
    driver, nvrtc = _bindings()
    target = arch if arch is not None else _detect_arch(driver)
    result, prog = nvrtc.nvrtcCreateProgram(source.encode(), name.encode(), 0, None, None)
    _check(nvrtc, result, "nvrtcCreateProgram")
    try:
        options = _options(target, extra_opts)
        (result,) = nvrtc.nvrtcCompileProgram(prog, len(options), options)
        if result != nvrtc.nvrtcResult.NVRTC_SUCCESS:
            raise _compile_failure(nvrtc, prog, result)
        return _cubin(nvrtc, prog)
    finally:
        nvrtc.nvrtcDestroyProgram(prog)

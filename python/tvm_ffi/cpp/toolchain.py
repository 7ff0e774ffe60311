# SPDX-License-Identifier: Apache-2.0
"""Find the tools a build needs: the C and C++ compilers, nvcc or hipcc, and ninja."""

from __future__ import annotations

import functools
import os
import platform
import shlex
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class GpuToolchain:
    """How to compile and link GPU sources for one backend (``"cuda"`` or ``"hip"``)."""

    backend: str
    compiler: str
    home: str | None
    compile_flags: tuple[str, ...]
    link_flags: tuple[str, ...]


def _resolve_command(text: str, what: str) -> list[str]:
    """Split a compiler command (``$CXX`` may be ``"ccache g++"``) and resolve its program."""
    words = shlex.split(text)
    program = shutil.which(words[0]) if words else None
    if program is None:
        raise RuntimeError(f"build(): {what} '{text}' not found")
    return [program, *words[1:]]


def find_cxx_compiler() -> list[str]:
    """Return the C++ compiler command: ``$CXX``, else ``c++`` or ``g++`` from PATH."""
    if os.environ.get("CXX"):
        return _resolve_command(os.environ["CXX"], "C++ compiler ($CXX)")
    for name in ("c++", "g++", "clang++"):
        if shutil.which(name):
            return _resolve_command(name, "C++ compiler")
    raise RuntimeError("build(): no C++ compiler found; set $CXX or install c++/g++")


def find_c_compiler() -> list[str]:
    """Return the C compiler command: ``$CC``, else ``cc``, ``gcc`` or ``clang`` from PATH."""
    if os.environ.get("CC"):
        return _resolve_command(os.environ["CC"], "C compiler ($CC)")
    for name in ("cc", "gcc", "clang"):
        if shutil.which(name):
            return _resolve_command(name, "C compiler")
    raise RuntimeError("build(): no C compiler found; set $CC or install cc/gcc")


def find_ninja() -> str:
    """Return the ninja executable: from PATH, else from the ``ninja`` Python package."""
    found = shutil.which("ninja")
    if found:
        return found
    try:
        import ninja  # the PyPI package ships the binary
    except ImportError:
        bin_dir = ""
    else:
        bin_dir = getattr(ninja, "BIN_DIR", "")
    candidate = Path(bin_dir) / "ninja" if bin_dir else None
    if candidate is not None and candidate.is_file():
        return str(candidate)
    raise RuntimeError("build(): ninja not found; install it with `pip install ninja`")


def find_compiler(name: str, *home_vars: str) -> str | None:
    """Return the program ``name`` from PATH, else from a toolkit home's ``bin`` folder.

    The homes are the environment variables ``home_vars`` (``CUDA_HOME``, ...), in order.
    Returns None when no place has it.
    """
    found = shutil.which(name)
    if found is not None:
        return found
    for var in home_vars:
        home = os.environ.get(var)
        found = shutil.which(name, path=str(Path(home) / "bin")) if home else None
        if found is not None:
            return found
    return None


def _torch_gpu_backend() -> str | None:
    """Return the GPU backend PyTorch was built for (``"cuda"`` or ``"hip"``), if any."""
    try:
        import torch
    except Exception:  # a missing or broken PyTorch gives no signal
        return None
    version = getattr(torch, "version", None)
    if getattr(version, "hip", None):
        return "hip"
    return "cuda" if getattr(version, "cuda", None) else None


@functools.lru_cache(maxsize=1)
def detect_gpu_backend() -> str:
    """Return the GPU backend of this machine, ``"cuda"`` or ``"hip"`` (decided once).

    ``$TVM_FFI_GPU_BACKEND`` decides when set; else the backend PyTorch was built for; else
    ``"hip"`` when hipcc is installed and nvcc is not (from PATH or the toolkit homes);
    else ``"cuda"``.
    """
    chosen = _backend_override() or _torch_gpu_backend()
    if chosen is not None:
        return chosen
    has_nvcc = find_compiler("nvcc", "CUDA_HOME", "CUDA_PATH") is not None
    has_hipcc = find_compiler("hipcc", "ROCM_HOME", "ROCM_PATH") is not None
    return "hip" if has_hipcc and not has_nvcc else "cuda"


def run_in_msvc_dev_prompt(
    args: Sequence[str], cwd: str | os.PathLike[str], capture_output: bool
) -> subprocess.CompletedProcess[bytes]:
    """Run a command in the environment of the latest Visual Studio's developer prompt.

    Raises
    ------
    RuntimeError
        If Visual Studio (``vswhere.exe``, ``VsDevCmd.bat``) is not found, as off Windows.
    """
    command = " ".join(args)
    try:
        vsdevcmd = _vsdevcmd_path()
    except (OSError, subprocess.CalledProcessError) as err:
        raise RuntimeError(
            f"Failed to run the following command in MSVC developer environment: {command}"
        ) from err
    shell_line = f'"{vsdevcmd}" -arch={_msvc_arch()} & {command}'
    return subprocess.run(
        shell_line, check=False, cwd=cwd, capture_output=capture_output, shell=True
    )


def _vsdevcmd_path() -> str:
    """Return ``VsDevCmd.bat`` of the latest Visual Studio (FileNotFoundError without one)."""
    program_files = os.environ.get("PROGRAMFILES(X86)", "C:\\Program Files (x86)")
    vswhere = Path(program_files) / "Microsoft Visual Studio" / "Installer" / "vswhere.exe"
    if not vswhere.exists():
        raise FileNotFoundError(f"run_in_msvc_dev_prompt(): {vswhere} not found")
    query = [str(vswhere), "-latest", "-prerelease", "-products", "*"]
    install = subprocess.run(
        [*query, "-property", "installationPath"], capture_output=True, text=True, check=True
    ).stdout.strip()
    if not install:
        raise FileNotFoundError("run_in_msvc_dev_prompt(): no Visual Studio installation found")
    vsdevcmd = Path(install) / "Common7" / "Tools" / "VsDevCmd.bat"
    if not vsdevcmd.exists():
        raise FileNotFoundError(f"run_in_msvc_dev_prompt(): {vsdevcmd} not found")
    return str(vsdevcmd)


def _msvc_arch() -> str:
    machine = platform.machine().lower()
    if machine in ("arm64", "aarch64"):
        return "arm64"
    if machine in ("amd64", "x86_64"):
        return "x64"
    raise RuntimeError(f"Unsupported Windows architecture: {platform.machine()}")


def _cuda_home() -> str | None:
    """``$CUDA_HOME``/``$CUDA_PATH`` when set, else the install above nvcc, else /usr/local/cuda."""
    for var in ("CUDA_HOME", "CUDA_PATH"):
        if os.environ.get(var):
            return os.environ[var]
    nvcc = shutil.which("nvcc")
    if nvcc and Path(nvcc).resolve().parent.name == "bin":
        home = Path(nvcc).resolve().parent.parent
        if (home / "include" / "cuda_runtime.h").exists():
            return str(home)
    return "/usr/local/cuda" if Path("/usr/local/cuda/bin/nvcc").exists() else None


def _rocm_home() -> str | None:
    home = os.environ.get("ROCM_PATH") or os.environ.get("ROCM_HOME") or "/opt/rocm"
    return home if Path(home).exists() else None


def _gpu_compiler(home: str | None, program: str) -> str | None:
    """Return the compiler under ``home/bin``; without a home, the one on PATH."""
    if home is not None:
        candidate = Path(home) / "bin" / program
        return str(candidate) if candidate.is_file() else None
    return shutil.which(program)


def _library_dir_flags(home: str | None, subdirs: tuple[str, ...]) -> list[str]:
    """``-L`` and ``-rpath`` flags for the existing library directories under ``home``."""
    dirs = [Path(home) / sub for sub in subdirs] if home else []
    return [flag for d in dirs if d.is_dir() for flag in (f"-L{d}", f"-Wl,-rpath,{d}")]


def _cuda_toolchain() -> GpuToolchain | None:
    home = _cuda_home()
    nvcc = _gpu_compiler(home, "nvcc")
    if nvcc is None:
        return None
    compile_flags = ("-Xcompiler", "-fPIC")
    link_flags = (*_library_dir_flags(home, ("lib64", "lib")), "-lcudart")
    return GpuToolchain("cuda", nvcc, home, compile_flags, link_flags)


def _hip_toolchain() -> GpuToolchain | None:
    home = _rocm_home()
    hipcc = _gpu_compiler(home, "hipcc")
    if hipcc is None:
        return None
    link_flags = (*_library_dir_flags(home, ("lib",)), "-lamdhip64")
    return GpuToolchain("hip", hipcc, home, ("-fPIC",), link_flags)


def _backend_override() -> str | None:
    """Return ``$TVM_FFI_GPU_BACKEND`` when it names a backend (``cuda`` or ``hip``)."""
    chosen = os.environ.get("TVM_FFI_GPU_BACKEND", "").lower()
    return chosen if chosen in ("cuda", "hip") else None


def find_gpu_toolchain(backend: str | None) -> GpuToolchain:
    """Return the GPU toolchain for ``backend``; ``None`` picks CUDA, else HIP, if installed.

    With ``backend=None``, ``$TVM_FFI_GPU_BACKEND`` (``cuda`` or ``hip``) chooses instead.

    Raises
    ------
    ValueError
        If ``backend`` is neither ``None``, ``"cuda"`` nor ``"hip"``.
    RuntimeError
        If the compiler (nvcc or hipcc) is not found.
    """
    if backend not in (None, "cuda", "hip"):
        raise ValueError(f"build(): backend must be 'cuda' or 'hip', got {backend!r}")
    backend = backend or _backend_override()
    if backend in (None, "cuda"):
        toolchain = _cuda_toolchain()
        if toolchain is not None:
            return toolchain
    if backend in (None, "hip"):
        toolchain = _hip_toolchain()
        if toolchain is not None:
            return toolchain
    if backend == "hip":
        raise RuntimeError("build(): cannot compile HIP sources: hipcc not found (set ROCM_PATH)")
    raise RuntimeError(
        "build(): cannot compile CUDA sources: nvcc not found (set CUDA_HOME or put nvcc on PATH)"
    )

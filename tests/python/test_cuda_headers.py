# SPDX-License-Identifier: Apache-2.0
"""The CUDA helper headers ``tvm/ffi/extra/cuda/*.h``.

Each header compiles on its own with nvcc and with the host C++ compiler, in the runtime-API and
the driver-API mode of the cubin launcher; ``base.h`` without CUDA stops with a clear ``#error``.
The example library in ``module_src/cuda_headers`` (device guard, error macros, cubin launcher)
is built with its kernel image embedded the way ``tvm_ffi.utils.embed_cubin`` does it (``ld -r -b
binary`` + ``objcopy``) and linked against cudart; loading it needs no GPU (CUDA failures must come
back as RuntimeError), and its kernels run where a CUDA device and torch are present.

nvcc is looked up in ``$CUDA_HOME``/``$CUDA_PATH``, on PATH, then in /usr/local/cuda; without it
the CUDA tests skip with that reason.
"""

from __future__ import annotations

import ctypes
import dataclasses
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import tvm_ffi
import tvm_ffi.libinfo

pytestmark = pytest.mark.compiles

SRC_DIR = Path(__file__).resolve().parent / "module_src" / "cuda_headers"
HEADERS = ["base.h", "device_guard.h", "internal/unified_api.h", "cubin_launcher.h"]
# Headers whose code depends on TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API.
SWITCHED_HEADERS = ["internal/unified_api.h", "cubin_launcher.h"]
IMAGE_NAME = "cuda_headers_kernels"  # matches TVM_FFI_EMBED_CUBIN(...) in launcher.cu
DRIVER_FLAG = "-DTVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API=1"
NO_CUDA_MESSAGE = "needs the CUDA toolkit headers (cuda_runtime.h not found)"
TIMEOUT_S = 600


@dataclasses.dataclass(frozen=True)
class Cuda:
    """A CUDA toolkit: its nvcc (may be None), include dir and cudart/libcuda link flags."""

    nvcc: str | None
    include: Path
    version: int  # CUDART_VERSION, e.g. 12080
    cudart_flags: tuple[str, ...]
    libcuda_flags: tuple[str, ...]  # empty when no libcuda (or stub) is found

    @property
    def runtime_api_by_default(self) -> bool:
        return self.version >= 12080


def _cuda_home() -> Path | None:
    for var in ("CUDA_HOME", "CUDA_PATH"):
        if os.environ.get(var):
            return Path(os.environ[var])
    nvcc = shutil.which("nvcc")
    if nvcc:  # may be a wrapper script outside the toolkit: then try the default location
        home = Path(nvcc).resolve().parent.parent
        if (home / "include" / "cuda_runtime.h").exists():
            return home
    default = Path("/usr/local/cuda")
    return default if (default / "bin" / "nvcc").exists() else None


def _library_flags(home: Path, name: str, with_rpath: bool) -> tuple[str, ...]:
    """Link flags for lib<name> under home (lib64, lib, targets/...; then their stubs/)."""
    dirs = [home / "lib64", home / "lib", home / "targets" / "x86_64-linux" / "lib"]
    for directory in dirs + [d / "stubs" for d in dirs]:
        if (directory / f"lib{name}.so").exists():
            flag = f"-l{name}"
        else:
            versioned = sorted(directory.glob(f"lib{name}.so.*"), key=lambda p: len(p.name))
            if not versioned:
                continue
            flag = f"-l:{versioned[0].name}"
        rpath = ("-Xlinker", f"-rpath={directory}") if with_rpath else ()
        return (f"-L{directory}", flag, *rpath)
    return ()


def _find_cuda() -> Cuda | None:
    home = _cuda_home()
    if home is None:
        return None
    runtime_api_h = home / "include" / "cuda_runtime_api.h"
    if not runtime_api_h.exists():
        return None
    found = re.search(
        r"#define\s+CUDART_VERSION\s+(\d+)", runtime_api_h.read_text(errors="replace")
    )
    nvcc = home / "bin" / "nvcc"
    return Cuda(
        nvcc=str(nvcc) if nvcc.exists() else shutil.which("nvcc"),
        include=home / "include",
        version=int(found.group(1)) if found else 0,
        cudart_flags=_library_flags(home, "cudart", with_rpath=True),
        libcuda_flags=_library_flags(home, "cuda", with_rpath=False),
    )


CUDA = _find_cuda()


def _ffi_include_flags() -> list[str]:
    include = tvm_ffi.libinfo.find_include_path()
    flags = [f"-I{include}"]
    if not (Path(include) / "dlpack" / "dlpack.h").exists():
        flags.append(f"-I{tvm_ffi.libinfo.find_dlpack_include_path()}")
    return flags


def _run(cmd: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        cmd, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT_S, check=False
    )


def _check(cmd: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess:
    result = _run(cmd, cwd)
    assert result.returncode == 0, f"{' '.join(cmd)} failed:\n{result.stdout}\n{result.stderr}"
    return result


def _skip_without_headers() -> Cuda:
    if CUDA is None:
        home = _cuda_home()
        if home is None:
            pytest.skip("nvcc not found (set CUDA_HOME or put nvcc on PATH)")
        pytest.skip(f"no CUDA headers (cuda_runtime_api.h) in {home / 'include'}")
    return CUDA


@pytest.fixture(scope="module")
def cuda() -> Cuda:
    found = _skip_without_headers()
    if found.nvcc is None:
        pytest.skip("nvcc not found (set CUDA_HOME or put nvcc on PATH)")
    return found


@pytest.fixture(scope="module")
def cuda_include() -> Cuda:
    """Only the CUDA headers (no nvcc needed)."""
    return _skip_without_headers()


@pytest.fixture(scope="module")
def cxx() -> str:
    for candidate in (os.environ.get("CXX"), "g++", "c++", "clang++"):
        if candidate and shutil.which(candidate):
            return candidate
    pytest.skip("no host C++ compiler found")


@pytest.fixture(scope="module")
def binutils() -> dict[str, str]:
    if not sys.platform.startswith("linux"):
        pytest.skip("embedding a CUBIN with ld/objcopy is Linux-only")
    tools = {name: shutil.which(name) for name in ("ld", "objcopy", "nm")}
    missing = [name for name, path in tools.items() if path is None]
    if missing:
        pytest.skip(f"binutils missing: {', '.join(missing)}")
    return tools


def _include_line(header: str) -> str:
    return f"#include <tvm/ffi/extra/cuda/{header}>\n"


def _header_cases() -> list:
    cases = [pytest.param(h, (), id=h) for h in HEADERS]
    cases += [pytest.param(h, (DRIVER_FLAG,), id=f"{h}-driver") for h in SWITCHED_HEADERS]
    return cases


# ---------------------------------------------------------------------------------------------
# Without CUDA (runs everywhere with a C++ compiler)


def test_base_h_without_cuda_stops_with_a_clear_error(cxx, tmp_path) -> None:
    probe = tmp_path / "probe.cc"
    probe.write_text("#include <cuda_runtime.h>\n")
    compiler_finds_cuda = _run([cxx, "-std=c++17", "-fsyntax-only", str(probe)]).returncode == 0
    source = tmp_path / "uses_base.cc"
    source.write_text(_include_line("base.h") + "int main() { return 0; }\n")
    result = _run([cxx, "-std=c++17", "-fsyntax-only", *_ffi_include_flags(), str(source)])
    if compiler_finds_cuda:  # CUDA in the compiler's default paths: the header just works
        assert result.returncode == 0, result.stderr
    else:
        assert result.returncode != 0
        assert NO_CUDA_MESSAGE in result.stderr
        # The #error comes first, instead of a bare "file not found".
        first_error = next(line for line in result.stderr.splitlines() if "error" in line)
        assert NO_CUDA_MESSAGE in first_error


# ---------------------------------------------------------------------------------------------
# Each header on its own


@pytest.mark.parametrize(("header", "flags"), _header_cases())
def test_header_compiles_alone_with_nvcc(cuda, header, flags, tmp_path) -> None:
    source = tmp_path / "only_include.cu"
    source.write_text(_include_line(header))
    cmd = [cuda.nvcc, "-std=c++17", "-x", "cu", *flags, *_ffi_include_flags(), "-c", str(source)]
    _check([*cmd, "-o", str(tmp_path / "only_include.o")])


@pytest.mark.parametrize(("header", "flags"), _header_cases())
def test_header_compiles_alone_with_host_compiler(cxx, cuda_include, header, flags, tmp_path):
    source = tmp_path / "only_include.cc"
    source.write_text(_include_line(header))
    cmd = [cxx, "-std=c++17", "-fsyntax-only", "-Wall", "-Wextra", *flags, *_ffi_include_flags()]
    _check([*cmd, f"-I{cuda_include.include}", str(source)])


def test_default_api_follows_the_cuda_version(cxx, cuda_include, tmp_path) -> None:
    source = tmp_path / "mode.cc"
    expected = 0 if cuda_include.runtime_api_by_default else 1
    source.write_text(
        _include_line("internal/unified_api.h")
        + f'static_assert(TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API == {expected}, "mode");\n'
    )
    base = [cxx, "-std=c++17", "-fsyntax-only", *_ffi_include_flags(), f"-I{cuda_include.include}"]
    _check([*base, str(source)])
    if not cuda_include.runtime_api_by_default:
        forced = _run([*base, "-DTVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API=0", str(source)])
        assert forced.returncode != 0
        assert "needs CUDA 12.8 or newer" in forced.stderr


# ---------------------------------------------------------------------------------------------
# The example library: an embedded image, the device guard and the launcher


@dataclasses.dataclass(frozen=True)
class Example:
    launcher_obj: Path  # launcher.cu compiled, before the image is merged in
    lib: Path  # libcuda_headers_example.so
    from_bytes_lib: Path  # libcuda_headers_from_bytes.so
    driver_api: bool


def _nvcc_compile(cuda: Cuda, source: Path, out: Path, *flags: str) -> Path:
    cmd = [cuda.nvcc, "-std=c++17", "-Xcompiler", "-fPIC", *flags, *_ffi_include_flags()]
    _check([*cmd, "-c", str(source), "-o", str(out)])
    return out


def _build_image(cuda: Cuda, work: Path) -> Path:
    """kernels.cu as a FATBIN (SASS + PTX of nvcc's default target, so newer GPUs JIT it)."""
    image = work / "kernels.fatbin"
    _check([cuda.nvcc, "--fatbin", str(SRC_DIR / "kernels.cu"), "-o", str(image)])
    return image


def _embed_image(tools: dict[str, str], image: Path, obj: Path, name: str) -> Path:
    """Merge image into obj as __tvm_ffi__cubin_<name>[_end], local to the result."""
    work = image.parent
    stem = re.sub(r"\W", "_", image.name)
    raw = work / f"{name}_image.o"
    _check([tools["ld"], "-r", "-b", "binary", "-o", str(raw), image.name], cwd=work)
    _check([
        tools["objcopy"],
        "--rename-section", ".data=.rodata,alloc,load,readonly,data,contents",
        "--set-section-alignment", ".data=64",
        "--redefine-sym", f"_binary_{stem}_start=__tvm_ffi__cubin_{name}",
        "--redefine-sym", f"_binary_{stem}_end=__tvm_ffi__cubin_{name}_end",
        "--strip-symbol", f"_binary_{stem}_size",
        "--add-section", ".note.GNU-stack=/dev/null",
        str(raw),
    ])  # fmt: skip
    merged = work / f"{obj.stem}_with_image.o"
    _check([tools["ld"], "-r", str(obj), str(raw), "-o", str(merged)])
    localize = [f"--localize-symbol=__tvm_ffi__cubin_{name}{end}" for end in ("", "_end")]
    _check([tools["objcopy"], *localize, str(merged)])
    return merged


def _write_image_header(image: Path, header: Path) -> None:
    data = image.read_bytes()
    rows = (", ".join(str(b) for b in data[i : i + 16]) for i in range(0, len(data), 16))
    header.write_text(
        "// Generated by test_cuda_headers.py from kernels.cu.\n#pragma once\n"
        "alignas(64) constexpr unsigned char kCudaHeadersImage[] = {\n"
        + ",\n".join(rows)
        + "\n};\n"
    )


def _link(cuda: Cuda, objects: list[Path], out: Path, driver_api: bool) -> Path:
    libcuda = cuda.libcuda_flags if driver_api else ()
    _check([cuda.nvcc, "-shared", *map(str, objects), "-o", str(out), *cuda.cudart_flags, *libcuda])
    return out


@pytest.fixture(scope="module", params=[False, True], ids=["default-api", "driver-api"])
def example(request, cuda, binutils, tmp_path_factory) -> Example:
    driver_api = request.param
    if not cuda.cudart_flags:
        pytest.skip(f"libcudart not found under {cuda.include.parent}")
    if driver_api and cuda.runtime_api_by_default is False:
        pytest.skip("the default is already the driver API with this CUDA")
    work = tmp_path_factory.mktemp("cuda_headers_driver" if driver_api else "cuda_headers")
    flags = (DRIVER_FLAG,) if driver_api else ()
    image = _build_image(cuda, work)
    launcher = _nvcc_compile(cuda, SRC_DIR / "launcher.cu", work / "launcher.o", *flags)
    merged = _embed_image(binutils, image, launcher, IMAGE_NAME)
    lib = _link(cuda, [merged], work / "libcuda_headers_example.so", driver_api)
    _write_image_header(image, work / "cuda_headers_image.h")
    from_bytes = _nvcc_compile(
        cuda, SRC_DIR / "from_bytes.cu", work / "from_bytes.o", *flags, f"-I{work}"
    )
    from_bytes_lib = _link(cuda, [from_bytes], work / "libcuda_headers_from_bytes.so", driver_api)
    return Example(launcher, lib, from_bytes_lib, driver_api or not cuda.runtime_api_by_default)


def _symbols(nm: str, lib: Path, *flags: str) -> dict[str, str]:
    """Symbol name -> nm type letter."""
    out = _check([nm, *flags, str(lib)]).stdout
    table = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 2:
            table[parts[-1].split("@")[0]] = parts[-2]
    return table


def test_example_embeds_the_image_under_the_cubin_symbols(example, binutils) -> None:
    image_symbol = f"__tvm_ffi__cubin_{IMAGE_NAME}"
    # TVM_FFI_EMBED_CUBIN refers to the image by the name the embed tools give it ...
    assert image_symbol in _symbols(binutils["nm"], example.launcher_obj, "--undefined-only")
    # ... and merging the image resolved that reference inside the library.
    undefined = _symbols(binutils["nm"], example.lib, "--undefined-only")
    assert not [s for s in undefined if "cubin" in s]
    symbols = _symbols(binutils["nm"], example.lib)
    for name in (image_symbol, f"{image_symbol}_end"):
        assert symbols.get(name) == "r", f"{name}: {symbols.get(name)}"  # local read-only data
    dynamic = _symbols(binutils["nm"], example.lib, "-D")
    assert not [s for s in dynamic if s.startswith("__tvm_ffi__cubin_")]
    for func in ("add_one", "scale", "fill", "device_inside_guard", "look_up_missing_kernel"):
        assert dynamic.get(f"__tvm_ffi_{func}") == "T"


def test_example_uses_the_chosen_cuda_api(example, binutils) -> None:
    undefined = set(_symbols(binutils["nm"], example.lib, "-D", "--undefined-only"))
    driver_calls = {"cuLibraryLoadData", "cuLibraryGetKernel", "cuLaunchKernel", "cuInit"}
    runtime_calls = {"cudaLibraryLoadData", "cudaLibraryGetKernel", "cudaLaunchKernel"}
    # The device guard and TVM_FFI_CHECK_CUDA_ERROR always use the runtime.
    assert {"cudaGetDevice", "cudaSetDevice", "cudaGetErrorString"} <= undefined
    if example.driver_api:
        assert driver_calls <= undefined
        assert not runtime_calls & undefined
    else:
        assert runtime_calls <= undefined
        assert not {s for s in undefined if re.fullmatch(r"cu[A-Z]\w*", s)}


def test_example_links_completely_against_cudart_and_tvm_ffi(example, cuda, tmp_path) -> None:
    if example.driver_api and not cuda.libcuda_flags:
        pytest.skip("no libcuda (or stub) to resolve the driver API at link time")
    try:
        libtvm_ffi = Path(tvm_ffi.libinfo.find_libtvm_ffi())
    except RuntimeError as err:
        pytest.skip(str(err))
    objects = [str(p) for p in sorted(example.lib.parent.glob("*_with_image.o"))]
    ffi = [f"-L{libtvm_ffi.parent}", "-ltvm_ffi", "-Xlinker", "--no-undefined"]
    libcuda = cuda.libcuda_flags if example.driver_api else ()
    out = str(tmp_path / "libfully_linked.so")
    _check([cuda.nvcc, "-shared", *objects, "-o", out, *cuda.cudart_flags, *libcuda, *ffi])


# ---------------------------------------------------------------------------------------------
# Loading the example (no GPU needed: without one every CUDA call fails, as a RuntimeError)


def _libcuda_loadable() -> bool:
    try:
        ctypes.CDLL("libcuda.so.1")
    except OSError:
        return False
    return True


@pytest.fixture(scope="module")
def loaded(example) -> tvm_ffi.Module:
    if example.driver_api and not _libcuda_loadable():
        pytest.skip("the driver-API build needs libcuda.so.1 (the NVIDIA driver) to load")
    return tvm_ffi.load_module(str(example.lib))


def _device_count(module: tvm_ffi.Module) -> int:
    """Visible CUDA devices (0 also when there is no driver)."""
    return module.device_count()


def test_loaded_example_reports_its_api(loaded, example) -> None:
    assert loaded.uses_driver_api() == int(example.driver_api)


def test_cuda_failures_become_runtime_errors(loaded) -> None:
    if _device_count(loaded) > 0:
        with pytest.raises(
            RuntimeError, match=r"CUDA Runtime Error: cudaErrorInvalidDevice \(101\)"
        ):
            loaded.device_inside_guard(1 << 20)
        with pytest.raises(RuntimeError, match=r"CUDA Error: \w+ \(\d+\): .*'no_such_kernel'"):
            loaded.look_up_missing_kernel()
    else:  # no device or no driver: the first CUDA call of each fails
        with pytest.raises(RuntimeError, match=r"CUDA Runtime Error: cuda\w+ \(\d+\): \S"):
            loaded.device_inside_guard(0)
        with pytest.raises(RuntimeError, match=r"CUDA Error: \w+ \(\d+\): \S"):
            loaded.look_up_missing_kernel()


# ---------------------------------------------------------------------------------------------
# Running the kernels (needs a CUDA device and torch)


@pytest.fixture(scope="module")
def torch(loaded):
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available() or _device_count(loaded) == 0:
        pytest.skip("needs a CUDA device and a CUDA build of torch")
    return torch


def test_device_guard_switches_and_restores(loaded, torch) -> None:
    before = loaded.current_device()
    for device in range(torch.cuda.device_count()):
        assert loaded.device_inside_guard(device) == device
        assert loaded.current_device() == before


def test_embedded_kernel_runs(loaded, torch) -> None:
    x = torch.arange(1000, dtype=torch.float32, device="cuda")
    y = torch.zeros_like(x)
    loaded.add_one(x, y)
    torch.cuda.synchronize()
    assert torch.equal(y, x + 1)


def test_launch_ex_with_dynamic_shared_memory(loaded, torch) -> None:
    x = torch.arange(777, dtype=torch.float32, device="cuda")
    y = torch.zeros_like(x)
    loaded.scale(x, y, 2.5)
    torch.cuda.synchronize()
    assert torch.equal(y, x * 2.5)


def test_plain_launch_checked_by_the_runtime_macro(loaded, torch) -> None:
    y = torch.zeros(300, dtype=torch.float32, device="cuda")
    loaded.fill(y, 7.0)
    torch.cuda.synchronize()
    assert torch.equal(y, torch.full_like(y, 7.0))


def test_kernel_arguments_are_checked(loaded, torch) -> None:
    x = torch.zeros(4, device="cuda")
    with pytest.raises(ValueError, match="x must be a CUDA tensor"):
        loaded.add_one(torch.zeros(4), x)
    with pytest.raises(TypeError, match="y must be float32"):
        loaded.add_one(x, torch.zeros(4, dtype=torch.float64, device="cuda"))


def test_module_from_bytes_runs(example, loaded, torch) -> None:
    module = tvm_ffi.load_module(str(example.from_bytes_lib))
    assert module.kernel_count_from_bytes_object() == 2
    x = torch.arange(100, dtype=torch.float32, device="cuda")
    y = torch.zeros_like(x)
    module.add_one_from_bytes(x, y)
    torch.cuda.synchronize()
    assert torch.equal(y, x + 1)

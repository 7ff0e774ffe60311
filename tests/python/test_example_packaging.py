# SPDX-License-Identifier: Apache-2.0
"""The packaging example: a wheel built with pip and scikit-build-core, installed and used.

The wheel is built once per module (``pip wheel``), installed with ``pip install --target``
into a temporary folder, then run by run_example.py in a fresh interpreter and imported here
to check its behaviour and its errors.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path
from types import ModuleType

import pytest
from conftest import environment_with_path_first

import tvm_ffi

# One worker runs them all (the test command uses --dist loadgroup): the wheel is built once.
pytestmark = [pytest.mark.compiles, pytest.mark.xdist_group("packaging")]

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "packaging"
LIBRARY = "my_ffi_extension/lib/libmy_ffi_extension.so"

np = pytest.importorskip("numpy")


def _skip_without_build_tools() -> None:
    """Skip without CMake or a C++ compiler; fail in CI (``CI`` set) without scikit-build-core."""
    if shutil.which("cmake") is None:
        pytest.skip("cmake is not installed")
    compiler = os.environ.get("CXX", "c++").split()[0]
    if not any(shutil.which(name) for name in (compiler, "g++", "clang++")):
        pytest.skip("no C++ compiler on PATH")
    if importlib.util.find_spec("scikit_build_core") is None:
        message = "scikit-build-core is not installed (the example's build backend)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


def _pip(*args: str) -> None:
    # --no-build-isolation: build against the tvm_ffi under test, not one from an index.
    cmd = [sys.executable, "-m", "pip", *args, "--no-build-isolation", "--no-deps", "--no-index"]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=300)
    assert proc.returncode == 0, f"{' '.join(cmd)}\n{proc.stdout}\n{proc.stderr}"


def _cmake_hint() -> list[str]:
    """Point CMake at tvm_ffi when it is not in site-packages, where scikit-build-core looks."""
    package_dir = Path(tvm_ffi.__file__).resolve().parent
    if package_dir.parent == Path(sysconfig.get_path("purelib")).resolve():
        return []
    return [f"--config-settings=cmake.define.tvm_ffi_DIR={tvm_ffi.libinfo.find_cmake_path()}"]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example's wheel, built by ``pip wheel``."""
    _skip_without_build_tools()
    dist = tmp_path_factory.mktemp("packaging_dist")
    _pip("wheel", str(EXAMPLE), "--wheel-dir", str(dist), *_cmake_hint())
    (built,) = dist.glob("my_ffi_extension-*.whl")
    return built


@pytest.fixture(scope="module")
def site_dir(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder the wheel was installed into by ``pip install --target``."""
    target = tmp_path_factory.mktemp("packaging_site")
    _pip("install", str(wheel), "--target", str(target))
    return target


@pytest.fixture(scope="module")
def ext(site_dir: Path) -> ModuleType:
    """The installed my_ffi_extension, imported into this process."""
    sys.path.insert(0, str(site_dir))
    try:
        import my_ffi_extension
    finally:
        sys.path.remove(str(site_dir))
    return my_ffi_extension


def test_wheel_serves_every_python(wheel: Path) -> None:
    python_tag, abi_tag, platform_tag = wheel.stem.split("-")[-3:]
    assert (python_tag, abi_tag) == ("py3", "none")
    assert platform_tag != "any"


def test_wheel_contents(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        metadata = archive.read("my_ffi_extension-0.1.0.dist-info/METADATA").decode()
    assert {"my_ffi_extension/__init__.py", "my_ffi_extension/py.typed"} <= names
    if sys.platform.startswith("linux"):
        assert LIBRARY in names
    # The runtime is the apache-tvm-ffi dependency's, not a copy in this wheel.
    assert not any("tvm_ffi" in Path(name).name for name in names)
    assert "Requires-Dist: apache-tvm-ffi" in metadata


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads an ELF library")
def test_library_links_no_python(site_dir: Path) -> None:
    data = (site_dir / LIBRARY).read_bytes()
    assert b"libtvm_ffi.so" in data
    assert b"libpython" not in data


def test_run_example(site_dir: Path, tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, str(EXAMPLE / "run_example.py")],
        cwd=tmp_path,
        env=environment_with_path_first(site_dir),
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "fields: 2.0 1.0",
        "apply(3): 7.0",
        "after shift = 5, apply(3): 11.0",
        "inverse: LinearMap 0.5 -2.5",
        "compose: 3.0 6.0",
        "apply_inplace: [ 6.  9. 12. 15.]",
        "ValueError: LinearMap.inverse: scale is 0, so the map has no inverse",
        "TypeError: apply_inplace: x must be float32, got int32",
    ]


def test_imported_from_the_install(ext: ModuleType, site_dir: Path) -> None:
    assert Path(ext.__file__).resolve().parent == (site_dir / "my_ffi_extension").resolve()


def test_fields_are_the_native_ones(ext: ModuleType) -> None:
    linear_map = ext.LinearMap(4.0, -1.0)
    assert isinstance(linear_map, tvm_ffi.Object)
    assert (linear_map.scale, linear_map.shift) == (4.0, -1.0)
    linear_map.scale = 0.5
    assert linear_map.apply(8.0) == 3.0
    with pytest.raises(TypeError):
        linear_map.scale = "wide"
    assert linear_map.scale == 0.5


def test_docstrings_come_from_cpp(ext: ModuleType) -> None:
    assert ext.LinearMap.scale.__doc__ == "The factor x is multiplied by."
    assert ext.LinearMap.apply.__doc__ == "Map one number: scale * x + shift."


def test_returned_objects_get_the_python_class(ext: ModuleType) -> None:
    composed = ext.compose(ext.LinearMap(2.0, 1.0), ext.LinearMap(3.0, 4.0))
    assert type(composed) is ext.LinearMap
    assert (composed.scale, composed.shift) == (6.0, 9.0)
    inverse = composed.inverse()
    assert type(inverse) is ext.LinearMap
    assert inverse.apply(composed.apply(7.0)) == pytest.approx(7.0)


def test_kernel_updates_strided_arrays(ext: ModuleType) -> None:
    x = np.arange(8, dtype=np.float32)
    ext.apply_inplace(ext.LinearMap(10.0, 1.0), x[::2])
    np.testing.assert_array_equal(x, [1, 1, 21, 3, 41, 5, 61, 7])


def test_native_errors_keep_kind_and_message(ext: ModuleType) -> None:
    with pytest.raises(ValueError, match="scale is 0, so the map has no inverse"):
        ext.LinearMap(0.0, 3.0).inverse()
    identity = ext.LinearMap(1.0, 0.0)
    with pytest.raises(TypeError, match="x must be float32, got float64"):
        ext.apply_inplace(identity, np.zeros(3))
    with pytest.raises(ValueError, match="must be a 1-D tensor on the CPU, got 2 dimensions"):
        ext.apply_inplace(identity, np.zeros((2, 2), dtype=np.float32))


def test_wrong_arguments_are_reported(ext: ModuleType) -> None:
    with pytest.raises(TypeError, match="Expected 2 but got 1"):
        ext.LinearMap(1.0)
    with pytest.raises(TypeError, match="positional arguments only"):
        ext.LinearMap(scale=1.0, shift=0.0)
    with pytest.raises(TypeError):
        ext.compose(ext.LinearMap(1.0, 0.0), "not a map")

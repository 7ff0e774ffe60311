# SPDX-License-Identifier: Apache-2.0
"""Shared pytest fixtures for the tvm_ffi Python tests (run against the installed package)."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

RunPython = Callable[..., subprocess.CompletedProcess]

# JAX on a GPU would otherwise take most of the device's memory in every test process.
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")


def assert_refcount_stable(obj: object, call: Callable[[object], object]) -> None:
    """Assert that 10,000 more ``call(obj)`` leave the reference count of ``obj`` unchanged."""
    for _ in range(100):  # warm caches that may keep a reference
        call(obj)
    gc.collect()
    base = sys.getrefcount(obj)
    for _ in range(10000):
        call(obj)
    gc.collect()
    assert sys.getrefcount(obj) == base


# Reflection helpers for the testing library's native types (tvm_ffi is imported on first use).


def native_type_info(type_key: str) -> Any:
    """The TypeInfo of a registered native type key."""
    from tvm_ffi import core

    return core._lookup_or_register_type_info_from_type_key(type_key)


def native_type_attr(type_key: str, name: str) -> Any:
    """A type attribute of a native type (None when it has none)."""
    from tvm_ffi import core

    return core._lookup_type_attr(native_type_info(type_key).type_index, name)


def native_init(type_key: str) -> Callable[..., Any]:
    """The ``__ffi_init__`` type attribute, called with ``KWARGS`` for keywords."""
    from tvm_ffi import core

    init = native_type_attr(type_key, "__ffi_init__")

    def call(*args: Any, **kwargs: Any) -> Any:
        tail = [core.KWARGS, *(x for item in kwargs.items() for x in item)] if kwargs else []
        return init(*args, *tail)

    return call


def native_new(type_key: str) -> Any:
    """An object from the ``__ffi_new__`` allocator (fields hold their C++ defaults)."""
    return native_type_attr(type_key, "__ffi_new__")()


def environment_with_path_first(folder: Path) -> dict[str, str]:
    """This process's environment with ``folder`` first on ``PYTHONPATH``: packages installed
    there (``pip install --target``) shadow those of site-packages in a child interpreter."""
    paths = [str(folder), *filter(None, [os.environ.get("PYTHONPATH")])]
    return dict(os.environ, PYTHONPATH=os.pathsep.join(paths))


@pytest.fixture
def run_python(tmp_path: Path) -> RunPython:
    """Run ``python <args>`` in a fresh interpreter outside the source tree."""

    def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
        full_env = dict(os.environ)
        full_env.update(env or {})
        return subprocess.run(
            [sys.executable, *args],
            cwd=tmp_path,
            env=full_env,
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
        )

    return run


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory):
    """A fresh ``$TVM_FFI_CACHE_DIR`` (tvm_ffi.cpp's build cache) for one test module."""
    path = tmp_path_factory.mktemp("tvm_ffi_cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TVM_FFI_CACHE_DIR", str(path))
        yield path


@pytest.fixture(scope="session")
def config_script() -> str:
    """Path of the installed ``tvm-ffi-config`` console script."""
    candidate = Path(sys.executable).parent / "tvm-ffi-config"
    if candidate.exists():
        return str(candidate)
    import shutil

    found = shutil.which("tvm-ffi-config")
    if found is None:
        pytest.fail("tvm-ffi-config is not installed next to the interpreter nor on PATH")
    return found

# SPDX-License-Identifier: Apache-2.0
"""Smoke-test an installed ``apache-tvm-ffi`` wheel (scripts/build_wheels.sh runs it).

Usage: ``VENV/bin/python scripts/smoke_wheel.py VERSION [WHEEL_TAG]``, from outside the
checkout, so that ``tvm_ffi`` is the installed package. It checks that the package imports from
the interpreter's own environment with version ``VERSION`` (and, given, that pip recorded
``WHEEL_TAG``, the repaired wheel's platform tag), calls a ``testing.*`` function, round-trips a
NumPy array through DLPack when NumPy is installed, and that a C++ error arrives as the Python
exception with its C++ frame. Prints one line per check; any failure raises.
"""

from __future__ import annotations

import sys
import traceback
from importlib import metadata
from pathlib import Path


def _check_import(version: str, wheel_tag: str | None) -> None:
    import tvm_ffi

    location = Path(tvm_ffi.__file__).resolve()
    if Path(sys.prefix).resolve() not in location.parents:
        raise AssertionError(f"tvm_ffi imported from {location}, not from {sys.prefix}")
    if tvm_ffi.__version__ != version:
        raise AssertionError(f"tvm_ffi.__version__ is {tvm_ffi.__version__}, expected {version}")
    tags = [
        line.split(":", 1)[1].strip()
        for line in metadata.distribution("apache-tvm-ffi").read_text("WHEEL").splitlines()
        if line.startswith("Tag:")
    ]
    if wheel_tag is not None and not any(tag.endswith(f"-{wheel_tag}") for tag in tags):
        raise AssertionError(f"the installed wheel has tags {tags}, not the {wheel_tag} one")
    print(f"smoke: import tvm_ffi {tvm_ffi.__version__} from {location.parent} ({', '.join(tags)})")


def _check_testing_call() -> None:
    import tvm_ffi

    echo = tvm_ffi.get_global_func("testing.echo")
    value = echo(tvm_ffi.convert([1, "two", 3.0]))
    if list(value) != [1, "two", 3.0]:
        raise AssertionError(f"testing.echo returned {value!r}")
    print(f"smoke: testing.echo returned {value!r}")


def _check_numpy_round_trip() -> None:
    try:
        import numpy as np
    except ImportError:
        print("smoke: numpy is not installed: no NumPy round trip")
        return
    import tvm_ffi

    array = np.arange(12, dtype="float32").reshape(3, 4)
    tensor = tvm_ffi.get_global_func("testing.echo")(tvm_ffi.from_dlpack(array))
    back = np.from_dlpack(tensor)
    if back.shape != array.shape or back.dtype != array.dtype or not (back == array).all():
        raise AssertionError(f"NumPy round trip gave {back!r}")
    if back.ctypes.data != array.ctypes.data:
        raise AssertionError("the NumPy round trip copied the data")
    shape = list(tensor.shape)
    print(f"smoke: NumPy {np.__version__} round trip of a {tensor.dtype}{shape} tensor")


def _check_cpp_error() -> None:
    import tvm_ffi

    raise_error = tvm_ffi.get_global_func("testing.test_raise_error")
    try:
        raise_error("ValueError", "smoke boom")
    except ValueError as error:
        if "smoke boom" not in str(error):
            raise AssertionError(f"the error says {error!s}") from error
        frames = traceback.extract_tb(error.__traceback__)
        cpp_frames = [frame for frame in frames if "tvm::ffi" in (frame.name or "")]
        if not cpp_frames:
            raise AssertionError(f"no C++ frame in the traceback: {frames}") from error
        print(f"smoke: ValueError from C++, raised in {cpp_frames[-1].name}")
        return
    raise AssertionError("testing.test_raise_error did not raise")


def main(argv: list[str]) -> int:
    """Run every check; the arguments are VERSION and optionally WHEEL_TAG."""
    if len(argv) not in (1, 2):
        print(__doc__, file=sys.stderr)
        return 2
    _check_import(argv[0], argv[1] if len(argv) == 2 else None)
    _check_testing_call()
    _check_numpy_round_trip()
    _check_cpp_error()
    print("smoke: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

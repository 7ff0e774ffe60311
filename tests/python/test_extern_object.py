# SPDX-License-Identifier: Apache-2.0
"""A reflected object type from a separately compiled library, built like a user would."""

from __future__ import annotations

import ctypes
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import tvm_ffi

pytestmark = pytest.mark.compiles

EXTLIB_SOURCE = r"""
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/registry.h>

#include <cstdint>

namespace extlib {
namespace ffi = tvm::ffi;
namespace refl = tvm::ffi::reflection;

class PointObj : public ffi::Object {
 public:
  int64_t x;
  int64_t y;
  PointObj(int64_t x, int64_t y) : x(x), y(y) {}
  int64_t Norm1() const { return (x < 0 ? -x : x) + (y < 0 ? -y : y); }

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("extlib.Point", PointObj, ffi::Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<PointObj>()
      .def_ro("x", &PointObj::x)
      .def_rw("y", &PointObj::y)
      .def(refl::init<int64_t, int64_t>())
      .def("norm1", &PointObj::Norm1);
  refl::GlobalDef().def("extlib.make_point", [](int64_t x, int64_t y) {
    return ffi::ObjectRef(ffi::make_object<PointObj>(x, y));
  });
}
}  // namespace extlib
"""


def _config(*flags: str) -> list[str]:
    out = subprocess.run(
        [sys.executable, "-m", "tvm_ffi.config", *flags],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return shlex.split(out)


@pytest.fixture(scope="module")
def extlib(tmp_path_factory: pytest.TempPathFactory) -> ctypes.CDLL:
    cxx = shutil.which("g++")
    if cxx is None:
        pytest.skip("g++ is not installed; cannot compile the external library")
    build = tmp_path_factory.mktemp("extlib")
    src = build / "src.cc"
    src.write_text(EXTLIB_SOURCE)
    lib = build / "libx.so"
    cmd = [
        cxx,
        "-std=c++17",
        "-O1",
        "-shared",
        "-fPIC",
        *_config("--cxxflags"),
        str(src),
        *_config("--ldflags", "--libs"),
        "-o",
        str(lib),
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, f"{shlex.join(cmd)}\n{proc.stderr}"
    return ctypes.CDLL(str(Path(lib)))


def test_returned_object_gets_fallback_class(extlib: ctypes.CDLL) -> None:
    p = tvm_ffi.get_global_func("extlib.make_point")(3, -4)
    cls = type(p)
    assert isinstance(p, tvm_ffi.Object)
    assert cls.__qualname__ == "extlib.Point"
    assert "Auto-generated fallback class" in (cls.__doc__ or "")
    assert (p.x, p.y) == (3, -4)
    assert p.norm1() == 7


def test_register_object_constructs_through_native_init(extlib: ctypes.CDLL) -> None:
    @tvm_ffi.register_object("extlib.Point")
    class Point(tvm_ffi.Object):
        """Python side of extlib.Point."""

    p = Point(3, 4)
    assert isinstance(p, Point)
    assert (p.x, p.y) == (3, 4)
    assert p.norm1() == 7
    p.y = 7
    assert p.y == 7
    with pytest.raises(AttributeError):
        p.x = 1  # type: ignore[misc]
    assert p.x == 3
    assert repr(p) == "extlib.Point(x=3, y=7)"
    assert isinstance(tvm_ffi.get_global_func("extlib.make_point")(1, 2), Point)

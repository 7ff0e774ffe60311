# SPDX-License-Identifier: Apache-2.0
"""C++ reads and writes the fields of a ``@py_class`` object at their fixed offsets."""

from __future__ import annotations

import pytest
import tvm_ffi
import tvm_ffi.cpp
from tvm_ffi import core
from tvm_ffi.dataclasses import py_class

pytestmark = [pytest.mark.compiles, pytest.mark.usefixtures("cache_dir")]


@py_class("test.cpp.Point", eq=True)
class Point(tvm_ffi.Object):
    x: int
    y: float
    label: str
    flag: bool = False


LAYOUT_SOURCE = """
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/string.h>

#include <cstddef>

// The native layout @py_class gives Point: the object header, then the fields in order.
struct PointLayout : public tvm::ffi::Object {
  int64_t x;
  double y;
  tvm::ffi::Any label;
  bool flag;
};

tvm::ffi::Array<int64_t> point_offsets() {
  return {offsetof(PointLayout, x), offsetof(PointLayout, y), offsetof(PointLayout, label),
          offsetof(PointLayout, flag), sizeof(PointLayout)};
}

PointLayout* as_point(const tvm::ffi::ObjectRef& obj) {
  return const_cast<PointLayout*>(reinterpret_cast<const PointLayout*>(obj.get()));
}

tvm::ffi::String describe_point(tvm::ffi::ObjectRef obj) {
  PointLayout* p = as_point(obj);
  return std::to_string(p->x) + "/" + std::to_string(static_cast<int>(p->y)) + "/" +
         p->label.cast<tvm::ffi::String>().operator std::string() + (p->flag ? "/on" : "/off");
}

tvm::ffi::ObjectRef scale_point(tvm::ffi::ObjectRef obj, int64_t factor) {
  PointLayout* p = as_point(obj);
  p->x *= factor;
  p->y *= static_cast<double>(factor);
  p->label = tvm::ffi::String("scaled");
  p->flag = true;
  return obj;
}
"""


@pytest.fixture(scope="module")
def layout_module():
    return tvm_ffi.cpp.load_inline(
        "py_class_layout",
        cpp_sources=LAYOUT_SOURCE,
        functions=["point_offsets", "describe_point", "scale_point"],
    )


def test_registered_offsets_match_the_cpp_struct(layout_module):
    info = core._type_cls_to_type_info(Point)
    offsets = [f.offset for f in info.fields] + [info.total_size]
    assert list(layout_module.point_offsets()) == offsets


def test_cpp_reads_fields_set_in_python(layout_module):
    point = Point(3, 4.0, "a label long enough to live on the heap")
    assert layout_module.describe_point(point) == (
        "3/4/a label long enough to live on the heap/off"
    )


def test_cpp_writes_fields_python_reads_back(layout_module):
    point = Point(3, 4.5, "p", flag=False)
    returned = layout_module.scale_point(point, 2)
    assert returned.same_as(point)
    assert (point.x, point.y, point.label, point.flag) == (6, 9.0, "scaled", True)
    assert returned == Point(6, 9.0, "scaled", True)

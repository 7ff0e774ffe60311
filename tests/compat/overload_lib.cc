// SPDX-License-Identifier: Apache-2.0
// overload_lib.cc: an object type with overloaded constructors, methods and static methods
// (reflection/overload.h), built against either header set. test_overload.py compares what
// each build records in the type's reflection, and reads it with either Python package.
// OVERLOAD_PREFIX (a string literal) starts the type key, so that both builds load together.
// Apache's OverloadObjectDef (0.1.15.post2) does not compile with a doc string argument, so the
// docs are passed only when OVERLOAD_DOCS is defined (our headers), and the overloaded global
// functions (OverloadGlobalDef, ours only) are defined only when OVERLOAD_GLOBALS is.
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/overload.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <string>

#ifndef OVERLOAD_PREFIX
#define OVERLOAD_PREFIX "overload_lib"
#endif

#ifdef OVERLOAD_DOCS
#define WITH_DOC(doc) , doc
#else
#define WITH_DOC(doc)
#endif

namespace overload_lib {

using tvm::ffi::Array;
using tvm::ffi::Object;
using tvm::ffi::String;

/// A number with a label; every way of building or combining it is an overload.
class CounterObj : public Object {
 public:
  int64_t value;
  String label;
  explicit CounterObj(int64_t v) : value(v), label("int") {}
  explicit CounterObj(String s) : value(static_cast<int64_t>(s.size())), label(s) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL(OVERLOAD_PREFIX ".Counter", CounterObj, Object);
};

int64_t AddInt(const CounterObj* self, int64_t x) { return self->value + x; }
String AddText(const CounterObj* self, String s) { return std::string(self->label) + s; }
int64_t AddPair(const CounterObj* self, int64_t x, int64_t y) { return self->value + x * y; }
double ScaleFloat(const CounterObj* self, double f) { return static_cast<double>(self->value) * f; }
int64_t ScaleInt(const CounterObj* self, int64_t f) { return self->value * f; }
String DescribeInt(int64_t x) { return "int " + std::to_string(x); }
String DescribeText(String s) { return "str " + std::string(s); }
String DescribeArray(Array<int64_t> a) { return "array of " + std::to_string(a.size()); }
int64_t ZeroNone() { return 0; }
int64_t ZeroLike(int64_t x) { return x - x; }
int64_t Twice(const CounterObj* self) { return 2 * self->value; }

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = tvm::ffi::reflection;
  refl::OverloadObjectDef<CounterObj>()
      .def_ro("value", &CounterObj::value)
      .def_ro("label", &CounterObj::label)
      .def(refl::init<int64_t>() WITH_DOC("Start at an int."))
      .def(refl::init<String>() WITH_DOC("Start at a string's length."))
      .def("add", AddInt WITH_DOC("Add an int."))
      .def("add", AddText WITH_DOC("Append to the label."))
      .def("add", AddPair WITH_DOC("Add a product."))
      .def("scale", ScaleFloat WITH_DOC("Scale by a factor."))
      .def("scale", ScaleInt WITH_DOC("Scale by a factor."))
      .def("twice", Twice WITH_DOC("Double the value."))
      .def_static("describe", DescribeInt)
      .def_static("describe", DescribeText)
      .def_static("describe", DescribeArray)
      .def_static("zero", ZeroNone WITH_DOC("Zero."))
      .def_static("zero", ZeroLike WITH_DOC("Zero of x's type."));
#ifdef OVERLOAD_GLOBALS
  refl::OverloadGlobalDef()
      .def(OVERLOAD_PREFIX ".describe", DescribeInt, "Describe an int.")
      .def(OVERLOAD_PREFIX ".describe", DescribeText)
      .def(OVERLOAD_PREFIX ".describe", DescribeArray, "Describe an array.")
      .def(OVERLOAD_PREFIX ".zero", ZeroNone)
      .def(OVERLOAD_PREFIX ".zero", ZeroLike);
#endif
}

}  // namespace overload_lib

// SPDX-License-Identifier: Apache-2.0
// cmake_pkg_demo.cc: the library of the test project that test_cmake_package.py builds into a
// wheel through tvm_ffi's CMake commands. It registers an object type and global functions under
// cmake_pkg_demo., one of them in the nested namespace cmake_pkg_demo.text.
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <string>

namespace cmake_pkg_demo {

namespace ffi = tvm::ffi;
namespace refl = tvm::ffi::reflection;

/// A counter that starts at `start` and grows by `step` on each Tick().
class TallyObj : public ffi::Object {
 public:
  int64_t count;
  int64_t step;

  TallyObj(int64_t start, int64_t step) : count(start), step(step) {}
  int64_t Tick() { return count += step; }

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("cmake_pkg_demo.Tally", TallyObj, ffi::Object);
};

/// Sum of a and b; a negative total is an error.
int64_t AddChecked(int64_t a, int64_t b) {
  if (a + b < 0) {
    TVM_FFI_THROW(ValueError) << "add_checked: " << a << " + " << b << " is negative";
  }
  return a + b;
}

/// `text` repeated `times` times.
ffi::String Repeat(const ffi::String& text, int64_t times) {
  std::string piece(text), out;
  for (int64_t i = 0; i < times; ++i) out += piece;
  return ffi::String(out);
}

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<TallyObj>()
      .def(refl::init<int64_t, int64_t>())
      .def_rw("count", &TallyObj::count, "The current value.")
      .def_ro("step", &TallyObj::step, "What Tick adds.")
      .def("tick", &TallyObj::Tick, "Add the step and return the new count.");
  refl::GlobalDef()
      .def("cmake_pkg_demo.add_checked", AddChecked, "Sum of a and b; a negative one fails.")
      .def("cmake_pkg_demo.text.repeat", Repeat, "The text repeated.");
}

}  // namespace cmake_pkg_demo

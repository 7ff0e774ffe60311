// SPDX-License-Identifier: Apache-2.0
// compat_lib.cc: a kernel-author style library that builds against every TVM FFI 0.1.x header set.
//
// Uses only C++ API present since 0.1.0, so the same file compiles against our headers and
// against the headers of each Apache release; tests/python/test_binary_compat.py loads it from
// tests/compat/driver.cc on a runtime built from the other side.
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <string>

namespace compat {

/// A dynamic object type declared by the library itself; the runtime assigns its index.
class MyObj : public tvm::ffi::Object {
 public:
  int64_t value;
  explicit MyObj(int64_t v) : value(v) {}
  TVM_FFI_DECLARE_OBJECT_INFO("compat.MyObj", MyObj, tvm::ffi::Object);
};

int64_t AddOne(int64_t x) { return x + 1; }

tvm::ffi::String Greet(tvm::ffi::String name) {
  return tvm::ffi::String("hello, " + std::string(name.data(), name.size()));
}

int64_t CheckPositive(int64_t x) {
  if (x <= 0) {
    TVM_FFI_THROW(ValueError) << "expected a positive value, got " << x;
  }
  return x;
}

/// Calls back into the host twice: f(f(x)).
int64_t ApplyTwice(tvm::ffi::Function f, int64_t x) {
  int64_t once = f(x).cast<int64_t>();
  return f(once).cast<int64_t>();
}

tvm::ffi::ObjectRef MakeObj(int64_t value) {
  return tvm::ffi::ObjectRef(tvm::ffi::make_object<MyObj>(value));
}

/// Reads the field back; fails with TypeError when the argument is not a MyObj.
int64_t ObjValue(tvm::ffi::ObjectRef obj) {
  const MyObj* ptr = obj.as<MyObj>();
  if (ptr == nullptr) {
    TVM_FFI_THROW(TypeError) << "expected 'compat.MyObj'";
  }
  return ptr->value;
}

}  // namespace compat

TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_one, compat::AddOne);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(greet, compat::Greet);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(check_positive, compat::CheckPositive);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(apply_twice, compat::ApplyTwice);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(make_obj, compat::MakeObj);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(obj_value, compat::ObjValue);

TVM_FFI_STATIC_INIT_BLOCK() {
  tvm::ffi::reflection::GlobalDef().def("compat.mul",
                                        [](int64_t a, int64_t b) -> int64_t { return a * b; });
}

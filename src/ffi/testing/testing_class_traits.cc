// SPDX-License-Identifier: Apache-2.0
// testing_class_traits.cc: testing.* object types whose C++ class limits what reflection offers:
// one that cannot be copied, and one registered with no reflection at all.
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstdint>

namespace tvm {
namespace ffi {
namespace testing {

/// testing.TestNonCopyable: no copy constructor, hence no shallow copy and no creator.
class TestNonCopyableObj : public Object {
 public:
  int64_t value;
  explicit TestNonCopyableObj(int64_t value) : value(value) {}
  TestNonCopyableObj(const TestNonCopyableObj&) = delete;
  TestNonCopyableObj& operator=(const TestNonCopyableObj&) = delete;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestNonCopyable", TestNonCopyableObj, Object);
};

/// testing.TestFrozenCxx: fields that are never reflected (frontends wrap it as a frozen class).
class TestFrozenCxxObj : public Object {
 public:
  int64_t value = 0;
  String tag;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestFrozenCxx", TestFrozenCxxObj, Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = reflection;
  refl::ObjectDef<TestNonCopyableObj>()
      .def(refl::init<int64_t>())
      .def_ro("value", &TestNonCopyableObj::value);
  // Registers the type key alone.
  TestFrozenCxxObj::_GetOrAllocRuntimeTypeIndex();
}

}  // namespace testing
}  // namespace ffi
}  // namespace tvm

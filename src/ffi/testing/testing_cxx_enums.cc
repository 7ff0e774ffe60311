// SPDX-License-Identifier: Apache-2.0
// testing_cxx_enums.cc: testing.TestCxxIntEnum and testing.TestCxxStrEnum, native enum classes
// with no members (frontends define them), and testing.TestCxxEnumHolder, which holds one of each.
#include <tvm/ffi/enum.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/registry.h>

namespace tvm {
namespace ffi {
namespace testing {

/// testing.TestCxxIntEnum: an IntEnum class; not constructible.
class TestCxxIntEnumObj : public IntEnumObj {
 public:
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestCxxIntEnum", TestCxxIntEnumObj, IntEnumObj);
};

/// Reference to a TestCxxIntEnumObj member.
class TestCxxIntEnum : public IntEnum {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(TestCxxIntEnum, IntEnum, TestCxxIntEnumObj);
};

/// testing.TestCxxStrEnum: a StrEnum class; not constructible.
class TestCxxStrEnumObj : public StrEnumObj {
 public:
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestCxxStrEnum", TestCxxStrEnumObj, StrEnumObj);
};

/// Reference to a TestCxxStrEnumObj member.
class TestCxxStrEnum : public StrEnum {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(TestCxxStrEnum, StrEnum, TestCxxStrEnumObj);
};

/// testing.TestCxxEnumHolder: a member of each enum, both required by `__ffi_init__`.
class TestCxxEnumHolderObj : public Object {
 public:
  TestCxxIntEnum priority;
  TestCxxStrEnum opcode;
  // The creator's object holds null members until they are set.
  explicit TestCxxEnumHolderObj(UnsafeInit) : priority(UnsafeInit{}), opcode(UnsafeInit{}) {}
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCxxEnumHolder", TestCxxEnumHolderObj, Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = reflection;
  refl::ObjectDef<TestCxxIntEnumObj>(refl::init(false)).def_convert<TestCxxIntEnum>();
  refl::ObjectDef<TestCxxStrEnumObj>(refl::init(false)).def_convert<TestCxxStrEnum>();
  refl::ObjectDef<TestCxxEnumHolderObj>()
      .def_rw("priority", &TestCxxEnumHolderObj::priority)
      .def_rw("opcode", &TestCxxEnumHolderObj::opcode);
}

}  // namespace testing
}  // namespace ffi
}  // namespace tvm

// SPDX-License-Identifier: Apache-2.0
// testing_enum.cc: testing.TestEnumVariant, a native enum with two members carrying an attribute,
// and testing.enum_variant_get, which looks a member up by name.
#include <tvm/ffi/enum.h>
#include <tvm/ffi/reflection/enum_def.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

namespace tvm {
namespace ffi {
namespace testing {

/// testing.TestEnumVariant: members Alpha (code 10) and Beta (code 20); not constructible.
class TestEnumVariantObj : public EnumObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestEnumVariant", TestEnumVariantObj, EnumObj);
};

/// Reference to a testing.TestEnumVariant member: what its `__ffi_convert__` accepts and returns.
class TestEnumVariant : public Enum {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(TestEnumVariant, Enum, TestEnumVariantObj);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = reflection;
  // Metadata, `__ffi_new__`, `__ffi_shallow_copy__` and finality as for any reflected type; the
  // members come from EnumDef, so no generated `__ffi_init__`.
  refl::ObjectDef<TestEnumVariantObj>(refl::init(false)).def_convert<TestEnumVariant>();
  refl::EnumDef<TestEnumVariantObj>("Alpha").set_attr("code", 10);
  refl::EnumDef<TestEnumVariantObj>("Beta").set_attr("code", 20);
  refl::GlobalDef().def("testing.enum_variant_get", [](const String& name) {
    return EnumObj::_GetByStrIndex<TestEnumVariantObj>(name);
  });
}

}  // namespace testing
}  // namespace ffi
}  // namespace tvm

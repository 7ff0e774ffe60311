// SPDX-License-Identifier: Apache-2.0
// test_ffi_init.cc: ffi._RegisterFFIInit and the generated field-by-field `__ffi_init__`
// (positional and KWARGS binding, defaults, kw_only, init(false), inheritance, errors).
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <string>

#include "test_utils.h"

namespace tvm_ffi_ffi_init_test {

using namespace tvm::ffi;  // NOLINT(*)
namespace refl = tvm::ffi::reflection;
using tvm_ffi_test::ErrorText;

/// Fields only: two positional (one defaulted), two keyword-only, one outside init.
class InitMixedObj : public Object {
 public:
  int64_t p_required = 0;
  int64_t p_default = 0;
  int64_t k_required = 0;
  String k_default;
  int64_t hidden = 1234;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.init.Mixed", InitMixedObj, Object);
};

class InitParentObj : public Object {
 public:
  int64_t parent_required = 0;
  int64_t parent_default = 0;
  static constexpr bool _type_mutable = true;
  static constexpr uint32_t _type_child_slots = 1;
  TVM_FFI_DECLARE_OBJECT_INFO("test.init.Parent", InitParentObj, Object);
};

class InitChildObj : public InitParentObj {
 public:
  int64_t child_required = 0;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.init.Child", InitChildObj, InitParentObj);
};

/// Opts out of the generated initializer with ObjectDef(init(false)).
class InitOptOutObj : public Object {
 public:
  int64_t x = 0;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.init.OptOut", InitOptOutObj, Object);
};

/// Has an explicit constructor, which the generated one must not replace.
class InitExplicitObj : public Object {
 public:
  int64_t x = 0;
  InitExplicitObj() = default;
  explicit InitExplicitObj(int64_t v) : x(v * 100) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.init.Explicit", InitExplicitObj, Object);
};

/// Registered without ObjectDef's help: metadata and a field through the C API only.
class InitManualObj : public Object {
 public:
  int64_t x = 0;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.init.Manual", InitManualObj, Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<InitMixedObj>()
      .def_rw("p_required", &InitMixedObj::p_required)
      .def_rw("p_default", &InitMixedObj::p_default, refl::DefaultValue(11))
      .def_rw("k_required", &InitMixedObj::k_required, refl::kw_only(true))
      .def_rw("k_default", &InitMixedObj::k_default, refl::kw_only(true),
              refl::DefaultValue(String("kd")))
      .def_rw("hidden", &InitMixedObj::hidden, refl::init(false));
  refl::ObjectDef<InitParentObj>()
      .def_rw("parent_required", &InitParentObj::parent_required)
      .def_rw("parent_default", &InitParentObj::parent_default, refl::DefaultValue(5));
  refl::ObjectDef<InitChildObj>().def_rw("child_required", &InitChildObj::child_required);
  refl::ObjectDef<InitOptOutObj>(refl::init(false)).def_ro("x", &InitOptOutObj::x);
  refl::ObjectDef<InitExplicitObj>().def_ro("x", &InitExplicitObj::x).def(refl::init<int64_t>());
  refl::ObjectDef<InitManualObj>(refl::init(false)).def_ro("x", &InitManualObj::x);
}

/// The `__ffi_init__` type attribute of a type (None when absent).
AnyView InitAttr(int32_t type_index) {
  return refl::TypeAttrColumn(refl::type_attr::kInit)[type_index];
}

Function InitOf(int32_t type_index) { return InitAttr(type_index).cast<Function>(); }

Any Kwargs() { return Function::GetGlobalRequired("ffi.GetKwargsObject")(); }

const InitMixedObj* AsMixed(const Any& value) { return value.as<InitMixedObj>(); }

TEST(FFIInit, ObjectDefRegistersItForFieldOnlyTypes) {
  Function init = InitOf(InitMixedObj::RuntimeTypeIndex());
  Any made = init(1, Kwargs(), String("k_required"), 3);
  const InitMixedObj* obj = AsMixed(made);
  ASSERT_NE(obj, nullptr);
  EXPECT_EQ(obj->p_required, 1);
  EXPECT_EQ(obj->p_default, 11);
  EXPECT_EQ(obj->k_required, 3);
  EXPECT_EQ(obj->k_default, "kd");
  EXPECT_EQ(obj->hidden, 1234);  // init(false) without default keeps the creator's value
}

TEST(FFIInit, PositionalAndKeywordBinding) {
  Function init = InitOf(InitMixedObj::RuntimeTypeIndex());
  Any made = init(1, 2, Kwargs(), String("k_default"), String("x"), String("k_required"), 4);
  EXPECT_EQ(AsMixed(made)->p_default, 2);
  EXPECT_EQ(AsMixed(made)->k_default, "x");
  EXPECT_EQ(AsMixed(made)->k_required, 4);
  made = init(Kwargs(), String("k_required"), 7, String("p_required"), 8);
  EXPECT_EQ(AsMixed(made)->p_required, 8);
  EXPECT_EQ(AsMixed(made)->k_required, 7);
}

TEST(FFIInit, BindingErrors) {
  Function init = InitOf(InitMixedObj::RuntimeTypeIndex());
  Any kw = Kwargs();
  EXPECT_EQ(ErrorText([&] { init(1); }),
            "TypeError: test.init.Mixed.__ffi_init__() missing required keyword-only argument: "
            "'k_required'");
  EXPECT_EQ(ErrorText([&] { init(kw, String("k_required"), 1); }),
            "TypeError: test.init.Mixed.__ffi_init__() missing required argument: 'p_required'");
  EXPECT_EQ(ErrorText([&] { init(1, 2, 3); }),
            "TypeError: test.init.Mixed.__ffi_init__() takes at most 2 positional argument(s), "
            "but 3 were given");
  EXPECT_EQ(ErrorText([&] { init(1, kw, String("hidden"), 1); }),
            "TypeError: test.init.Mixed.__ffi_init__() got an unexpected keyword argument "
            "'hidden'");
  EXPECT_EQ(ErrorText([&] { init(1, kw, String("p_required"), 2); }),
            "TypeError: test.init.Mixed.__ffi_init__() got multiple values for argument "
            "'p_required'");
  EXPECT_EQ(ErrorText([&] { init(1, kw, String("k_required")); }),
            "TypeError: test.init.Mixed.__ffi_init__() KWARGS requires an even number of "
            "key-value arguments");
  std::string err = ErrorText([&] { init(String("s"), kw, String("k_required"), 1); });
  EXPECT_EQ(err.rfind("TypeError: test.init.Mixed.__ffi_init__() field 'p_required':\n  ", 0), 0u)
      << err;
  EXPECT_EQ(ErrorText([&] { init(1, kw, 5, 1); }).rfind("TypeError: ", 0), 0u);
}

TEST(FFIInit, InheritedFieldsRequiredFirst) {
  Function init = InitOf(InitChildObj::RuntimeTypeIndex());
  Any made = init(1, 2);
  const auto* obj = made.as<InitChildObj>();
  ASSERT_NE(obj, nullptr);
  EXPECT_EQ(obj->parent_required, 1);
  EXPECT_EQ(obj->child_required, 2);
  EXPECT_EQ(obj->parent_default, 5);
  made = init(1, 2, 3);
  EXPECT_EQ(made.as<InitChildObj>()->parent_default, 3);
}

TEST(FFIInit, OptOutAndExplicitInit) {
  EXPECT_EQ(InitAttr(InitOptOutObj::RuntimeTypeIndex()), nullptr);
  Any made = InitOf(InitExplicitObj::RuntimeTypeIndex())(3);
  EXPECT_EQ(made.as<InitExplicitObj>()->x, 300);
}

TEST(FFIInit, RegisterGlobalDirectly) {
  int32_t index = InitManualObj::RuntimeTypeIndex();
  EXPECT_EQ(InitAttr(index), nullptr);
  Function::GetGlobalRequired("ffi._RegisterFFIInit")(index);
  Any made = InitOf(index)(Kwargs(), String("x"), 9);
  EXPECT_EQ(made.as<InitManualObj>()->x, 9);
  EXPECT_EQ(ErrorText([] { Function::GetGlobalRequired("ffi._RegisterFFIInit")(987654); }),
            "ValueError: ffi._RegisterFFIInit: unknown type index 987654");
}

}  // namespace tvm_ffi_ffi_init_test

// SPDX-License-Identifier: Apache-2.0
// testing_cxx_init.cc: testing.* object types whose field traits (init off, keyword-only,
// defaults) shape the field-wise `__ffi_init__` reflection generates, and one type that opts out.
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstdint>

namespace tvm {
namespace ffi {
namespace testing {

/// testing.TestCxxInitSubset: only required_field is an initializer argument.
class TestCxxInitSubsetObj : public Object {
 public:
  int64_t required_field = 0;
  int64_t optional_field = -1;
  String note;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCxxInitSubset", TestCxxInitSubsetObj, Object);
};

/// testing.TestCxxKwOnly: every argument keyword-only; w defaults to 100.
class TestCxxKwOnlyObj : public Object {
 public:
  int64_t x = 0;
  int64_t y = 0;
  int64_t z = 0;
  int64_t w = 0;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCxxKwOnly", TestCxxKwOnlyObj, Object);
};

/// testing.TestCxxAutoInit: a positional, b not an argument (42), c keyword-only, d default 99.
class TestCxxAutoInitObj : public Object {
 public:
  int64_t a = 0;
  int64_t b = 0;
  int64_t c = 0;
  int64_t d = 0;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCxxAutoInit", TestCxxAutoInitObj, Object);
};

/// testing.TestCxxAutoInitSimple: two positional arguments.
class TestCxxAutoInitSimpleObj : public Object {
 public:
  int64_t x = 0;
  int64_t y = 0;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCxxAutoInitSimple", TestCxxAutoInitSimpleObj, Object);
};

/// testing.TestCxxAutoInitAllInitOff: no arguments; z keeps the value the creator gives it.
class TestCxxAutoInitAllInitOffObj : public Object {
 public:
  int64_t x = 7;
  int64_t y = 0;
  int64_t z = 1234;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCxxAutoInitAllInitOff", TestCxxAutoInitAllInitOffObj,
                              Object);
};

/// testing.TestCxxAutoInitKwOnlyDefaults: required and defaulted arguments, positional and
/// keyword-only, and hidden (not an argument, 33).
class TestCxxAutoInitKwOnlyDefaultsObj : public Object {
 public:
  int64_t p_required = 0;
  int64_t p_default = 0;
  int64_t k_required = 0;
  int64_t k_default = 0;
  int64_t hidden = 0;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCxxAutoInitKwOnlyDefaults",
                              TestCxxAutoInitKwOnlyDefaultsObj, Object);
};

/// testing.TestCxxAutoInitParent: parent_required, parent_default (5); one child slot.
class TestCxxAutoInitParentObj : public Object {
 public:
  int64_t parent_required = 0;
  int64_t parent_default = 0;
  static constexpr bool _type_mutable = true;
  static constexpr uint32_t _type_child_slots = 1;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCxxAutoInitParent", TestCxxAutoInitParentObj, Object);
};

/// testing.TestCxxAutoInitChild: adds child_required and keyword-only child_kw_only.
class TestCxxAutoInitChildObj : public TestCxxAutoInitParentObj {
 public:
  int64_t child_required = 0;
  int64_t child_kw_only = 0;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestCxxAutoInitChild", TestCxxAutoInitChildObj,
                                    TestCxxAutoInitParentObj);
};

/// testing.TestCxxNoAutoInit: reflected fields and a creator, but no `__ffi_init__`.
class TestCxxNoAutoInitObj : public Object {
 public:
  int64_t x = 0;
  int64_t y = 0;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCxxNoAutoInit", TestCxxNoAutoInitObj, Object);
};

static void RegisterInitSubsetAndKwOnly() {
  namespace refl = reflection;
  refl::ObjectDef<TestCxxInitSubsetObj>()
      .def_rw("required_field", &TestCxxInitSubsetObj::required_field)
      .def_rw("optional_field", &TestCxxInitSubsetObj::optional_field, refl::init(false),
              refl::default_value(int64_t{-1}))
      .def_rw("note", &TestCxxInitSubsetObj::note, refl::init(false),
              refl::default_value("default"));
  refl::ObjectDef<TestCxxKwOnlyObj>()
      .def_rw("x", &TestCxxKwOnlyObj::x, refl::kw_only(true))
      .def_rw("y", &TestCxxKwOnlyObj::y, refl::kw_only(true))
      .def_rw("z", &TestCxxKwOnlyObj::z, refl::kw_only(true))
      .def_rw("w", &TestCxxKwOnlyObj::w, refl::kw_only(true), refl::default_value(int64_t{100}));
}

static void RegisterAutoInit() {
  namespace refl = reflection;
  using KwDefaults = TestCxxAutoInitKwOnlyDefaultsObj;
  refl::ObjectDef<TestCxxAutoInitObj>()
      .def_rw("a", &TestCxxAutoInitObj::a)
      .def_rw("b", &TestCxxAutoInitObj::b, refl::init(false), refl::default_value(int64_t{42}))
      .def_rw("c", &TestCxxAutoInitObj::c, refl::kw_only(true))
      .def_rw("d", &TestCxxAutoInitObj::d, refl::default_value(int64_t{99}));
  refl::ObjectDef<TestCxxAutoInitSimpleObj>()
      .def_rw("x", &TestCxxAutoInitSimpleObj::x)
      .def_rw("y", &TestCxxAutoInitSimpleObj::y);
  refl::ObjectDef<TestCxxAutoInitAllInitOffObj>()
      .def_rw("x", &TestCxxAutoInitAllInitOffObj::x, refl::init(false),
              refl::default_value(int64_t{7}))
      .def_rw("y", &TestCxxAutoInitAllInitOffObj::y, refl::init(false),
              refl::default_value(int64_t{9}))
      .def_rw("z", &TestCxxAutoInitAllInitOffObj::z, refl::init(false));
  refl::ObjectDef<KwDefaults>()
      .def_rw("p_required", &KwDefaults::p_required)
      .def_rw("p_default", &KwDefaults::p_default, refl::default_value(int64_t{11}))
      .def_rw("k_required", &KwDefaults::k_required, refl::kw_only(true))
      .def_rw("k_default", &KwDefaults::k_default, refl::kw_only(true),
              refl::default_value(int64_t{22}))
      .def_rw("hidden", &KwDefaults::hidden, refl::init(false), refl::default_value(int64_t{33}));
}

static void RegisterInheritedAndDisabledInit() {
  namespace refl = reflection;
  refl::ObjectDef<TestCxxAutoInitParentObj>()
      .def_rw("parent_required", &TestCxxAutoInitParentObj::parent_required)
      .def_rw("parent_default", &TestCxxAutoInitParentObj::parent_default,
              refl::default_value(int64_t{5}));
  refl::ObjectDef<TestCxxAutoInitChildObj>()
      .def_rw("child_required", &TestCxxAutoInitChildObj::child_required)
      .def_rw("child_kw_only", &TestCxxAutoInitChildObj::child_kw_only, refl::kw_only(true));
  refl::ObjectDef<TestCxxNoAutoInitObj>(refl::init(false))
      .def_rw("x", &TestCxxNoAutoInitObj::x)
      .def_rw("y", &TestCxxNoAutoInitObj::y);
}

TVM_FFI_STATIC_INIT_BLOCK() {
  RegisterInitSubsetAndKwOnly();
  RegisterAutoInit();
  RegisterInheritedAndDisabledInit();
}

}  // namespace testing
}  // namespace ffi
}  // namespace tvm

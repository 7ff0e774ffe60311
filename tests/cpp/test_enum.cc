// SPDX-License-Identifier: Apache-2.0
// test_enum.cc: enum classes (enum.h) and the registration of their singletons (EnumDef).
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/enum.h>
#include <tvm/ffi/reflection/enum_def.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <string>

#include "test_utils.h"

namespace tvm_ffi_enum_test {

using namespace tvm::ffi;  // NOLINT(*)
namespace refl = tvm::ffi::reflection;
using tvm_ffi_test::ErrorText;

class ColorObj : public EnumObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.enum.Color", ColorObj, EnumObj);
};

class LevelObj : public IntEnumObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.enum.Level", LevelObj, IntEnumObj);
};

class ShapeKindObj : public StrEnumObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.enum.ShapeKind", ShapeKindObj, StrEnumObj);
};

/// An enum class that never registers members.
class EmptyEnumObj : public EnumObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.enum.Empty", EmptyEnumObj, EnumObj);
};

constexpr refl::AttrKey<String> kHex{"hex"};

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::EnumDef<ColorObj>("red").set_attr(kHex, "#f00").set_attr("warm", true);
  refl::EnumDef<ColorObj>("green").set_attr(kHex, "#0f0");
  refl::EnumDef<ColorObj>("blue");
  refl::EnumDef<LevelObj>("low", 10);
  refl::EnumDef<LevelObj>("high", 20);
  refl::EnumDef<ShapeKindObj>("circle");
}

EnumState StateOf(int32_t type_index) {
  return refl::TypeAttrColumn(type_attr::kEnumState.name)[type_index].cast<EnumState>();
}

TEST(Enum, MembersInOrderWithAutomaticIndices) {
  EnumState state = StateOf(ColorObj::RuntimeTypeIndex());
  ASSERT_EQ(state->entries.size(), 3);
  const char* names[] = {"red", "green", "blue"};
  for (int64_t i = 0; i < 3; ++i) {
    const auto* member = state->entries[i].as<ColorObj>();
    ASSERT_NE(member, nullptr);
    EXPECT_EQ(member->_int_index, i);
    EXPECT_EQ(member->_str_index, names[i]);
  }
}

TEST(Enum, LookupByIndexReturnsTheSingleton) {
  Enum green = EnumObj::_GetByStrIndex<ColorObj>(String("green"));
  EXPECT_EQ(green->_int_index, 1);
  EXPECT_TRUE(green.same_as(EnumObj::_GetByIntIndex<ColorObj>(1)));
  EXPECT_TRUE(green.same_as(EnumObj::_GetByIntIndex(ColorObj::RuntimeTypeIndex(), 1)));
  Enum high = EnumObj::_GetByIntIndex<LevelObj>(20);
  EXPECT_EQ(high->_str_index, "high");
  EXPECT_TRUE(high.same_as(EnumObj::_GetByStrIndex<LevelObj>(String("high"))));
  EXPECT_EQ(ErrorText([] { EnumObj::_GetByIntIndex<LevelObj>(0); }),
            "ValueError: Enum `test.enum.Level` has no instance with index 0");
  EXPECT_EQ(ErrorText([] { EnumObj::_GetByStrIndex<ColorObj>(String("pink")); }),
            "ValueError: Enum `test.enum.Color` has no instance with index pink");
  EXPECT_EQ(ErrorText([] { EnumObj::_GetByIntIndex<EmptyEnumObj>(0); }),
            "ValueError: Enum `test.enum.Empty` has no instance with index 0");
}

TEST(Enum, Attributes) {
  EnumState state = StateOf(ColorObj::RuntimeTypeIndex());
  Dict<ObjectRef, Any> hex = state->attrs.Get(String("hex")).value();
  EXPECT_EQ(hex.size(), 2);
  EXPECT_EQ(hex.Get(EnumObj::_GetByStrIndex<ColorObj>(String("red"))).value().cast<String>(),
            "#f00");
  EXPECT_EQ(hex.count(EnumObj::_GetByStrIndex<ColorObj>(String("blue"))), 0);
  Dict<ObjectRef, Any> warm = state->attrs.Get(String("warm")).value();
  EXPECT_TRUE(warm.Get(EnumObj::_GetByIntIndex<ColorObj>(0)).value().cast<bool>());
}

TEST(Enum, IsDefinedAndDuplicates) {
  EXPECT_TRUE(refl::EnumDef<ColorObj>::IsDefined(String("red")));
  EXPECT_FALSE(refl::EnumDef<ColorObj>::IsDefined(String("pink")));
  EXPECT_FALSE(refl::EnumDef<EmptyEnumObj>::IsDefined(String("red")));
  EXPECT_EQ(ErrorText([] { refl::EnumDef<LevelObj>("low", 30); }),
            "ValueError: Duplicate enum index for type `test.enum.Level`: low = 30");
  EXPECT_EQ(ErrorText([] { refl::EnumDef<LevelObj>("other", 10); }),
            "ValueError: Duplicate enum index for type `test.enum.Level`: other = 10");
  EXPECT_EQ(StateOf(LevelObj::RuntimeTypeIndex())->entries.size(), 2);
}

TEST(Enum, ReflectedValueFields) {
  Enum high = EnumObj::_GetByIntIndex<LevelObj>(20);
  EXPECT_EQ(refl::FieldGetter("ffi.IntEnum", "value")(high).cast<int64_t>(), 20);
  EXPECT_EQ(refl::FieldGetter("ffi.Enum", "_str_index")(high).cast<String>(), "high");
  Enum circle = EnumObj::_GetByIntIndex<ShapeKindObj>(0);
  EXPECT_EQ(refl::FieldGetter("ffi.StrEnum", "value")(circle).cast<String>(), "circle");
  EXPECT_EQ(TVMFFIGetTypeInfo(LevelObj::RuntimeTypeIndex())->type_depth, 3);
}

}  // namespace tvm_ffi_enum_test

// SPDX-License-Identifier: Apache-2.0
// test_type_table.cc: the type registry through the C API (docs/abi.md, 'Type indices' and
// 'Type registration').
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "test_utils.h"

namespace {

using tvm_ffi_test::ByteArray;
using tvm_ffi_test::ExpectRaised;
using tvm_ffi_test::IntCell;
using tvm_ffi_test::TakeRaised;
using tvm_ffi_test::ToStdString;

using tvm::ffi::Any;
using tvm::ffi::AnyView;
using tvm::ffi::Function;
using tvm::ffi::String;
using tvm::ffi::details::ObjectUnsafe;

std::string Key(const TVMFFITypeInfo* info) {
  return std::string(info->type_key.data, info->type_key.size);
}

int32_t Alloc(const char* key, int32_t static_index, int32_t depth, int32_t child_slots,
              int32_t can_overflow, int32_t parent) {
  TVMFFIByteArray arr = ByteArray(key);
  return TVMFFITypeGetOrAllocIndex(&arr, static_index, depth, child_slots, can_overflow, parent);
}

/// A fresh dynamic type directly under ffi.Object, without reserved child slots.
int32_t NewRootType(const char* key) { return Alloc(key, -1, 1, 0, 1, kTVMFFIObject); }

TVMFFIFieldInfo MakeField(const char* name) {
  TVMFFIFieldInfo info{};
  info.name = ByteArray(name);
  info.doc = ByteArray("");
  info.metadata = ByteArray("{}");
  info.size = 8;
  info.alignment = 8;
  info.offset = 24;
  info.default_value_or_factory.type_index = kTVMFFINone;
  info.field_static_type_index = kTVMFFIInt;
  return info;
}

const TVMFFIAny* AttrRow(const TVMFFITypeAttrColumn* column, int32_t type_index) {
  if (type_index < column->begin_index || type_index >= column->begin_index + column->size) {
    return nullptr;
  }
  return &column->data[type_index - column->begin_index];
}

// ------------------------------------------------------------------------------------------
// Index allocation (docs/abi.md, 'Type registration')
// ------------------------------------------------------------------------------------------

TEST(TypeIndexAlloc, SameKeyReturnsSameIndex) {
  int32_t first = NewRootType("test_type_table.Same");
  EXPECT_GE(first, kTVMFFIDynObjectBegin);
  EXPECT_EQ(NewRootType("test_type_table.Same"), first);
  // Once registered, nothing else is checked.
  EXPECT_EQ(Alloc("test_type_table.Same", -1, 1, 5, 0, kTVMFFIObject), first);
}

TEST(TypeIndexAlloc, QueryModeReturnsMinusTwoForUnknownKey) {
  EXPECT_EQ(Alloc("test_type_table.NeverRegistered", -1, 1, 0, 1, -2), -2);
  // The query did not register the key.
  TVMFFIByteArray key = ByteArray("test_type_table.NeverRegistered");
  int32_t index = 0;
  EXPECT_EQ(TVMFFITypeKeyToIndex(&key, &index), -1);
  ExpectRaised("ValueError", "test_type_table.NeverRegistered");
}

TEST(TypeIndexAlloc, QueryModeReturnsIndexOfKnownKey) {
  EXPECT_EQ(Alloc("ffi.String", -1, 0, 0, 0, -2), kTVMFFIStr);
  EXPECT_EQ(Alloc("int", -1, 0, 0, 0, -2), kTVMFFIInt);
  int32_t dynamic = NewRootType("test_type_table.QueryKnown");
  EXPECT_EQ(Alloc("test_type_table.QueryKnown", -1, 0, 0, 0, -2), dynamic);
}

// Upstream observes base = 138, children 139, 140, then 141 in a fresh process because it
// registers 10 dynamic types at startup; this runtime registers none yet, so the test checks
// the algorithm relative to the global counter.
TEST(TypeIndexAlloc, ReservedSlotsThenGlobalCounter) {
  // Every root-level type takes one index from the global counter (ffi.Object has no slots).
  int32_t probe_before = NewRootType("test_type_table.alloc.ProbeBefore");
  int32_t base = Alloc("test_type_table.alloc.Base", -1, 1, 2, 1, kTVMFFIObject);
  EXPECT_GE(base, kTVMFFIDynObjectBegin);
  EXPECT_EQ(base, probe_before + 1);
  EXPECT_EQ(Alloc("test_type_table.alloc.Child0", -1, 2, 0, 1, base), base + 1);
  EXPECT_EQ(Alloc("test_type_table.alloc.Child1", -1, 2, 0, 1, base), base + 2);
  // The base's range is full: the third child overflows to the counter, which the base
  // advanced by its 3 indices.
  int32_t child2 = Alloc("test_type_table.alloc.Child2", -1, 2, 0, 1, base);
  EXPECT_EQ(child2, base + 3);
  EXPECT_EQ(NewRootType("test_type_table.alloc.ProbeAfter"), child2 + 1);
}

TEST(TypeIndexAlloc, ChildWithSlotsReservesItsOwnRange) {
  int32_t base = Alloc("test_type_table.nest.Base", -1, 1, 4, 1, kTVMFFIObject);
  int32_t mid = Alloc("test_type_table.nest.Mid", -1, 2, 2, 1, base);
  EXPECT_EQ(mid, base + 1);
  // mid used base+1..base+3; the next child of base takes base+4.
  EXPECT_EQ(Alloc("test_type_table.nest.Sibling", -1, 2, 0, 1, base), base + 4);
  EXPECT_EQ(Alloc("test_type_table.nest.Grand0", -1, 3, 0, 1, mid), mid + 1);
  EXPECT_EQ(Alloc("test_type_table.nest.Grand1", -1, 3, 0, 1, mid), mid + 2);
  EXPECT_GT(Alloc("test_type_table.nest.Grand2", -1, 3, 0, 1, mid), base + 4);
}

TEST(TypeIndexAllocDeathTest, ParentWithoutOverflowRefusesExtraChildren) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  int32_t base = Alloc("test_type_table.closed.Base", -1, 1, 1, 0, kTVMFFIObject);
  EXPECT_EQ(Alloc("test_type_table.closed.Child", -1, 2, 0, 1, base), base + 1);
  EXPECT_DEATH(Alloc("test_type_table.closed.Extra", -1, 2, 0, 1, base), "overflow");
}

TEST(TypeIndexAllocDeathTest, ChildOfClosedParentInheritsNoOverflow) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  int32_t base = Alloc("test_type_table.closed2.Base", -1, 1, 1, 0, kTVMFFIObject);
  int32_t child = Alloc("test_type_table.closed2.Child", -1, 2, 0, 1, base);
  EXPECT_DEATH(Alloc("test_type_table.closed2.Grand", -1, 3, 0, 1, child), "overflow");
}

TEST(TypeIndexAlloc, UnusedStaticIndexBelow128) {
  EXPECT_EQ(Alloc("test_type_table.Static100", 100, 1, 0, 1, kTVMFFIObject), 100);
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(100);
  EXPECT_EQ(Key(info), "test_type_table.Static100");
  EXPECT_EQ(info->type_index, 100);
  TVMFFIByteArray key = ByteArray("test_type_table.Static100");
  int32_t index = 0;
  ASSERT_EQ(TVMFFITypeKeyToIndex(&key, &index), 0);
  EXPECT_EQ(index, 100);
}

// ------------------------------------------------------------------------------------------
// Type records
// ------------------------------------------------------------------------------------------

TEST(TypeInfo, AncestorsAndDepthOfDynamicTypes) {
  int32_t base = Alloc("test_type_table.anc.Base", -1, 1, 1, 1, kTVMFFIObject);
  int32_t child = Alloc("test_type_table.anc.Child", -1, 2, 0, 1, base);
  int32_t grand = Alloc("test_type_table.anc.Grand", -1, 3, 0, 1, child);
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(grand);
  EXPECT_EQ(info->type_index, grand);
  EXPECT_EQ(info->type_depth, 3);
  ASSERT_NE(info->type_ancestors, nullptr);
  EXPECT_EQ(info->type_ancestors[0], TVMFFIGetTypeInfo(kTVMFFIObject));
  EXPECT_EQ(info->type_ancestors[1], TVMFFIGetTypeInfo(base));
  EXPECT_EQ(info->type_ancestors[2], TVMFFIGetTypeInfo(child));
  EXPECT_EQ(info->type_ancestors[2]->type_index, child);
  EXPECT_EQ(TVMFFIGetTypeInfo(base)->type_depth, 1);
  EXPECT_EQ(TVMFFIGetTypeInfo(base)->type_ancestors[0]->type_index, kTVMFFIObject);
}

TEST(TypeInfo, StaticObjectTypesDescendFromObject) {
  const TVMFFITypeInfo* object = TVMFFIGetTypeInfo(kTVMFFIObject);
  EXPECT_EQ(object->type_depth, 0);
  for (int32_t index : {kTVMFFIStr, kTVMFFIError, kTVMFFIFunction, kTVMFFIArray}) {
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
    EXPECT_EQ(info->type_depth, 1) << index;
    EXPECT_EQ(info->type_ancestors[0], object) << index;
  }
}

TEST(TypeInfo, TypeKeyHashIsStdHashOfKey) {
  int32_t index = NewRootType("test_type_table.Hashed");
  EXPECT_EQ(TVMFFIGetTypeInfo(index)->type_key_hash,
            std::hash<std::string_view>()("test_type_table.Hashed"));
  EXPECT_EQ(TVMFFIGetTypeInfo(kTVMFFIStr)->type_key_hash,
            std::hash<std::string_view>()("ffi.String"));
  EXPECT_EQ(TVMFFIGetTypeInfo(kTVMFFIInt)->type_key_hash, std::hash<std::string_view>()("int"));
}

TEST(TypeInfo, AddressIsStableAcrossCallsAndRegistrations) {
  int32_t index = NewRootType("test_type_table.Stable");
  const TVMFFITypeInfo* first = TVMFFIGetTypeInfo(index);
  const TVMFFITypeInfo* object = TVMFFIGetTypeInfo(kTVMFFIObject);
  for (int i = 0; i < 300; ++i) {
    std::string key = "test_type_table.StableFiller" + std::to_string(i);
    NewRootType(key.c_str());
  }
  EXPECT_EQ(TVMFFIGetTypeInfo(index), first);
  EXPECT_EQ(TVMFFIGetTypeInfo(kTVMFFIObject), object);
  EXPECT_EQ(Key(first), "test_type_table.Stable");
}

TEST(TypeInfo, PodKeysAreRegistered) {
  const std::vector<std::string> keys = {"None",
                                         "int",
                                         "bool",
                                         "float",
                                         "void*",
                                         "DataType",
                                         "Device",
                                         "DLTensor*",
                                         "const char*",
                                         "TVMFFIByteArray*",
                                         "ObjectRValueRef",
                                         "ffi.SmallStr",
                                         "ffi.SmallBytes"};
  for (int32_t index = 0; index <= kTVMFFISmallBytes; ++index) {
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
    EXPECT_EQ(info->type_index, index);
    EXPECT_EQ(Key(info), keys[static_cast<size_t>(index)]) << index;
  }
}

TEST(TypeInfo, KeyToIndexOfStaticKeys) {
  const std::vector<std::pair<const char*, int32_t>> keys = {
      {"None", kTVMFFINone},
      {"int", kTVMFFIInt},
      {"ffi.SmallBytes", kTVMFFISmallBytes},
      {"ffi.Object", kTVMFFIObject},
      {"ffi.String", kTVMFFIStr},
      {"ffi.Bytes", kTVMFFIBytes},
      {"ffi.Error", kTVMFFIError},
      {"ffi.Function", kTVMFFIFunction},
      {"ffi.Shape", kTVMFFIShape},
      {"ffi.Tensor", kTVMFFITensor},
      {"ffi.Array", kTVMFFIArray},
      {"ffi.Map", kTVMFFIMap},
      {"ffi.Module", kTVMFFIModule},
      {"ffi.OpaquePyObject", kTVMFFIOpaquePyObject},
      {"ffi.List", kTVMFFIList},
      {"ffi.Dict", kTVMFFIDict},
      {"ffi.VisitInterrupt", kTVMFFIVisitInterrupt}};
  for (const auto& [key, expected] : keys) {
    TVMFFIByteArray arr = ByteArray(key);
    int32_t index = -100;
    ASSERT_EQ(TVMFFITypeKeyToIndex(&arr, &index), 0) << key;
    EXPECT_EQ(index, expected) << key;
  }
}

// ------------------------------------------------------------------------------------------
// Fields, methods and metadata
// ------------------------------------------------------------------------------------------

TEST(TypeRegisterField, CopiesStrings) {
  int32_t index = NewRootType("test_type_table.field.Copy");
  char name[] = "alpha";
  char doc[] = "the alpha field";
  TVMFFIFieldInfo field = MakeField(name);
  field.doc = ByteArray(doc);
  ASSERT_EQ(TVMFFITypeRegisterField(index, &field), 0);
  std::memset(name, 'z', sizeof(name) - 1);
  std::memset(doc, 'z', sizeof(doc) - 1);
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
  ASSERT_EQ(info->num_fields, 1);
  EXPECT_EQ(ToStdString(info->fields[0].name), "alpha");
  EXPECT_EQ(ToStdString(info->fields[0].doc), "the alpha field");
  EXPECT_EQ(ToStdString(info->fields[0].metadata), "{}");
  EXPECT_EQ(info->fields[0].offset, 24);
  EXPECT_EQ(info->fields[0].field_static_type_index, kTVMFFIInt);
}

TEST(TypeRegisterField, NumFieldsGrows) {
  int32_t index = NewRootType("test_type_table.field.Grow");
  const char* names[] = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"};
  for (int i = 0; i < 10; ++i) {
    TVMFFIFieldInfo field = MakeField(names[i]);
    ASSERT_EQ(TVMFFITypeRegisterField(index, &field), 0);
    EXPECT_EQ(TVMFFIGetTypeInfo(index)->num_fields, i + 1);
  }
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(ToStdString(info->fields[i].name), names[i]);
}

TEST(TypeRegisterField, DuplicateNameFails) {
  int32_t index = NewRootType("test_type_table.field.Dup");
  TVMFFIFieldInfo field = MakeField("x");
  ASSERT_EQ(TVMFFITypeRegisterField(index, &field), 0);
  EXPECT_EQ(TVMFFITypeRegisterField(index, &field), -1);
  ExpectRaised("RuntimeError", "'x'");
  EXPECT_EQ(TVMFFIGetTypeInfo(index)->num_fields, 1);
}

TEST(TypeRegisterField, KeepsDefaultValueWhenHasDefault) {
  int32_t index = NewRootType("test_type_table.field.Default");
  String text("a default longer than seven bytes");
  TVMFFIFieldInfo field = MakeField("with_default");
  field.flags = kTVMFFIFieldFlagBitMaskHasDefault;
  field.default_value_or_factory = AnyView(text).CopyToTVMFFIAny();
  EXPECT_EQ(field.default_value_or_factory.type_index, kTVMFFIStr);
  ASSERT_EQ(TVMFFITypeRegisterField(index, &field), 0);
  const TVMFFIAny& kept = TVMFFIGetTypeInfo(index)->fields[0].default_value_or_factory;
  EXPECT_EQ(kept.type_index, kTVMFFIStr);
  EXPECT_EQ(kept.v_obj, field.default_value_or_factory.v_obj);
  EXPECT_EQ(AnyView::CopyFromTVMFFIAny(kept).cast<String>(), "a default longer than seven bytes");
  // The registry holds its own reference: it outlives `text`.
  EXPECT_EQ(static_cast<TVMFFIObject*>(kept.v_obj)->combined_ref_count & 0xFFFFFFFFu, 2u);
}

TEST(TypeRegisterField, KeepsIntDefault) {
  int32_t index = NewRootType("test_type_table.field.IntDefault");
  TVMFFIFieldInfo field = MakeField("n");
  field.flags = kTVMFFIFieldFlagBitMaskHasDefault;
  field.default_value_or_factory = IntCell(17);
  ASSERT_EQ(TVMFFITypeRegisterField(index, &field), 0);
  const TVMFFIAny& kept = TVMFFIGetTypeInfo(index)->fields[0].default_value_or_factory;
  EXPECT_EQ(kept.type_index, kTVMFFIInt);
  EXPECT_EQ(kept.v_int64, 17);
}

TEST(TypeRegisterField, ShadowingAnAncestorFieldIsAllowed) {
  int32_t base = Alloc("test_type_table.field.ShadowBase", -1, 1, 1, 1, kTVMFFIObject);
  int32_t child = Alloc("test_type_table.field.ShadowChild", -1, 2, 0, 1, base);
  TVMFFIFieldInfo field = MakeField("shared");
  ASSERT_EQ(TVMFFITypeRegisterField(base, &field), 0);
  EXPECT_EQ(TVMFFITypeRegisterField(child, &field), 0);
  EXPECT_EQ(TVMFFIGetTypeInfo(child)->num_fields, 1);
}

TEST(TypeRegisterField, KeepsFunctionSetterAlive) {
  int32_t index = NewRootType("test_type_table.field.Setter");
  Function setter = Function::FromPacked([](tvm::ffi::PackedArgs, Any*) {});
  TVMFFIFieldInfo field = MakeField("set_by_function");
  field.flags = kTVMFFIFieldFlagBitMaskWritable | kTVMFFIFieldFlagBitSetterIsFunctionObj;
  field.setter = ObjectUnsafe::GetHeader(setter);
  ASSERT_EQ(TVMFFITypeRegisterField(index, &field), 0);
  EXPECT_EQ(setter.use_count(), 2);
  EXPECT_EQ(TVMFFIGetTypeInfo(index)->fields[0].setter, ObjectUnsafe::GetHeader(setter));
}

TEST(TypeRegisterField, UnknownTypeIndexFails) {
  TVMFFIFieldInfo field = MakeField("x");
  EXPECT_EQ(TVMFFITypeRegisterField(20000, &field), -1);
  EXPECT_TRUE(TakeRaised().has_value());
}

TEST(TypeRegisterMethod, CopiesAndKeepsFunctionAlive) {
  int32_t index = NewRootType("test_type_table.method.Keep");
  Function func = Function::FromTyped([](int64_t x) { return x * 2; });
  EXPECT_EQ(func.use_count(), 1);
  char name[] = "twice";
  TVMFFIMethodInfo method{};
  method.name = ByteArray(name);
  method.doc = ByteArray("doubles");
  method.metadata = ByteArray("{}");
  method.flags = kTVMFFIFieldFlagBitMaskIsStaticMethod;
  method.method = AnyView(func).CopyToTVMFFIAny();
  ASSERT_EQ(TVMFFITypeRegisterMethod(index, &method), 0);
  std::memset(name, 'z', sizeof(name) - 1);
  EXPECT_EQ(func.use_count(), 2);
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
  ASSERT_EQ(info->num_methods, 1);
  EXPECT_EQ(ToStdString(info->methods[0].name), "twice");
  EXPECT_EQ(ToStdString(info->methods[0].doc), "doubles");
  EXPECT_EQ(info->methods[0].flags, kTVMFFIFieldFlagBitMaskIsStaticMethod);
  EXPECT_EQ(info->methods[0].method.v_obj, ObjectUnsafe::GetHeader(func));
  Function kept = AnyView::CopyFromTVMFFIAny(info->methods[0].method).cast<Function>();
  EXPECT_EQ(kept(21).cast<int64_t>(), 42);
}

TEST(TypeRegisterMetadata, RegisteredOnce) {
  int32_t index = NewRootType("test_type_table.meta.Once");
  EXPECT_EQ(TVMFFIGetTypeInfo(index)->metadata, nullptr);
  char doc[] = "documented";
  TVMFFITypeMetadata metadata{};
  metadata.doc = ByteArray(doc);
  metadata.total_size = 32;
  metadata.structural_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  ASSERT_EQ(TVMFFITypeRegisterMetadata(index, &metadata), 0);
  std::memset(doc, 'z', sizeof(doc) - 1);
  const TVMFFITypeMetadata* kept = TVMFFIGetTypeInfo(index)->metadata;
  ASSERT_NE(kept, nullptr);
  EXPECT_EQ(ToStdString(kept->doc), "documented");
  EXPECT_EQ(kept->total_size, 32);
  EXPECT_EQ(kept->structural_eq_hash_kind, kTVMFFISEqHashKindTreeNode);
  EXPECT_EQ(kept->creator, nullptr);
}

TEST(TypeRegisterMetadata, SecondRegistrationFails) {
  int32_t index = NewRootType("test_type_table.meta.Twice");
  TVMFFITypeMetadata metadata{};
  metadata.doc = ByteArray("first");
  ASSERT_EQ(TVMFFITypeRegisterMetadata(index, &metadata), 0);
  metadata.doc = ByteArray("second");
  EXPECT_EQ(TVMFFITypeRegisterMetadata(index, &metadata), -1);
  ExpectRaised("RuntimeError", "test_type_table.meta.Twice");
  EXPECT_EQ(ToStdString(TVMFFIGetTypeInfo(index)->metadata->doc), "first");
}

// ------------------------------------------------------------------------------------------
// Attribute columns
// ------------------------------------------------------------------------------------------

TEST(TypeAttrColumn, UnknownColumnIsNull) {
  TVMFFIByteArray name = ByteArray("__test_type_table_no_such_column__");
  EXPECT_EQ(TVMFFIGetTypeAttrColumn(&name), nullptr);
}

TEST(TypeAttrColumn, StartupColumnsExist) {
  for (const char* column :
       {"__any_hash__", "__any_equal__", "__ffi_enum__", "__s_equal__", "__s_hash__", "__s_visit__",
        "__ffi_shallow_copy__", "__ffi_repr__", "__ffi_hash__", "__ffi_eq__", "__ffi_compare__",
        "__ffi_new__", "__ffi_init__", "__ffi_convert__", "__data_to_json__",
        "__data_from_json__"}) {
    TVMFFIByteArray name = ByteArray(column);
    EXPECT_NE(TVMFFIGetTypeAttrColumn(&name), nullptr) << column;
  }
}

TEST(TypeAttrColumn, TypeIndexZeroOnlyCreatesTheColumn) {
  TVMFFIByteArray name = ByteArray("__test_type_table_ensure__");
  ASSERT_EQ(TVMFFIGetTypeAttrColumn(&name), nullptr);
  TVMFFIAny none = IntCell(0);
  none.type_index = kTVMFFINone;
  ASSERT_EQ(TVMFFITypeRegisterAttr(kTVMFFINone, &name, &none), 0);
  const TVMFFITypeAttrColumn* column = TVMFFIGetTypeAttrColumn(&name);
  ASSERT_NE(column, nullptr);
  for (int32_t i = 0; i < column->size; ++i) EXPECT_EQ(column->data[i].type_index, kTVMFFINone);
  // Repeating it is allowed: it is not a (column, type) registration.
  EXPECT_EQ(TVMFFITypeRegisterAttr(kTVMFFINone, &name, &none), 0);
  EXPECT_EQ(TVMFFIGetTypeAttrColumn(&name), column);
}

TEST(TypeAttrColumn, RowLookupUsesBeginIndex) {
  TVMFFIByteArray name = ByteArray("__test_type_table_rows__");
  int32_t first = NewRootType("test_type_table.attr.RowFirst");
  int32_t skipped = NewRootType("test_type_table.attr.RowSkipped");
  int32_t second = NewRootType("test_type_table.attr.RowSecond");
  TVMFFIAny v1 = IntCell(111);
  TVMFFIAny v2 = IntCell(222);
  ASSERT_EQ(TVMFFITypeRegisterAttr(first, &name, &v1), 0);
  ASSERT_EQ(TVMFFITypeRegisterAttr(second, &name, &v2), 0);
  const TVMFFITypeAttrColumn* column = TVMFFIGetTypeAttrColumn(&name);
  ASSERT_NE(column, nullptr);
  const TVMFFIAny* row1 = AttrRow(column, first);
  const TVMFFIAny* row2 = AttrRow(column, second);
  ASSERT_NE(row1, nullptr);
  ASSERT_NE(row2, nullptr);
  EXPECT_EQ(row1->type_index, kTVMFFIInt);
  EXPECT_EQ(row1->v_int64, 111);
  EXPECT_EQ(row2->v_int64, 222);
  const TVMFFIAny* gap = AttrRow(column, skipped);
  EXPECT_TRUE(gap == nullptr || gap->type_index == kTVMFFINone);
  const TVMFFIAny* none_row = AttrRow(column, kTVMFFIStr);
  EXPECT_TRUE(none_row == nullptr || none_row->type_index == kTVMFFINone);
}

TEST(TypeAttrColumn, PointerStableAcrossManyRegistrations) {
  TVMFFIByteArray name = ByteArray("__test_type_table_stable__");
  int32_t first = NewRootType("test_type_table.attr.Stable0");
  TVMFFIAny v0 = IntCell(0);
  ASSERT_EQ(TVMFFITypeRegisterAttr(first, &name, &v0), 0);
  const TVMFFITypeAttrColumn* column = TVMFFIGetTypeAttrColumn(&name);
  ASSERT_NE(column, nullptr);
  const TVMFFIAny* rows = column->data;
  std::vector<int32_t> indices = {first};
  for (int i = 1; i < 200; ++i) {
    std::string key = "test_type_table.attr.Stable" + std::to_string(i);
    int32_t index = NewRootType(key.c_str());
    TVMFFIAny value = IntCell(i);
    ASSERT_EQ(TVMFFITypeRegisterAttr(index, &name, &value), 0);
    EXPECT_EQ(TVMFFIGetTypeAttrColumn(&name), column);
    // Rows never move either: readers on other threads use `data` without a lock.
    EXPECT_EQ(column->data, rows);
    indices.push_back(index);
  }
  for (int i = 0; i < 200; ++i) {
    const TVMFFIAny* row = AttrRow(column, indices[static_cast<size_t>(i)]);
    ASSERT_NE(row, nullptr) << i;
    EXPECT_EQ(row->v_int64, i);
  }
}

TEST(TypeAttrColumn, DuplicateRegistrationFails) {
  TVMFFIByteArray name = ByteArray("__test_type_table_dup__");
  int32_t index = NewRootType("test_type_table.attr.Dup");
  TVMFFIAny v1 = IntCell(1);
  TVMFFIAny v2 = IntCell(2);
  ASSERT_EQ(TVMFFITypeRegisterAttr(index, &name, &v1), 0);
  EXPECT_EQ(TVMFFITypeRegisterAttr(index, &name, &v2), -1);
  ExpectRaised("RuntimeError", "__test_type_table_dup__");
  EXPECT_EQ(AttrRow(TVMFFIGetTypeAttrColumn(&name), index)->v_int64, 1);
}

TEST(TypeAttrColumn, SameTypeInTwoColumns) {
  TVMFFIByteArray name_a = ByteArray("__test_type_table_col_a__");
  TVMFFIByteArray name_b = ByteArray("__test_type_table_col_b__");
  int32_t index = NewRootType("test_type_table.attr.TwoColumns");
  TVMFFIAny va = IntCell(10);
  TVMFFIAny vb = IntCell(20);
  ASSERT_EQ(TVMFFITypeRegisterAttr(index, &name_a, &va), 0);
  ASSERT_EQ(TVMFFITypeRegisterAttr(index, &name_b, &vb), 0);
  EXPECT_EQ(AttrRow(TVMFFIGetTypeAttrColumn(&name_a), index)->v_int64, 10);
  EXPECT_EQ(AttrRow(TVMFFIGetTypeAttrColumn(&name_b), index)->v_int64, 20);
}

TEST(TypeAttrColumn, ObjectValueIsOwnedByTheColumn) {
  TVMFFIByteArray name = ByteArray("__test_type_table_owned__");
  int32_t index = NewRootType("test_type_table.attr.Owned");
  Function func = Function::FromTyped([]() { return 5; });
  TVMFFIAny value = AnyView(func).CopyToTVMFFIAny();
  ASSERT_EQ(TVMFFITypeRegisterAttr(index, &name, &value), 0);
  EXPECT_EQ(func.use_count(), 2);
  const TVMFFIAny* row = AttrRow(TVMFFIGetTypeAttrColumn(&name), index);
  EXPECT_EQ(row->type_index, kTVMFFIFunction);
  EXPECT_EQ(row->v_obj, ObjectUnsafe::GetHeader(func));
}

}  // namespace

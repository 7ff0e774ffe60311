// SPDX-License-Identifier: Apache-2.0
// test_c_map_api.cc: the map reads of tvm/ffi/extra/c_map_api.h (TVMFFIMapSize,
// TVMFFIMapFindStr, TVMFFIMapFind) agree with Map/Dict lookups, in both layouts.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/extra/c_map_api.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <string>

namespace {

using tvm::ffi::Any;
using tvm::ffi::Dict;
using tvm::ffi::Map;
using tvm::ffi::String;

TVMFFIObjectHandle HandleOf(const tvm::ffi::ObjectRef& map) {
  return tvm::ffi::details::ObjectUnsafe::TVMFFIObjectPtrFromObjectRef(map);
}

const TVMFFIAny* FindStr(const tvm::ffi::ObjectRef& map, const std::string& key) {
  const TVMFFIAny* found = reinterpret_cast<const TVMFFIAny*>(1);
  EXPECT_EQ(TVMFFIMapFindStr(HandleOf(map), key.data(), key.size(), &found), 0);
  return found;
}

const TVMFFIAny* FindCell(const tvm::ffi::ObjectRef& map, const Any& key) {
  const TVMFFIAny* found = reinterpret_cast<const TVMFFIAny*>(1);
  const TVMFFIAny* cell = tvm::ffi::details::AnyUnsafe::TVMFFIAnyPtrFromAny(key);
  EXPECT_EQ(TVMFFIMapFind(HandleOf(map), cell, &found), 0);
  return found;
}

// Keys of both string forms: "k0".."k9" are SmallStr cells, the long ones Str objects.
std::string KeyText(int i) {
  return i % 2 == 0 ? "k" + std::to_string(i) : "a longer key number " + std::to_string(i);
}

class CMapApiLayouts : public ::testing::TestWithParam<int> {};

TEST_P(CMapApiLayouts, StringKeysAreFoundByTheirBytes) {
  const int count = GetParam();
  Map<String, int64_t> map;
  for (int i = 0; i < count; ++i) map.Set(String(KeyText(i)), int64_t{i} * 10);
  EXPECT_EQ(TVMFFIMapSize(HandleOf(map)), count);
  for (int i = 0; i < count; ++i) {
    const TVMFFIAny* found = FindStr(map, KeyText(i));
    ASSERT_NE(found, nullptr) << KeyText(i);
    EXPECT_EQ(found->type_index, tvm::ffi::TypeIndex::kTVMFFIInt);
    EXPECT_EQ(found->v_int64, int64_t{i} * 10);
  }
  EXPECT_EQ(FindStr(map, "absent"), nullptr);
  EXPECT_EQ(FindStr(map, "a longer key number"), nullptr);
  EXPECT_EQ(FindStr(map, std::string("k0\0", 3)), nullptr);
}

TEST_P(CMapApiLayouts, CellKeysCompareAsTheMapDoes) {
  const int count = GetParam();
  Dict<Any, int64_t> dict;
  for (int i = 0; i < count; ++i) dict.Set(Any(int64_t{i} - 3), i);
  dict.Set(Any(true), 100);
  dict.Set(Any(nullptr), 200);
  EXPECT_EQ(TVMFFIMapSize(HandleOf(dict)), count + 2);
  for (int i = 0; i < count; ++i) {
    const TVMFFIAny* found = FindCell(dict, Any(int64_t{i} - 3));
    ASSERT_NE(found, nullptr);
    EXPECT_EQ(found->v_int64, i);
  }
  EXPECT_EQ(FindCell(dict, Any(true))->v_int64, 100);
  EXPECT_EQ(FindCell(dict, Any(nullptr))->v_int64, 200);
  EXPECT_EQ(FindCell(dict, Any(false)), nullptr);
  EXPECT_EQ(FindCell(dict, Any(int64_t{1} << 40)), nullptr);
  // A string given as a cell is found as the map finds it, as FindStr does.
  Dict<Any, int64_t> named{{Any(String("a longer key number 7")), 7}};
  EXPECT_EQ(FindCell(named, Any(String("a longer key number 7")))->v_int64, 7);
  EXPECT_EQ(FindStr(named, "a longer key number 7")->v_int64, 7);
}

// 3 entries stay in the small layout; 40 and 300 are dense, with probe chains.
INSTANTIATE_TEST_SUITE_P(SmallAndDense, CMapApiLayouts, ::testing::Values(0, 3, 40, 300));

}  // namespace

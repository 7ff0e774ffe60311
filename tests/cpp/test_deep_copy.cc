// SPDX-License-Identifier: Apache-2.0
// test_deep_copy.cc: the ffi.DeepCopy global (containers, cycles, reflected objects, sharing).
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <string>

#include "test_utils.h"

namespace tvm_ffi_deep_copy_test {

using namespace tvm::ffi;  // NOLINT(*)
namespace refl = tvm::ffi::reflection;

Any DeepCopyOf(const Any& value) { return Function::GetGlobalRequired("ffi.DeepCopy")(value); }

Any MakeBase(int64_t i, double f, const char* s) {
  return Function::GetGlobalRequired("ffi.MakeObjectFromPackedArgs")("testing.TestObjectBase", i, f,
                                                                     String(s));
}

const Object* Ptr(const Any& value) { return value.cast<ObjectRef>().get(); }

TEST(DeepCopy, PodAndStringsReturnedAsIs) {
  EXPECT_EQ(DeepCopyOf(Any(3)).cast<int64_t>(), 3);
  EXPECT_EQ(DeepCopyOf(Any(2.5)).cast<double>(), 2.5);
  EXPECT_EQ(DeepCopyOf(Any(nullptr)).type_index(), TypeIndex::kTVMFFINone);
  Any long_str = String(std::string(100, 'x'));
  EXPECT_EQ(Ptr(DeepCopyOf(long_str)), Ptr(long_str));
  Any shape = Shape({1, 2, 3});
  EXPECT_EQ(Ptr(DeepCopyOf(shape)), Ptr(shape));
}

TEST(DeepCopy, NestedContainersAreNewWithEqualContent) {
  List<Any> inner_list{1, 2};
  Dict<Any, Any> inner_dict{{String("k"), 5}};
  Map<Any, Any> inner_map{{String("a"), inner_list}};
  Array<Any> arr{inner_list, inner_dict, inner_map, String("s"), 7};

  Any copied = DeepCopyOf(arr);
  auto out = copied.cast<Array<Any>>();
  EXPECT_NE(out.get(), arr.get());
  ASSERT_EQ(out.size(), 5);

  auto out_list = out[0].cast<List<Any>>();
  EXPECT_NE(out_list.get(), inner_list.get());
  ASSERT_EQ(out_list.size(), 2);
  EXPECT_EQ(out_list[0].cast<int64_t>(), 1);
  EXPECT_EQ(out_list[1].cast<int64_t>(), 2);

  auto out_dict = out[1].cast<Dict<Any, Any>>();
  EXPECT_NE(out_dict.get(), inner_dict.get());
  ASSERT_EQ(out_dict.size(), 1);
  EXPECT_EQ(out_dict.at(String("k")).cast<int64_t>(), 5);

  auto out_map = out[2].cast<Map<Any, Any>>();
  EXPECT_NE(out_map.get(), inner_map.get());
  // The list inside the map is the same source list as arr[0], so it is copied once.
  EXPECT_EQ(out_map.at(String("a")).cast<List<Any>>().get(), out_list.get());

  EXPECT_EQ(out[3].cast<String>(), "s");
  EXPECT_EQ(out[4].cast<int64_t>(), 7);

  // The copy is independent of the source.
  out_list.push_back(3);
  EXPECT_EQ(inner_list.size(), 2);
}

TEST(DeepCopy, DictKeepsInsertionOrder) {
  Dict<Any, Any> d;
  d.Set(String("z"), 1);
  d.Set(String("a"), 2);
  d.Set(String("m"), 3);
  auto out = DeepCopyOf(d).cast<Dict<Any, Any>>();
  EXPECT_NE(out.get(), d.get());
  std::string keys;
  for (const auto& kv : out) keys += kv.first.cast<String>().operator std::string();
  EXPECT_EQ(keys, "zam");
}

TEST(DeepCopy, ListCyclePreserved) {
  List<Any> l{1};
  l.push_back(l);
  auto out = DeepCopyOf(l).cast<List<Any>>();
  EXPECT_NE(out.get(), l.get());
  ASSERT_EQ(out.size(), 2);
  EXPECT_EQ(out[0].cast<int64_t>(), 1);
  EXPECT_EQ(out[1].cast<List<Any>>().get(), out.get());
  // Break the cycles so both lists are freed.
  l.clear();
  out.clear();
}

TEST(DeepCopy, ReflectedObjectCopiedWithFields) {
  Any obj = MakeBase(42, 1.5, "world");
  Any copied = DeepCopyOf(obj);
  EXPECT_EQ(copied.GetTypeKey(), "testing.TestObjectBase");
  EXPECT_NE(Ptr(copied), Ptr(obj));
  ObjectRef ref = copied.cast<ObjectRef>();
  EXPECT_EQ(refl::FieldGetter("testing.TestObjectBase", "v_i64")(ref).cast<int64_t>(), 42);
  EXPECT_EQ(refl::FieldGetter("testing.TestObjectBase", "v_f64")(ref).cast<double>(), 1.5);
  EXPECT_EQ(refl::FieldGetter("testing.TestObjectBase", "v_str")(ref).cast<String>(), "world");
}

TEST(DeepCopy, DerivedObjectFieldsDeepCopied) {
  Array<Any> arr{1, 2};
  Map<Any, Any> m{{String("x"), arr}};
  Any obj = Function::GetGlobalRequired("ffi.MakeObjectFromPackedArgs")(
      "testing.TestObjectDerived", 5, 6.0, String("s"), m, arr);
  Any copied = DeepCopyOf(obj);
  EXPECT_NE(Ptr(copied), Ptr(obj));
  ObjectRef ref = copied.cast<ObjectRef>();
  EXPECT_EQ(refl::FieldGetter("testing.TestObjectBase", "v_i64")(ref).cast<int64_t>(), 5);
  auto out_map = refl::FieldGetter("testing.TestObjectDerived", "v_map")(ref).cast<Map<Any, Any>>();
  auto out_arr = refl::FieldGetter("testing.TestObjectDerived", "v_array")(ref).cast<Array<Any>>();
  EXPECT_NE(out_map.get(), m.get());
  EXPECT_NE(out_arr.get(), arr.get());
  ASSERT_EQ(out_arr.size(), 2);
  EXPECT_EQ(out_arr[1].cast<int64_t>(), 2);
  // The array shared between both fields is copied once.
  EXPECT_EQ(out_map.at(String("x")).cast<Array<Any>>().get(), out_arr.get());
}

TEST(DeepCopy, SharedSubObjectCopiedOnce) {
  Any obj = MakeBase(1, 2.0, "x");
  List<Any> l{obj, obj};
  auto out = DeepCopyOf(l).cast<List<Any>>();
  ASSERT_EQ(out.size(), 2);
  EXPECT_NE(Ptr(out[0]), Ptr(obj));
  EXPECT_EQ(Ptr(out[0]), Ptr(out[1]));
}

TEST(DeepCopy, CopyConstructibleObjectWithoutCreatorCopied) {
  Any obj = Function::GetGlobalRequired("testing.make_unregistered_object")();
  ASSERT_EQ(refl::GetTypeInfoByKey("testing.TestUnregisteredObject")->metadata->creator, nullptr);
  Any copied = DeepCopyOf(obj);
  EXPECT_EQ(copied.GetTypeKey(), "testing.TestUnregisteredObject");
  EXPECT_NE(Ptr(copied), Ptr(obj));
}

TEST(DeepCopy, NotCopyConstructibleIsAnError) {
  int32_t type_index = refl::GetTypeInfoByKey("testing.TestNonCopyable")->type_index;
  Any non_copyable = refl::TypeAttrColumn(refl::type_attr::kInit)[type_index].cast<Function>()(3);
  Any fn = Function::GetGlobalRequired("ffi.DeepCopy");
  for (const Any& value : {non_copyable, fn, Any(Array<Any>{1, fn})}) {
    std::string text = tvm_ffi_test::ErrorText([&] { DeepCopyOf(value); });
    EXPECT_NE(text.find("RuntimeError: "), std::string::npos) << text;
    EXPECT_NE(text.find("is not copy-constructible"), std::string::npos) << text;
  }
  EXPECT_NE(tvm_ffi_test::ErrorText([&] {
              DeepCopyOf(non_copyable);
            }).find("\"testing.TestNonCopyable\""),
            std::string::npos);
}

TEST(DeepCopy, EnumMembersAreShared) {
  Any alpha = Function::GetGlobalRequired("testing.enum_variant_get")(String("Alpha"));
  EXPECT_EQ(Ptr(DeepCopyOf(alpha)), Ptr(alpha));
  List<Any> holder{alpha, Map<Any, Any>{{alpha, alpha}}};
  auto out = DeepCopyOf(holder).cast<List<Any>>();
  EXPECT_NE(out.get(), holder.get());
  EXPECT_EQ(Ptr(out[0]), Ptr(alpha));
  auto out_map = out[1].cast<Map<Any, Any>>();
  EXPECT_EQ(Ptr((*out_map.begin()).first), Ptr(alpha));
  EXPECT_EQ(Ptr((*out_map.begin()).second), Ptr(alpha));
}

TEST(DeepCopy, NestingDeeperThanTheStackIsAnErrorNotACrash) {
  tvm_ffi_test::ExpectTooDeepToWalk(
      [](const Any& value) { DeepCopyOf(value); }, "deep-copying a value",
      [](const Any& shallow) { EXPECT_NE(Ptr(DeepCopyOf(shallow)), Ptr(shallow)); });
}

}  // namespace tvm_ffi_deep_copy_test

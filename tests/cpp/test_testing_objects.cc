// SPDX-License-Identifier: Apache-2.0
// test_testing_objects.cc: the reflected testing.* types and the container schema functions.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/variant.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <string>

#include "test_utils.h"

namespace tvm_ffi_testing_objects_test {

using tvm_ffi_test::ToStdString;

using namespace tvm::ffi;  // NOLINT(*)
namespace refl = tvm::ffi::reflection;

Any Call(const char* name, Any a) { return Function::GetGlobalRequired(name)(a); }

TEST(TestingObjects, IntPairInitSumAndGlobal) {
  Any pair = refl::GetMethod("testing.TestIntPair", "__ffi_init__")(3, 4);
  EXPECT_EQ(pair.GetTypeKey(), "testing.TestIntPair");
  EXPECT_EQ(refl::GetMethod("testing.TestIntPair", "sum")(pair).cast<int64_t>(), 7);
  EXPECT_EQ(Call("testing.TestIntPairSum", pair).cast<int64_t>(), 7);
  EXPECT_EQ(ToStdString(refl::GetFieldInfo("testing.TestIntPair", "a")->doc), "Field `a`");
  EXPECT_EQ(refl::GetFieldInfo("testing.TestIntPair", "b")->flags, 0);
  // A creator (as in Apache's testing library) lets deserialization rebuild pairs.
  EXPECT_NE(refl::GetTypeInfoByKey("testing.TestIntPair")->metadata->creator, nullptr);
}

TEST(TestingObjects, ObjectBaseDefaultsAndMethod) {
  const TVMFFIFieldInfo* v_i64 = refl::GetFieldInfo("testing.TestObjectBase", "v_i64");
  EXPECT_EQ(ToStdString(v_i64->doc), "i64 field");
  EXPECT_TRUE(v_i64->flags & kTVMFFIFieldFlagBitMaskWritable);
  const TVMFFIFieldInfo* v_f64 = refl::GetFieldInfo("testing.TestObjectBase", "v_f64");
  EXPECT_FALSE(v_f64->flags & kTVMFFIFieldFlagBitMaskWritable);
  EXPECT_EQ(AnyView::CopyFromTVMFFIAny(v_f64->default_value_or_factory).cast<double>(), 10.0);
  const TVMFFIFieldInfo* v_str = refl::GetFieldInfo("testing.TestObjectBase", "v_str");
  EXPECT_EQ(AnyView::CopyFromTVMFFIAny(v_str->default_value_or_factory).cast<String>(), "hello");
  Any obj = Function::GetGlobalRequired("ffi.MakeObjectFromPackedArgs")("testing.TestObjectBase", 5,
                                                                        1.0, "s");
  EXPECT_EQ(refl::GetMethod("testing.TestObjectBase", "add_i64")(obj, 2).cast<int64_t>(), 7);
  EXPECT_EQ(ToStdString(refl::GetMethodInfo("testing.TestObjectBase", "add_i64")->doc),
            "add_i64 method");
}

TEST(TestingObjects, UnregisteredObject) {
  Any obj = Function::GetGlobalRequired("testing.make_unregistered_object")();
  EXPECT_EQ(obj.GetTypeKey(), "testing.TestUnregisteredObject");
  EXPECT_EQ(
      refl::GetMethod("testing.TestUnregisteredBaseObject", "get_v1_plus_one")(obj).cast<int64_t>(),
      42);
  EXPECT_EQ(
      refl::GetMethod("testing.TestUnregisteredObject", "get_v2_plus_two")(obj).cast<int64_t>(),
      44);
  EXPECT_EQ(refl::FieldGetter("testing.TestUnregisteredObject", "v1")(obj.cast<ObjectRef>())
                .cast<int64_t>(),
            41);
}

TEST(TestingObjects, ArrayAndMapSchemas) {
  Array<Any> arr{1, 2};
  EXPECT_TRUE(Call("testing.schema_id_arr_int", arr).cast<ObjectRef>().same_as(arr));
  EXPECT_TRUE(Call("testing.schema_id_arr", arr).cast<ObjectRef>().same_as(arr));
  Map<Any, Any> mp{{String("a"), 1}};
  EXPECT_TRUE(Call("testing.schema_id_map", mp).cast<ObjectRef>().same_as(mp));
  EXPECT_EQ((Call("testing.schema_id_map_str_int", mp).cast<Map<String, int64_t>>().size()), 1u);
  Error err = [&] {
    try {
      Call("testing.schema_id_arr", 1);
    } catch (const Error& e) {
      return e;
    }
    return Error("NoError", "", "");
  }();
  EXPECT_EQ(err.message(),
            "Mismatched type on argument #0 when calling: `testing.schema_id_arr(0: ffi.Array) -> "
            "ffi.Array`. Expected `ffi.Array` but got `int`");
}

TEST(TestingObjects, ListAndDictSchemas) {
  List<Any> lst{String("x")};
  EXPECT_EQ(Call("testing.schema_id_list_str", lst).cast<List<String>>()[0], "x");
  Dict<Any, Any> d{{String("k"), String("v")}};
  EXPECT_EQ((Call("testing.schema_id_dict_str_str", d).cast<Dict<String, String>>().size()), 1u);
}

TEST(TestingObjects, ArrMapOpt) {
  Function f = Function::GetGlobalRequired("testing.schema_arr_map_opt");
  Array<Any> arr{1, nullptr, 3};
  Map<String, Array<int64_t>> mp;
  auto out = f(arr, mp, "k").cast<Map<String, Array<int64_t>>>();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out.at("k").size(), 2u);
  EXPECT_EQ((f(arr, mp, nullptr).cast<Map<String, Array<int64_t>>>().size()), 0u);
}

TEST(TestingObjects, VariantSchemas) {
  EXPECT_EQ(Call("testing.schema_id_variant_int_str", 3).cast<int64_t>(), 3);
  EXPECT_EQ(Call("testing.schema_id_variant_int_str", "s").cast<String>(), "s");
  Any arr = Call("testing.schema_variant_mix", Array<Any>{1, 2});
  EXPECT_EQ(arr.type_index(), kTVMFFIArray);
  Variant<int64_t, String, Array<int64_t>> v = arr.cast<Variant<int64_t, String, Array<int64_t>>>();
  EXPECT_EQ(v.index(), 2u);
  EXPECT_EQ(v.get<Array<int64_t>>().size(), 2u);
  EXPECT_EQ(std::string(refl::GetTypeInfoByKey("ffi.Array")->type_key.data, 9), "ffi.Array");
  std::string meta =
      Function::GetGlobalRequired("ffi.GetGlobalFuncMetadata")("testing.schema_variant_mix")
          .cast<std::string>();
  EXPECT_NE(meta.find("Variant"), std::string::npos);
  Error err = [&] {
    try {
      Call("testing.schema_id_variant_int_str", 1.5);
    } catch (const Error& e) {
      return e;
    }
    return Error("NoError", "", "");
  }();
  EXPECT_EQ(err.message(),
            "Mismatched type on argument #0 when calling: `testing.schema_id_variant_int_str(0: "
            "Variant<int, str>) -> Variant<int, str>`. Expected `Variant<int, str>` but got "
            "`float`");
}

}  // namespace tvm_ffi_testing_objects_test

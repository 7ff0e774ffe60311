// SPDX-License-Identifier: Apache-2.0
// test_registry.cc: reflection::GlobalDef registration of typed and packed global functions.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <string>

#include "test_utils.h"

namespace tvm_ffi_registry_test {

using tvm_ffi_test::CatchError;

using tvm::ffi::Any;
using tvm::ffi::Error;
using tvm::ffi::Function;
using tvm::ffi::PackedArgs;
using tvm::ffi::String;
namespace refl = tvm::ffi::reflection;

std::string MetadataOf(const char* name) {
  return Function::GetGlobalRequired("ffi.GetGlobalFuncMetadata")(name).cast<std::string>();
}

int64_t Square(int64_t x) { return x * x; }

TEST(GlobalDef, TypedFunctionIsCallable) {
  refl::GlobalDef().def("test_registry.square", Square);
  EXPECT_EQ(Function::GetGlobalRequired("test_registry.square")(7).cast<int64_t>(), 49);
}

TEST(GlobalDef, TypedErrorsUseTheName) {
  refl::GlobalDef().def("test_registry.named", [](int64_t x) { return x; });
  Function f = Function::GetGlobalRequired("test_registry.named");
  Error err = CatchError([&] { f("x"); });
  EXPECT_EQ(err.kind(), "TypeError");
  EXPECT_EQ(err.message(),
            "Mismatched type on argument #0 when calling: `test_registry.named(0: int) -> int`. "
            "Expected `int` but got `const char*`");
}

TEST(GlobalDef, MetadataTypeSchemaExact) {
  refl::GlobalDef().def("test_registry.schema", Square, "Squares x.");
  EXPECT_EQ(MetadataOf("test_registry.schema"),
            R"({"type_schema":"{\"type\":\"ffi.Function\",\"named_args\":{\"return\":)"
            R"([{\"type\":\"int\"}],\"params\":[{\"type\":\"int\"}]}}"})");
}

TEST(GlobalDef, ExtraMetadataAppended) {
  refl::GlobalDef().def("test_registry.meta", Square, "doc",
                        refl::Metadata{{"count", 3}, {"flag", true}, {"label", "text"}});
  std::string meta = MetadataOf("test_registry.meta");
  std::string tail = ",\"count\":3,\"flag\":true,\"label\":\"text\"}";
  ASSERT_GE(meta.size(), tail.size());
  EXPECT_EQ(meta.substr(meta.size() - tail.size()), tail) << meta;
  EXPECT_EQ(meta.rfind("{\"type_schema\":\"", 0), 0u) << meta;
}

TEST(GlobalDef, MetadataRejectsOtherValueTypes) {
  Error err = CatchError(
      [] { refl::GlobalDef().def("test_registry.bad_meta", Square, refl::Metadata{{"k", 1.5}}); });
  EXPECT_EQ(err.kind(), "TypeError");
  EXPECT_EQ(err.message(),
            "Metadata can be only int, bool or string, but on key `k`, the type is float");
  EXPECT_FALSE(Function::GetGlobal("test_registry.bad_meta").has_value());
}

TEST(GlobalDef, DuplicateIsRuntimeError) {
  refl::GlobalDef().def("test_registry.dup", Square);
  Error err = CatchError([] { refl::GlobalDef().def("test_registry.dup", Square); });
  EXPECT_EQ(err.kind(), "RuntimeError");
  EXPECT_EQ(err.message().rfind("Global Function `test_registry.dup` is already registered", 0), 0u)
      << err.message();
}

TEST(GlobalDef, PackedSchema) {
  refl::GlobalDef().def_packed("test_registry.packed",
                               [](PackedArgs args, Any* rv) { *rv = args.size(); });
  EXPECT_EQ(MetadataOf("test_registry.packed"),
            "{\"type_schema\":\"{\\\"type\\\":\\\"ffi.Function\\\"}\"}");
  EXPECT_EQ(Function::GetGlobalRequired("test_registry.packed")(1, 2, 3).cast<int>(), 3);
}

TEST(GlobalDef, ChainsDefinitions) {
  refl::GlobalDef()
      .def("test_registry.chain_a", []() { return String("a"); })
      .def_packed("test_registry.chain_b", [](PackedArgs, Any* rv) { *rv = String("b"); });
  EXPECT_EQ(Function::GetGlobalRequired("test_registry.chain_a")().cast<String>(), "a");
  EXPECT_EQ(Function::GetGlobalRequired("test_registry.chain_b")().cast<String>(), "b");
}

TEST(GlobalDef, TestingLibraryMetadata) {
  std::string meta = MetadataOf("testing.schema_id_int");
  EXPECT_EQ(meta, R"({"type_schema":"{\"type\":\"ffi.Function\",\"named_args\":{\"return\":)"
                  R"([{\"type\":\"int\"}],\"params\":[{\"type\":\"int\"}]}}",)"
                  R"("bool_attr":true,"int_attr":1,"str_attr":"hello"})");
}

}  // namespace tvm_ffi_registry_test

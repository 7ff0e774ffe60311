// SPDX-License-Identifier: Apache-2.0
// test_module.cc: Module::LoadFromFile, library and system-library lookups, imports, the
// import lookup behind TVMFFIEnvModLookupFromImports, and context symbols.
#include <gtest/gtest.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/extra/module.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>

#include <string>
#include <vector>

#include "test_utils.h"

namespace {

using tvm::ffi::Function;
using tvm::ffi::Module;
using tvm::ffi::ModuleObj;
using tvm::ffi::Optional;
using tvm::ffi::String;
using tvm_ffi_test::ErrorText;

#ifdef TVM_FFI_TESTING_LIBRARY_PATH

Module TestingLibrary() { return Module::LoadFromFile(TVM_FFI_TESTING_LIBRARY_PATH); }

/// A module defined in C++ with one function, `triple`.
class TripleModuleObj : public ModuleObj {
 public:
  const char* kind() const final { return "triple"; }
  Optional<Function> GetFunction(const String& name) final {
    if (name != "triple") return std::nullopt;
    return Function::FromTyped([](int64_t x) { return 3 * x; });
  }
};

Module MakeTripleModule() { return Module(tvm::ffi::make_object<TripleModuleObj>()); }

TEST(Module, LoadsLibraryFunctions) {
  Module mod = TestingLibrary();
  EXPECT_STREQ(mod->kind(), "library");
  EXPECT_EQ(mod->GetPropertyMask(), Module::kBinarySerializable | Module::kRunnable);
  Optional<Function> id = mod->GetFunction("testing_dll_schema_id_int");
  ASSERT_TRUE(id.has_value());
  EXPECT_EQ((*id)(41).cast<int64_t>(), 41);
  EXPECT_TRUE(mod->ImplementsFunction("testing_dll_test_add_with_docstring"));
  EXPECT_FALSE(mod->ImplementsFunction("missing"));
}

TEST(Module, MissingFunctionIsNullopt) {
  Module mod = TestingLibrary();
  EXPECT_FALSE(mod->GetFunction("missing").has_value());
  EXPECT_EQ(ErrorText([&] { mod->GetFunction("missing").value(); }),
            "RuntimeError: Back optional access");
}

TEST(Module, DocAndMetadata) {
  Module mod = TestingLibrary();
  Optional<String> doc = mod->GetFunctionDoc("testing_dll_test_add_with_docstring");
  ASSERT_TRUE(doc.has_value());
  EXPECT_EQ(std::string(*doc).rfind("Add two integers.", 0), 0u);
  EXPECT_FALSE(mod->GetFunctionDoc("testing_dll_schema_id_int").has_value());
  Optional<String> metadata = mod->GetFunctionMetadata("testing_dll_schema_id_int");
  ASSERT_TRUE(metadata.has_value());
  EXPECT_NE(std::string(*metadata).find("type_schema"), std::string::npos);
}

TEST(Module, LoadErrors) {
  EXPECT_NE(ErrorText([] { Module::LoadFromFile("/nonexistent/libmissing.so"); })
                .find("RuntimeError: Module::LoadFromFile: failed to load library "
                      "'/nonexistent/libmissing.so'"),
            std::string::npos);
  EXPECT_NE(ErrorText([] {
              Module::LoadFromFile("/tmp/model.params");
            }).find("no loader registered as ffi.Module.load_from_file.params"),
            std::string::npos);
}

TEST(Module, ImportsAreSearchedOnRequest) {
  Module outer = TestingLibrary();
  Module inner = MakeTripleModule();
  outer->ImportModule(inner);
  EXPECT_FALSE(outer->GetFunction("triple").has_value());
  Optional<Function> triple = outer->GetFunction("triple", true);
  ASSERT_TRUE(triple.has_value());
  EXPECT_EQ((*triple)(5).cast<int64_t>(), 15);
  EXPECT_TRUE(outer->ImplementsFunction("triple", true));
  ASSERT_EQ(outer->imports().size(), 1u);
  outer->ClearImports();
  EXPECT_EQ(outer->imports().size(), 0u);
  EXPECT_FALSE(outer->GetFunction("triple", true).has_value());
}

TEST(Module, LookupFromImportsFallsBackToGlobalsAndCaches) {
  Module mod = MakeTripleModule();
  Module outer = MakeTripleModule();
  outer->ImportModule(mod);
  ModuleObj* ctx = outer.get();
  TVMFFIObjectHandle found = nullptr;
  ASSERT_EQ(TVMFFIEnvModLookupFromImports(ctx, "triple", &found), 0);
  ASSERT_NE(found, nullptr);
  TVMFFIObjectHandle again = nullptr;
  ASSERT_EQ(TVMFFIEnvModLookupFromImports(ctx, "triple", &again), 0);
  EXPECT_EQ(found, again);  // cached in the module, so the same borrowed function
  ASSERT_EQ(TVMFFIEnvModLookupFromImports(ctx, "testing.add_one", &found), 0);
  EXPECT_NE(found, nullptr);
  EXPECT_EQ(TVMFFIEnvModLookupFromImports(ctx, "no.such.function", &found), -1);
  TVMFFIObjectHandle error = nullptr;
  TVMFFIErrorMoveFromRaised(&error);
  ASSERT_NE(error, nullptr);
  TVMFFIObjectDecRef(error);
}

TEST(Module, GlobalFunctionsWrapTheModule) {
  Module mod = TestingLibrary();
  Function get_function = Function::GetGlobalRequired("ffi.ModuleGetFunction");
  Function kind = Function::GetGlobalRequired("ffi.ModuleGetKind");
  EXPECT_EQ(kind(mod).cast<String>(), "library");
  EXPECT_EQ(get_function(mod, "testing_dll_schema_id_int", false).cast<Function>()(7).cast<int>(),
            7);
  EXPECT_EQ(get_function(mod, "missing", false), nullptr);
  EXPECT_NE(ErrorText([&] { mod->WriteToFile("/tmp/x.so", ""); }).find("does not support"),
            std::string::npos);
}

TEST(Module, SystemLibraryUsesThePrefixThenTheBareName) {
  Module lib = Function::GetGlobalRequired("ffi.SystemLib")("testing.").cast<Module>();
  Optional<Function> add_one = lib->GetFunction("add_one");
  ASSERT_TRUE(add_one.has_value());
  EXPECT_EQ((*add_one)(1).cast<int64_t>(), 2);
  Module same = Function::GetGlobalRequired("ffi.SystemLib")("testing.").cast<Module>();
  EXPECT_TRUE(same.same_as(lib));
  Module bare = Function::GetGlobalRequired("ffi.SystemLib")().cast<Module>();
  EXPECT_TRUE(bare->GetFunction("testing.add_one").has_value());
  EXPECT_FALSE(bare->GetFunction("add_one").has_value());
}

TEST(Module, ImportCyclesAreRefused) {
  Module first = MakeTripleModule();
  Module second = MakeTripleModule();
  EXPECT_NE(ErrorText([&] { first->ImportModule(first); })
                .find("Cyclic dependency detected during import: cannot import 'triple' module "
                      "into itself"),
            std::string::npos);
  first->ImportModule(second);
  EXPECT_NE(ErrorText([&] { second->ImportModule(first); })
                .find("would make the cycle 'triple' module -> 'triple' module -> 'triple' "
                      "module"),
            std::string::npos);
  EXPECT_EQ(second->imports().size(), 0u);
  EXPECT_TRUE(first->GetFunction("triple", true).has_value());
  EXPECT_FALSE(first->GetFunction("missing", true).has_value());
}

TEST(Module, SharedImportsAreSearchedOnce) {
  Module top = MakeTripleModule();
  Module left = MakeTripleModule();
  Module right = MakeTripleModule();
  Module bottom = TestingLibrary();
  left->ImportModule(bottom);
  right->ImportModule(bottom);
  top->ImportModule(left);
  top->ImportModule(right);  // bottom twice in the tree: no cycle
  EXPECT_TRUE(top->ImplementsFunction("testing_dll_schema_id_int", true));
  EXPECT_FALSE(top->ImplementsFunction("missing", true));
}

TEST(Module, LongImportChainsDoNotExhaustTheStack) {
  std::vector<Module> chain{MakeTripleModule()};
  for (int i = 0; i < 200000; ++i) {
    chain.push_back(MakeTripleModule());
    chain[chain.size() - 2]->ImportModule(chain.back());
  }
  EXPECT_FALSE(chain.front()->GetFunction("missing", true).has_value());
  EXPECT_FALSE(chain.front()->GetFunctionDoc("missing", true).has_value());
  // Released from the front: releasing the head alone would free the chain recursively.
  for (Module& module : chain) {
    Module released = std::move(module);
  }
}

TEST(Module, LayoutMatchesTheAbi) {
  Module mod(tvm::ffi::make_object<TripleModuleObj>());
  const char* start = reinterpret_cast<const char*>(mod.get());
  const char* handle = reinterpret_cast<const char*>(
      tvm::ffi::details::ObjectUnsafe::GetHeader(static_cast<const tvm::ffi::Object*>(mod.get())));
  EXPECT_EQ(handle - start, 8);  // the vtable pointer sits right before the object header
  const void* imports_field = &mod->imports_;
  EXPECT_EQ(static_cast<const char*>(imports_field) - handle, 24);
  // The import lookup cache (private) is the last word, at handle + 32.
  EXPECT_EQ(sizeof(tvm::ffi::ModuleObj), 8 + 24 + 8 + 8);
}

#endif  // TVM_FFI_TESTING_LIBRARY_PATH

TEST(Module, ContextSymbolsAreVisited) {
  static int marker = 0;
  ASSERT_EQ(TVMFFIEnvModRegisterContextSymbol("__test_module_ctx_symbol", &marker), 0);
  std::vector<std::string> seen;
  Module::VisitContextSymbols([&](String name, void* value) {
    if (value == &marker) seen.push_back(name);
  });
  EXPECT_EQ(seen, std::vector<std::string>{"__test_module_ctx_symbol"});
}

}  // namespace

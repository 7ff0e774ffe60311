// SPDX-License-Identifier: Apache-2.0
// test_function.cc: Function/TypedFunction calls, typed-call errors, globals and testing.* calls.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "test_utils.h"

namespace tvm_ffi_function_test {

using tvm_ffi_test::CatchError;
using tvm_ffi_test::NoneCell;

using tvm::ffi::Any;
using tvm::ffi::AnyView;
using tvm::ffi::Bytes;
using tvm::ffi::Error;
using tvm::ffi::Function;
using tvm::ffi::ObjectRef;
using tvm::ffi::Optional;
using tvm::ffi::PackedArgs;
using tvm::ffi::String;
using tvm::ffi::TypedFunction;
using tvm::ffi::details::ObjectUnsafe;

Function Global(const char* name) { return Function::GetGlobalRequired(name); }

// ---------------------------------------------------------------- FromPacked

TEST(FunctionPacked, RawForm) {
  Function f = Function::FromPacked(
      [](const AnyView* args, int32_t n, Any* rv) { *rv = args[0].cast<int64_t>() * 10 + n; });
  EXPECT_EQ(f(4, "ignored").cast<int64_t>(), 42);
}

TEST(FunctionPacked, PackedArgsForm) {
  Function f = Function::FromPacked([](PackedArgs args, Any* rv) {
    *rv = static_cast<int64_t>(args.size()) + args.Slice(1)[0].cast<int64_t>();
  });
  EXPECT_EQ(f(0, 40, 0).cast<int64_t>(), 43);
}

TEST(FunctionPacked, LegacyConstructor) {
  Function f([](PackedArgs args, Any* rv) { *rv = args[0]; });
  EXPECT_EQ(f(String("echo")).cast<String>(), "echo");
}

TEST(FunctionPacked, IsFunctionObjectWithCppCallNull) {
  Function f = Function::FromPacked([](PackedArgs, Any*) {});
  EXPECT_EQ(f->type_index(), kTVMFFIFunction);
  EXPECT_EQ(f->GetTypeKey(), "ffi.Function");
  EXPECT_NE(f->safe_call, nullptr);
  EXPECT_EQ(f->cpp_call, nullptr);
}

TEST(FunctionPacked, NullFunction) {
  Function f;
  Function g(nullptr);
  EXPECT_TRUE(f == nullptr);
  EXPECT_TRUE(g == nullptr);
  EXPECT_FALSE(Function::FromPacked([](PackedArgs, Any*) {}) == nullptr);
}

TEST(FunctionPacked, ArgumentPackingKinds) {
  std::vector<int32_t> seen;
  Function f = Function::FromPacked([&seen](PackedArgs args, Any*) {
    for (int i = 0; i < args.size(); ++i) seen.push_back(args[i].type_index());
  });
  int target = 0;
  DLTensor tensor{};
  TVMFFIByteArray arr{"ab", 2};
  std::string std_text = "std";
  f(1, true, 2.0, nullptr, static_cast<void*>(&target), "raw", std_text, String("s"), Bytes("b", 1),
    DLDataType{kDLInt, 32, 1}, DLDevice{kDLCPU, 0}, &tensor, &arr, f);
  std::vector<int32_t> expected = {
      kTVMFFIInt,    kTVMFFIBool,        kTVMFFIFloat,        kTVMFFINone,       kTVMFFIOpaquePtr,
      kTVMFFIRawStr, kTVMFFIRawStr,      kTVMFFISmallStr,     kTVMFFISmallBytes, kTVMFFIDataType,
      kTVMFFIDevice, kTVMFFIDLTensorPtr, kTVMFFIByteArrayPtr, kTVMFFIFunction};
  EXPECT_EQ(seen, expected);
}

TEST(FunctionPacked, ArgumentsAreBorrowed) {
  Function f = Function::FromPacked([](PackedArgs, Any*) {});
  Function arg = Function::FromPacked([](PackedArgs, Any*) {});
  f(arg);
  EXPECT_EQ(arg.use_count(), 1);
}

TEST(FunctionPacked, CallPackedRaw) {
  Function f = Function::FromPacked([](PackedArgs args, Any* rv) { *rv = args[1]; });
  AnyView packed[2];
  PackedArgs::Fill(packed, 1, "second");
  Any result;
  f.CallPacked(packed, 2, &result);
  EXPECT_EQ(result.type_index(), kTVMFFISmallStr);
  f.CallPacked(PackedArgs(packed, 2), &result);
  EXPECT_EQ(result.cast<String>(), "second");
}

struct Counter {
  int calls = 0;
  void operator()(PackedArgs, Any* rv) { *rv = ++calls; }
};

TEST(FunctionPacked, FromPackedInplace) {
  auto [f, counter] = Function::FromPackedInplace<Counter>();
  f();
  EXPECT_EQ(f().cast<int>(), 2);
  EXPECT_EQ(counter->calls, 2);
}

// ---------------------------------------------------------------- errors across safe_call

TEST(FunctionError, ErrorKindPreserved) {
  Function f = Function::FromPacked(
      [](PackedArgs, Any*) { TVM_FFI_THROW(ValueError) << "bad value " << 3; });
  Error err = CatchError([&] { f(); });
  EXPECT_EQ(err.kind(), "ValueError");
  EXPECT_EQ(err.message(), "bad value 3");
}

TEST(FunctionError, StdExceptionBecomesInternalError) {
  Function f =
      Function::FromPacked([](PackedArgs, Any*) { throw std::runtime_error("std failure"); });
  Error err = CatchError([&] { f(); });
  EXPECT_EQ(err.kind(), "InternalError");
  EXPECT_EQ(err.message(), "std failure");
}

TEST(FunctionError, ResultCellResetOnFailure) {
  Function payload = Function::FromPacked([](PackedArgs, Any*) {});
  Function f = Function::FromPacked([&payload](PackedArgs, Any* rv) {
    *rv = payload;
    TVM_FFI_THROW(RuntimeError) << "after writing the result";
  });
  TVMFFIAny result = NoneCell();
  int ret = TVMFFIFunctionCall(ObjectUnsafe::GetHeader(f), nullptr, 0, &result);
  EXPECT_EQ(ret, -1);
  EXPECT_EQ(result.type_index, kTVMFFINone);
  EXPECT_EQ(payload.use_count(), 1);
  Error err = tvm::ffi::details::MoveFromSafeCallRaised();
  EXPECT_EQ(err.kind(), "RuntimeError");
}

TEST(FunctionError, SafeCallSlotEmptyAfterSuccess) {
  Function f = Function::FromPacked([](PackedArgs, Any* rv) { *rv = 1; });
  TVMFFIAny result = NoneCell();
  EXPECT_EQ(TVMFFIFunctionCall(ObjectUnsafe::GetHeader(f), nullptr, 0, &result), 0);
  EXPECT_EQ(result.v_int64, 1);
  TVMFFIObjectHandle raised = nullptr;
  TVMFFIErrorMoveFromRaised(&raised);
  EXPECT_EQ(raised, nullptr);
}

// ---------------------------------------------------------------- FromTyped

TEST(Function, CallingNullThrowsTypeError) {
  Function null_function;
  TypedFunction<int(int)> null_typed = null_function;
  Any result;
  for (const auto& call : std::vector<std::function<void()>>{
           [&] { null_function(1); },
           [&] { null_function.CallPacked(nullptr, 0, &result); },
           [&] { null_typed(1); },
       }) {
    Error err = CatchError(call);
    EXPECT_EQ(err.kind(), "TypeError");
    EXPECT_EQ(err.message(), "Function::operator(): cannot call a null Function");
  }
}

int64_t AddInts(int64_t a, int64_t b) { return a + b; }

TEST(FunctionTyped, ConvertsArguments) {
  Function f = Function::FromTyped([](double x, bool flag, String s) {
    return String(std::string(s) + (flag ? "+" : "-") + std::to_string(static_cast<int>(x * 2)));
  });
  EXPECT_EQ(f(2, 1, "v").cast<String>(), "v+4");
}

TEST(FunctionTyped, ArityErrorNamed) {
  Function f = Function::FromTyped(AddInts, "name");
  Error err = CatchError([&] { f(1); });
  EXPECT_EQ(err.kind(), "TypeError");
  EXPECT_EQ(err.message(),
            "Mismatched number of arguments when calling: `name(0: int, 1: int) -> int`. "
            "Expected 2 but got 1 arguments");
}

TEST(FunctionTyped, TypeErrorNamed) {
  Function f = Function::FromTyped(AddInts, "name");
  Error err = CatchError([&] { f(1, "x"); });
  EXPECT_EQ(err.kind(), "TypeError");
  EXPECT_EQ(err.message(),
            "Mismatched type on argument #1 when calling: `name(0: int, 1: int) -> int`. "
            "Expected `int` but got `const char*`");
}

TEST(FunctionTyped, UnnamedPrintsSignatureAlone) {
  Function f = Function::FromTyped(AddInts);
  EXPECT_EQ(CatchError([&] { f(); }).message(),
            "Mismatched number of arguments when calling: `(0: int, 1: int) -> int`. "
            "Expected 2 but got 0 arguments");
  EXPECT_EQ(CatchError([&] { f(1.5, 2); }).message(),
            "Mismatched type on argument #0 when calling: `(0: int, 1: int) -> int`. "
            "Expected `int` but got `float`");
}

TEST(FunctionTyped, SignatureTypeStrings) {
  Function f = Function::FromTyped([](String, Bytes, double, bool, Any, Optional<int64_t>, Function,
                                      ObjectRef, TypedFunction<int(int)>) {});
  EXPECT_EQ(CatchError([&] { f(); }).message(),
            "Mismatched number of arguments when calling: `(0: str, 1: bytes, 2: float, "
            "3: bool, 4: Any, 5: Optional<int>, 6: ffi.Function, 7: ffi.Object, "
            "8: (0: int) -> int) -> void`. Expected 9 but got 0 arguments");
}

TEST(FunctionTyped, ReturnTypeStrings) {
  Function any_ret = Function::FromTyped([]() { return Any(1); }, "f");
  Function str_ret = Function::FromTyped([]() { return String("s"); }, "g");
  EXPECT_EQ(CatchError([&] { any_ret(1); }).message(),
            "Mismatched number of arguments when calling: `f() -> Any`. Expected 0 but got 1 "
            "arguments");
  EXPECT_EQ(CatchError([&] { str_ret(1); }).message(),
            "Mismatched number of arguments when calling: `g() -> str`. Expected 0 but got 1 "
            "arguments");
}

TEST(FunctionTyped, StdStringResultBecomesString) {
  Function f =
      Function::FromTyped([](int64_t n) { return std::string(static_cast<size_t>(n), 'z'); });
  // As in Apache, a returned std::string is moved into a heap String whatever its size.
  EXPECT_EQ(f(3).type_index(), kTVMFFIStr);
  EXPECT_EQ(f(3).cast<String>(), "zzz");
  EXPECT_EQ(f(9).type_index(), kTVMFFIStr);
  EXPECT_EQ(f(9).cast<std::string>(), "zzzzzzzzz");
}

TEST(FunctionTyped, VoidReturnGivesNone) {
  int calls = 0;
  Function f = Function::FromTyped([&calls](int64_t) { ++calls; });
  EXPECT_TRUE(f(1) == nullptr);
  EXPECT_EQ(calls, 1);
}

TEST(FunctionTyped, ConstRefAndRvalueParameters) {
  Function f = Function::FromTyped([](const String& a, String&& b, const int64_t c) {
    return static_cast<int64_t>(a.size() + b.size()) + c;
  });
  EXPECT_EQ(f("ab", String("cde"), 10).cast<int64_t>(), 15);
}

TEST(FunctionTyped, AnyAndAnyViewParameters) {
  Function f = Function::FromTyped(
      [](AnyView view, Any owned) { return String(view.GetTypeKey() + "/" + owned.GetTypeKey()); });
  EXPECT_EQ(f("raw", "raw").cast<String>(), "const char*/ffi.SmallStr");
}

TEST(FunctionTyped, OptionalParameterMismatchInfo) {
  Function f = Function::FromTyped([](Optional<int64_t> x) { return x.value_or(-1); }, "opt");
  EXPECT_EQ(f(nullptr).cast<int64_t>(), -1);
  EXPECT_EQ(f(5).cast<int64_t>(), 5);
  EXPECT_EQ(CatchError([&] { f("s"); }).message(),
            "Mismatched type on argument #0 when calling: `opt(0: Optional<int>) -> int`. "
            "Expected `Optional<int>` but got `const char*`");
}

// ---------------------------------------------------------------- FromExternC / InvokeExternC

struct ExternState {
  int deleted = 0;
  void* seen_handle = nullptr;
};

int RecordHandleAndAdd(void* handle, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  ExternState* state = static_cast<ExternState*>(handle);
  if (num_args == 2 && args[1].type_index == kTVMFFIOpaquePtr) {
    state = static_cast<ExternState*>(args[1].v_ptr);
  }
  state->seen_handle = handle;
  if (num_args < 1 || args[0].type_index != kTVMFFIInt) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "expects an int");
    return -1;
  }
  result->type_index = kTVMFFIInt;
  result->zero_padding = 0;
  result->v_int64 = args[0].v_int64 + 1;
  return 0;
}

void DeleteState(void* self) { static_cast<ExternState*>(self)->deleted += 1; }

TEST(FunctionExternC, SelfAndDeleter) {
  ExternState state;
  {
    Function f = Function::FromExternC(&state, RecordHandleAndAdd, DeleteState);
    EXPECT_EQ(f->cpp_call, nullptr);
    EXPECT_EQ(f(41).cast<int64_t>(), 42);
    EXPECT_EQ(state.seen_handle, &state);
    Function copy = f;
    f = nullptr;
    EXPECT_EQ(state.deleted, 0);
  }
  EXPECT_EQ(state.deleted, 1);
}

TEST(FunctionExternC, NoSelfReceivesFunctionHandle) {
  ExternState state;
  Function f = Function::FromExternC(nullptr, RecordHandleAndAdd, nullptr);
  EXPECT_EQ(f(1, static_cast<void*>(&state)).cast<int64_t>(), 2);
  EXPECT_EQ(state.seen_handle, ObjectUnsafe::GetHeader(f));
}

int g_null_self_deletes = 0;
void CountNullSelfDelete(void* self) {
  EXPECT_EQ(self, nullptr);
  ++g_null_self_deletes;
}

TEST(FunctionExternC, DeleterOnlyPassesNullSelf) {
  ExternState state;
  g_null_self_deletes = 0;
  {
    Function f = Function::FromExternC(nullptr, RecordHandleAndAdd, CountNullSelfDelete);
    EXPECT_EQ(f(1, static_cast<void*>(&state)).cast<int64_t>(), 2);
    EXPECT_EQ(state.seen_handle, nullptr);
  }
  EXPECT_EQ(g_null_self_deletes, 1);
}

TEST(FunctionExternC, ErrorRaisedByCCallee) {
  Function f = Function::FromExternC(nullptr, RecordHandleAndAdd, nullptr);
  ExternState state;
  Error err = CatchError([&] { f("no", static_cast<void*>(&state)); });
  EXPECT_EQ(err.kind(), "TypeError");
  EXPECT_EQ(err.message(), "expects an int");
}

TEST(FunctionExternC, InvokeExternC) {
  ExternState state;
  EXPECT_EQ(Function::InvokeExternC(&state, RecordHandleAndAdd, 9).cast<int64_t>(), 10);
  EXPECT_EQ(state.seen_handle, &state);
  Error err = CatchError([&] { Function::InvokeExternC(&state, RecordHandleAndAdd, 1.5); });
  EXPECT_EQ(err.kind(), "TypeError");
}

TEST(FunctionExternC, FunctionCallPassesHandle) {
  ExternState state;
  Function f = Function::FromExternC(nullptr, RecordHandleAndAdd, nullptr);
  TVMFFIAny args[2];
  args[0] = AnyView(7).CopyToTVMFFIAny();
  args[1] = AnyView(static_cast<void*>(&state)).CopyToTVMFFIAny();
  TVMFFIAny result = NoneCell();
  ASSERT_EQ(TVMFFIFunctionCall(ObjectUnsafe::GetHeader(f), args, 2, &result), 0);
  EXPECT_EQ(result.v_int64, 8);
  EXPECT_EQ(state.seen_handle, ObjectUnsafe::GetHeader(f));
}

// ---------------------------------------------------------------- TypedFunction

TEST(TypedFunction, FromLambdaAndCall) {
  TypedFunction<int(int, int)> f = [](int a, int b) { return a * b; };
  EXPECT_EQ(f(6, 7), 42);
  EXPECT_TRUE(f != nullptr);
  EXPECT_TRUE(TypedFunction<int(int)>() == nullptr);
}

TEST(TypedFunction, NamedLambdaInErrors) {
  TypedFunction<int(int)> f([](int a) { return a; }, "typed.name");
  Function packed = f;
  EXPECT_EQ(CatchError([&] { packed("x"); }).message(),
            "Mismatched type on argument #0 when calling: `typed.name(0: int) -> int`. "
            "Expected `int` but got `const char*`");
}

TEST(TypedFunction, ResultTypeMismatch) {
  TypedFunction<int(int)> f =
      Function::FromPacked([](PackedArgs, Any* rv) { *rv = String("not an int"); });
  Error err = CatchError([&] { f(1); });
  EXPECT_EQ(err.kind(), "TypeError");
  EXPECT_EQ(err.message(), "Cannot convert from type `ffi.String` to `int`");
}

TEST(TypedFunction, VoidAndAnyResults) {
  int calls = 0;
  TypedFunction<void(int)> v = [&calls](int) { ++calls; };
  v(1);
  EXPECT_EQ(calls, 1);
  TypedFunction<Any(int)> a = [](int x) { return Any(x + 1); };
  EXPECT_EQ(a(1).cast<int>(), 2);
}

TEST(TypedFunction, ToAndFromAny) {
  TypedFunction<int(int)> f = [](int a) { return a + 100; };
  Any any = f;
  EXPECT_EQ(any.type_index(), kTVMFFIFunction);
  auto back = any.cast<TypedFunction<int(int)>>();
  EXPECT_EQ(back(1), 101);
  EXPECT_EQ(any.cast<Function>()(2).cast<int>(), 102);
}

TEST(TypedFunction, TypeStrAndSchema) {
  using Traits = tvm::ffi::TypeTraits<TypedFunction<int(int)>>;
  EXPECT_EQ(Traits::TypeStr(), "(0: int) -> int");
  EXPECT_EQ(TypedFunction<int(int)>::TypeSchema(),
            R"({"type":"ffi.Function","named_args":{"return":[{"type":"int"}],)"
            R"("params":[{"type":"int"}]}})");
}

TEST(TypedFunction, PackedAccessors) {
  TypedFunction<int()> f = []() { return 3; };
  const Function& packed = f.packed();
  EXPECT_EQ(packed().cast<int>(), 3);
  Function moved = std::move(f).packed();
  EXPECT_EQ(moved().cast<int>(), 3);
}

// ---------------------------------------------------------------- globals

TEST(FunctionGlobal, GetMissingIsNullopt) {
  EXPECT_FALSE(Function::GetGlobal("test_function.no_such_name").has_value());
  EXPECT_FALSE(Function::GetGlobal(std::string("test_function.no_such_name")).has_value());
  EXPECT_FALSE(Function::GetGlobal(String("test_function.no_such_name")).has_value());
}

TEST(FunctionGlobal, GetRequiredMissingIsValueError) {
  Error err = CatchError([] { Function::GetGlobalRequired("test_function.missing"); });
  EXPECT_EQ(err.kind(), "ValueError");
  EXPECT_EQ(err.message(), "Function test_function.missing not found");
}

TEST(FunctionGlobal, SetGetRemove) {
  const char* name = "test_function.set_get_remove";
  Function::SetGlobal(name, Function::FromTyped([](int x) { return x * 3; }));
  EXPECT_EQ(Global(name)(5).cast<int>(), 15);
  Function::RemoveGlobal(name);
  EXPECT_FALSE(Function::GetGlobal(name).has_value());
}

TEST(FunctionGlobal, SetWithoutOverrideFails) {
  const char* name = "test_function.no_override";
  Function::SetGlobal(name, Function::FromTyped([]() { return 1; }));
  Error err =
      CatchError([&] { Function::SetGlobal(name, Function::FromTyped([]() { return 2; })); });
  EXPECT_EQ(err.kind(), "RuntimeError");
  EXPECT_EQ(Global(name)().cast<int>(), 1);
  Function::SetGlobal(name, Function::FromTyped([]() { return 3; }), true);
  EXPECT_EQ(Global(name)().cast<int>(), 3);
  Function::RemoveGlobal(name);
}

TEST(FunctionGlobal, RegistryHoldsItsOwnReference) {
  const char* name = "test_function.refcount";
  Function f = Function::FromPacked([](PackedArgs, Any*) {});
  Function::SetGlobal(name, f);
  EXPECT_EQ(f.use_count(), 2);
  Function::RemoveGlobal(name);
  EXPECT_EQ(f.use_count(), 1);
}

TEST(FunctionGlobal, ListGlobalNames) {
  std::vector<String> names = Function::ListGlobalNames();
  auto contains = [&](const char* n) {
    return std::find(names.begin(), names.end(), n) != names.end();
  };
  EXPECT_TRUE(contains("testing.echo"));
  EXPECT_TRUE(contains("testing.add_one"));
  EXPECT_TRUE(contains("ffi.FunctionListGlobalNamesFunctor"));
  EXPECT_FALSE(contains("test_function.never_registered"));
}

TEST(FunctionGlobal, ListGlobalNamesFunctorProtocol) {
  Function functor = Global("ffi.FunctionListGlobalNamesFunctor")().cast<Function>();
  int64_t count = functor(-1).cast<int64_t>();
  EXPECT_EQ(static_cast<size_t>(count), Function::ListGlobalNames().size());
  bool found = false;
  for (int64_t i = 0; i < count; ++i) found |= functor(i).cast<String>() == "testing.nop";
  EXPECT_TRUE(found);
}

TEST(FunctionGlobal, MetadataOfSchemaIdInt) {
  String meta = Global("ffi.GetGlobalFuncMetadata")("testing.schema_id_int").cast<String>();
  EXPECT_NE(meta.find("\"bool_attr\":true"), String::npos) << meta;
  EXPECT_NE(meta.find("\"type_schema\""), String::npos) << meta;
}

TEST(FunctionGlobal, ConcurrentSetGetCall) {
  constexpr int kThreads = 8;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &failures] {
      std::string name = "test_function.thread." + std::to_string(t);
      Function::SetGlobal(name, Function::FromTyped([t](int x) { return x + t; }));
      Function add_one = Global("testing.add_one");
      for (int i = 0; i < 200; ++i) {
        if (Function::GetGlobalRequired(name)(i).cast<int>() != i + t) failures++;
        if (add_one(i).cast<int>() != i + 1) failures++;
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  for (int t = 0; t < kThreads; ++t) {
    std::string name = "test_function.thread." + std::to_string(t);
    EXPECT_EQ(Global(name.c_str())(1).cast<int>(), 1 + t);
    Function::RemoveGlobal(name);
  }
}

/// Whether body returns within `seconds` when run on its own thread. A thread that does not
/// (a deadlock) is left behind, blocked.
bool FinishesWithin(int seconds, std::function<void()> body) {
  auto done = std::make_shared<std::promise<void>>();
  std::future<void> finished = done->get_future();
  std::thread([done, body = std::move(body)] {
    body();
    done->set_value();
  }).detach();
  return finished.wait_for(std::chrono::seconds(seconds)) == std::future_status::ready;
}

/// Looks up a global function when destroyed, as a deleter that takes a lock may do.
struct UsesRegistryWhenDestroyed {
  ~UsesRegistryWhenDestroyed() { looked_up->store(Function::GetGlobal("testing.nop").has_value()); }
  std::shared_ptr<std::atomic<bool>> looked_up;
};

Function FunctionUsingRegistryWhenFreed(const std::shared_ptr<std::atomic<bool>>& looked_up) {
  auto holder = std::make_shared<UsesRegistryWhenDestroyed>(UsesRegistryWhenDestroyed{looked_up});
  return Function::FromTyped([holder]() { return 1; });
}

TEST(FunctionGlobal, RemovedFunctionIsFreedOutsideTheRegistryLock) {
  const char* name = "test_function.freed_on_remove";
  auto looked_up = std::make_shared<std::atomic<bool>>(false);
  Function::SetGlobal(name, FunctionUsingRegistryWhenFreed(looked_up));
  EXPECT_TRUE(FinishesWithin(20, [name] { Function::RemoveGlobal(name); }));
  EXPECT_TRUE(looked_up->load());
}

TEST(FunctionGlobal, ReplacedFunctionIsFreedOutsideTheRegistryLock) {
  const char* name = "test_function.freed_on_override";
  auto looked_up = std::make_shared<std::atomic<bool>>(false);
  Function::SetGlobal(name, FunctionUsingRegistryWhenFreed(looked_up));
  EXPECT_TRUE(FinishesWithin(
      20, [name] { Function::SetGlobal(name, Function::FromTyped([]() { return 2; }), true); }));
  EXPECT_TRUE(looked_up->load());
  EXPECT_EQ(Global(name)().cast<int>(), 2);
  Function::RemoveGlobal(name);
}

// ---------------------------------------------------------------- testing.* from C++

TEST(FunctionTesting, Echo) {
  Function echo = Global("testing.echo");
  EXPECT_EQ(echo(3).cast<int>(), 3);
  EXPECT_EQ(echo("raw string echoed").cast<String>(), "raw string echoed");
  EXPECT_TRUE(echo(echo).same_as(echo));
}

TEST(FunctionTesting, AddOne) {
  Function add_one = Global("testing.add_one");
  EXPECT_EQ(add_one(41).cast<int>(), 42);
  EXPECT_EQ(add_one(true).cast<int>(), 2);
  EXPECT_EQ(CatchError([&] { add_one("x"); }).message(),
            "Mismatched type on argument #0 when calling: `testing.add_one(0: int) -> int`. "
            "Expected `int` but got `const char*`");
}

TEST(FunctionTesting, Nop) { EXPECT_TRUE(Global("testing.nop")(1, "a", 2.0) == nullptr); }

TEST(FunctionTesting, Apply) {
  Function add = Function::FromTyped(AddInts);
  EXPECT_EQ(Global("testing.apply")(add, 20, 22).cast<int>(), 42);
}

TEST(FunctionTesting, ApplyPreservesCallbackErrorKind) {
  Function thrower = Function::FromPacked(
      [](PackedArgs, Any*) { TVM_FFI_THROW(IndexError) << "callback index error"; });
  Error err = CatchError([&] { Global("testing.apply")(thrower); });
  EXPECT_EQ(err.kind(), "IndexError");
  EXPECT_EQ(err.message(), "callback index error");
}

TEST(FunctionTesting, RaiseError) {
  Error err = CatchError([] { Global("testing.test_raise_error")("ValueError", "boom"); });
  EXPECT_EQ(err.kind(), "ValueError");
  EXPECT_EQ(err.message(), "boom");
  EXPECT_NE(err.backtrace().find("TestRaiseError"), std::string::npos) << err.backtrace();
}

TEST(FunctionTesting, SchemaIdFunctions) {
  EXPECT_EQ(Global("testing.schema_id_int")(5).cast<int>(), 5);
  EXPECT_EQ(Global("testing.schema_id_float")(2).cast<double>(), 2.0);
  EXPECT_EQ(Global("testing.schema_id_float")(2).type_index(), kTVMFFIFloat);
  EXPECT_EQ(Global("testing.schema_id_bool")(1).type_index(), kTVMFFIBool);
  EXPECT_EQ(Global("testing.schema_id_string")("text").cast<String>(), "text");
  EXPECT_TRUE(Global("testing.schema_id_opt_int")(nullptr) == nullptr);
  EXPECT_EQ(CatchError([] { Global("testing.schema_id_string")(Bytes("b", 1)); }).message(),
            "Mismatched type on argument #0 when calling: `testing.schema_id_string(0: str) -> "
            "str`. Expected `str` but got `ffi.SmallBytes`");
}

TEST(FunctionTesting, ObjectUseCount) {
  Function f = Function::FromPacked([](PackedArgs, Any*) {});
  EXPECT_EQ(Global("testing.object_use_count")(f).cast<int>(), 1);
}

TEST(Function, CallExpectedReturnsValuesAndErrorsWithoutThrowing) {
  Function add = Function::FromTyped([](int64_t a, int64_t b) { return a + b; });
  Function fail = Function::FromTyped([](int64_t a) -> int64_t {
    TVM_FFI_THROW(ValueError) << "bad " << a;
    TVM_FFI_UNREACHABLE();
  });
  Function give_error = Function::FromTyped([]() { return Error("IndexError", "as a value", ""); });
  Function nothing = Function::FromTyped([]() {});

  tvm::ffi::Expected<int64_t> sum = add.CallExpected<int64_t>(1, 2);
  ASSERT_TRUE(sum.is_ok());
  EXPECT_EQ(sum.value(), 3);
  EXPECT_EQ(add.CallExpected(3, 4).value().cast<int64_t>(), 7);
  EXPECT_TRUE(nothing.CallExpected<void>().is_ok());

  tvm::ffi::Expected<int64_t> failed = fail.CallExpected<int64_t>(7);
  ASSERT_TRUE(failed.is_err());
  EXPECT_EQ(failed.error().kind(), "ValueError");
  EXPECT_EQ(failed.error().message(), "bad 7");
  EXPECT_EQ(give_error.CallExpected<int64_t>().error().kind(), "IndexError");

  tvm::ffi::Expected<String> mismatch = add.CallExpected<String>(1, 2);
  ASSERT_TRUE(mismatch.is_err());
  EXPECT_EQ(mismatch.error().kind(), "TypeError");
  EXPECT_EQ(mismatch.error().message(),
            "CallExpected: result type mismatch, expected str, but got int");
  EXPECT_EQ(add.CallExpected<void>(1, 2).error().kind(), "TypeError");
  EXPECT_EQ(Function().CallExpected<int64_t>().error().kind(), "TypeError");
}

}  // namespace tvm_ffi_function_test

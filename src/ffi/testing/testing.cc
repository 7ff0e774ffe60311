// SPDX-License-Identifier: Apache-2.0
// testing.cc: the testing.* global functions of libtvm_ffi_testing (core calls and errors).
#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <chrono>
#include <cstdio>
#include <limits>
#include <thread>

#include "ffi/testing/checked_add.h"

namespace tvm {
namespace ffi {
namespace testing {

/// Raises an error of the given kind; its backtrace starts in this function.
TVM_FFI_NO_INLINE void TestRaiseError(String kind, String msg) {
  throw Error(std::string(kind), std::string(msg),
              TVMFFIBacktrace(__FILE__, __LINE__, TVM_FFI_FUNC_SIG, 0));
}

/// Packed fixtures read their leading arguments unchecked, so the count is checked first.
void RequireArgs(PackedArgs args, int count, const char* name) {
  if (args.size() < count) {
    TVM_FFI_THROW(TypeError) << name << "(): expected at least " << count << " argument"
                             << (count == 1 ? "" : "s") << ", got " << args.size();
  }
}

/// Calls args[0] with the remaining arguments.
TVM_FFI_NO_INLINE void TestApply(PackedArgs args, Any* ret) {
  RequireArgs(args, 1, "testing.apply");
  Function f = args[0].cast<Function>();
  f.CallPacked(args.Slice(1), ret);
}

/// Sleeps nsec seconds in one-second steps, stopping when a frontend signal is pending.
void RunCheckSignal(int64_t nsec) {
  for (int64_t i = 0; i < nsec; ++i) {
    std::this_thread::sleep_for(std::chrono::seconds(1));
    if (TVMFFIEnvCheckSignals() != 0) throw EnvErrorAlreadySet();
  }
  std::printf("Function finished without catching signal\n");
  std::fflush(stdout);
}

/// The native strong count of the object passed (the argument itself adds no reference).
int64_t ObjectUseCount(PackedArgs args) {
  RequireArgs(args, 1, "testing.object_use_count");
  const Object* obj = args[0].as<Object>();
  if (obj == nullptr) TVM_FFI_THROW(TypeError) << "testing.object_use_count(): expected an object";
  return static_cast<int64_t>(obj->use_count());
}

extern "C" int TVMFFITestingAddOneSafeCall(void*, const TVMFFIAny* args, int32_t num_args,
                                           TVMFFIAny* result) {
  if (num_args != 1 || args[0].type_index != kTVMFFIInt) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "add_one(): expected exactly one int argument");
    return -1;
  }
  if (args[0].v_int64 == std::numeric_limits<int64_t>::max()) {
    TVMFFIErrorSetRaisedFromCStr("OverflowError",
                                 "add_one(): 9223372036854775807 + 1 does not fit in int64");
    return -1;
  }
  result->type_index = kTVMFFIInt;
  result->zero_padding = 0;
  result->v_int64 = args[0].v_int64 + 1;
  return 0;
}

/// MLIR packed form: slots point at (handle, args, num_args, result, out return code).
extern "C" void TVMFFITestingMlirAddOne(void** packed) {
  *static_cast<int*>(packed[4]) = TVMFFITestingAddOneSafeCall(
      *static_cast<void**>(packed[0]), *static_cast<const TVMFFIAny**>(packed[1]),
      *static_cast<int32_t*>(packed[2]), *static_cast<TVMFFIAny**>(packed[3]));
}

void RegisterCoreFunctions() {
  namespace refl = reflection;
  refl::GlobalDef()
      .def("testing.test_raise_error", TestRaiseError)
      .def("testing.add_one", [](int64_t x) { return CheckedAdd(x, 1, "testing.add_one"); })
      .def_packed("testing.nop", [](PackedArgs, Any*) {})
      .def_packed("testing.echo",
                  [](PackedArgs args, Any* ret) {
                    RequireArgs(args, 1, "testing.echo");
                    *ret = args[0];
                  })
      .def_packed("testing.apply", TestApply)
      .def("testing.run_check_signal", RunCheckSignal)
      .def_packed("testing.object_use_count",
                  [](PackedArgs args, Any* ret) { *ret = ObjectUseCount(args); })
      .def("testing.get_add_one_c_symbol",
           []() { return reinterpret_cast<int64_t>(&TVMFFITestingAddOneSafeCall); })
      .def("testing.get_mlir_add_one_c_symbol",
           []() { return reinterpret_cast<int64_t>(&TVMFFITestingMlirAddOne); });
}

void RegisterSchemaFunctions() {
  namespace refl = reflection;
  refl::GlobalDef()
      .def(
          "testing.schema_id_int", [](int64_t x) { return x; },
          refl::Metadata{{"bool_attr", true}, {"int_attr", 1}, {"str_attr", "hello"}})
      .def("testing.schema_id_float", [](double x) { return x; })
      .def("testing.schema_id_bool", [](bool x) { return x; })
      .def("testing.schema_id_string", [](String x) { return x; })
      .def("testing.schema_id_bytes", [](Bytes x) { return x; })
      .def("testing.schema_id_func", [](Function x) { return x; })
      .def("testing.schema_id_func_typed",
           [](TypedFunction<void(int64_t, double, Function)> x) { return x; })
      .def("testing.schema_id_any", [](Any x) { return x; })
      .def("testing.schema_id_object", [](ObjectRef x) { return x; })
      .def("testing.schema_id_opt_int", [](Optional<int64_t> x) { return x; })
      .def("testing.schema_id_opt_str", [](Optional<String> x) { return x; })
      .def("testing.schema_id_opt_obj", [](Optional<ObjectRef> x) { return x; })
      .def("testing.schema_no_args", []() { return 1; })
      .def("testing.schema_no_return", [](int64_t) {})
      .def("testing.schema_no_args_no_return", []() {})
      .def_packed("testing.schema_packed", [](PackedArgs, Any*) {});
}

TVM_FFI_STATIC_INIT_BLOCK() {
  RegisterCoreFunctions();
  RegisterSchemaFunctions();
}

}  // namespace testing
}  // namespace ffi
}  // namespace tvm

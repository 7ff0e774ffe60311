// SPDX-License-Identifier: Apache-2.0
// driver.cc: a host that loads compat libraries through the C ABI only and prints what it sees.
//
// Usage: driver <compat_lib.so> <compat_c_lib.so>
// Prints one `key=value` line per check; test_binary_compat.py asserts the values. The driver
// links against whichever libtvm_ffi.so the dynamic linker finds, so the same source is the host
// for our runtime and for Apache's. Error cells are read by offset (handle + 24: kind, message).
#include <dlfcn.h>
#include <link.h>
#include <tvm/ffi/c_api.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

namespace {

constexpr size_t kHeaderSize = 24;  // sizeof(TVMFFIObject)

TVMFFIByteArray* CellBytes(void* obj, size_t offset) {
  return reinterpret_cast<TVMFFIByteArray*>(static_cast<char*>(obj) + kHeaderSize + offset);
}

std::string ToString(const TVMFFIByteArray& bytes) { return std::string(bytes.data, bytes.size); }

TVMFFIAny None() {
  TVMFFIAny any;
  std::memset(&any, 0, sizeof(any));
  any.type_index = kTVMFFINone;
  return any;
}

TVMFFIAny Int(int64_t v) {
  TVMFFIAny any = None();
  any.type_index = kTVMFFIInt;
  any.v_int64 = v;
  return any;
}

TVMFFIAny RawStr(const char* s) {
  TVMFFIAny any = None();
  any.type_index = kTVMFFIRawStr;
  any.v_c_str = s;
  return any;
}

TVMFFIAny Bool(bool v) {
  TVMFFIAny any = Int(v ? 1 : 0);
  any.type_index = kTVMFFIBool;
  return any;
}

/// A SmallStr cell built by the host itself (strings under 8 bytes live inline).
TVMFFIAny SmallStr(const char* s) {
  TVMFFIAny any = None();
  any.type_index = kTVMFFISmallStr;
  any.small_str_len = static_cast<uint32_t>(std::strlen(s));
  std::memcpy(any.v_bytes, s, any.small_str_len);
  return any;
}

TVMFFIAny ObjectView(void* obj, int32_t type_index) {
  TVMFFIAny any = None();
  any.type_index = type_index;
  any.v_obj = static_cast<TVMFFIObject*>(obj);
  return any;
}

std::string TypeKey(int32_t type_index) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  return info == nullptr ? "<no type info>" : ToString(info->type_key);
}

/// Takes the raised error out of the thread-local slot and renders it as "Kind: message".
std::string TakeError() {
  TVMFFIObjectHandle err = nullptr;
  TVMFFIErrorMoveFromRaised(&err);
  if (err == nullptr) return "ERROR <nothing raised>";
  std::string text = ToString(*CellBytes(err, 0)) + ": " + ToString(*CellBytes(err, 16));
  TVMFFIObjectDecRef(err);
  return text;
}

/// Renders an owned result cell and releases what it holds.
std::string Describe(TVMFFIAny* value) {
  int32_t tindex = value->type_index;
  if (tindex == kTVMFFINone) return "None";
  if (tindex == kTVMFFIInt) return std::to_string(value->v_int64);
  if (tindex == kTVMFFISmallStr) return std::string(value->v_bytes, value->small_str_len);
  if (tindex < kTVMFFIStaticObjectBegin) return "<pod " + std::to_string(tindex) + ">";
  std::string text = tindex == kTVMFFIStr ? ToString(*CellBytes(value->v_obj, 0))
                                          : "<object " + TypeKey(tindex) + ">";
  TVMFFIObjectDecRef(value->v_obj);
  return text;
}

std::string ResultOrError(int rc, TVMFFIAny* result) {
  if (rc == 0) return Describe(result);
  return "ERROR " + (rc == -1 ? TakeError() : "rc " + std::to_string(rc));
}

void Print(const char* key, const std::string& value) {
  std::printf("%s=%s\n", key, value.c_str());
}

/// Calls export `__tvm_ffi_<name>` the way the upstream loader does: handle NULL, result None.
int CallExport(void* lib, const char* name, TVMFFIAny* args, int32_t num_args, TVMFFIAny* out) {
  std::string symbol = std::string("__tvm_ffi_") + name;
  auto fn = reinterpret_cast<TVMFFISafeCallType>(dlsym(lib, symbol.c_str()));
  *out = None();
  if (fn == nullptr) {
    TVMFFIErrorSetRaisedFromCStr("LookupError", ("missing symbol " + symbol).c_str());
    return -1;
  }
  return fn(nullptr, args, num_args, out);
}

void Check(void* lib, const char* key, const char* name, TVMFFIAny* args, int32_t num_args) {
  TVMFFIAny result;
  int rc = CallExport(lib, name, args, num_args, &result);
  Print(key, ResultOrError(rc, &result));
}

int CollectRuntime(dl_phdr_info* info, size_t, void* data) {
  const char* path = info->dlpi_name;
  if (path != nullptr && std::strstr(path, "libtvm_ffi.so") != nullptr) {
    auto* seen = static_cast<std::string*>(data);
    *seen += (seen->empty() ? "" : ",") + std::string(path);
  }
  return 0;
}

void ReportRuntime() {
  TVMFFIVersion version;
  TVMFFIGetVersion(&version);
  Print("version_patch", std::to_string(version.patch));
  std::string loaded;
  dl_iterate_phdr(CollectRuntime, &loaded);
  Print("runtime", loaded);
}

/// The host's callback: doubles an int, raises RuntimeError for anything else.
int Doubler(void*, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  if (num_args != 1 || args[0].type_index != kTVMFFIInt) {
    TVMFFIErrorSetRaisedFromCStr("RuntimeError", "doubler wants one int");
    return -1;
  }
  *result = Int(args[0].v_int64 * 2);
  return 0;
}

int Failing(void*, const TVMFFIAny*, int32_t, TVMFFIAny*) {
  TVMFFIErrorSetRaisedFromCStr("RuntimeError", "callback failed");
  return -1;
}

void CheckCallback(void* lib, const char* key, TVMFFISafeCallType callback) {
  TVMFFIObjectHandle fn = nullptr;
  if (TVMFFIFunctionCreate(nullptr, callback, nullptr, &fn) != 0) {
    Print(key, "ERROR " + TakeError());
    return;
  }
  TVMFFIAny args[2] = {ObjectView(fn, kTVMFFIFunction), Int(5)};
  Check(lib, key, "apply_twice", args, 2);
  TVMFFIObjectDecRef(fn);
}

void CheckScalars(void* lib) {
  TVMFFIAny args[1] = {Int(41)};
  Check(lib, "add_one", "add_one", args, 1);
  args[0] = RawStr("x");
  Check(lib, "add_one_bad_arg", "add_one", args, 1);
  args[0] = Bool(true);
  Check(lib, "add_one_bool", "add_one", args, 1);
  args[0] = RawStr("compat");
  Check(lib, "greet", "greet", args, 1);
  args[0] = SmallStr("tiny");
  Check(lib, "greet_small_str", "greet", args, 1);
  args[0] = Int(5);
  Check(lib, "check_positive_ok", "check_positive", args, 1);
  args[0] = Int(-3);
  Check(lib, "check_positive_error", "check_positive", args, 1);
}

/// greet() with a Str object that the runtime allocated (TVMFFIStringFromByteArray).
void CheckRuntimeString(void* lib) {
  const char* text = "a runtime-owned string";
  TVMFFIByteArray bytes{text, std::strlen(text)};
  TVMFFIAny str = None();
  if (TVMFFIStringFromByteArray(&bytes, &str) != 0) {
    Print("greet_runtime_str", "ERROR " + TakeError());
    return;
  }
  Print("runtime_str_type_key", TypeKey(str.type_index));
  Check(lib, "greet_runtime_str", "greet", &str, 1);
  if (str.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(str.v_obj);
}

/// make_obj(7): checks the type key, the field at handle + 24 and the round trip to obj_value.
void CheckObject(void* lib) {
  TVMFFIAny args[1] = {Int(7)};
  TVMFFIAny obj;
  if (CallExport(lib, "make_obj", args, 1, &obj) != 0) {
    Print("object_type_key", "ERROR " + TakeError());
    return;
  }
  Print("object_type_key", TypeKey(obj.type_index));
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(obj.type_index);
  Print("object_parent", info->type_depth == 1 ? ToString(info->type_ancestors[0]->type_key)
                                               : "depth " + std::to_string(info->type_depth));
  Print("object_is_dynamic", obj.type_index >= kTVMFFIDynObjectBegin ? "yes" : "no");
  int32_t by_key = -1;
  TVMFFIByteArray key{"compat.MyObj", std::strlen("compat.MyObj")};
  int rc = TVMFFITypeKeyToIndex(&key, &by_key);
  Print("object_index_by_key", rc == 0 && by_key == obj.type_index ? "match" : "mismatch");
  Print("object_field", std::to_string(*reinterpret_cast<int64_t*>(
                            reinterpret_cast<char*>(obj.v_obj) + kHeaderSize)));
  args[0] = ObjectView(obj.v_obj, obj.type_index);
  Check(lib, "object_value", "obj_value", args, 1);
  TVMFFIObjectDecRef(obj.v_obj);
}

void CheckObjectTypeMismatch(void* lib) {
  TVMFFIObjectHandle fn = nullptr;
  if (TVMFFIFunctionCreate(nullptr, Doubler, nullptr, &fn) != 0) {
    Print("object_value_wrong_type", "ERROR creating the argument: " + TakeError());
    return;
  }
  TVMFFIAny args[1] = {ObjectView(fn, kTVMFFIFunction)};
  Check(lib, "object_value_wrong_type", "obj_value", args, 1);
  TVMFFIObjectDecRef(fn);
}

/// compat.mul was registered by the library's TVM_FFI_STATIC_INIT_BLOCK during dlopen.
void CheckGlobal() {
  TVMFFIByteArray name{"compat.mul", std::strlen("compat.mul")};
  TVMFFIObjectHandle fn = nullptr;
  if (TVMFFIFunctionGetGlobal(&name, &fn) != 0 || fn == nullptr) {
    Print("global_mul", fn == nullptr ? "ERROR not registered" : "ERROR " + TakeError());
    return;
  }
  TVMFFIAny args[2] = {Int(6), Int(7)};
  TVMFFIAny result = None();
  int rc = TVMFFIFunctionCall(fn, args, 2, &result);
  Print("global_mul", ResultOrError(rc, &result));
  TVMFFIObjectDecRef(fn);
}

/// Calls global function `name` with borrowed args; an error is rendered into the result text.
std::string CallGlobal(const char* name, TVMFFIAny* args, int32_t num_args, TVMFFIAny* out) {
  TVMFFIByteArray bytes{name, std::strlen(name)};
  TVMFFIObjectHandle fn = nullptr;
  *out = None();
  if (TVMFFIFunctionGetGlobal(&bytes, &fn) != 0) return "ERROR " + TakeError();
  if (fn == nullptr) return std::string("ERROR missing global ") + name;
  int rc = TVMFFIFunctionCall(fn, args, num_args, out);
  TVMFFIObjectDecRef(fn);
  return rc == 0 ? "" : "ERROR " + TakeError();
}

/// The stable-C host path: ffi.Module.load_from_file.so, then ffi.ModuleGetFunction.
void CheckModuleLoader(const char* path) {
  TVMFFIAny args[3] = {RawStr(path), RawStr(""), None()};
  TVMFFIAny mod;
  std::string failure = CallGlobal("ffi.Module.load_from_file.so", args, 2, &mod);
  if (!failure.empty() || mod.type_index < kTVMFFIStaticObjectBegin) {
    Print("module_add_one", failure.empty() ? "ERROR not a module: " + Describe(&mod) : failure);
    return;
  }
  Print("module_type_key", TypeKey(mod.type_index));
  const char* names[2] = {"add_one", "no_such_function"};
  for (const char* name : names) {
    TVMFFIAny fn;
    args[0] = ObjectView(mod.v_obj, mod.type_index);
    args[1] = RawStr(name);
    args[2] = Bool(false);
    failure = CallGlobal("ffi.ModuleGetFunction", args, 3, &fn);
    std::string key = std::string("module_") + name;
    if (!failure.empty() || fn.type_index != kTVMFFIFunction) {
      Print(key.c_str(), failure.empty() ? Describe(&fn) : failure);
      continue;
    }
    TVMFFIAny call_args[1] = {Int(41)};
    TVMFFIAny result = None();
    int rc = TVMFFIFunctionCall(fn.v_obj, call_args, 1, &result);
    Print(key.c_str(), ResultOrError(rc, &result));
    TVMFFIObjectDecRef(fn.v_obj);
  }
  TVMFFIObjectDecRef(mod.v_obj);
}

void CheckCLibrary(void* lib) {
  TVMFFIAny args[2] = {Int(2), Int(3)};
  Check(lib, "c_add", "c_add", args, 2);
  args[1] = RawStr("x");
  Check(lib, "c_add_error", "c_add", args, 2);
}

void* Open(const char* path) {
  void* lib = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
  if (lib == nullptr) std::fprintf(stderr, "driver: dlopen failed: %s\n", dlerror());
  return lib;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: driver <compat_lib.so> <compat_c_lib.so>\n");
    return 2;
  }
  ReportRuntime();
  void* cpp_lib = Open(argv[1]);
  void* c_lib = Open(argv[2]);
  if (cpp_lib == nullptr || c_lib == nullptr) return 1;
  CheckScalars(cpp_lib);
  CheckRuntimeString(cpp_lib);
  CheckCallback(cpp_lib, "callback", Doubler);
  CheckCallback(cpp_lib, "callback_error", Failing);
  CheckObject(cpp_lib);
  CheckObjectTypeMismatch(cpp_lib);
  CheckGlobal();
  CheckCLibrary(c_lib);
  CheckModuleLoader(argv[1]);
  // The libraries stay loaded: the global registry still holds compat.mul, whose code and
  // deleter live in compat_lib (docs/abi.md, 'Loading a library').
  std::fflush(stdout);
  return 0;
}

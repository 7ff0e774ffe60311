// SPDX-License-Identifier: Apache-2.0
// module_host.cc: a C++ host in the style of Apache's quick start. It loads module_lib.so with
// Module::LoadFromFile, calls every ModuleObj virtual on the library module the runtime made
// and on the client-defined module the library made, and runs the tensor kernel.
//
// Usage: module_host <module_lib.so> <scratch file>
// Prints one `key=value` line per check; test_module_compat.py asserts the values. It links
// against whichever libtvm_ffi.so the dynamic linker finds.
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/module.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

namespace {

using tvm::ffi::Array;
using tvm::ffi::Bytes;
using tvm::ffi::Function;
using tvm::ffi::Module;
using tvm::ffi::Optional;
using tvm::ffi::String;
using tvm::ffi::Tensor;

void Print(const char* key, const std::string& value) {
  std::printf("%s=%s\n", key, value.c_str());
}

std::string Text(const Optional<String>& value) {
  return value.has_value() ? std::string(*value) : std::string("None");
}

std::string Join(const Array<String>& items) {
  std::string out;
  for (const String& item : items) out += (out.empty() ? "" : ",") + std::string(item);
  return out;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// Allocates tensor data with malloc, as a host's own allocator would.
struct MallocAlloc {
  void AllocData(DLTensor* tensor) {
    tensor->data = std::malloc(static_cast<size_t>(tensor->shape[0]) * sizeof(float));
  }
  void FreeData(DLTensor* tensor) { std::free(tensor->data); }
};

void CheckLibraryModule(Module lib) {
  Print("lib_kind", lib->kind());
  Print("lib_mask", std::to_string(lib->GetPropertyMask()));
  Print("lib_implements_add_one", lib->ImplementsFunction("add_one") ? "yes" : "no");
  Print("lib_implements_missing", lib->ImplementsFunction("missing") ? "yes" : "no");
  Print("lib_missing_function", lib->GetFunction("missing").has_value() ? "found" : "None");
}

void CheckCounterModule(Module lib, Module counter, const std::string& scratch) {
  Print("counter_kind", counter->kind());
  Print("counter_mask", std::to_string(counter->GetPropertyMask()));
  Function triple = counter->GetFunction("triple").value();
  Print("counter_triple", std::to_string(triple(14).cast<int64_t>()));
  Print("counter_missing", counter->GetFunction("missing").has_value() ? "found" : "None");
  Print("counter_implements", counter->ImplementsFunction("triple") ? "yes" : "no");
  Print("counter_doc", Text(counter->GetFunctionDoc("triple")));
  Print("counter_metadata", Text(counter->GetFunctionMetadata("triple")));
  Print("counter_no_doc", Text(counter->GetFunctionDoc("fail")));
  counter->WriteToFile(scratch, "txt");
  Print("counter_written", ReadFile(scratch));
  Print("counter_formats", Join(counter->GetWriteFormats()));
  Bytes saved = counter->SaveToBytes();
  Print("counter_saved", std::to_string(saved.size()) + ":" + std::string(saved.data() + 2, 5));
  Print("counter_source", counter->InspectSource("c"));
  counter->ImportModule(lib);
  Print("counter_imports", std::to_string(counter->imports().size()));
  Print("counter_via_imports",
        counter->GetFunction("add_one", true).has_value() ? "found" : "None");
  Print("counter_doc_via_imports", Text(counter->GetFunctionDoc("triple", true)));
  counter->ClearImports();
  Print("counter_imports_cleared", std::to_string(counter->imports().size()));
  Function calls = lib->GetFunction("counter_calls").value();
  Print("counter_override_calls", std::to_string(calls(counter).cast<int64_t>()));
  try {
    counter->GetFunction("fail").value()(5);
    Print("counter_fail", "no error");
  } catch (const tvm::ffi::Error& error) {
    Print("counter_fail", error.kind() + ": " + error.message());
  }
}

void CheckAddOne(Module lib) {
  Function add_one = lib->GetFunction("add_one").value();
  DLDataType f32{kDLFloat, 32, 1};
  DLDevice cpu{kDLCPU, 0};
  Tensor x = Tensor::FromNDAlloc(MallocAlloc(), {4}, f32, cpu);
  Tensor y = Tensor::FromNDAlloc(MallocAlloc(), {4}, f32, cpu);
  for (int i = 0; i < 4; ++i) static_cast<float*>(x.data_ptr())[i] = static_cast<float>(i) * 1.5f;
  add_one(x, y);
  std::string out;
  for (int i = 0; i < 4; ++i) {
    out += (i ? "," : "") + std::to_string(static_cast<float*>(y.data_ptr())[i]).substr(0, 4);
  }
  Print("add_one", out);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: module_host <module_lib.so> <scratch file>\n");
    return 2;
  }
  try {
    Module lib = Module::LoadFromFile(argv[1]);
    CheckLibraryModule(lib);
    Module counter = lib->GetFunction("make_counter_module").value()().cast<Module>();
    CheckCounterModule(lib, counter, argv[2]);
    CheckAddOne(lib);
  } catch (const tvm::ffi::Error& error) {
    std::printf("uncaught=%s: %s\n", error.kind().c_str(), error.message().c_str());
    return 1;
  }
  return 0;
}

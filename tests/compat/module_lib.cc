// SPDX-License-Identifier: Apache-2.0
// module_lib.cc: a module class defined by a client library (it overrides every ModuleObj
// virtual) and a tensor kernel, built against either header set. module_host.cc and
// test_module_compat.py call them across runtimes: a vtable slot out of place shows up as a
// wrong value or a crash.
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/module.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <fstream>
#include <string>

namespace compat {

using tvm::ffi::Array;
using tvm::ffi::Bytes;
using tvm::ffi::Function;
using tvm::ffi::Module;
using tvm::ffi::ModuleObj;
using tvm::ffi::Optional;
using tvm::ffi::String;

/// Returns a recognisable answer from every virtual, so a call landing in the wrong slot shows.
class CounterModuleObj : public ModuleObj {
 public:
  const char* kind() const final { return "compat_counter"; }
  int GetPropertyMask() const final { return 0b101; }
  Optional<Function> GetFunction(const String& name) final {
    if (name == "triple") return Function::FromTyped([](int64_t x) { return x * 3; });
    if (name == "fail") {
      return Function::FromTyped([](int64_t x) -> int64_t {
        TVM_FFI_THROW(ValueError) << "fail got " << x;
        TVM_FFI_UNREACHABLE();
      });
    }
    return std::nullopt;
  }
  bool ImplementsFunction(const String& name) final { return name == "triple" || name == "fail"; }
  Optional<String> GetFunctionDoc(const String& name) final {
    if (name != "triple") return std::nullopt;
    return String("Multiplies its argument by three; a docstring longer than a small string.");
  }
  Optional<String> GetFunctionMetadata(const String& name) final {
    if (name != "triple") return std::nullopt;
    return String("{\"n\":1}");
  }
  void WriteToFile(const String& file_name, const String& format) const final {
    std::ofstream(std::string(file_name)) << "counter as " << std::string(format);
  }
  Array<String> GetWriteFormats() const final { return Array<String>({"txt", "counter"}); }
  Bytes SaveToBytes() const final { return Bytes(std::string("\x01\x00saved", 7)); }
  String InspectSource(const String& format) const final {
    return String("source in " + std::string(format));
  }
  void ImportModule(const Module& other) final {
    ++import_calls_;
    ModuleObj::ImportModule(other);
  }
  void ClearImports() final {
    clear_calls_ += 10;
    ModuleObj::ClearImports();
  }

  int64_t import_calls_ = 0;
  int64_t clear_calls_ = 0;
};

Module MakeCounterModule() { return Module(tvm::ffi::make_object<CounterModuleObj>()); }

/// How often the module's own ImportModule and ClearImports overrides ran (10 per clear).
int64_t CounterCalls(Module module) {
  auto* counter = static_cast<CounterModuleObj*>(module.operator->());
  return counter->import_calls_ + counter->clear_calls_;
}

/// The get-started kernel: y = x + 1 on 1-D float32 CPU tensors.
void AddOne(tvm::ffi::TensorView x, tvm::ffi::TensorView y) {
  TVM_FFI_ICHECK(x.ndim() == 1 && y.ndim() == 1 && x.size(0) == y.size(0)) << "shape mismatch";
  const float* in = static_cast<const float*>(x.data_ptr());
  float* out = static_cast<float*>(y.data_ptr());
  for (int64_t i = 0; i < x.size(0); ++i) out[i] = in[i] + 1.0f;
}

}  // namespace compat

TVM_FFI_DLL_EXPORT_TYPED_FUNC(make_counter_module, compat::MakeCounterModule);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(counter_calls, compat::CounterCalls);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_one, compat::AddOne);

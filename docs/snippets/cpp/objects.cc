// SPDX-License-Identifier: Apache-2.0
// objects.cc: an object type of the guide's library, with fields and methods that Python sees
// through reflection, and the reference class C++ code passes it around with.
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <utility>

namespace cpp_guide {
namespace ffi = tvm::ffi;

// [object-begin]
// The object: the data, allocated once and shared by reference counting.
class KernelConfigObj : public ffi::Object {
 public:
  ffi::String name;
  int64_t block_size;
  ffi::Array<ffi::String> tags;

  KernelConfigObj(ffi::String name, int64_t block_size)
      : name(std::move(name)), block_size(block_size) {}

  int64_t NumBlocks(int64_t n) const { return (n + block_size - 1) / block_size; }

  // Objects are immutable unless they say otherwise; def_rw fields need this.
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("cpp_guide.KernelConfig", KernelConfigObj, ffi::Object);
};
// [object-end]

// [object-ref-begin]
// The reference: what C++ code holds, passes and returns (like a shared_ptr).
class KernelConfig : public ffi::ObjectRef {
 public:
  KernelConfig(ffi::String name, int64_t block_size)
      : ObjectRef(ffi::make_object<KernelConfigObj>(std::move(name), block_size)) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(KernelConfig, ffi::ObjectRef, KernelConfigObj);
};

// A function taking the reference: Python passes a KernelConfig, anything else is a TypeError.
int64_t TotalThreads(const KernelConfig& config, int64_t n) {
  return config->NumBlocks(n) * config->block_size;
}

// Returning the reference hands the object to the caller, who shares it from then on.
KernelConfig DefaultConfig() { return KernelConfig("default", 256); }

TVM_FFI_DLL_EXPORT_TYPED_FUNC(total_threads, TotalThreads);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(default_config, DefaultConfig);
// [object-ref-end]

// [reflection-begin]
// Runs when the library is loaded: describes the type to every language that uses it.
TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = ffi::reflection;
  refl::ObjectDef<KernelConfigObj>()
      .def_ro("name", &KernelConfigObj::name, "The kernel's name (read-only).")
      .def_rw("block_size", &KernelConfigObj::block_size, "Threads per block.")
      .def_rw("tags", &KernelConfigObj::tags, "Free-form labels.")
      .def(refl::init<ffi::String, int64_t>())
      .def("num_blocks", &KernelConfigObj::NumBlocks, "Blocks needed for n elements.")
      .def_static("for_name", [](ffi::String name) { return KernelConfig(std::move(name), 256); });
}
// [reflection-end]

}  // namespace cpp_guide

// SPDX-License-Identifier: Apache-2.0
// object.cc: versions, C reference counting, opaque objects and the object allocator hook.
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>

#include <cstdint>
#include <cstdlib>

namespace tvm {
namespace ffi {
namespace {

/// An OpaquePyObject (index 74): header + TVMFFIOpaqueObjectCell, with a foreign deleter.
class OpaqueObj : public Object, public TVMFFIOpaqueObjectCell {
 public:
  static constexpr const int32_t _type_index = TypeIndex::kTVMFFIOpaquePyObject;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFIOpaquePyObject, OpaqueObj, Object);

  OpaqueObj(void* foreign, void (*deleter)(void*)) : deleter_(deleter) { this->handle = foreign; }
  ~OpaqueObj() {
    if (deleter_ != nullptr) deleter_(this->handle);
  }

 private:
  void (*deleter_)(void*);
};

/// Bytes in front of every body made by the built-in allocator (header in the last 8).
constexpr size_t kAllocPrefix = 16;

void BuiltinDeleteSpace(void* body) { std::free(static_cast<char*>(body) - kAllocPrefix); }

/// The TVMFFICustomAllocator contract: on failure, raise the error and return NULL.
void* BuiltinAllocate(size_t size, size_t alignment, int32_t, void*) {
  if (alignment > kAllocPrefix) {
    TVMFFIErrorSetRaisedFromCStr(
        "ValueError", "TVMFFICustomAllocator.allocate: alignment above 16 bytes is not supported");
    return nullptr;
  }
  void* block = nullptr;
  if (size <= SIZE_MAX - 2 * kAllocPrefix) {
    block = std::aligned_alloc(kAllocPrefix, (size + 2 * kAllocPrefix - 1) & ~(kAllocPrefix - 1));
  }
  if (block == nullptr) {
    TVMFFIErrorSetRaisedFromCStr("MemoryError", "TVMFFICustomAllocator.allocate: out of memory");
    return nullptr;
  }
  char* body = static_cast<char*>(block) + kAllocPrefix;
  reinterpret_cast<TVMFFIObjectAllocHeader*>(body - sizeof(TVMFFIObjectAllocHeader))->delete_space =
      BuiltinDeleteSpace;
  return body;
}

TVMFFICustomAllocator kBuiltinAllocator{BuiltinAllocate, nullptr};
TVMFFICustomAllocator* current_allocator = &kBuiltinAllocator;

}  // namespace
}  // namespace ffi
}  // namespace tvm

using namespace tvm::ffi;  // NOLINT(build/namespaces)

extern "C" {

void TVMFFIGetVersion(TVMFFIVersion* out_version) {
  out_version->major = TVM_FFI_VERSION_MAJOR;
  out_version->minor = TVM_FFI_VERSION_MINOR;
  out_version->patch = TVM_FFI_VERSION_PATCH;
}

int TVMFFIObjectIncRef(TVMFFIObjectHandle obj) {
  details::ObjectUnsafe::IncRefObjectHandle(obj);
  return 0;
}

int TVMFFIObjectDecRef(TVMFFIObjectHandle obj) {
  details::ObjectUnsafe::DecRefObjectHandle(obj);
  return 0;
}

int TVMFFIObjectCreateOpaque(void* handle, int32_t type_index, void (*deleter)(void* handle),
                             TVMFFIObjectHandle* out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  if (type_index != kTVMFFIOpaquePyObject) {
    TVM_FFI_THROW(RuntimeError) << "TVMFFIObjectCreateOpaque(): only type index "
                                << kTVMFFIOpaquePyObject
                                << " (ffi.OpaquePyObject) is supported, got " << type_index;
  }
  *out = details::ObjectUnsafe::MoveObjectPtrToHandle(make_object<OpaqueObj>(handle, deleter));
  TVM_FFI_SAFE_CALL_END();
}

TVMFFICustomAllocator* TVMFFIGetCustomAllocator(void) { return current_allocator; }

int TVMFFISetCustomAllocator(TVMFFICustomAllocator* allocator) {
  current_allocator = allocator != nullptr ? allocator : &kBuiltinAllocator;
  return 0;
}

}  // extern "C"

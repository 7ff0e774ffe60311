// SPDX-License-Identifier: Apache-2.0
// memory.h: allocation of objects (make_object, in-place arrays) with library-local deleters.
#ifndef TVM_FFI_MEMORY_H_
#define TVM_FFI_MEMORY_H_

#include <tvm/ffi/object.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {

#if defined(__GNUC__) || defined(__clang__)
/// Turns off UBSan's dynamic-type check of casts in a function (see StorageOf).
#define TVM_FFI_NO_SANITIZE_VPTR __attribute__((no_sanitize("vptr")))
#else
#define TVM_FFI_NO_SANITIZE_VPTR
#endif

/// The deleter type stored in every object header.
using FObjectDeleter = void (*)(void* obj, int flags);

namespace details {

/// Allocates storage aligned for T plus extra bytes; frees with FreeStorage.
inline void* AllocateStorage(size_t size, size_t align) {
  if (align <= alignof(std::max_align_t)) {
    void* ptr = std::malloc(size);
    if (ptr == nullptr) throw std::bad_alloc();
    return ptr;
  }
  void* ptr = nullptr;
  if (posix_memalign(&ptr, align, size) != 0) throw std::bad_alloc();
  return ptr;
}

inline void FreeStorage(void* ptr) { std::free(ptr); }

/// size bytes aligned to align (a power of two); std::bad_alloc when out of memory. Release the
/// block with AlignedFree.
inline void* AlignedAlloc(size_t size, size_t align) { return AllocateStorage(size, align); }
/// Releases a block of AlignedAlloc.
inline void AlignedFree(void* data) noexcept { FreeStorage(data); }

/// header + count * elem_size bytes; throws std::bad_alloc when count is negative or the size
/// does not fit in size_t (a huge requested count must not wrap around to a small buffer).
inline size_t CheckedAllocationSize(int64_t count, size_t elem_size, size_t header = 0) {
  if (count < 0 || static_cast<uint64_t>(count) > (SIZE_MAX - header) / elem_size) {
    throw std::bad_alloc();
  }
  return header + static_cast<size_t>(count) * elem_size;
}

/// Base of allocators: writes the header of a freshly constructed object.
template <typename Derived>
class ObjAllocatorBase {  // NOLINT(bugprone-crtp-constructor-accessibility): users derive too
 public:
  template <typename T, typename... Args>
  ObjectPtr<T> make_object(Args&&... args) {
    using Handler = typename Derived::template Handler<T>;
    static_assert(std::is_base_of_v<Object, T>, "make_object can only be used for objects");
    T* ptr = Handler::New(static_cast<Derived*>(this), std::forward<Args>(args)...);
    InitHeader(ptr, T::RuntimeTypeIndex(), Handler::Deleter());
    return ObjectUnsafe::ObjectPtrFromOwned<T>(static_cast<Object*>(ptr));
  }

  template <typename ArrayType, typename ElemType, typename... Args>
  ObjectPtr<ArrayType> make_inplace_array(size_t num_elems, Args&&... args) {
    using Handler = typename Derived::template ArrayHandler<ArrayType, ElemType>;
    ArrayType* ptr =
        Handler::New(static_cast<Derived*>(this), num_elems, std::forward<Args>(args)...);
    InitHeader(ptr, ArrayType::RuntimeTypeIndex(), Handler::Deleter());
    return ObjectUnsafe::ObjectPtrFromOwned<ArrayType>(static_cast<Object*>(ptr));
  }

 private:
  static void InitHeader(Object* obj, int32_t type_index, FObjectDeleter deleter) {
    TVMFFIObject* header = ObjectUnsafe::GetHeader(obj);
    header->combined_ref_count = (1ULL << 32) | 1ULL;
    header->type_index = type_index;
    header->__padding = 0;
    header->deleter = deleter;
  }
};

/// Allocator using malloc/free in the library that includes this header.
class SimpleObjAllocator : public ObjAllocatorBase<SimpleObjAllocator> {
 public:
  /// Constructs T in storage of sizeof(T) + extra_bytes; its deleter frees that storage.
  template <typename T>
  class StorageHandler {
   public:
    template <typename... Args>
    static T* NewWithExtra(size_t extra_bytes, size_t align, Args&&... args) {
      void* storage = AllocateStorage(sizeof(T) + extra_bytes, align);
      try {
        return new (storage) T(std::forward<Args>(args)...);
      } catch (...) {
        FreeStorage(storage);
        throw;
      }
    }
    static FObjectDeleter Deleter() { return Deleter_; }

   private:
    static void Deleter_(void* handle, int flags) {
      if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) {
        static_cast<T*>(ObjectUnsafe::FromHandle(handle))->T::~T();
      }
      if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) FreeStorage(StorageOf(handle));
    }
    /// The storage a T was built in, from its handle. The T may be destroyed already (a weak
    /// reference outlived it): the cast only adjusts the address, so its type check is off.
    TVM_FFI_NO_SANITIZE_VPTR static void* StorageOf(void* handle) {
      return static_cast<void*>(static_cast<T*>(ObjectUnsafe::FromHandle(handle)));
    }
  };

  template <typename T>
  class Handler : public StorageHandler<T> {
   public:
    template <typename... Args>
    static T* New(SimpleObjAllocator*, Args&&... args) {
      return StorageHandler<T>::NewWithExtra(0, alignof(T), std::forward<Args>(args)...);
    }
  };

  template <typename ArrayType, typename ElemType>
  class ArrayHandler : public StorageHandler<ArrayType> {
   public:
    template <typename... Args>
    static ArrayType* New(SimpleObjAllocator*, size_t num_elems, Args&&... args) {
      constexpr size_t kAlign =
          alignof(ArrayType) > alignof(ElemType) ? alignof(ArrayType) : alignof(ElemType);
      size_t extra = CheckedAllocationSize(static_cast<int64_t>(num_elems), sizeof(ElemType),
                                           sizeof(ArrayType)) -
                     sizeof(ArrayType);
      return StorageHandler<ArrayType>::NewWithExtra(extra, kAlign, std::forward<Args>(args)...);
    }
  };
};

}  // namespace details

/// Creates an object of type T (strong 1, weak 1) whose deleter lives in this library.
template <typename T, typename... Args>
inline ObjectPtr<T> make_object(Args&&... args) {
  return details::SimpleObjAllocator().make_object<T>(std::forward<Args>(args)...);
}

/// Allocates a T constructed from args, as a non-null Arc.
template <typename T, typename... Args>
inline Arc<T> make_arc(Args&&... args) {
  return details::ObjectUnsafe::ArcFromObjectPtr(make_object<T>(std::forward<Args>(args)...));
}

/// Creates an object of type ArrayType followed by room for num_elems ElemType values.
template <typename ArrayType, typename ElemType, typename... Args>
inline ObjectPtr<ArrayType> make_inplace_array_object(size_t num_elems, Args&&... args) {
  return details::SimpleObjAllocator().make_inplace_array<ArrayType, ElemType>(
      num_elems, std::forward<Args>(args)...);
}

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_MEMORY_H_

// SPDX-License-Identifier: Apache-2.0
// object.h: the object model: Object, ObjectPtr, WeakObjectPtr, ObjectRef and type declaration.
#ifndef TVM_FFI_OBJECT_H_
#define TVM_FFI_OBJECT_H_

#include <tvm/ffi/base_detail.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/delete_queue.h>

#include <atomic>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {

/// The predefined type indices of the C ABI.
using TypeIndex = TVMFFITypeIndex;
/// Runtime information about a registered type.
using TypeInfo = TVMFFITypeInfo;

/// Tag selecting the constructors that leave an object reference empty on purpose.
struct UnsafeInit {};

namespace details {
/// The words of TVMFFIObject::combined_ref_count (docs/abi.md, 'Reference counting'): the strong
/// count in the low 32 bits, the weak count (strong references together hold one) above it.
inline constexpr uint64_t kCombinedRefCountStrongOne = 1;
inline constexpr uint64_t kCombinedRefCountWeakOne = uint64_t{1} << 32;
inline constexpr uint64_t kCombinedRefCountBothOne =
    kCombinedRefCountWeakOne | kCombinedRefCountStrongOne;
inline constexpr uint64_t kCombinedRefCountMaskUInt32 = kCombinedRefCountWeakOne - 1;

#ifdef TVM_FFI_THREAD_SANITIZER
// ThreadSanitizer does not model fences, so under it each decrement acquires by itself.
inline constexpr std::memory_order kDecRefOrder = std::memory_order_acq_rel;
inline void AcquireBeforeDelete() {}
#else
/// Reference decrements release; the one that reaches zero then acquires before deleting.
inline constexpr std::memory_order kDecRefOrder = std::memory_order_release;
inline void AcquireBeforeDelete() { std::atomic_thread_fence(std::memory_order_acquire); }
#endif
}  // namespace details

/// The type keys of the predefined type indices (docs/abi.md, 'Type indices').
struct StaticTypeKey {
  /// Key of the Any type.
  static constexpr const char* kTVMFFIAny = "Any";
  /// Key of the None type.
  static constexpr const char* kTVMFFINone = "None";
  /// Key of bool.
  static constexpr const char* kTVMFFIBool = "bool";
  /// Key of int.
  static constexpr const char* kTVMFFIInt = "int";
  /// Key of float.
  static constexpr const char* kTVMFFIFloat = "float";
  /// Key of opaque pointers.
  static constexpr const char* kTVMFFIOpaquePtr = "void*";
  /// Key of DataType.
  static constexpr const char* kTVMFFIDataType = "DataType";
  /// Key of Device.
  static constexpr const char* kTVMFFIDevice = "Device";
  /// Key of DLTensor pointers.
  static constexpr const char* kTVMFFIDLTensorPtr = "DLTensor*";
  /// Key of raw C strings.
  static constexpr const char* kTVMFFIRawStr = "const char*";
  /// Key of byte array pointers.
  static constexpr const char* kTVMFFIByteArrayPtr = "TVMFFIByteArray*";
  /// Key of object rvalue references.
  static constexpr const char* kTVMFFIObjectRValueRef = "ObjectRValueRef";
  /// Key of small (inline) strings.
  static constexpr const char* kTVMFFISmallStr = "ffi.SmallStr";
  /// Key of small (inline) bytes.
  static constexpr const char* kTVMFFISmallBytes = "ffi.SmallBytes";
  /// Key of Bytes objects.
  static constexpr const char* kTVMFFIBytes = "ffi.Bytes";
  /// Key of String objects.
  static constexpr const char* kTVMFFIStr = "ffi.String";
  /// Key of Shape objects.
  static constexpr const char* kTVMFFIShape = "ffi.Shape";
  /// Key of Tensor objects.
  static constexpr const char* kTVMFFITensor = "ffi.Tensor";
  /// Key of the Object base.
  static constexpr const char* kTVMFFIObject = "ffi.Object";
  /// Key of Function objects.
  static constexpr const char* kTVMFFIFunction = "ffi.Function";
  /// Key of Array objects.
  static constexpr const char* kTVMFFIArray = "ffi.Array";
  /// Key of Map objects.
  static constexpr const char* kTVMFFIMap = "ffi.Map";
  /// Key of List objects.
  static constexpr const char* kTVMFFIList = "ffi.List";
  /// Key of Dict objects.
  static constexpr const char* kTVMFFIDict = "ffi.Dict";
  /// Key of Module objects.
  static constexpr const char* kTVMFFIModule = "ffi.Module";
  /// Key of Error objects.
  static constexpr const char* kTVMFFIError = "ffi.Error";
  /// Key of opaque Python objects.
  static constexpr const char* kTVMFFIOpaquePyObject = "ffi.OpaquePyObject";
  /// Key of the Unchanged marker.
  static constexpr const char* kTVMFFIUnchanged = "ffi.Unchanged";
  /// Key of VisitInterrupt objects.
  static constexpr const char* kTVMFFIVisitInterrupt = "ffi.VisitInterrupt";
  /// Key of BigInt objects.
  static constexpr const char* kTVMFFIBigInt = "ffi.BigInt";
};

/// The registered type key of a type index (the runtime aborts on unknown indices).
inline std::string TypeIndexToTypeKey(int32_t type_index) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  return std::string(info->type_key.data, info->type_key.size);
}

namespace details {
struct ObjectUnsafe;
/// Registers (or finds) a dynamic type; shared by the DECLARE_OBJECT_INFO macros.
inline int32_t ObjectGetOrAllocTypeIndex(const char* key, int32_t static_index, int32_t depth,
                                         int32_t child_slots, bool can_overflow,
                                         int32_t parent_index) {
  TVMFFIByteArray key_arr{key, std::char_traits<char>::length(key)};
  return TVMFFITypeGetOrAllocIndex(&key_arr, static_index, depth, child_slots, can_overflow ? 1 : 0,
                                   parent_index);
}
}  // namespace details

/// Base of every object: the 24-byte TVMFFIObject header with atomic reference counts.
class Object {
 public:
  /// Construct with zero reference counts and no deleter.
  Object() {
    header_.combined_ref_count = 0;
    header_.type_index = 0;
    header_.__padding = 0;
    header_.deleter = nullptr;
  }
  /// Copying an object copies no header: the copy starts with fresh reference counts.
  Object(const Object&) : Object() {}
  Object& operator=(const Object&) { return *this; }

  /// The runtime type index of this object.
  int32_t type_index() const { return header_.type_index; }
  /// The registered type key of this object.
  std::string GetTypeKey() const { return TypeIndexToTypeKey(header_.type_index); }
  /// The type key hash recorded by the runtime.
  uint64_t GetTypeKeyHash() const { return TVMFFIGetTypeInfo(header_.type_index)->type_key_hash; }
  /// The type key of an index.
  static std::string TypeIndex2Key(int32_t tindex) { return TypeIndexToTypeKey(tindex); }
  /// Whether this object is an instance of TargetType (range check, then ancestors).
  template <typename TargetType>
  inline bool IsInstance() const;
  /// Number of strong references.
  uint64_t use_count() const {
    return AtomicRefCount().load(std::memory_order_relaxed) & kStrongMask;
  }
  /// Whether this is the only reference of any kind: one strong reference and no weak ones.
  bool unique() const {
    return AtomicRefCount().load(std::memory_order_relaxed) == details::kCombinedRefCountBothOne;
  }

  static constexpr const char* _type_key = StaticTypeKey::kTVMFFIObject;
  static constexpr bool _type_final = false;
  static constexpr bool _type_mutable = false;
  static constexpr uint32_t _type_child_slots = 0;
  static constexpr bool _type_child_slots_can_overflow = true;
  static constexpr int32_t _type_depth = 0;
  static constexpr int32_t _type_index = TypeIndex::kTVMFFIObject;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindUnsupported;
  /// Set to true to make every subclass keep this class's `_type_s_eq_hash_kind`.
  static constexpr bool _type_s_eq_hash_subclass_kind_fixed = false;
  /// Return the type index of Object.
  static int32_t RuntimeTypeIndex() { return TypeIndex::kTVMFFIObject; }
  static int32_t _GetOrAllocRuntimeTypeIndex() { return TypeIndex::kTVMFFIObject; }

 protected:
  /// Mask of the strong count in the combined reference count.
  static constexpr uint64_t kStrongMask = details::kCombinedRefCountMaskUInt32;
  /// One weak reference in the combined reference count.
  static constexpr uint64_t kWeakOne = details::kCombinedRefCountWeakOne;
  /// One strong and one weak reference in the combined reference count.
  static constexpr uint64_t kBothOne = details::kCombinedRefCountBothOne;

  /// Return the combined reference count as an atomic.
  std::atomic<uint64_t>& AtomicRefCount() const {
    return *reinterpret_cast<std::atomic<uint64_t>*>(
        const_cast<uint64_t*>(&header_.combined_ref_count));
  }
  /// Add a strong reference.
  void IncRef() { AtomicRefCount().fetch_add(1, std::memory_order_relaxed); }
  /// Drop a strong reference; the last one destroys the object (and frees it without weak ones).
  void DecRef() {
    uint64_t before = AtomicRefCount().fetch_sub(1, details::kDecRefOrder);
    if ((before & kStrongMask) != 1) return;
    details::AcquireBeforeDelete();
    int flags = before == kBothOne ? kTVMFFIObjectDeleterFlagBitMaskBoth
                                   : kTVMFFIObjectDeleterFlagBitMaskStrong;
    details::DeleteQueue::Run(&header_, flags, RunDeleter);
  }
  /// The deletion of an object whose last strong reference is gone: the strong part, then the
  /// weak reference the strong ones held together, or both parts at once.
  static void RunDeleter(TVMFFIObject* header, int flags) {
    Object* self = reinterpret_cast<Object*>(header);
    if (header->deleter) header->deleter(self, flags);
    if (flags == kTVMFFIObjectDeleterFlagBitMaskStrong) self->DecWeakRef();
  }
  /// Add a weak reference.
  void IncWeakRef() { AtomicRefCount().fetch_add(kWeakOne, std::memory_order_relaxed); }
  /// Drop a weak reference; the last reference of any kind frees the memory.
  void DecWeakRef() {
    uint64_t before = AtomicRefCount().fetch_sub(kWeakOne, details::kDecRefOrder);
    if (before == kWeakOne) {
      details::AcquireBeforeDelete();
      if (header_.deleter) header_.deleter(this, kTVMFFIObjectDeleterFlagBitMaskWeak);
    }
  }
  /// Adds a strong reference unless the strong count is already zero.
  bool TryPromoteWeakPtr() {
    uint64_t old = AtomicRefCount().load(std::memory_order_relaxed);
    while ((old & kStrongMask) != 0) {
      if (AtomicRefCount().compare_exchange_weak(old, old + 1, std::memory_order_acq_rel,
                                                 std::memory_order_relaxed)) {
        return true;
      }
    }
    return false;
  }

  /// The C ABI header: reference counts, type index and deleter.
  TVMFFIObject header_;

  template <typename>
  friend class ObjectPtr;
  template <typename>
  friend class WeakObjectPtr;
  friend struct details::ObjectUnsafe;
};

/// An owning pointer holding one strong reference to an object.
template <typename T>
class ObjectPtr {
 public:
  ObjectPtr() = default;
  /// Construct a null pointer.
  ObjectPtr(std::nullptr_t) {}  // NOLINT(*)
  /// Share other's object.
  ObjectPtr(const ObjectPtr& other) : ObjectPtr(other.data_) {}
  /// Share the object of a pointer to a derived type.
  template <typename U, typename = std::enable_if_t<std::is_base_of_v<T, U>>>
  ObjectPtr(const ObjectPtr<U>& other) : ObjectPtr(other.data_) {}  // NOLINT(*)
  ObjectPtr(ObjectPtr&& other) noexcept : data_(other.data_) { other.data_ = nullptr; }
  /// Take the object of a pointer to a derived type, leaving it null.
  template <typename U, typename = std::enable_if_t<std::is_base_of_v<T, U>>>
  ObjectPtr(ObjectPtr<U>&& other) noexcept : data_(other.data_) {  // NOLINT(*)
    other.data_ = nullptr;
  }
  ~ObjectPtr() { reset(); }

  ObjectPtr& operator=(const ObjectPtr& other) {  // NOLINT(bugprone-unhandled-self-assignment)
    ObjectPtr(other).swap(*this);                 // copy and swap: self-assignment is safe
    return *this;
  }
  ObjectPtr& operator=(ObjectPtr&& other) noexcept {
    ObjectPtr(std::move(other)).swap(*this);
    return *this;
  }
  /// Exchange objects with other.
  void swap(ObjectPtr& other) noexcept { std::swap(data_, other.data_); }
  /// Return the object pointer (null when empty).
  T* get() const { return static_cast<T*>(data_); }
  /// Access the object.
  T* operator->() const { return get(); }
  /// Access the object.
  T& operator*() const { return *get(); }
  /// Whether an object is held.
  explicit operator bool() const { return data_ != nullptr; }
  /// Drops the reference held (if any).
  void reset() {
    if (data_ != nullptr) {
      data_->DecRef();
      data_ = nullptr;
    }
  }
  /// Return the number of strong references to the object (0 when null).
  int use_count() const { return data_ != nullptr ? static_cast<int>(data_->use_count()) : 0; }
  /// Whether this is the only strong reference to the object.
  bool unique() const { return data_ != nullptr && data_->unique(); }
  /// Whether both point to the same object.
  bool operator==(const ObjectPtr& other) const { return data_ == other.data_; }
  /// Whether the two point to different objects.
  bool operator!=(const ObjectPtr& other) const { return data_ != other.data_; }
  /// Whether this is null.
  bool operator==(std::nullptr_t) const { return data_ == nullptr; }
  /// Whether this is not null.
  bool operator!=(std::nullptr_t) const { return data_ != nullptr; }

 private:
  explicit ObjectPtr(Object* data) : data_(data) {
    if (data_ != nullptr) data_->IncRef();
  }
  Object* data_{nullptr};

  template <typename>
  friend class ObjectPtr;
  template <typename>
  friend class WeakObjectPtr;
  friend class ObjectRef;
  friend struct details::ObjectUnsafe;
};

/// A non-null owning pointer to an object (made by make_arc): an ObjectPtr whose public API
/// cannot make a null one. Only a moved-from Arc, or one made with UnsafeInit, is null, and must
/// be assigned before use.
template <typename T>
class Arc : public ObjectPtr<T> {
 public:
  Arc() = delete;
  Arc(std::nullptr_t) = delete;  // NOLINT(*)
  Arc(const Arc&) = default;
  Arc(Arc&&) noexcept = default;
  Arc& operator=(const Arc&) = default;
  Arc& operator=(Arc&&) noexcept = default;
  ~Arc() = default;

  /// From an Arc to a derived class.
  template <typename U, std::enable_if_t<std::is_base_of_v<T, U>, int> = 0>
  Arc(const Arc<U>& other)  // NOLINT(*)
      : ObjectPtr<T>(static_cast<const ObjectPtr<U>&>(other)) {}
  /// Take the object of an Arc of a derived type.
  template <typename U, std::enable_if_t<std::is_base_of_v<T, U>, int> = 0>
  Arc(Arc<U>&& other)  // NOLINT(*)
      : ObjectPtr<T>(std::move(static_cast<ObjectPtr<U>&>(other))) {}
  /// A null Arc, to be assigned before use.
  explicit Arc(UnsafeInit) : ObjectPtr<T>(nullptr) {}

 private:
  explicit Arc(ObjectPtr<T> ptr) : ObjectPtr<T>(std::move(ptr)) {}

  using ObjectPtr<T>::reset;
  using ObjectPtr<T>::swap;

  template <typename>
  friend class Arc;
  friend struct details::ObjectUnsafe;
};

/// A weak pointer: keeps the storage alive, not the contents; lock() gives a strong pointer.
template <typename T>
class WeakObjectPtr {
 public:
  WeakObjectPtr() = default;
  /// Construct an empty weak pointer.
  WeakObjectPtr(std::nullptr_t) {}                                      // NOLINT(*)
  WeakObjectPtr(const ObjectPtr<T>& ptr) : WeakObjectPtr(ptr.data_) {}  // NOLINT(*)
  /// A weak pointer to the object of a pointer to a derived class.
  /// Observe the object other observes.
  template <typename U, typename = std::enable_if_t<std::is_base_of_v<T, U>>>
  WeakObjectPtr(const ObjectPtr<U>& ptr) : WeakObjectPtr(ptr.data_) {}  // NOLINT(*)
  WeakObjectPtr(const WeakObjectPtr& other) : WeakObjectPtr(other.data_) {}
  /// Observe the object a weak pointer of a derived type observes.
  template <typename U, typename = std::enable_if_t<std::is_base_of_v<T, U>>>
  WeakObjectPtr(const WeakObjectPtr<U>& other) : WeakObjectPtr(other.data_) {}  // NOLINT(*)
  WeakObjectPtr(WeakObjectPtr&& other) noexcept : data_(other.data_) { other.data_ = nullptr; }
  /// Take the observation of a weak pointer of a derived type, leaving it empty.
  template <typename U, typename = std::enable_if_t<std::is_base_of_v<T, U>>>
  WeakObjectPtr(WeakObjectPtr<U>&& other) noexcept : data_(other.data_) {  // NOLINT(*)
    other.data_ = nullptr;
  }
  WeakObjectPtr& operator=(const WeakObjectPtr& other) {
    WeakObjectPtr(other).swap(*this);
    return *this;
  }
  WeakObjectPtr& operator=(WeakObjectPtr&& other) noexcept {
    WeakObjectPtr(std::move(other)).swap(*this);
    return *this;
  }
  ~WeakObjectPtr() { reset(); }
  /// Exchange observed objects with other.
  void swap(WeakObjectPtr& other) noexcept { std::swap(data_, other.data_); }
  /// A strong pointer, or null when the object has expired.
  ObjectPtr<T> lock() const {
    ObjectPtr<T> result;
    if (data_ != nullptr && data_->TryPromoteWeakPtr()) result.data_ = data_;
    return result;
  }
  /// Stop observing the object.
  void reset() {
    if (data_ != nullptr) {
      data_->DecWeakRef();
      data_ = nullptr;
    }
  }
  /// Return the number of strong references to the observed object (0 when none).
  int use_count() const { return data_ != nullptr ? static_cast<int>(data_->use_count()) : 0; }
  /// Whether the observed object was destroyed (or nothing is observed).
  bool expired() const { return use_count() == 0; }

 private:
  explicit WeakObjectPtr(Object* data) : data_(data) {
    if (data_ != nullptr) data_->IncWeakRef();
  }
  Object* data_{nullptr};

  template <typename>
  friend class WeakObjectPtr;
  friend struct details::ObjectUnsafe;
};

/// Base of reference classes: one ObjectPtr<Object> to the data.
class ObjectRef {
 public:
  ObjectRef() = default;
  /// Construct from a pointer to the object.
  explicit ObjectRef(ObjectPtr<Object> data) : data_(std::move(data)) {}
  /// Construct a null reference without checks, for the object system's own use.
  explicit ObjectRef(UnsafeInit) {}
  TVM_FFI_DEFINE_DEFAULT_COPY_MOVE_AND_ASSIGN(ObjectRef);

  /// Whether both refer to the same object.
  bool same_as(const ObjectRef& other) const { return data_ == other.data_; }
  /// Whether both refer to the same object.
  bool operator==(const ObjectRef& other) const { return data_ == other.data_; }
  /// Whether the two refer to different objects.
  bool operator!=(const ObjectRef& other) const { return data_ != other.data_; }
  /// Order by object address.
  bool operator<(const ObjectRef& other) const { return data_.get() < other.data_.get(); }
  /// Whether an object is referred to.
  bool defined() const { return data_ != nullptr; }
  /// Return the object (null when none).
  const Object* get() const { return data_.get(); }
  /// Access the object.
  const Object* operator->() const { return get(); }
  /// Whether this is the only reference to the object.
  bool unique() const { return data_.unique(); }
  /// Return the number of references to the object (0 when none).
  int use_count() const { return data_.use_count(); }
  /// Type index of the object, 0 (None) when null.
  int32_t type_index() const { return data_ != nullptr ? data_->type_index() : kTVMFFINone; }
  /// Type key of the object, "None" when null.
  std::string GetTypeKey() const {
    return data_ != nullptr ? data_->GetTypeKey() : StaticTypeKey::kTVMFFINone;
  }
  /// The object as ObjectType, or nullptr when it is not one.
  template <typename ObjectType, typename = std::enable_if_t<std::is_base_of_v<Object, ObjectType>>>
  const ObjectType* as() const& {
    if (data_ != nullptr && data_->IsInstance<ObjectType>()) {
      return static_cast<const ObjectType*>(data_.get());
    }
    return nullptr;
  }
  // The members below ask TypeTraits<RefType> whether the object is a RefType (so a typed
  // container checks its elements too); they are defined in type_traits.h.

  /// The reference as RefType when TypeTraits<RefType> accepts the object strictly (a null
  /// source gives a null RefType when RefType is nullable).
  template <typename RefType, typename = std::enable_if_t<std::is_base_of_v<ObjectRef, RefType>>>
  std::optional<RefType> as() const&;
  /// Like as<RefType>(), moving the reference out on success (this is then null).
  template <typename RefType, typename = std::enable_if_t<std::is_base_of_v<ObjectRef, RefType>>>
  std::optional<RefType> as() &&;
  /// The reference as RefType; TypeError "Cannot treat type `<got>` as type `<RefType>`" when
  /// as<RefType>() would give nothing.
  template <typename RefType, typename = std::enable_if_t<std::is_base_of_v<ObjectRef, RefType>>>
  RefType as_or_throw() const&;
  /// Like as_or_throw<RefType>(), moving the reference out on success.
  template <typename RefType, typename = std::enable_if_t<std::is_base_of_v<ObjectRef, RefType>>>
  RefType as_or_throw() &&;

  /// The object type this reference refers to.
  using ContainerType = Object;
  static constexpr bool _type_is_nullable = true;
  /// Whether every object of ContainerType is a valid value of this reference type (false for
  /// references whose values are further constrained, e.g. typed containers).
  static constexpr bool _type_container_is_exact = true;

 protected:
  /// Return the object, mutable, for subclasses.
  Object* get_mutable() const { return data_.get(); }
  /// The pointer to the object.
  ObjectPtr<Object> data_;
  friend struct details::ObjectUnsafe;
};

template <typename... V>
class Variant;

/// Identity hash of object references.
struct ObjectPtrHash {
  /// Hash the object address.
  size_t operator()(const ObjectRef& a) const { return std::hash<const Object*>()(a.get()); }
  /// Hash the object address.
  template <typename T>
  size_t operator()(const ObjectPtr<T>& a) const {
    return std::hash<const Object*>()(a.get());
  }
  /// The object a Variant of ObjectRef types holds (defined in container/variant.h).
  template <typename... V>
  size_t operator()(const Variant<V...>& a) const;
};

/// Identity equality of object references.
struct ObjectPtrEqual {
  /// Whether both refer to the same object.
  bool operator()(const ObjectRef& a, const ObjectRef& b) const { return a.same_as(b); }
  /// Whether both point to the same object.
  template <typename T>
  bool operator()(const ObjectPtr<T>& a, const ObjectPtr<T>& b) const {
    return a == b;
  }
  /// Whether two Variants of ObjectRef types hold the same object (container/variant.h).
  template <typename... V>
  bool operator()(const Variant<V...>& a, const Variant<V...>& b) const;
};

/// True for classes derived from Object. Generated code specializes it to true for an object
/// class that is only forward-declared, so ObjectPtr/Arc of it can travel in Any and containers.
template <typename T>
inline constexpr bool is_object_subclass_v = std::is_base_of_v<Object, T>;

/// Whether every ObjectType instance is a valid RefType value (GetRef's static check);
/// specialize it for a typed reference whose objects are statically known to be valid.
template <typename RefType, typename ObjectType,
          typename = std::enable_if_t<std::is_base_of_v<ObjectRef, RefType> &&
                                      std::is_base_of_v<Object, ObjectType>>>
inline constexpr bool object_ref_contains_v =
    RefType::_type_container_is_exact &&
    std::is_base_of_v<typename RefType::ContainerType, ObjectType>;

namespace details {
/// Whether T is an object class spelled with const/volatile or reference qualifiers.
template <typename T>
inline constexpr bool is_qualified_object_v =
    ::tvm::ffi::is_object_subclass_v<std::remove_cv_t<std::remove_reference_t<T>>> &&
    !std::is_same_v<T, std::remove_cv_t<std::remove_reference_t<T>>>;
}  // namespace details

namespace details {
/// Raw access to handles and pointers; for runtime and binding code.
struct ObjectUnsafe {
  /// ptr, which must not be null, as an Arc.
  template <typename T>
  static Arc<T> ArcFromObjectPtr(ObjectPtr<T> ptr) {
    return Arc<T>(std::move(ptr));
  }
  static TVMFFIObject* GetHeader(const Object* obj) {
    return const_cast<TVMFFIObject*>(&obj->header_);
  }
  template <typename T>
  static TVMFFIObject* GetHeader(const ObjectPtr<T>& ptr) {
    return ptr.data_ != nullptr ? GetHeader(ptr.data_) : nullptr;
  }
  static TVMFFIObject* GetHeader(const ObjectRef& ref) { return GetHeader(ref.data_); }
  /// The Object behind a handle (the header is the first member of Object).
  static Object* FromHandle(TVMFFIObjectHandle handle) { return reinterpret_cast<Object*>(handle); }
  /// Adopts a handle whose strong reference the caller hands over.
  template <typename T>
  static ObjectPtr<T> ObjectPtrFromOwned(TVMFFIObjectHandle handle) {
    ObjectPtr<T> ptr;
    ptr.data_ = FromHandle(handle);
    return ptr;
  }
  /// Makes a new strong reference from a borrowed handle.
  template <typename T>
  static ObjectPtr<T> ObjectPtrFromUnowned(const Object* obj) {
    return ObjectPtr<T>(const_cast<Object*>(obj));
  }
  template <typename T>
  static ObjectPtr<T> ObjectPtrFromUnowned(TVMFFIObjectHandle handle) {
    return ObjectPtr<T>(FromHandle(handle));
  }
  /// Releases ownership, returning the handle (the caller now owns the reference).
  template <typename T>
  static TVMFFIObjectHandle MoveObjectPtrToHandle(ObjectPtr<T>&& ptr) {
    Object* obj = ptr.data_;
    ptr.data_ = nullptr;
    return obj;
  }
  static TVMFFIObjectHandle MoveObjectRefToHandle(ObjectRef&& ref) {
    return MoveObjectPtrToHandle(std::move(ref.data_));
  }
  static const ObjectPtr<Object>& GetObjectPtr(const ObjectRef& ref) { return ref.data_; }
  template <typename RefType>
  static RefType ObjectRefFromObjectPtr(ObjectPtr<Object> ptr) {
    RefType ref(UnsafeInit{});
    ref.data_ = std::move(ptr);
    return ref;
  }
  static void IncRefObjectHandle(TVMFFIObjectHandle handle) {
    if (handle != nullptr) FromHandle(handle)->IncRef();
  }
  static void DecRefObjectHandle(TVMFFIObjectHandle handle) {
    if (handle != nullptr) FromHandle(handle)->DecRef();
  }
  static void IncWeakRefObjectHandle(TVMFFIObjectHandle handle) {
    FromHandle(handle)->IncWeakRef();
  }
  static void DecWeakRefObjectHandle(TVMFFIObjectHandle handle) {
    FromHandle(handle)->DecWeakRef();
  }

  // Upstream spellings of the accessors above, for code written against Apache's headers.

  /// The allocation header placed right before an object body by a custom allocator.
  static TVMFFIObjectAllocHeader* GetObjectAllocHeaderFromPtr(void* ptr) {
    return reinterpret_cast<TVMFFIObjectAllocHeader*>(static_cast<char*>(ptr) -
                                                      sizeof(TVMFFIObjectAllocHeader));
  }
  /// Offset of the object header inside Class relative to its place in Object (0 unless Class
  /// puts something, such as a vtable pointer, before its Object base).
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
#endif
  template <typename Class>
  static int64_t GetObjectOffsetToSubclass() {
    return static_cast<int64_t>(offsetof(Class, header_)) -
           static_cast<int64_t>(offsetof(Object, header_));
  }
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif
  /// A new strong reference to the object of ref, as ObjectPtr<T> (no type check).
  template <typename T>
  static ObjectPtr<T> ObjectPtrFromObjectRef(const ObjectRef& ref) {
    return ObjectPtr<T>(ref.data_.data_);
  }
  /// The reference held by ref, moved into an ObjectPtr<T> (no type check); ref becomes null.
  template <typename T>
  static ObjectPtr<T> ObjectPtrFromObjectRef(ObjectRef&& ref) {
    return ObjectPtrFromOwned<T>(MoveObjectRefToHandle(std::move(ref)));
  }
  /// The object of a borrowed header as T* (no type check, no new reference).
  template <typename T>
  static T* RawObjectPtrFromUnowned(TVMFFIObject* obj) {
    return static_cast<T*>(FromHandle(obj));
  }
  /// The object of ref (no new reference).
  static Object* RawObjectPtrFromObjectRef(const ObjectRef& ref) { return ref.data_.data_; }
  /// The header of the object of ref, or nullptr (no new reference).
  static TVMFFIObject* TVMFFIObjectPtrFromObjectRef(const ObjectRef& ref) { return GetHeader(ref); }
  /// The header of the object of ptr, or nullptr (no new reference).
  template <typename T>
  static TVMFFIObject* TVMFFIObjectPtrFromObjectPtr(const ObjectPtr<T>& ptr) {
    return GetHeader(ptr);
  }
  /// Hands the reference held by ptr over to the caller as a header; ptr becomes null.
  template <typename T>
  static TVMFFIObject* MoveObjectPtrToTVMFFIObjectPtr(ObjectPtr<T>&& ptr) {
    return static_cast<TVMFFIObject*>(MoveObjectPtrToHandle(std::move(ptr)));
  }
  /// Hands the reference held by ref over to the caller as a header; ref becomes null.
  static TVMFFIObject* MoveObjectRefToTVMFFIObjectPtr(ObjectRef&& ref) {
    return static_cast<TVMFFIObject*>(MoveObjectRefToHandle(std::move(ref)));
  }
};

/// Whether an object of index `object_index` is a TargetType (docs/abi.md, 'Type registration').
template <typename TargetType>
TVM_FFI_INLINE bool IsObjectInstance(int32_t object_index) {
  if constexpr (std::is_same_v<TargetType, Object>) {
    return true;
  } else {
    int32_t target = TargetType::RuntimeTypeIndex();
    if (object_index == target) return true;
    if constexpr (TargetType::_type_final) {
      return false;
    } else {
      if (object_index < target) return false;
      if constexpr (TargetType::_type_child_slots != 0) {
        if (object_index <= target + static_cast<int32_t>(TargetType::_type_child_slots)) {
          return true;
        }
      }
      if constexpr (TargetType::_type_child_slots_can_overflow) {
        const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(object_index);
        return info->type_depth > TargetType::_type_depth &&
               info->type_ancestors[TargetType::_type_depth]->type_index == target;
      } else {
        return false;
      }
    }
  }
}
}  // namespace details

template <typename TargetType>
inline bool Object::IsInstance() const {
  return details::IsObjectInstance<TargetType>(header_.type_index);
}

namespace details {
/// Whether a value of type index `actual` is a `target`: the same index, any value for Any
/// (-1), the small form of a string or bytes target, or a subclass of an object target.
TVM_FFI_INLINE bool RuntimeTypeIndexMatch(int32_t actual, int32_t target) {
  if (actual == target || target == TypeIndex::kTVMFFIAny) return true;
  if (target == TypeIndex::kTVMFFIStr) return actual == TypeIndex::kTVMFFISmallStr;
  if (target == TypeIndex::kTVMFFIBytes) return actual == TypeIndex::kTVMFFISmallBytes;
  if (actual < TypeIndex::kTVMFFIStaticObjectBegin ||
      target < TypeIndex::kTVMFFIStaticObjectBegin) {
    return false;
  }
  if (target == TypeIndex::kTVMFFIObject) return true;
  // Only the value's own type is looked up: target may come from a frontend unchecked.
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(actual);
  for (int32_t depth = 0; depth < info->type_depth; ++depth) {
    if (info->type_ancestors[depth]->type_index == target) return true;
  }
  return false;
}

/// Throws InternalError for GetRef of a null pointer to a non-nullable RefType (in error.h).
template <typename RefType>
[[noreturn]] void ThrowGetRefOfNull();
}  // namespace details

/// A reference of type RefType to an object that is already owned elsewhere (null stays null
/// for a nullable RefType; InternalError otherwise).
template <typename RefType, typename ObjType>
inline RefType GetRef(const ObjType* ptr) {
  static_assert(std::is_base_of_v<typename RefType::ContainerType, ObjType>,
                "GetRef: the reference type cannot hold this object type");
  if constexpr (!RefType::_type_is_nullable) {
    if (ptr == nullptr) details::ThrowGetRefOfNull<RefType>();
  }
  return details::ObjectUnsafe::ObjectRefFromObjectPtr<RefType>(
      details::ObjectUnsafe::ObjectPtrFromUnowned<Object>(static_cast<const Object*>(ptr)));
}

/// A new ObjectPtr<BaseType> to an object that is already owned elsewhere.
template <typename BaseType, typename ObjType>
inline ObjectPtr<BaseType> GetObjectPtr(ObjType* ptr) {
  static_assert(std::is_base_of_v<BaseType, ObjType>, "GetObjectPtr: not a base type");
  return details::ObjectUnsafe::ObjectPtrFromUnowned<BaseType>(static_cast<Object*>(ptr));
}

}  // namespace ffi
}  // namespace tvm

/// Declares the shared part of an object type's static information (key set separately).
#define TVM_FFI_DECLARE_OBJECT_INFO_COMMON_(TypeName, ParentType)        \
  static_assert(!ParentType::_type_final, "ParentType marked as final"); \
  static constexpr int32_t _type_depth = ParentType::_type_depth + 1;    \
  using _type_parent = ParentType;

/// Declares RuntimeTypeIndex(), last, so that the declaring macros end with a function body
/// (a use may or may not add a semicolon).
#define TVM_FFI_DECLARE_RUNTIME_TYPE_INDEX_(TypeName) \
  static int32_t RuntimeTypeIndex() { return TypeName::_GetOrAllocRuntimeTypeIndex(); }

/// Checks, inside a member function (the class is complete there), that TypeName keeps the
/// structural equality/hash kind its parent fixed for all subclasses.
#define TVM_FFI_CHECK_S_EQ_HASH_KIND_KEPT_(TypeName, ParentType)              \
  static_assert(                                                              \
      !ParentType::_type_s_eq_hash_subclass_kind_fixed ||                     \
          TypeName::_type_s_eq_hash_kind == ParentType::_type_s_eq_hash_kind, \
      "Subclass must retain the structural equality and hash kind of its fixed ancestor")

/// Registers a predefined type at the `_type_index` its class declares.
#define TVM_FFI_DECLARE_OBJECT_INFO_STATIC_INDEX_(TypeName, ParentType)                       \
  TVM_FFI_DECLARE_OBJECT_INFO_COMMON_(TypeName, ParentType)                                   \
  static int32_t _GetOrAllocRuntimeTypeIndex() {                                              \
    TVM_FFI_CHECK_S_EQ_HASH_KIND_KEPT_(TypeName, ParentType);                                 \
    static int32_t tindex = ::tvm::ffi::details::ObjectGetOrAllocTypeIndex(                   \
        TypeName::_type_key, TypeName::_type_index, TypeName::_type_depth,                    \
        static_cast<int32_t>(TypeName::_type_child_slots),                                    \
        TypeName::_type_child_slots_can_overflow, ParentType::_GetOrAllocRuntimeTypeIndex()); \
    return tindex;                                                                            \
  }                                                                                           \
  TVM_FFI_DECLARE_RUNTIME_TYPE_INDEX_(TypeName)

/// Declares a dynamically indexed object type whose class declares `_type_key` itself,
/// registered when the library loads.
#define TVM_FFI_DECLARE_OBJECT_INFO_PREDEFINED_TYPE_KEY(TypeName, ParentType)                 \
  TVM_FFI_DECLARE_OBJECT_INFO_COMMON_(TypeName, ParentType)                                   \
  static int32_t _GetOrAllocRuntimeTypeIndex() {                                              \
    TVM_FFI_CHECK_S_EQ_HASH_KIND_KEPT_(TypeName, ParentType);                                 \
    static_assert(ParentType::_type_child_slots == 0 ||                                       \
                      TypeName::_type_child_slots < ParentType::_type_child_slots,            \
                  "Need to set _type_child_slots when parent specifies it.");                 \
    static int32_t tindex = ::tvm::ffi::details::ObjectGetOrAllocTypeIndex(                   \
        TypeName::_type_key, -1, TypeName::_type_depth,                                       \
        static_cast<int32_t>(TypeName::_type_child_slots),                                    \
        TypeName::_type_child_slots_can_overflow, ParentType::_GetOrAllocRuntimeTypeIndex()); \
    return tindex;                                                                            \
  }                                                                                           \
  static inline const int32_t _type_index = _GetOrAllocRuntimeTypeIndex();                    \
  TVM_FFI_DECLARE_RUNTIME_TYPE_INDEX_(TypeName)

/// Declares a dynamically indexed object type, registered when the library loads.
#define TVM_FFI_DECLARE_OBJECT_INFO(TypeKey, TypeName, ParentType) \
  static constexpr const char* _type_key = TypeKey;                \
  TVM_FFI_DECLARE_OBJECT_INFO_PREDEFINED_TYPE_KEY(TypeName, ParentType)

/// Like TVM_FFI_DECLARE_OBJECT_INFO for a type that has no subclasses.
#define TVM_FFI_DECLARE_OBJECT_INFO_FINAL(TypeKey, TypeName, ParentType) \
  static const constexpr int _type_child_slots [[maybe_unused]] = 0;     \
  static const constexpr bool _type_final [[maybe_unused]] = true;       \
  TVM_FFI_DECLARE_OBJECT_INFO(TypeKey, TypeName, ParentType)

/// Declares a predefined type whose class sets `_type_index` itself (docs/abi.md, 'Type indices').
#define TVM_FFI_DECLARE_OBJECT_INFO_STATIC(TypeKey, TypeName, ParentType) \
  static constexpr const char* _type_key = TypeKey;                       \
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC_INDEX_(TypeName, ParentType)

/// Declares a lookup-only type (never registered; resolved by key on first use).
#define TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP(TypeKey, Depth)                       \
  static constexpr const char* _type_key = TypeKey;                              \
  static constexpr int32_t _type_depth = Depth;                                  \
  static constexpr bool _type_mutable = true;                                    \
  static int32_t _GetOrAllocRuntimeTypeIndex() {                                 \
    static int32_t tindex = [] {                                                 \
      TVMFFIByteArray key{_type_key, std::char_traits<char>::length(_type_key)}; \
      int32_t index = -1;                                                        \
      if (TVMFFITypeKeyToIndex(&key, &index) != 0) {                             \
        TVMFFIObjectHandle err = nullptr;                                        \
        TVMFFIErrorMoveFromRaised(&err);                                         \
        TVMFFIObjectDecRef(err);                                                 \
        std::fprintf(stderr, "Unknown type key %s\n", _type_key);                \
        std::abort();                                                            \
      }                                                                          \
      return index;                                                              \
    }();                                                                         \
    return tindex;                                                               \
  }                                                                              \
  static int32_t RuntimeTypeIndex() { return _GetOrAllocRuntimeTypeIndex(); }

/// Reference-class boilerplate for a nullable reference TypeName to ObjectName.
#define TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(TypeName, ParentType, ObjectName)               \
  TypeName() = default;                                                                            \
  explicit TypeName(::tvm::ffi::ObjectPtr<ObjectName> n) : ParentType(std::move(n)) {}             \
  explicit TypeName(::tvm::ffi::UnsafeInit tag) : ParentType(tag) {}                               \
  TVM_FFI_DEFINE_DEFAULT_COPY_MOVE_AND_ASSIGN(TypeName);                                           \
  using __PtrType = std::conditional_t<ObjectName::_type_mutable, ObjectName*, const ObjectName*>; \
  __PtrType operator->() const { return static_cast<__PtrType>(data_.get()); }                     \
  __PtrType get() const { return static_cast<__PtrType>(data_.get()); }                            \
  [[maybe_unused]] static constexpr bool _type_is_nullable = true;                                 \
  using ContainerType = ObjectName

/// Reference-class boilerplate for a non-nullable reference TypeName to ObjectName.
#define TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(TypeName, ParentType, ObjectName)            \
  explicit TypeName(::tvm::ffi::UnsafeInit tag) : ParentType(tag) {}                               \
  TVM_FFI_DEFINE_DEFAULT_COPY_MOVE_AND_ASSIGN(TypeName);                                           \
  using __PtrType = std::conditional_t<ObjectName::_type_mutable, ObjectName*, const ObjectName*>; \
  __PtrType operator->() const { return static_cast<__PtrType>(data_.get()); }                     \
  __PtrType get() const { return static_cast<__PtrType>(data_.get()); }                            \
  [[maybe_unused]] static constexpr bool _type_is_nullable = false;                                \
  using ContainerType = ObjectName

#endif  // TVM_FFI_OBJECT_H_

// SPDX-License-Identifier: Apache-2.0
// test_object.cc: reference counting (docs/abi.md, 'The object header'),
// ObjectPtr/WeakObjectPtr/ObjectRef and IsInstance.
#include <gtest/gtest.h>
#include <tvm/ffi/cast.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "test_utils.h"

namespace {

using tvm::ffi::Arc;
using tvm::ffi::Downcast;
using tvm::ffi::Error;
using tvm::ffi::GetRef;
using tvm::ffi::make_arc;
using tvm::ffi::make_object;
using tvm::ffi::Object;
using tvm::ffi::ObjectPtr;
using tvm::ffi::ObjectRef;
using tvm::ffi::WeakObjectPtr;
using tvm::ffi::details::ObjectUnsafe;
using tvm_ffi_test::RefCountWord;

constexpr uint64_t kStrongAndWeakOne = (1ULL << 32) | 1ULL;

/// A hand-made object: a bare header whose deleter records every flags value it receives.
struct RecordingObject {
  TVMFFIObject header;
  std::vector<int> flags;

  RecordingObject() {
    header.combined_ref_count = kStrongAndWeakOne;
    header.type_index = kTVMFFIObject;
    header.__padding = 0;
    header.deleter = Record;
  }
  static void Record(void* self, int flags) {
    static_cast<RecordingObject*>(self)->flags.push_back(flags);
  }
};

/// An object that counts how often its destructor runs.
class CountedObj : public Object {
 public:
  explicit CountedObj(int* destroyed) : destroyed_(destroyed) {}
  ~CountedObj() { ++*destroyed_; }
  int value = 7;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test_object.Counted", CountedObj, Object);

 private:
  int* destroyed_;
};

class CountedRef : public ObjectRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(CountedRef, ObjectRef, CountedObj);
};

/// A type hierarchy: Base has 2 reserved child slots; later children overflow.
class BaseObj : public Object {
 public:
  static constexpr uint32_t _type_child_slots = 2;
  TVM_FFI_DECLARE_OBJECT_INFO("test_object.Base", BaseObj, Object);
};
/// First child: takes reserved slot Base + 1.
class LeafAObj : public BaseObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test_object.LeafA", LeafAObj, BaseObj);
};
/// Second child (non-final, no slots of its own): takes reserved slot Base + 2.
class MidObj : public BaseObj {
 public:
  static constexpr uint32_t _type_child_slots = 0;
  TVM_FFI_DECLARE_OBJECT_INFO("test_object.Mid", MidObj, BaseObj);
};
/// Third child: the reserved range is full, so its index comes from the global counter.
class LeafCObj : public BaseObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test_object.LeafC", LeafCObj, BaseObj);
};
/// Grandchild through Mid (which has no slots): overflow-allocated.
class GrandObj : public MidObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test_object.Grand", GrandObj, MidObj);
};
/// Fourth child of Base, non-final, overflow-allocated, with its own grandchild.
class Mid2Obj : public BaseObj {
 public:
  static constexpr uint32_t _type_child_slots = 0;
  TVM_FFI_DECLARE_OBJECT_INFO("test_object.Mid2", Mid2Obj, BaseObj);
};
class Grand2Obj : public Mid2Obj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test_object.Grand2", Grand2Obj, Mid2Obj);
};
/// Unrelated type registered after the hierarchy: its index lies above Base's range.
class OtherObj : public Object {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test_object.Other", OtherObj, Object);
};

class BaseRef : public ObjectRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(BaseRef, ObjectRef, BaseObj);
};
class MidRef : public BaseRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(MidRef, BaseRef, MidObj);
};
class NotNullMidRef : public BaseRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(NotNullMidRef, BaseRef, MidObj);
};

// ------------------------------------------------------------------------------------------
// Reference counting
// ------------------------------------------------------------------------------------------

TEST(ObjectRefCount, NewObjectHasStrongOneWeakOne) {
  int destroyed = 0;
  ObjectPtr<CountedObj> ptr = make_object<CountedObj>(&destroyed);
  EXPECT_EQ(RefCountWord(ptr.get()), 0x100000001ULL);
  EXPECT_EQ(ptr->type_index(), CountedObj::RuntimeTypeIndex());
  EXPECT_EQ(ObjectUnsafe::GetHeader(ptr.get())->__padding, 0u);
  EXPECT_NE(ObjectUnsafe::GetHeader(ptr.get())->deleter, nullptr);
}

TEST(ObjectRefCount, CApiIncRefAndDecRefChangeStrongCount) {
  int destroyed = 0;
  ObjectPtr<CountedObj> ptr = make_object<CountedObj>(&destroyed);
  TVMFFIObjectHandle handle = ObjectUnsafe::GetHeader(ptr);
  EXPECT_EQ(TVMFFIObjectIncRef(handle), 0);
  EXPECT_EQ(RefCountWord(ptr.get()), 0x100000002ULL);
  EXPECT_EQ(ptr.use_count(), 2);
  EXPECT_EQ(TVMFFIObjectDecRef(handle), 0);
  EXPECT_EQ(RefCountWord(ptr.get()), 0x100000001ULL);
  EXPECT_EQ(destroyed, 0);
}

TEST(ObjectRefCount, CApiDecRefOfLastReferenceDestroys) {
  int destroyed = 0;
  TVMFFIObjectHandle handle =
      ObjectUnsafe::MoveObjectPtrToHandle(make_object<CountedObj>(&destroyed));
  EXPECT_EQ(TVMFFIObjectDecRef(handle), 0);
  EXPECT_EQ(destroyed, 1);
}

TEST(ObjectRefCount, ObjectPtrCopiesShareOneCount) {
  int destroyed = 0;
  ObjectPtr<CountedObj> a = make_object<CountedObj>(&destroyed);
  {
    ObjectPtr<CountedObj> b = a;
    ObjectPtr<Object> c = b;
    EXPECT_EQ(a.use_count(), 3);
    EXPECT_EQ(RefCountWord(a.get()), 0x100000003ULL);
    EXPECT_FALSE(a.unique());
  }
  EXPECT_EQ(a.use_count(), 1);
  EXPECT_TRUE(a.unique());
  a.reset();
  EXPECT_EQ(destroyed, 1);
  EXPECT_EQ(a, nullptr);
}

TEST(ObjectRefCount, ObjectPtrMoveLeavesSourceNull) {
  int destroyed = 0;
  ObjectPtr<CountedObj> a = make_object<CountedObj>(&destroyed);
  ObjectPtr<Object> b = std::move(a);
  EXPECT_EQ(a, nullptr);  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(b.use_count(), 1);
  EXPECT_EQ(destroyed, 0);
}

TEST(ObjectRefCount, LastReferenceCallsDeleterWithBoth) {
  RecordingObject obj;
  EXPECT_EQ(TVMFFIObjectIncRef(&obj.header), 0);
  EXPECT_EQ(TVMFFIObjectDecRef(&obj.header), 0);
  EXPECT_TRUE(obj.flags.empty());
  EXPECT_EQ(TVMFFIObjectDecRef(&obj.header), 0);
  EXPECT_EQ(obj.flags, std::vector<int>{kTVMFFIObjectDeleterFlagBitMaskBoth});
  // Only the strong unit is subtracted; the deleter frees the storage with the weak unit.
  EXPECT_EQ(obj.header.combined_ref_count, 1ULL << 32);
}

TEST(ObjectRefCount, ObjectPtrReleaseCallsCustomDeleterWithBoth) {
  RecordingObject obj;
  {
    ObjectPtr<Object> ptr = ObjectUnsafe::ObjectPtrFromOwned<Object>(&obj.header);
    ObjectPtr<Object> copy = ptr;
  }
  EXPECT_EQ(obj.flags, std::vector<int>{kTVMFFIObjectDeleterFlagBitMaskBoth});
}

TEST(ObjectRefCount, WeakRefSplitsDeleterIntoStrongThenWeak) {
  RecordingObject obj;
  ObjectPtr<Object> strong = ObjectUnsafe::ObjectPtrFromOwned<Object>(&obj.header);
  WeakObjectPtr<Object> weak(strong);
  EXPECT_EQ(obj.header.combined_ref_count, 0x200000001ULL);
  strong.reset();
  EXPECT_EQ(obj.flags, std::vector<int>{kTVMFFIObjectDeleterFlagBitMaskStrong});
  EXPECT_EQ(obj.header.combined_ref_count, 1ULL << 32);
  weak.reset();
  EXPECT_EQ(obj.flags, (std::vector<int>{kTVMFFIObjectDeleterFlagBitMaskStrong,
                                         kTVMFFIObjectDeleterFlagBitMaskWeak}));
  EXPECT_EQ(obj.header.combined_ref_count, 0u);
}

TEST(ObjectRefCount, WeakRefKeepsStorageAfterDestructor) {
  int destroyed = 0;
  ObjectPtr<CountedObj> strong = make_object<CountedObj>(&destroyed);
  const CountedObj* raw = strong.get();
  WeakObjectPtr<CountedObj> weak(strong);
  strong.reset();
  EXPECT_EQ(destroyed, 1);
  // The storage is still owned by the weak reference, so its header stays readable (ASan
  // reports a use-after-free here if the storage was released early).
  EXPECT_EQ(RefCountWord(raw), 1ULL << 32);
  EXPECT_TRUE(weak.expired());
  weak.reset();
  EXPECT_EQ(destroyed, 1);
}

TEST(ObjectRefCount, DecRefOfNullIsNoOp) { EXPECT_EQ(TVMFFIObjectDecRef(nullptr), 0); }

TEST(ObjectRefCount, DeleterMayBeNull) {
  TVMFFIObject header{};
  header.combined_ref_count = kStrongAndWeakOne;
  header.type_index = kTVMFFIObject;
  header.deleter = nullptr;
  EXPECT_EQ(TVMFFIObjectDecRef(&header), 0);
  EXPECT_EQ(header.combined_ref_count, 1ULL << 32);
}

TEST(ObjectRefCount, ConcurrentCApiIncDecLeavesCountUnchanged) {
  int destroyed = 0;
  ObjectPtr<CountedObj> ptr = make_object<CountedObj>(&destroyed);
  TVMFFIObjectHandle handle = ObjectUnsafe::GetHeader(ptr);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([handle] {
      for (int i = 0; i < 100000; ++i) {
        TVMFFIObjectIncRef(handle);
        TVMFFIObjectDecRef(handle);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(RefCountWord(ptr.get()), 0x100000001ULL);
  EXPECT_EQ(destroyed, 0);
  EXPECT_EQ(ptr->value, 7);
}

TEST(ObjectRefCount, ConcurrentObjectPtrCopiesLeaveCountUnchanged) {
  int destroyed = 0;
  ObjectPtr<CountedObj> ptr = make_object<CountedObj>(&destroyed);
  std::atomic<int64_t> seen{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&ptr, &seen] {
      for (int i = 0; i < 100000; ++i) {
        ObjectPtr<CountedObj> copy = ptr;
        seen.fetch_add(copy->value, std::memory_order_relaxed);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(seen.load(), int64_t{8} * 100000 * 7);
  EXPECT_EQ(ptr.use_count(), 1);
  EXPECT_EQ(destroyed, 0);
  ptr.reset();
  EXPECT_EQ(destroyed, 1);
}

// ------------------------------------------------------------------------------------------
// WeakObjectPtr
// ------------------------------------------------------------------------------------------

TEST(WeakObjectPtr, LockBeforeExpiryGivesStrongRef) {
  int destroyed = 0;
  ObjectPtr<CountedObj> strong = make_object<CountedObj>(&destroyed);
  WeakObjectPtr<CountedObj> weak(strong);
  EXPECT_FALSE(weak.expired());
  ObjectPtr<CountedObj> locked = weak.lock();
  ASSERT_NE(locked, nullptr);
  EXPECT_EQ(locked.get(), strong.get());
  EXPECT_EQ(strong.use_count(), 2);
  EXPECT_EQ(weak.use_count(), 2);
}

TEST(WeakObjectPtr, LockAfterExpiryGivesNull) {
  int destroyed = 0;
  ObjectPtr<CountedObj> strong = make_object<CountedObj>(&destroyed);
  WeakObjectPtr<CountedObj> weak(strong);
  strong.reset();
  EXPECT_TRUE(weak.expired());
  EXPECT_EQ(weak.lock(), nullptr);
  EXPECT_EQ(destroyed, 1);
}

TEST(WeakObjectPtr, CopiesAddWeakReferences) {
  RecordingObject obj;
  ObjectPtr<Object> strong = ObjectUnsafe::ObjectPtrFromOwned<Object>(&obj.header);
  WeakObjectPtr<Object> weak(strong);
  WeakObjectPtr<Object> weak_copy = weak;
  EXPECT_EQ(obj.header.combined_ref_count, 0x300000001ULL);
  strong.reset();
  weak.reset();
  EXPECT_EQ(obj.flags, std::vector<int>{kTVMFFIObjectDeleterFlagBitMaskStrong});
  weak_copy.reset();
  EXPECT_EQ(obj.flags.back(), kTVMFFIObjectDeleterFlagBitMaskWeak);
}

// ------------------------------------------------------------------------------------------
// ObjectRef
// ------------------------------------------------------------------------------------------

TEST(ObjectRef, NullRefReportsNone) {
  ObjectRef ref;
  EXPECT_FALSE(ref.defined());
  EXPECT_EQ(ref.type_index(), 0);
  EXPECT_EQ(ref.GetTypeKey(), "None");
  EXPECT_EQ(ref.use_count(), 0);
  EXPECT_EQ(ref.as<CountedObj>(), nullptr);
}

TEST(ObjectRef, TypeKeyAndIndexOfObject) {
  int destroyed = 0;
  ObjectRef ref(make_object<CountedObj>(&destroyed));
  EXPECT_EQ(ref.GetTypeKey(), "test_object.Counted");
  EXPECT_EQ(ref.type_index(), CountedObj::RuntimeTypeIndex());
  EXPECT_GE(ref.type_index(), kTVMFFIDynObjectBegin);
}

TEST(ObjectRef, AsPointerMatchesOnlyTheRightType) {
  ObjectRef ref(make_object<MidObj>());
  EXPECT_EQ(ref.as<MidObj>(), ref.get());
  EXPECT_EQ(ref.as<BaseObj>(), ref.get());
  EXPECT_EQ(ref.as<LeafAObj>(), nullptr);
  EXPECT_EQ(ref.as<Object>(), ref.get());
}

TEST(ObjectRef, AsRefReturnsOptional) {
  ObjectRef ref(make_object<MidObj>());
  std::optional<MidRef> mid = ref.as<MidRef>();
  ASSERT_TRUE(mid.has_value());
  EXPECT_TRUE(mid->same_as(ref));
  EXPECT_FALSE(ref.as<CountedRef>().has_value());
}

TEST(ObjectRef, AsRefOfNullGivesNullForNullableRef) {
  ObjectRef null_ref;
  std::optional<MidRef> mid = null_ref.as<MidRef>();
  ASSERT_TRUE(mid.has_value());
  EXPECT_FALSE(mid->defined());
  EXPECT_FALSE(null_ref.as<NotNullMidRef>().has_value());
}

TEST(ObjectRef, SameAsComparesIdentity) {
  int destroyed = 0;
  ObjectRef a(make_object<CountedObj>(&destroyed));
  ObjectRef b = a;
  ObjectRef c(make_object<CountedObj>(&destroyed));
  EXPECT_TRUE(a.same_as(b));
  EXPECT_TRUE(a == b);
  EXPECT_FALSE(a.same_as(c));
  EXPECT_TRUE(a != c);
  EXPECT_TRUE(ObjectRef().same_as(ObjectRef()));
}

TEST(ObjectRef, UseCountTracksCopies) {
  int destroyed = 0;
  ObjectRef a(make_object<CountedObj>(&destroyed));
  EXPECT_EQ(a.use_count(), 1);
  EXPECT_TRUE(a.unique());
  {
    ObjectRef b = a;
    EXPECT_EQ(a.use_count(), 2);
    EXPECT_FALSE(a.unique());
  }
  EXPECT_EQ(a.use_count(), 1);
  ObjectRef moved = std::move(a);
  EXPECT_FALSE(a.defined());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(moved.use_count(), 1);
}

TEST(ObjectRef, GetRefAddsAReference) {
  int destroyed = 0;
  CountedRef ref(make_object<CountedObj>(&destroyed));
  const CountedObj* raw = ref.get();
  CountedRef again = GetRef<CountedRef>(raw);
  EXPECT_TRUE(again.same_as(ref));
  EXPECT_EQ(ref.use_count(), 2);
  EXPECT_EQ(again->value, 7);
}

TEST(ObjectRef, GetRefOfNullGivesNullForNullableRef) {
  const CountedObj* null_obj = nullptr;
  CountedRef ref = GetRef<CountedRef>(null_obj);
  EXPECT_FALSE(ref.defined());
}

TEST(ObjectRef, GetRefOfNullToNotNullableRefIsInternalError) {
  const MidObj* null_obj = nullptr;
  try {
    GetRef<NotNullMidRef>(null_obj);
    FAIL() << "GetRef did not throw";
  } catch (const Error& err) {
    EXPECT_EQ(err.kind(), "InternalError");
  }
}

TEST(Downcast, SucceedsForDescendant) {
  BaseRef base(make_object<GrandObj>());
  MidRef mid = Downcast<MidRef>(base);
  EXPECT_TRUE(mid.same_as(base));
  EXPECT_EQ(base.use_count(), 2);
}

TEST(Downcast, NullStaysNullForNullableRef) {
  MidRef mid = Downcast<MidRef>(ObjectRef());
  EXPECT_FALSE(mid.defined());
}

TEST(Downcast, MismatchThrowsTypeError) {
  BaseRef base(make_object<LeafAObj>());
  try {
    Downcast<MidRef>(base);
    FAIL() << "Downcast did not throw";
  } catch (const Error& err) {
    EXPECT_EQ(err.kind(), "TypeError");
    EXPECT_NE(err.message().find("test_object.LeafA"), std::string::npos) << err.message();
    EXPECT_NE(err.message().find("test_object.Mid"), std::string::npos) << err.message();
  }
}

TEST(Downcast, NullToNotNullableThrowsTypeError) {
  try {
    Downcast<NotNullMidRef>(ObjectRef());
    FAIL() << "Downcast did not throw";
  } catch (const Error& err) {
    EXPECT_EQ(err.kind(), "TypeError");
  }
}

// ------------------------------------------------------------------------------------------
// IsInstance over reserved ranges and overflow
// ------------------------------------------------------------------------------------------

TEST(ObjectIsInstance, HierarchyIndicesFollowTheAllocationRule) {
  int32_t base = BaseObj::RuntimeTypeIndex();
  EXPECT_GE(base, kTVMFFIDynObjectBegin);
  EXPECT_EQ(LeafAObj::RuntimeTypeIndex(), base + 1);
  EXPECT_EQ(MidObj::RuntimeTypeIndex(), base + 2);
  EXPECT_GT(LeafCObj::RuntimeTypeIndex(), base + 2);
  EXPECT_GT(GrandObj::RuntimeTypeIndex(), base + 2);
  EXPECT_GT(Mid2Obj::RuntimeTypeIndex(), base + 2);
  EXPECT_GT(Grand2Obj::RuntimeTypeIndex(), Mid2Obj::RuntimeTypeIndex());
  EXPECT_GT(OtherObj::RuntimeTypeIndex(), base + 2);
}

TEST(ObjectIsInstance, TrueForSelf) {
  EXPECT_TRUE(make_object<BaseObj>()->IsInstance<BaseObj>());
  EXPECT_TRUE(make_object<LeafAObj>()->IsInstance<LeafAObj>());
  EXPECT_TRUE(make_object<MidObj>()->IsInstance<MidObj>());
  EXPECT_TRUE(make_object<LeafCObj>()->IsInstance<LeafCObj>());
  EXPECT_TRUE(make_object<GrandObj>()->IsInstance<GrandObj>());
}

TEST(ObjectIsInstance, TrueForRangeAllocatedChildren) {
  EXPECT_TRUE(make_object<LeafAObj>()->IsInstance<BaseObj>());
  EXPECT_TRUE(make_object<MidObj>()->IsInstance<BaseObj>());
  EXPECT_TRUE(make_object<MidObj>()->IsInstance<Object>());
}

TEST(ObjectIsInstance, TrueForOverflowAllocatedDescendants) {
  EXPECT_TRUE(make_object<LeafCObj>()->IsInstance<BaseObj>());
  EXPECT_TRUE(make_object<Mid2Obj>()->IsInstance<BaseObj>());
  EXPECT_TRUE(make_object<GrandObj>()->IsInstance<BaseObj>());
  EXPECT_TRUE(make_object<GrandObj>()->IsInstance<MidObj>());
  EXPECT_TRUE(make_object<Grand2Obj>()->IsInstance<Mid2Obj>());
  EXPECT_TRUE(make_object<Grand2Obj>()->IsInstance<BaseObj>());
}

TEST(ObjectIsInstance, FalseForSiblings) {
  EXPECT_FALSE(make_object<LeafAObj>()->IsInstance<MidObj>());
  EXPECT_FALSE(make_object<MidObj>()->IsInstance<LeafAObj>());
  EXPECT_FALSE(make_object<LeafCObj>()->IsInstance<MidObj>());
  EXPECT_FALSE(make_object<LeafCObj>()->IsInstance<Mid2Obj>());
  EXPECT_FALSE(make_object<Mid2Obj>()->IsInstance<MidObj>());
  EXPECT_FALSE(make_object<GrandObj>()->IsInstance<Mid2Obj>());
  EXPECT_FALSE(make_object<Grand2Obj>()->IsInstance<MidObj>());
}

TEST(ObjectIsInstance, FalseForAncestors) {
  EXPECT_FALSE(make_object<BaseObj>()->IsInstance<MidObj>());
  EXPECT_FALSE(make_object<BaseObj>()->IsInstance<LeafCObj>());
  EXPECT_FALSE(make_object<MidObj>()->IsInstance<GrandObj>());
  EXPECT_FALSE(make_object<Mid2Obj>()->IsInstance<Grand2Obj>());
}

TEST(ObjectIsInstance, FalseForUnrelatedTypeAboveTheRange) {
  ObjectPtr<OtherObj> other = make_object<OtherObj>();
  EXPECT_FALSE(other->IsInstance<BaseObj>());
  EXPECT_FALSE(other->IsInstance<MidObj>());
  EXPECT_TRUE(other->IsInstance<Object>());
  int destroyed = 0;
  EXPECT_FALSE(make_object<CountedObj>(&destroyed)->IsInstance<BaseObj>());
}

TEST(Arc, IsANonNullObjectPtr) {
  int destroyed = 0;
  {
    Arc<CountedObj> arc = make_arc<CountedObj>(&destroyed);
    EXPECT_EQ(arc->value, 7);
    EXPECT_EQ(arc.use_count(), 1);
    Arc<Object> base = arc;  // derived to base shares the object
    EXPECT_EQ(base.get(), arc.get());
    EXPECT_EQ(arc.use_count(), 2);
    ObjectPtr<CountedObj> ptr = arc;  // an Arc is an ObjectPtr
    EXPECT_EQ(ptr.use_count(), 3);
    Arc<Object> moved = std::move(base);
    EXPECT_EQ(moved.get(), arc.get());
    EXPECT_EQ(ObjectRef(ptr).get(), arc.get());
  }
  EXPECT_EQ(destroyed, 1);
  static_assert(!std::is_default_constructible_v<Arc<CountedObj>>);
  static_assert(!std::is_constructible_v<Arc<CountedObj>, std::nullptr_t>);
  static_assert(!std::is_constructible_v<Arc<CountedObj>, ObjectPtr<CountedObj>>);
  static_assert(std::is_constructible_v<Arc<Object>, Arc<CountedObj>>);
  static_assert(!std::is_constructible_v<Arc<CountedObj>, Arc<Object>>);
  static_assert(tvm::ffi::type_subsumes_v<Arc<Object>, Arc<CountedObj>>);
  static_assert(tvm::ffi::type_subsumes_v<ObjectPtr<Object>, Arc<CountedObj>>);
  static_assert(sizeof(Arc<CountedObj>) == sizeof(ObjectPtr<CountedObj>));
}

/// A base that declares the type information of its derived class T, which names the key.
template <typename T>
class KeyedByDerivedObj : public Object {
 public:
  static constexpr int _type_child_slots [[maybe_unused]] = 0;
  static constexpr bool _type_final [[maybe_unused]] = true;
  TVM_FFI_DECLARE_OBJECT_INFO_PREDEFINED_TYPE_KEY(T, Object)  // no semicolon needed

 private:
  KeyedByDerivedObj() = default;
  friend T;
};
class KeyedLeafObj : public KeyedByDerivedObj<KeyedLeafObj> {
 public:
  static constexpr const char* _type_key = "test_object.KeyedLeaf";
};

TEST(ObjectTypeInfo, PredefinedTypeKeyGetsADynamicIndex) {
  int32_t index = KeyedLeafObj::RuntimeTypeIndex();
  EXPECT_GE(index, tvm::ffi::TypeIndex::kTVMFFIDynObjectBegin);
  EXPECT_EQ(KeyedLeafObj::_type_index, index);
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(std::string(info->type_key.data, info->type_key.size), "test_object.KeyedLeaf");
  EXPECT_EQ(info->type_depth, 1);
  EXPECT_EQ(info->type_ancestors[0]->type_index, tvm::ffi::TypeIndex::kTVMFFIObject);
}

}  // namespace

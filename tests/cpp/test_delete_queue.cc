// SPDX-License-Identifier: Apache-2.0
// Freeing long chains of objects, each holding the last reference to the next: deleters nest
// only so deep on one thread (delete_queue.h), the rest run in a loop before the release returns.
// The queue is the runtime's (TVMFFIDeleteQueueRun, c_thread_api.h).
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/c_thread_api.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>

#include <algorithm>
#include <thread>
#include <utility>
#include <vector>

namespace {

using tvm::ffi::Any;
using tvm::ffi::Array;
using tvm::ffi::make_object;
using tvm::ffi::Object;
using tvm::ffi::ObjectPtr;
using tvm::ffi::ObjectRef;
using tvm::ffi::WeakObjectPtr;

/// A link of a chain: holds the next link (an object or an Array of one) and counts its frees.
class LinkObj : public Object {
 public:
  LinkObj(Any next, int* freed) : next(std::move(next)), freed_(freed) {}
  ~LinkObj() { ++*freed_; }
  Any next;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test_delete_queue.Link", LinkObj, Object);

 private:
  int* freed_;
};

/// A chain of `length` links; every other link is wrapped in an Array when `through_arrays`.
Any MakeChain(int length, bool through_arrays, int* freed) {
  Any chain;
  for (int i = 0; i < length; ++i) {
    chain = ObjectRef(make_object<LinkObj>(std::move(chain), freed));
    if (through_arrays && i % 2 == 0) chain = Array<Any>{std::move(chain)};
  }
  return chain;
}

constexpr int kDeep = 1000000;  // one stack frame per link would overflow any thread's stack

TEST(DeleteQueue, MillionLinkChainIsFreedWithoutRecursion) {
  int freed = 0;
  Any chain = MakeChain(kDeep, false, &freed);
  chain = nullptr;
  EXPECT_EQ(freed, kDeep);  // all of it, before the release returned
}

TEST(DeleteQueue, ChainThroughArraysIsFreedWithoutRecursion) {
  int freed = 0;
  Any chain = MakeChain(kDeep, true, &freed);
  chain = nullptr;
  EXPECT_EQ(freed, kDeep);
}

TEST(DeleteQueue, ShortChainIsFreedInPlace) {
  int freed = 0;
  Any chain = MakeChain(10, true, &freed);
  chain = nullptr;
  EXPECT_EQ(freed, 10);
}

TEST(DeleteQueue, WeakReferencesIntoTheChainSeeItGone) {
  int freed = 0;
  std::vector<WeakObjectPtr<LinkObj>> watchers;
  Any chain;
  for (int i = 0; i < 10000; ++i) {
    ObjectPtr<LinkObj> link = make_object<LinkObj>(std::move(chain), &freed);
    if (i % 1000 == 0) watchers.emplace_back(link);
    chain = ObjectRef(std::move(link));
  }
  chain = nullptr;
  EXPECT_EQ(freed, 10000);
  for (const WeakObjectPtr<LinkObj>& watcher : watchers) EXPECT_EQ(watcher.lock(), nullptr);
  watchers.clear();  // the last weak references free the memory (checked under ASan)
}

TEST(DeleteQueue, ChainsFreedOnSeveralThreadsAtOnce) {
  std::vector<int> freed(4, 0);
  std::vector<std::thread> threads;
  for (int& count : freed) {
    threads.emplace_back([&count] {
      Any chain = MakeChain(kDeep / 4, true, &count);
      chain = nullptr;
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int count : freed) EXPECT_EQ(count, kDeep / 4);
}

/// Frees its chain when destroyed: as a thread_local, at thread exit.
struct ChainFreedAtThreadExit {
  ~ChainFreedAtThreadExit() { chain = nullptr; }
  Any chain;
};

TEST(DeleteQueue, ChainFreedByAThreadLocalDestructorAtThreadExit) {
  int freed = 0;
  std::thread([&freed] {
    static thread_local ChainFreedAtThreadExit holder;
    holder.chain = MakeChain(kDeep / 4, true, &freed);
  }).join();
  EXPECT_EQ(freed, kDeep / 4);
}

/// A stand-in object for runs of the C entry: each run starts the next one from inside itself.
struct NestedRuns {
  TVMFFIObject header{};
  int remaining = 0;
  int depth = 0;
  int max_depth = 0;
  int runs = 0;
};

void RunAndNest(TVMFFIObject* obj, int flags) {
  NestedRuns* state = reinterpret_cast<NestedRuns*>(obj);
  ++state->runs;
  state->max_depth = std::max(state->max_depth, ++state->depth);
  if (state->remaining-- > 0) TVMFFIDeleteQueueRun(obj, flags, RunAndNest);
  --state->depth;
}

TEST(DeleteQueue, TheRuntimeEntryRunsEveryDeletionAtBoundedDepth) {
  ASSERT_NE(TVMFFIDeleteQueueRun, nullptr);
  NestedRuns state;
  state.remaining = kDeep;
  TVMFFIDeleteQueueRun(&state.header, kTVMFFIObjectDeleterFlagBitMaskBoth, RunAndNest);
  EXPECT_EQ(state.runs, kDeep + 1);  // all of them, before the outermost run returned
  EXPECT_EQ(state.depth, 0);
  EXPECT_GT(state.max_depth, 1);
  EXPECT_LE(state.max_depth, 64);
}

}  // namespace

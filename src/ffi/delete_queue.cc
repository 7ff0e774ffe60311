// SPDX-License-Identifier: Apache-2.0
// delete_queue.cc: TVMFFIDeleteQueueRun (tvm/ffi/c_thread_api.h), the per-thread queue that
// bounds how deeply object deleters nest, for the runtime and every library built against the
// headers (delete_queue.h).
//
// Libraries built against earlier headers keep a queue of their own (a thread_local of theirs,
// with the same depth bound) and call neither this function nor anything else of this file.
// Each queue stays consistent by itself: a deletion queued on one is run by the outermost
// deletion of that same queue, which is on the stack whenever one is queued, and the two
// together still bound the nesting.
#include <tvm/ffi/base_detail.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/c_thread_api.h>

#include <new>
#include <vector>

namespace tvm {
namespace ffi {
namespace {

/// A deletion postponed while too many ran.
struct PendingDeletion {
  TVMFFIObject* obj;
  int flags;
  TVMFFIObjectDeletionRunner run;
};

/// The deleters running on one thread and the deletions postponed meanwhile. Trivially
/// destructible and constant-initialized: a thread_local of this type needs no initialization
/// check and stays usable when other thread-local destructors free objects at thread exit.
struct ThreadDeleteQueue {
  /// The deletions running on the thread, nested in each other.
  int depth;
  /// The postponed deletions, created on the first one and freed when they all ran.
  std::vector<PendingDeletion>* pending;
};

constexpr int kMaxNestedDeletions = 64;

thread_local ThreadDeleteQueue this_thread_deletions{0, nullptr};

/// The calling thread's queue. Out of line: the compiler would otherwise compute the address
/// of the thread_local anew at each use (a __tls_get_addr call in a shared library each time).
TVM_FFI_NO_INLINE ThreadDeleteQueue* ThisThreadDeletions() { return &this_thread_deletions; }

/// Postpones a deletion; false when out of memory (the caller then runs it in place).
bool TryPostpone(ThreadDeleteQueue* queue, const PendingDeletion& deletion) noexcept {
  if (queue->pending == nullptr) queue->pending = new (std::nothrow) std::vector<PendingDeletion>();
  if (queue->pending == nullptr) return false;
  try {
    queue->pending->push_back(deletion);
  } catch (...) {
    return false;
  }
  return true;
}

/// Runs the postponed deletions, including those they postpone in turn, then frees the list.
void RunPostponed(ThreadDeleteQueue* queue) {
  while (!queue->pending->empty()) {
    PendingDeletion next = queue->pending->back();
    queue->pending->pop_back();
    next.run(next.obj, next.flags);
  }
  delete queue->pending;
  queue->pending = nullptr;
}

}  // namespace
}  // namespace ffi
}  // namespace tvm

extern "C" void TVMFFIDeleteQueueRun(TVMFFIObject* obj, int flags, TVMFFIObjectDeletionRunner run) {
  using namespace tvm::ffi;  // NOLINT(*)
  ThreadDeleteQueue* queue = ThisThreadDeletions();
  if (queue->depth >= kMaxNestedDeletions && TryPostpone(queue, {obj, flags, run})) return;
  ++queue->depth;
  run(obj, flags);
  if (queue->depth == 1 && queue->pending != nullptr) RunPostponed(queue);
  --queue->depth;
}

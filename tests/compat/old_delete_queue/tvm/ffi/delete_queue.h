// SPDX-License-Identifier: Apache-2.0
// delete_queue.h as this project shipped it before the queue moved into the runtime: a library
// compiled with it (this folder first on the include path) keeps a thread-local queue of its own
// and calls nothing of the runtime's for it. test_delete_queue_compat.py builds such a library.
#ifndef TVM_FFI_DELETE_QUEUE_H_
#define TVM_FFI_DELETE_QUEUE_H_

#include <tvm/ffi/base_details.h>
#include <tvm/ffi/c_api.h>

#include <new>
#include <vector>

namespace tvm {
namespace ffi {
namespace details {

/// The deleters running on this thread and the deletions postponed while too many were.
/// Trivially destructible, so that objects freed by other thread-local destructors at thread
/// exit can still use it.
class DeleteQueue {
 public:
  /// Runs a deletion: the deleter of `obj` with `flags`, and whatever must follow it.
  using Runner = void (*)(TVMFFIObject* obj, int flags);

  /// Runs run(obj, flags) now, or, when kMaxDepth deletions are already running on this thread,
  /// queues it; the outermost deletion runs the queued ones in a loop before it returns.
  /// Out of line, so that the reference decrements that call it stay small.
  TVM_FFI_NO_INLINE static void Run(TVMFFIObject* obj, int flags, Runner run) {
    DeleteQueue* queue = ThisThread();
    if (queue->depth_ >= kMaxDepth && queue->TryPush({obj, flags, run})) return;
    ++queue->depth_;
    run(obj, flags);
    if (queue->depth_ == 1 && queue->pending_ != nullptr) queue->Drain();
    --queue->depth_;
  }

 private:
  struct Pending {
    TVMFFIObject* obj;
    int flags;
    Runner run;
  };

  /// Out of line: the thread-local address is looked up once per deletion, not per access.
  TVM_FFI_NO_INLINE static DeleteQueue* ThisThread() {
    static thread_local DeleteQueue queue;
    return &queue;
  }

  /// Queues a deletion; false when out of memory (the caller then runs it in place).
  bool TryPush(const Pending& pending) noexcept {
    if (pending_ == nullptr) pending_ = new (std::nothrow) std::vector<Pending>();
    if (pending_ == nullptr) return false;
    try {
      pending_->push_back(pending);
    } catch (...) {
      return false;
    }
    return true;
  }

  /// Runs the queued deletions, including those they queue in turn, then frees the queue.
  void Drain() {
    while (!pending_->empty()) {
      Pending next = pending_->back();
      pending_->pop_back();
      next.run(next.obj, next.flags);
    }
    delete pending_;
    pending_ = nullptr;
  }

  static constexpr int kMaxDepth = 64;
  int depth_ = 0;
  std::vector<Pending>* pending_ = nullptr;
};

}  // namespace details
}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_DELETE_QUEUE_H_

// SPDX-License-Identifier: Apache-2.0
// delete_queue.h: bounds how deeply object deleters nest on one thread, so that freeing a long
// chain of objects (each holding the last reference to the next) cannot overflow the stack.
// The queue is per-thread state of the runtime (TVMFFIDeleteQueueRun, c_thread_api.h): code
// compiled against these headers keeps no thread-local storage of its own.
#ifndef TVM_FFI_DELETE_QUEUE_H_
#define TVM_FFI_DELETE_QUEUE_H_

#include <tvm/ffi/base_detail.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/c_thread_api.h>

namespace tvm {
namespace ffi {
namespace details {

/// The deletions of the calling thread, kept by the runtime.
class DeleteQueue {
 public:
  /// Runs a deletion: the deleter of `obj` with `flags`, and whatever must follow it.
  using Runner = TVMFFIObjectDeletionRunner;

  /// Runs run(obj, flags) now or, when enough deletions already run on this thread, queues it
  /// for the outermost one. Always inlined: libraries built with earlier headers export an
  /// out-of-line function of this name (running a queue of their own) to which the dynamic
  /// linker may bind calls of other libraries, so these headers define none.
  TVM_FFI_INLINE static void Run(TVMFFIObject* obj, int flags, Runner run) {
#if TVM_FFI_THREAD_API_WEAK
    // A runtime without the queue (Apache TVM FFI's): run it here, as that runtime's headers do.
    if (TVMFFIDeleteQueueRun == nullptr) {
      run(obj, flags);
      return;
    }
#endif
    TVMFFIDeleteQueueRun(obj, flags, run);
  }
};

}  // namespace details
}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_DELETE_QUEUE_H_

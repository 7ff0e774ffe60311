/* SPDX-License-Identifier: Apache-2.0 */
/* c_thread_api.h: the per-thread state of the runtime that header code reaches through calls,
 * so that code compiled against the headers defines no thread-local storage of its own (code
 * loaded by a JIT linker or built as a position-independent executable may have no TLS model
 * that works). An addition to the C ABI of c_api.h, which it leaves unchanged.
 *
 * Apache TVM FFI's runtime lacks these functions. Outside the runtime they are declared weak
 * (where the platform has weak imports), so that a library built against these headers also
 * loads on that runtime: a caller checks the function for NULL and then does without it. */
#ifndef TVM_FFI_C_THREAD_API_H_
#define TVM_FFI_C_THREAD_API_H_

#include <tvm/ffi/c_api.h>

/* TVM_FFI_THREAD_API_WEAK is 1 where the functions below are weak imports, which are NULL on a
 * runtime without them; 0 in the runtime itself and where weak imports do not exist (Windows),
 * where they are ordinary imports. */
#if defined(TVM_FFI_EXPORTS) || defined(_WIN32)
#define TVM_FFI_THREAD_API_WEAK 0
#define TVM_FFI_THREAD_API_DECL TVM_FFI_DLL
#else
#define TVM_FFI_THREAD_API_WEAK 1
#define TVM_FFI_THREAD_API_DECL TVM_FFI_DLL __attribute__((weak))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/*! \brief A deletion: runs the deleter of obj with flags, and whatever must follow it. */
typedef void (*TVMFFIObjectDeletionRunner)(TVMFFIObject* obj, int flags);

/*!
 * \brief Runs run(obj, flags) now or, when the calling thread already runs a bounded number of
 *        nested deletions, queues it; the outermost deletion on the thread runs the queued ones
 *        before it returns. Freeing a long chain of objects, each holding the last reference to
 *        the next, then needs bounded stack. Usable at thread exit (from other thread-local
 *        destructors) as well.
 * \param obj The object whose last strong reference is gone.
 * \param flags The kTVMFFIObjectDeleterFlagBitMask* flags for its deleter.
 * \param run The deletion; it must not throw.
 */
TVM_FFI_THREAD_API_DECL void TVMFFIDeleteQueueRun(TVMFFIObject* obj, int flags,
                                                  TVMFFIObjectDeletionRunner run);

/*!
 * \brief Whether the calling thread's stack is nearly used up: less than a quarter of it, at
 *        most 256 KiB, is left below the caller. A recursive walk then stops with an error
 *        instead of overflowing the stack.
 * \return 1 when nearly used up; 0 otherwise, and where the stack bounds are unknown or the
 *         caller runs on another stack than the thread's own (a fiber or coroutine).
 */
TVM_FFI_THREAD_API_DECL int TVMFFIThreadStackExhausted(void);

#ifdef __cplusplus
}  // extern "C"
#endif
#endif /* TVM_FFI_C_THREAD_API_H_ */

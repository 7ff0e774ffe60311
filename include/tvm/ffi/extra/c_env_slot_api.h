/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file
 * \brief c_env_slot_api.h: direct access to the calling thread's DLPack tensor allocator, for
 *        frontends that install a framework's allocator around every call they make. An
 *        addition to the C ABI of c_env_api.h, which it leaves unchanged.
 */
#ifndef TVM_FFI_EXTRA_C_ENV_SLOT_API_H_
#define TVM_FFI_EXTRA_C_ENV_SLOT_API_H_

#include <tvm/ffi/extra/c_env_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/*!
 * \brief The calling thread's allocator slot: the variable that
 *        TVMFFIEnvSetDLPackManagedTensorAllocator(allocator, 0, ...) writes and
 *        TVMFFIEnvGetDLPackManagedTensorAllocator reads before the process-wide allocator.
 *        Setting and restoring the allocator through it costs one call instead of two.
 * \return The slot's address; valid on the calling thread, until that thread exits.
 */
TVM_FFI_DLL DLPackManagedTensorAllocator* TVMFFIEnvThreadAllocatorSlot(void);

#ifdef __cplusplus
}  // extern "C"
#endif
#endif /* TVM_FFI_EXTRA_C_ENV_SLOT_API_H_ */

/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file
 * \brief c_env_api.h: the environment C API (streams, tensor allocator, signals, module
 *        symbols).
 */
#ifndef TVM_FFI_EXTRA_C_ENV_API_H_
#define TVM_FFI_EXTRA_C_ENV_API_H_

#include <tvm/ffi/c_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/*! \brief An opaque device stream handle (e.g. a cudaStream_t). */
typedef void* TVMFFIStreamHandle;

/*!
 * \brief Sets this thread's current stream for (device_type, device_id).
 * \param opt_out_original_stream When non-NULL, receives the previous stream.
 * \return 0 or -1 (SC).
 */
TVM_FFI_DLL int TVMFFIEnvSetStream(int32_t device_type, int32_t device_id,
                                   TVMFFIStreamHandle stream,
                                   TVMFFIStreamHandle* opt_out_original_stream);

/*! \brief This thread's current stream for the device, or NULL when none was set. */
TVM_FFI_DLL TVMFFIStreamHandle TVMFFIEnvGetStream(int32_t device_type, int32_t device_id);

/*!
 * \brief Sets the thread-local DLPack tensor allocator (and the global one if asked).
 * \param write_to_global_context Nonzero to also set the process-wide allocator.
 * \param opt_out_original_allocator When non-NULL, receives the previous thread-local one.
 * \return 0 or -1 (SC).
 */
TVM_FFI_DLL int TVMFFIEnvSetDLPackManagedTensorAllocator(
    DLPackManagedTensorAllocator allocator, int write_to_global_context,
    DLPackManagedTensorAllocator* opt_out_original_allocator);

/*! \brief The thread-local allocator if set, otherwise the process-wide one (may be NULL). */
TVM_FFI_DLL DLPackManagedTensorAllocator TVMFFIEnvGetDLPackManagedTensorAllocator(void);

/*!
 * \brief Allocates a tensor through the current allocator (dtype, ndim, shape, device used).
 * \param out New reference to a Tensor.
 * \return 0 or -1 (SC); RuntimeError when no allocator is installed.
 */
TVM_FFI_DLL int TVMFFIEnvTensorAlloc(DLTensor* prototype, TVMFFIObjectHandle* out);

/*!
 * \brief Lets the frontend handle pending signals (e.g. Ctrl-C).
 * \return 0 when nothing is pending or no frontend is registered; -1 when the frontend now
 *         holds an error (fail with kind "EnvErrorAlreadySet").
 */
TVM_FFI_DLL int TVMFFIEnvCheckSignals(void);

/*!
 * \brief Registers a frontend hook: "PyErr_CheckSignals", "PyGILState_Ensure" or
 *        "PyGILState_Release".
 * \return 0 or -1 (SC, ValueError for any other name).
 */
TVM_FFI_DLL int TVMFFIEnvRegisterCAPI(const char* name, void* symbol);

/*!
 * \brief Finds a function for generated code: the module's imports, then the global registry.
 * \param library_ctx The value the loader wrote into __tvm_ffi__library_ctx.
 * \param out Borrowed (cached by the module). \return 0 or -1 (SC, RuntimeError if missing).
 */
TVM_FFI_DLL int TVMFFIEnvModLookupFromImports(TVMFFIObjectHandle library_ctx, const char* func_name,
                                              TVMFFIObjectHandle* out);

/*!
 * \brief Records a context symbol written into every library module loaded afterwards.
 * \return 0 or -1 (SC).
 */
TVM_FFI_DLL int TVMFFIEnvModRegisterContextSymbol(const char* name, void* symbol);

/*! \brief Adds a symbol to the process-wide system library table. \return 0. */
TVM_FFI_DLL int TVMFFIEnvModRegisterSystemLibSymbol(const char* name, void* symbol);

#ifdef __cplusplus
}  // extern "C"
#endif
#endif  // TVM_FFI_EXTRA_C_ENV_API_H_

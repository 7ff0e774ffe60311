/* SPDX-License-Identifier: Apache-2.0 */
/* dlpack.h: the DLPack 1.3 tensor-exchange declarations used by the TVM FFI ABI. */
/*
 * Written for tvm_ffi from the DLPack layout facts. The include guard is the one the reference
 * DLPack header uses, so whichever copy is included first wins and the two can coexist.
 */
#ifndef DLPACK_DLPACK_H_
#define DLPACK_DLPACK_H_

#ifdef __cplusplus
#define DLPACK_EXTERN_C extern "C"
#else
#define DLPACK_EXTERN_C
#endif

#define DLPACK_MAJOR_VERSION 1
#define DLPACK_MINOR_VERSION 3

#ifdef _WIN32
#ifdef DLPACK_EXPORTS
#define DLPACK_DLL __declspec(dllexport)
#else
#define DLPACK_DLL __declspec(dllimport)
#endif
#else
#define DLPACK_DLL
#endif

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*! \brief A DLPack version: a major bump breaks the ABI, a minor bump only adds. */
typedef struct {
  uint32_t major;
  uint32_t minor;
} DLPackVersion;

/*! \brief The kind of device a tensor lives on. */
#ifdef __cplusplus
typedef enum : int32_t {
#else
typedef enum {
#endif
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  kDLROCM = 10,
  kDLROCMHost = 11,
  kDLExtDev = 12,
  kDLCUDAManaged = 13,
  kDLOneAPI = 14,
  kDLWebGPU = 15,
  kDLHexagon = 16,
  kDLMAIA = 17,
  kDLTrn = 18,
} DLDeviceType;

/*! \brief A device: its kind and its ordinal among devices of that kind. */
typedef struct {
  DLDeviceType device_type;
  int32_t device_id;
} DLDevice;

/*! \brief The type code of a DLDataType. */
typedef enum {
  kDLInt = 0U,
  kDLUInt = 1U,
  kDLFloat = 2U,
  kDLOpaqueHandle = 3U,
  kDLBfloat = 4U,
  kDLComplex = 5U,
  kDLBool = 6U,
  kDLFloat8_e3m4 = 7U,
  kDLFloat8_e4m3 = 8U,
  kDLFloat8_e4m3b11fnuz = 9U,
  kDLFloat8_e4m3fn = 10U,
  kDLFloat8_e4m3fnuz = 11U,
  kDLFloat8_e5m2 = 12U,
  kDLFloat8_e5m2fnuz = 13U,
  kDLFloat8_e8m0fnu = 14U,
  kDLFloat6_e2m3fn = 15U,
  kDLFloat6_e3m2fn = 16U,
  kDLFloat4_e2m1fn = 17U,
} DLDataTypeCode;

/*! \brief An element type: code, bits per lane and lane count (4 bytes, align 2). */
typedef struct {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
} DLDataType;

/*!
 * \brief A borrowed view of an n-dimensional array.
 * \note strides == NULL means compact row-major; data + byte_offset is the first element.
 */
typedef struct {
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;
  uint64_t byte_offset;
} DLTensor;

/*! \brief Legacy (unversioned) owning tensor; the consumer calls deleter exactly once. */
typedef struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensor* self);
} DLManagedTensor;

/*! \brief The data must not be written through this tensor. */
#define DLPACK_FLAG_BITMASK_READ_ONLY (1UL << 0UL)
/*! \brief The producer copied the data to make this tensor. */
#define DLPACK_FLAG_BITMASK_IS_COPIED (1UL << 1UL)
/*! \brief Sub-byte elements are padded to whole bytes. */
#define DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED (1UL << 2UL)

/*! \brief Versioned owning tensor; the consumer calls deleter exactly once. */
typedef struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensorVersioned* self);
  uint64_t flags;
  DLTensor dl_tensor;
} DLManagedTensorVersioned;

/*!
 * \brief Allocates a new framework tensor shaped like a prototype.
 * \return 0 on success; otherwise calls SetError(error_ctx, kind, message) and returns nonzero.
 */
typedef int (*DLPackManagedTensorAllocator)(DLTensor* prototype, DLManagedTensorVersioned** out,
                                            void* error_ctx,
                                            void (*SetError)(void* error_ctx, const char* kind,
                                                             const char* message));

/*! \brief Owning export of a framework tensor object (caller holds the GIL). */
typedef int (*DLPackManagedTensorFromPyObjectNoSync)(void* py_object,
                                                     DLManagedTensorVersioned** out);

/*! \brief Wraps an owning tensor as a new framework tensor; takes ownership of tensor. */
typedef int (*DLPackManagedTensorToPyObjectNoSync)(DLManagedTensorVersioned* tensor,
                                                   void** out_py_object);

/*! \brief Fills a borrowed DLTensor view of a framework tensor object. */
typedef int (*DLPackDLTensorFromPyObjectNoSync)(void* py_object, DLTensor* out);

/*! \brief The framework's current stream for a device (NULL allowed for CPU). */
typedef int (*DLPackCurrentWorkStream)(DLDeviceType device_type, int32_t device_id,
                                       void** out_current_stream);

/*! \brief Header of the C exchange table; check version.major before anything else. */
typedef struct DLPackExchangeAPIHeader {
  DLPackVersion version;
  struct DLPackExchangeAPIHeader* prev_api;
} DLPackExchangeAPIHeader;

/*! \brief The C-level exchange table a framework publishes as __dlpack_c_exchange_api__. */
typedef struct DLPackExchangeAPI {
  DLPackExchangeAPIHeader header;
  DLPackManagedTensorAllocator managed_tensor_allocator;
  DLPackManagedTensorFromPyObjectNoSync managed_tensor_from_py_object_no_sync;
  DLPackManagedTensorToPyObjectNoSync managed_tensor_to_py_object_no_sync;
  DLPackDLTensorFromPyObjectNoSync dltensor_from_py_object_no_sync;
  DLPackCurrentWorkStream current_work_stream;
} DLPackExchangeAPI;

#ifdef __cplusplus
}  // extern "C"
#endif
#endif  // DLPACK_DLPACK_H_

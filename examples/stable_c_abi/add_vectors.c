/* SPDX-License-Identifier: Apache-2.0 */
/* add_vectors.c: a kernel written in plain C against the stable C ABI (tvm/ffi/c_api.h) alone.
   It exports add_vectors(x, y, out): out[i] = x[i] + y[i] for 1-D float32 CPU tensors. */
#include <stdint.h>
#include <stdio.h>
#include <tvm/ffi/c_api.h>

/* [abi-version-begin] */
/* The ABI version of the headers compiled against; load_module refuses a library built for
   an incompatible version instead of running it. */
TVM_FFI_DLL_EXPORT const TVMFFIVersion __tvm_ffi__abi_version = {
    TVM_FFI_VERSION_MAJOR, TVM_FFI_VERSION_MINOR, TVM_FFI_VERSION_PATCH};
/* [abi-version-end] */

/* [error-begin] */
/* Raises an error of the given kind (a Python exception name) and returns the failure code. */
static int raise_error(const char* kind, const char* message) {
  TVMFFIErrorSetRaisedFromCStr(kind, message);
  return -1;
}
/* [error-end] */

/* [tensor-begin] */
/* The DLTensor an argument cell refers to, or NULL when the argument is not a tensor. A
   tensor arrives as a Tensor object (its DLTensor follows the object header) or, from C
   callers, as a borrowed DLTensor pointer. */
static DLTensor* tensor_of(const TVMFFIAny* arg) {
  switch (arg->type_index) {
    case kTVMFFITensor:
      return (DLTensor*)((char*)arg->v_obj + sizeof(TVMFFIObject));
    case kTVMFFIDLTensorPtr:
      return (DLTensor*)arg->v_ptr;
    default:
      return NULL;
  }
}
/* [tensor-end] */

/* The name NumPy gives a DLPack type code, in the order of DLDataTypeCode (kDLInt is 0). */
static const char* dtype_code_name(uint8_t code) {
  static const char* const names[] = {"int",    "uint",    "float", "opaque",
                                      "bfloat", "complex", "bool"};
  return code < sizeof(names) / sizeof(names[0]) ? names[code] : "unknown";
}

/* Checks that argument `index` (called `name`) is a 1-D float32 CPU tensor; on failure raises
   a TypeError or ValueError naming it and returns NULL. */
static DLTensor* float32_vector(const TVMFFIAny* args, int index, const char* name) {
  char message[160];
  DLTensor* tensor = tensor_of(&args[index]);
  if (tensor == NULL) {
    snprintf(message, sizeof(message), "add_vectors: %s must be a tensor, got type index %d", name,
             (int)args[index].type_index);
    raise_error("TypeError", message);
  } else if (tensor->dtype.code != kDLFloat || tensor->dtype.bits != 32 ||
             tensor->dtype.lanes != 1) {
    snprintf(message, sizeof(message), "add_vectors: %s must be float32, got %s%d", name,
             dtype_code_name(tensor->dtype.code), (int)tensor->dtype.bits);
    raise_error("TypeError", message);
  } else if (tensor->device.device_type != kDLCPU) {
    snprintf(message, sizeof(message), "add_vectors: %s must be on the CPU", name);
    raise_error("ValueError", message);
  } else if (tensor->ndim != 1) {
    snprintf(message, sizeof(message), "add_vectors: %s must be 1-D, got %d dimensions", name,
             (int)tensor->ndim);
    raise_error("ValueError", message);
  } else {
    return tensor;
  }
  return NULL;
}

/* Element i of a 1-D float32 tensor, honouring its byte offset and stride (NULL strides mean
   a compact tensor). */
static float* element(const DLTensor* tensor, int64_t i) {
  int64_t stride = tensor->strides == NULL ? 1 : tensor->strides[0];
  return (float*)((char*)tensor->data + tensor->byte_offset) + i * stride;
}

/* [kernel-begin] */
/* add_vectors(x, y, out): the safe-call function behind the module function "add_vectors".
   It returns 0 on success, or -1 after raising an error for the caller to rethrow. */
TVM_FFI_DLL_EXPORT int __tvm_ffi_add_vectors(void* handle, const TVMFFIAny* args, int32_t num_args,
                                             TVMFFIAny* result) {
  (void)handle;
  if (num_args != 3) return raise_error("TypeError", "add_vectors expects 3 arguments (x, y, out)");
  DLTensor* x = float32_vector(args, 0, "x");
  DLTensor* y = x == NULL ? NULL : float32_vector(args, 1, "y");
  DLTensor* out = y == NULL ? NULL : float32_vector(args, 2, "out");
  if (out == NULL) return -1; /* the failed check raised the error */
  int64_t n = out->shape[0];
  if (x->shape[0] != n || y->shape[0] != n) {
    return raise_error("ValueError", "add_vectors: x, y and out must have the same length");
  }
  for (int64_t i = 0; i < n; ++i) *element(out, i) = *element(x, i) + *element(y, i);
  result->type_index = kTVMFFINone;
  result->zero_padding = 0;
  result->v_int64 = 0;
  return 0;
}
/* [kernel-end] */

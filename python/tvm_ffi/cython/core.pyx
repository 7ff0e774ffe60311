# SPDX-License-Identifier: Apache-2.0
# cython: language_level=3, binding=False
# core.pyx: the compiled core of tvm_ffi; binds only the C ABI (c_api.h).
include "base.pxi"
include "dlpack.pxi"
include "object.pxi"
include "error.pxi"
include "string.pxi"
include "device.pxi"
include "dtype.pxi"
include "convert.pxi"
include "function.pxi"
include "tensor.pxi"
include "dlpack_import.pxi"
include "tensor_args.pxi"
include "type_info.pxi"
include "container.pxi"
include "any.pxi"
include "registration.pxi"

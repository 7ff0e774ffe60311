# SPDX-License-Identifier: Apache-2.0
# registration.pxi: binds the built-in classes to their type indices and installs frontend hooks.

_register_object_class(kTVMFFIObject, Object)
_register_object_class(kTVMFFIError, Error)
_register_object_class(kTVMFFIFunction, _vectorcall_function)
_register_object_class(kTVMFFIOpaquePyObject, OpaquePyObject)
_register_object_class(kTVMFFITensor, Tensor)
Object.register(OpaquePyObject)

MISSING = wrap_sentinel(_MissingObject, _get_builtin_func("ffi.GetInvalidObject"))
KWARGS = wrap_sentinel(_KwargsObject, _get_builtin_func("ffi.GetKwargsObject"))

TVMFFIPyRegisterFrontendHooks()

# Python code sees the vectorcall subclass as Function (Cython code keeps the base class).
globals()["Function"] = _vectorcall_function

# SPDX-License-Identifier: Apache-2.0
# registration.pxi: binds the built-in classes to their type indices and installs frontend hooks.
import atexit

_register_object_class(kTVMFFIObject, Object)
_register_object_class(kTVMFFIError, Error)
_register_object_class(kTVMFFIFunction, Function)
_register_object_class(kTVMFFIOpaquePyObject, OpaquePyObject)
_register_object_class(kTVMFFITensor, Tensor)
Object.register(OpaquePyObject)
# Before any type with reflected fields is bound: their records read MISSING.
MISSING = wrap_sentinel(_MissingObject, _get_builtin_func("ffi.GetInvalidObject"))
_MISSING_SENTINEL = MISSING
KWARGS = wrap_sentinel(_KwargsObject, _get_builtin_func("ffi.GetKwargsObject"))
# Classes bound to a type without being the class of its objects' wrappers.
attach_type_info(kTVMFFIStr, String)
attach_type_info(kTVMFFIBytes, Bytes)
attach_type_info(kTVMFFIShape, Shape)
attach_type_info(kTVMFFIDataType, DataType)
attach_type_info(kTVMFFIDevice, Device)

TVMFFIPyRegisterFrontendHooks()
atexit.register(_stop_native_entries_at_exit)

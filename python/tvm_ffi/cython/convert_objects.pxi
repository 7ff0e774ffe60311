# SPDX-License-Identifier: Apache-2.0
# convert_objects.pxi: the object family of argument conversion (call.pxi's dispatch): FFI
# objects, moved objects (rvalue references), the object protocols (__tvm_ffi_object__,
# __tvm_ffi_value__, asobject()), Python callables and exceptions, and any other Python object,
# which crosses as an opaque reference.


cdef int convert_object_arg(object value, int rule, TVMFFIAny* out, TVMFFIObjectHandle* temp,
                            TVMFFIPyCallEnv* ctx) except -1:
    if rule == RULE_OBJECT:
        return set_ffi_object(value, out, ctx)
    if rule == RULE_RVALUE_REF:
        return set_rvalue_ref(out, value)
    if rule == RULE_FFI_OBJECT_PROTOCOL:
        return set_owned(out, protocol_object_handle(value), temp)
    if rule == RULE_CALLABLE:
        return set_owned(out, make_callback_handle(value, py_callback_safe_call), temp)
    if rule == RULE_EXCEPTION:
        return set_exception(out, value, temp)
    if rule == RULE_VALUE_PROTOCOL:
        return convert_temporary_arg(value.__tvm_ffi_value__(), out, temp, ctx)
    if rule == RULE_CONVERTIBLE:
        return convert_temporary_arg(value.asobject(), out, temp, ctx)
    return set_opaque(out, value, temp)  # RULE_OPAQUE


cdef inline int set_ffi_object(CObject value, TVMFFIAny* out, TVMFFIPyCallEnv* ctx) except -1:
    """The object's own handle, borrowed for the call."""
    if value.chandle == NULL:
        TVMFFIPySetNone(out)
        return 0
    TVMFFIPySetObject(out, value.chandle)
    if is_container_index(out.type_index):
        return note_container_framework(value, ctx)
    if out.type_index == kTVMFFITensor and TVMFFIPyIsReadOnlyTensor(out.v_obj):
        raise_read_only_argument("the Tensor (imported from read-only memory)")
    return 0


cdef int set_rvalue_ref(TVMFFIAny* out, ObjectRValueRef ref) except -1:
    cdef CObject obj = ref.obj
    out.type_index = kTVMFFIObjectRValueRef
    out.zero_padding = 0
    out.v_ptr = &obj.chandle
    return 0


cdef TVMFFIObjectHandle protocol_object_handle(object value) except NULL:
    """A new reference to the handle of ``value.__tvm_ffi_object__()``, which must be a live FFI
    object (the result may die on return)."""
    result = value.__tvm_ffi_object__()
    if not isinstance(result, CObject):
        raise TypeError("Function.__call__(): __tvm_ffi_object__() must return a tvm_ffi.Object")
    if (<CObject>result).chandle == NULL:
        raise ValueError(f"Function.__call__(): __tvm_ffi_object__() of {type(value).__name__} "
                         f"returned a {type(result).__name__} with no native object (its "
                         "handle was moved out or never set)")
    TVMFFIObjectIncRef((<CObject>result).chandle)
    return (<CObject>result).chandle


cdef int set_exception(TVMFFIAny* out, object value, TVMFFIObjectHandle* temp) except -1:
    """The FFI error for a Python exception (the one it was made from, if any)."""
    error = error_from_exception(value)
    return set_borrowed(out, (<CObject>error).chandle, temp)


cdef int set_opaque(TVMFFIAny* out, object value, TVMFFIObjectHandle* temp) except -1:
    """An ``ffi.OpaquePyObject`` holding a reference to value."""
    return set_owned(out, new_opaque_handle(value), temp)


cdef TVMFFIObjectHandle new_opaque_handle(object value) except NULL:
    """A new ``ffi.OpaquePyObject`` handle holding a reference to value."""
    cdef TVMFFIObjectHandle handle = NULL
    Py_INCREF(value)
    if TVMFFIObjectCreateOpaque(<void*>value, kTVMFFIOpaquePyObject, py_decref_deleter,
                                &handle) != 0:
        Py_DECREF(value)
        CHECK_CALL(-1)
    return handle


def _convert_to_opaque_object(pyobject):
    """An ``ffi.OpaquePyObject`` holding ``pyobject`` as it is, whatever its type."""
    return make_object_from_handle(new_opaque_handle(pyobject))


cdef int convert_temporary_arg(object value, TVMFFIAny* out, TVMFFIObjectHandle* temp,
                               TVMFFIPyCallEnv* ctx) except -1:
    """Converts a value that dies when this returns, so the cell must own what it holds."""
    if Py_EnterRecursiveCall(" while converting a __tvm_ffi_value__ or asobject() result") != 0:
        return -1  # RecursionError is set
    try:
        convert_to_owned(value, out, ctx)
    finally:
        Py_LeaveRecursiveCall()
    if out.type_index >= kTVMFFIStaticObjectBegin:
        temp[0] = TVMFFIPyCellObject(out)
    return 0

# SPDX-License-Identifier: Apache-2.0
# call_result.pxi: the result of a call, an FFI cell, made into a Python value (a framework
# tensor when a framework tensor argument asks for it).

# ------------------------------------------------------------------------------------------
# Results: FFI cells -> Python values
# ------------------------------------------------------------------------------------------
cdef object make_result(TVMFFIAny* cell):
    """The Python value of an owned result cell; object references move into the value."""
    cdef int32_t index = cell.type_index
    if index == kTVMFFIInt:
        return cell.v_int64
    if index == kTVMFFINone:
        return None
    if index == kTVMFFIFloat:
        return cell.v_float64
    if index == kTVMFFIBool:
        return cell.v_int64 != 0
    if index == kTVMFFISmallStr or index == kTVMFFIStr:
        return make_string_result(cell)
    if index == kTVMFFISmallBytes or index == kTVMFFIBytes:
        return make_bytes_result(cell)
    if index >= kTVMFFIStaticObjectBegin:
        return make_object_result(TVMFFIPyCellObject(cell))
    return make_pod_result(cell)


cdef object make_object_result(TVMFFIObjectHandle handle):
    cdef TVMFFIAny cell
    cdef int32_t index = TVMFFIPyObjectTypeIndex(handle)
    if index == kTVMFFIShape:
        return make_shape_result(handle)
    if index == kTVMFFIBigInt:
        TVMFFIPySetObject(&cell, handle)
        value = big_int_value(&cell)
        TVMFFIObjectDecRef(handle)
        return value
    if index == kTVMFFIOpaquePyObject:
        value = <object><PyObject*>TVMFFIPyOpaqueHandle(handle)
        TVMFFIObjectDecRef(handle)
        return value
    return make_object_from_handle(handle)


cdef object make_pod_result(TVMFFIAny* cell):
    cdef int32_t index = cell.type_index
    if index == kTVMFFIOpaquePtr:
        return ctypes.c_void_p(<uint64_t>cell.v_ptr if cell.v_ptr != NULL else None)
    if index == kTVMFFIDataType:
        return make_dtype(cell.v_dtype)
    if index == kTVMFFIDevice:
        return make_device(cell.v_device)
    if index == kTVMFFIRawStr:
        raise ValueError("Function.__call__(): the return value cannot be a raw C string")
    if index == kTVMFFIByteArrayPtr:
        raise ValueError("Function.__call__(): the return value cannot be a byte array pointer")
    if index == kTVMFFIObjectRValueRef:
        raise ValueError("Function.__call__(): the return value cannot be an rvalue reference")
    if index == kTVMFFIDLTensorPtr:
        raise ValueError("Function.__call__(): the return value cannot be a borrowed DLTensor*")
    raise ValueError(f"Function.__call__(): the return value has an unsupported type index {index}")


cdef object make_framework_result(TVMFFIAny* owned, const DLPackExchangeAPI* api):
    """make_result for a framework's call: tensors become its tensors, containers keep the tag
    (their elements come back the same way)."""
    if owned.type_index == kTVMFFITensor:
        return tensor_to_framework(TVMFFIPyCellObject(owned), api)
    cdef bint is_container = is_container_index(owned.type_index)
    value = make_result(owned)
    if is_container and isinstance(value, CContainerBase):
        (<CContainerBase>value).exchange_api = api
    return value


cdef inline bint is_container_index(int32_t index) noexcept:
    return (index == kTVMFFIArray or index == kTVMFFIMap or index == kTVMFFIList
            or index == kTVMFFIDict)


cdef object tensor_to_framework(TVMFFIObjectHandle handle, const DLPackExchangeAPI* api):
    """A framework tensor sharing the memory of an owned Tensor handle (which is released)."""
    cdef DLManagedTensorVersioned* managed = NULL
    cdef void* py_tensor = NULL
    cdef int ret = TVMFFITensorToDLPackVersioned(handle, &managed)
    TVMFFIObjectDecRef(handle)
    CHECK_CALL(ret)
    api.managed_tensor_to_py_object_no_sync(managed, &py_tensor)
    if py_tensor == NULL:
        raise BufferError("Function.__call__(): the DLPack exchange API made no framework "
                          "tensor of a result")
    value = <object>py_tensor
    Py_DECREF(value)  # the framework handed us the only reference
    return value

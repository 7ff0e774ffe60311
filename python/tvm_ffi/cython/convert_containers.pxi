# SPDX-License-Identifier: Apache-2.0
# convert_containers.pxi: the container family of argument conversion (call.pxi's dispatch):
# tuples and lists become Arrays, dicts become Maps, built natively from their converted items;
# and containers returned to a framework's call that come back as arguments.

cdef extern from "Python.h":
    # Python's recursion limit also bounds nested conversion: deep input raises RecursionError
    # instead of overflowing the C stack. Nonzero (not -1) when the limit is hit.
    int Py_EnterRecursiveCall(const char* where) noexcept
    void Py_LeaveRecursiveCall() noexcept


cdef int convert_container_arg(object value, TVMFFIAny* out, TVMFFIObjectHandle* temp,
                               TVMFFIPyCallEnv* ctx) except -1:
    """A new Array (tuple/list) or Map (dict). Its items are converted with the call's context,
    so tensors inside a container tag the call as top-level ones do."""
    if Py_EnterRecursiveCall(" while converting a nested container") != 0:
        return -1  # RecursionError is set
    try:
        return build_container(value, out, temp, ctx)
    finally:
        Py_LeaveRecursiveCall()


cdef int build_container(object value, TVMFFIAny* out, TVMFFIObjectHandle* temp,
                         TVMFFIPyCallEnv* ctx) except -1:
    cdef TVMFFIAny result
    if isinstance(value, dict):
        items = []
        for key, item in value.items():
            items.append(key)
            items.append(item)
        func = _get_builtin_func("ffi.Map")
    else:
        items = value
        func = _get_builtin_func("ffi.Array")
    args = tuple(items)
    TVMFFIPySetNone(&result)
    call_function((<CObject>func).chandle, <PyObject*>args, NULL, len(args), &result, False, ctx)
    return set_owned(out, TVMFFIPyCellObject(&result), temp)


cdef int note_container_framework(CObject container, TVMFFIPyCallEnv* ctx) except -1:
    """A container returned to a framework's call tags the call it is passed to, and the first
    non-CPU tensor inside it gives that call's stream."""
    cdef const DLPackExchangeAPI* api
    cdef DLDevice device
    if ctx == NULL or not isinstance(container, CContainerBase):
        return 0
    api = (<CContainerBase>container).exchange_api
    if api == NULL:
        return 0
    note_framework(ctx, api)
    if ctx.has_stream:
        return 0
    found = first_non_cpu_device(container)
    if found is None:
        return 0
    device = (<Device>found).cdevice
    offer_stream(ctx, device, work_stream_of(api, device))
    return 0


cdef object first_non_cpu_device(CObject container):
    """The device of the first non-CPU tensor inside container, or None."""
    cdef TVMFFIAny arg
    cdef TVMFFIAny result
    func = _get_builtin_func("ffi.ContainerFindFirstNonCPUDevice")
    TVMFFIPySetObject(&arg, container.chandle)
    TVMFFIPySetNone(&result)
    CHECK_CALL(TVMFFIFunctionCall((<CObject>func).chandle, &arg, 1, &result))
    return make_result(&result)

# SPDX-License-Identifier: Apache-2.0
# device.pxi: Device, a value class holding a DLDevice.
import enum


class DLDeviceType(enum.IntEnum):
    """The DLPack device type codes."""

    kDLCPU = 1
    kDLCUDA = 2
    kDLCUDAHost = 3
    kDLOpenCL = 4
    kDLVulkan = 7
    kDLMetal = 8
    kDLVPI = 9
    kDLROCM = 10
    kDLROCMHost = 11
    kDLExtDev = 12
    kDLCUDAManaged = 13
    kDLOneAPI = 14
    kDLWebGPU = 15
    kDLHexagon = 16
    kDLMAIA = 17
    kDLTrn = 18


_K = DLDeviceType
# The name of each device type code, and the code of each name the constructor accepts (the
# host/managed/oneapi types have none). Device exposes the same dicts as class attributes.
cdef dict _type_names = {
    _K.kDLCPU: "cpu", _K.kDLCUDA: "cuda", _K.kDLCUDAHost: "cuda_host",
    _K.kDLCUDAManaged: "cuda_managed", _K.kDLOpenCL: "opencl", _K.kDLVulkan: "vulkan",
    _K.kDLMetal: "metal", _K.kDLVPI: "vpi", _K.kDLROCM: "rocm", _K.kDLROCMHost: "rocm_host",
    _K.kDLExtDev: "ext_dev", _K.kDLOneAPI: "oneapi", _K.kDLWebGPU: "webgpu",
    _K.kDLHexagon: "hexagon", _K.kDLMAIA: "maia", _K.kDLTrn: "trn",
}
cdef dict _type_codes = {
    "cpu": _K.kDLCPU, "cuda": _K.kDLCUDA, "opencl": _K.kDLOpenCL, "vulkan": _K.kDLVulkan,
    "metal": _K.kDLMetal, "mps": _K.kDLMetal, "vpi": _K.kDLVPI, "rocm": _K.kDLROCM,
    "ext_dev": _K.kDLExtDev, "hexagon": _K.kDLHexagon, "wgpu": _K.kDLWebGPU,
    "webgpu": _K.kDLWebGPU, "maia": _K.kDLMAIA, "trn": _K.kDLTrn,
}
del _K


cdef int check_device_type(object code, str api) except -1:
    """Any int32 code is a device type: DLPack's own and those of its users (TVM's RPC devices
    are ``type + (session + 1) * 128``); only printing an unknown one says so."""
    if not -2**31 <= code < 2**31:
        raise OverflowError(f"{api}(): device type code {code} does not fit int32")
    return 0


cdef str device_type_name(int32_t code):
    """The name of a device type code; a placeholder for codes DLPack does not define (a
    device made natively can have one)."""
    name = _type_names.get(code)
    return name if name is not None else f"<unknown device type {code}>"


cdef int parse_dlpack_device(object pair, DLDevice* out) except -1:
    """The DLDevice of a ``__dlpack_device__()`` result, a ``(device_type, device_id)`` tuple."""
    if not (isinstance(pair, tuple) and len(pair) == 2
            and all([isinstance(v, numbers.Integral) and not isinstance(v, bool)
                     for v in pair])):
        raise TypeError(f"Function.__call__(): __dlpack_device__() must return a "
                        f"(device_type, device_id) tuple of ints, got {pair!r}")
    check_device_type(pair[0], "__dlpack_device__")
    out.device_type = pair[0]
    out.device_id = pair[1]
    return 0


cdef object as_device_index(object index):
    """An int from an Integral, or from a scalar (numpy, torch) whose ``.item()`` is one."""
    if type(index) is int:
        return index
    if isinstance(index, numbers.Integral):
        return int(index)
    item = getattr(index, "item", None)
    if item is not None:
        value = item()
        if isinstance(value, numbers.Integral):
            return int(value)
    raise TypeError(f"Invalid device index: {index}")


cdef tuple parse_device_name(str text):
    """(type code, index or None) of a name like ``"cuda"`` or ``"cuda:1 ignored"``."""
    code = _type_codes.get(text)
    if code is not None:
        return code, None
    parts = text.split(" ", 1)[0].split(":")
    if len(parts) > 2:
        raise ValueError(f"Invalid device: {text}")
    code = _type_codes.get(parts[0])
    if code is None:
        raise ValueError(f"Unknown device: {parts[0]}")
    if len(parts) == 1:
        return code, None
    try:
        return code, int(parts[1])
    except ValueError:
        raise ValueError(f"Invalid device index: {parts[1]}") from None


cdef class Device:
    """A device like ``torch.device``: a DLPack device type and an index.

    Parameters
    ----------
    device_type
        A name (``"cuda"``, or ``"cuda:1"`` with the index) or a DLPack device type code.
    index
        The device ordinal (default 0); an index inside ``device_type`` takes precedence.
    """

    cdef DLDevice cdevice

    _DEVICE_TYPE_TO_NAME = _type_names
    _DEVICE_NAME_TO_TYPE = _type_codes

    def __init__(self, device_type, index=None):
        if isinstance(device_type, str):
            device_type, parsed_index = parse_device_name(device_type)
            if parsed_index is not None:
                index = parsed_index
        else:
            try:
                device_type = as_device_index(device_type)
            except TypeError:
                raise TypeError(f"Device(): invalid device type {device_type!r}; expected a name "
                                "such as 'cuda' or a DLDeviceType code") from None
            check_device_type(device_type, "Device")
        self.cdevice.device_type = device_type
        self.cdevice.device_id = 0 if index is None else as_device_index(index)

    @property
    def index(self) -> int:
        """The device ordinal."""
        return self.cdevice.device_id

    def dlpack_device_type(self) -> int:
        """The DLPack device type code (e.g. 1 for CPU, 2 for CUDA)."""
        return self.cdevice.device_type

    @property
    def type(self) -> str:
        """The device type name, like ``torch.device.type`` (e.g. ``"cuda"``); ValueError for
        a code DLPack does not define (a device made natively can have one)."""
        name = _type_names.get(self.cdevice.device_type)
        if name is None:
            raise ValueError(f"Device.type(): unknown DLPack device type code "
                             f"{self.cdevice.device_type}")
        return name

    def __device_type_name__(self) -> str:
        """The device type name (same as ``type``)."""
        return self.type

    def __str__(self):
        return f"{device_type_name(self.cdevice.device_type)}:{self.index}"

    def __repr__(self):
        name = _type_names.get(self.cdevice.device_type)
        if name is None:
            return f"device(type={device_type_name(self.cdevice.device_type)}, index={self.index})"
        return f"device(type='{name}', index={self.index})"

    def __eq__(self, other):
        return (isinstance(other, Device)
                and (<Device>other).cdevice.device_type == self.cdevice.device_type
                and (<Device>other).cdevice.device_id == self.cdevice.device_id)

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash((self.cdevice.device_type, self.cdevice.device_id))

    def __reduce__(self):
        return (type(self), (self.cdevice.device_type, self.cdevice.device_id))


def _create_device_from_tuple(cls, device_type, device_id):
    """A ``cls`` device of ``(device_type, device_id)``: the constructor in Apache's pickles."""
    if not (isinstance(cls, type) and issubclass(cls, Device)):
        raise TypeError(f"_create_device_from_tuple(): expected a Device subclass, got {cls!r}")
    cdef Device value = Device(device_type, device_id)
    cdef Device result = cls.__new__(cls)
    result.cdevice = value.cdevice
    return result


# The class that device() builds and that returned devices use (core._set_class_device). The
# C-level copy serves the return path; ``_CLASS_DEVICE`` is the Python-visible name upstream has.
cdef object _device_class = Device
_CLASS_DEVICE = Device


def _set_class_device(cls) -> None:
    """Makes ``device()`` build with ``cls``, and returned devices be ``cls`` instances when it
    is a Device subclass (any other callable only serves ``device()``)."""
    global _device_class, _CLASS_DEVICE
    _device_class = cls
    _CLASS_DEVICE = cls


def device(device_type, index=None):
    """Constructs a device of the installed device class (``Device`` by default).

    Parameters
    ----------
    device_type
        A name such as ``"cuda"`` or ``"cuda:1"``, or a DLPack device type code.
    index
        The device ordinal (default 0).

    Returns
    -------
    Device
        The device.
    """
    return _device_class(device_type, index)


cdef object make_device(DLDevice value):
    cdef Device result
    if _device_class is Device:
        result = Device.__new__(Device)
    elif isinstance(_device_class, type) and issubclass(_device_class, Device):
        result = _device_class.__new__(_device_class)
    else:
        result = Device.__new__(Device)
    result.cdevice = value
    return result

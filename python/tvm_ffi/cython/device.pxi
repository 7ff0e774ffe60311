# SPDX-License-Identifier: Apache-2.0
# device.pxi: Device (a DLDevice) and DataType (a DLDataType) value classes.

cdef dict _DEVICE_TYPE_TO_NAME = {
    1: "cpu", 2: "cuda", 3: "cuda_host", 4: "opencl", 7: "vulkan", 8: "metal", 9: "vpi",
    10: "rocm", 11: "rocm_host", 12: "ext_dev", 13: "cuda_managed", 14: "oneapi", 15: "webgpu",
    16: "hexagon", 17: "maia", 18: "trn",
}
cdef dict _DEVICE_NAME_TO_TYPE = {name: code for code, name in _DEVICE_TYPE_TO_NAME.items()}


cdef class Device:
    """A device like ``torch.device``: a DLPack device type and an index."""

    cdef DLDevice cdevice

    def __init__(self, device_type, index=None):
        if isinstance(device_type, str):
            name, _, suffix = device_type.partition(":")
            if name not in _DEVICE_NAME_TO_TYPE:
                raise ValueError(f"unknown device type '{name}'")
            if suffix:
                if index is not None:
                    raise ValueError("device index given twice")
                index = int(suffix)
            device_type = _DEVICE_NAME_TO_TYPE[name]
        self.cdevice.device_type = int(device_type)
        self.cdevice.device_id = 0 if index is None else int(index)

    @property
    def index(self) -> int:
        """The device ordinal."""
        return self.cdevice.device_id

    def dlpack_device_type(self) -> int:
        """The DLPack device type code (e.g. 1 for CPU, 2 for CUDA)."""
        return self.cdevice.device_type

    @property
    def type(self) -> str:
        """The device type name, like ``torch.device.type`` (e.g. ``"cuda"``)."""
        return _DEVICE_TYPE_TO_NAME.get(self.cdevice.device_type, str(self.cdevice.device_type))

    def __str__(self):
        return f"{self.type}:{self.index}"

    def __repr__(self):
        return f"device(type='{self.type}', index={self.index})"

    def __eq__(self, other):
        return (isinstance(other, Device)
                and (<Device>other).cdevice.device_type == self.cdevice.device_type
                and (<Device>other).cdevice.device_id == self.cdevice.device_id)

    def __hash__(self):
        return hash((self.cdevice.device_type, self.cdevice.device_id))

    def __reduce__(self):
        return (type(self), (self.cdevice.device_type, self.cdevice.device_id))


cdef object make_device(DLDevice value):
    cdef Device device = Device.__new__(Device)
    device.cdevice = value
    return device


cdef class DataType:
    """A DLPack data type parsed from a name such as ``"float32"`` or ``"int8x4"``."""

    cdef DLDataType cdtype

    def __init__(self, str dtype_str):
        cdef bytes text = dtype_str.encode("utf-8")
        cdef TVMFFIByteArray arr = bytes_view(text)
        CHECK_CALL(TVMFFIDataTypeFromString(&arr, &self.cdtype))

    @property
    def type_code(self) -> int:
        """The DLDataTypeCode."""
        return self.cdtype.code

    @property
    def bits(self) -> int:
        """Bits per lane."""
        return self.cdtype.bits

    @property
    def lanes(self) -> int:
        """Number of lanes."""
        return self.cdtype.lanes

    def __str__(self):
        cdef TVMFFIAny cell
        TVMFFIPySetNone(&cell)
        CHECK_CALL(TVMFFIDataTypeToString(&self.cdtype, &cell))
        return str(make_result(&cell))

    def __repr__(self):
        return f"dtype('{self}')"

    def __eq__(self, other):
        return (isinstance(other, DataType)
                and (<DataType>other).cdtype.code == self.cdtype.code
                and (<DataType>other).cdtype.bits == self.cdtype.bits
                and (<DataType>other).cdtype.lanes == self.cdtype.lanes)

    def __hash__(self):
        return hash((self.cdtype.code, self.cdtype.bits, self.cdtype.lanes))

    def __reduce__(self):
        return (type(self), (str(self),))


cdef object make_dtype(DLDataType value):
    cdef DataType dtype = DataType.__new__(DataType)
    dtype.cdtype = value
    return dtype
